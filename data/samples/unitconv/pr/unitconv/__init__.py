"""unitconv: convert physical quantities between units."""

from .convert import convert
from .errors import DimensionError, OffsetUnitError, ParseError, UnitError, UnknownUnitError
from .format import format_quantity
from .parse import parse_quantity, parse_unit
from .quantity import Quantity
from .units import Unit, div, lookup, mul, power, symbols

__version__ = "0.4.0"

__all__ = [
    "DimensionError",
    "OffsetUnitError",
    "ParseError",
    "Quantity",
    "Unit",
    "UnitError",
    "UnknownUnitError",
    "convert",
    "div",
    "format_quantity",
    "lookup",
    "mul",
    "parse_quantity",
    "parse_unit",
    "power",
    "symbols",
]
