"""Parsing of quantities ("3.5 km") and unit symbols ("km")."""

import re

from .errors import ParseError
from .quantity import Quantity
from .units import lookup

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_QUANTITY = re.compile(r"^\s*(" + _NUMBER + r")\s*(\S+)\s*$")


def parse_unit(text):
    """The unit a symbol names."""
    text = text.strip()
    if not text:
        raise ParseError("empty unit")
    return lookup(text)


def parse_quantity(text):
    """A Quantity from "VALUE UNIT"; the blank between them is optional."""
    m = _QUANTITY.match(text)
    if not m:
        raise ParseError(f"not a quantity: {text!r}")
    return Quantity(float(m.group(1)), parse_unit(m.group(2)))
