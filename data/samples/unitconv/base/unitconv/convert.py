"""The one-call API."""

from .parse import parse_unit
from .quantity import Quantity


def convert(value, source, target):
    """Convert a number from the unit source to the unit target."""
    return Quantity(float(value), parse_unit(source)).to(parse_unit(target)).value
