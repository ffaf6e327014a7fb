"""unitconv: convert physical quantities between units."""

from .convert import convert
from .errors import DimensionError, ParseError, UnitError, UnknownUnitError
from .format import format_quantity
from .parse import parse_quantity, parse_unit
from .quantity import Quantity
from .units import Unit, lookup, symbols

__version__ = "0.3.0"

__all__ = [
    "DimensionError",
    "ParseError",
    "Quantity",
    "Unit",
    "UnitError",
    "UnknownUnitError",
    "convert",
    "format_quantity",
    "lookup",
    "parse_quantity",
    "parse_unit",
    "symbols",
]
