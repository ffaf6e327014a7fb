"""The unit registry. Every unit is a scale factor times a dimension."""

from dataclasses import dataclass

from .errors import UnknownUnitError

# Base dimensions, in the order of Unit.dims: length, mass, time,
# temperature.
DIMENSIONS = ("L", "M", "T", "K")


@dataclass(frozen=True)
class Unit:
    """A unit: symbol, factor to the SI base units, dimension exponents."""

    symbol: str
    factor: float
    dims: tuple

    def same_dimension(self, other):
        return self.dims == other.dims


def dims(L=0, M=0, T=0, K=0):
    """Dimension exponents as a tuple in DIMENSIONS order."""
    return (L, M, T, K)


_UNITS = {}


def register(symbol, factor, **exponents):
    """Add a unit to the registry and return it."""
    unit = Unit(symbol, float(factor), dims(**exponents))
    _UNITS[symbol] = unit
    return unit


for _symbol, _factor in [
    ("m", 1),
    ("km", 1000),
    ("cm", 0.01),
    ("mm", 0.001),
    ("mi", 1609.344),
    ("ft", 0.3048),
    ("in", 0.0254),
]:
    register(_symbol, _factor, L=1)
for _symbol, _factor in [("kg", 1), ("g", 0.001), ("mg", 1e-6), ("lb", 0.45359237)]:
    register(_symbol, _factor, M=1)
for _symbol, _factor in [("s", 1), ("ms", 0.001), ("min", 60), ("h", 3600), ("d", 86400)]:
    register(_symbol, _factor, T=1)
register("K", 1, K=1)
register("N", 1, M=1, L=1, T=-2)
register("J", 1, M=1, L=2, T=-2)
register("W", 1, M=1, L=2, T=-3)


def lookup(symbol):
    """The registered unit with this symbol; UnknownUnitError if none."""
    try:
        return _UNITS[symbol]
    except KeyError:
        raise UnknownUnitError(symbol) from None


def symbols():
    """The registered symbols, sorted."""
    return sorted(_UNITS)
