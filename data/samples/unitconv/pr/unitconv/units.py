"""The unit registry and unit algebra.

Every unit is a scale factor times a dimension, plus an offset for the
temperature scales that do not start at absolute zero (UCEP-4). Composed
units ("km/h", "kg*m/s^2") keep their terms, so that their symbols are
written the same way whatever expression made them.
"""

from dataclasses import dataclass, field

from .errors import OffsetUnitError, UnknownUnitError

# Base dimensions, in the order of Unit.dims: length, mass, time,
# temperature.
DIMENSIONS = ("L", "M", "T", "K")


@dataclass(frozen=True)
class Unit:
    """A unit: symbol, factor to the SI base units, dimension exponents.

    offset is added after scaling (degC: 273.15); display is the symbol
    shown to people when it differs from the ASCII one ("°C"). terms are the
    (symbol, exponent) pairs of a composed unit.
    """

    symbol: str
    factor: float
    dims: tuple
    offset: float = 0.0
    display: str = ""
    terms: tuple = field(default=(), compare=False)

    def same_dimension(self, other):
        return self.dims == other.dims

    @property
    def is_offset(self):
        return self.offset != 0.0

    def _terms(self):
        return self.terms or ((self.symbol, 1),)


def dims(L=0, M=0, T=0, K=0):
    """Dimension exponents as a tuple in DIMENSIONS order."""
    return (L, M, T, K)


def _symbol(terms):
    """kg*m/s^2: positive exponents first, joined by *, then each negative
    one after a /. A unit with only negative exponents is written 1/s."""

    def one(sym, exp):
        return sym if exp == 1 else f"{sym}^{exp}"

    num = [one(s, e) for s, e in terms if e > 0]
    den = [one(s, -e) for s, e in terms if e < 0]
    text = "*".join(num) if num else "1"
    for d in den:
        text += "/" + d
    return text


def _compose(a_terms, b_terms, sign):
    order, exps = [], {}
    for sym, exp in list(a_terms) + [(s, sign * e) for s, e in b_terms]:
        if sym not in exps:
            order.append(sym)
            exps[sym] = 0
        exps[sym] += exp
    return tuple((s, exps[s]) for s in order if exps[s] != 0)


def _check(*units):
    for u in units:
        if u.is_offset:
            raise OffsetUnitError(u.symbol)


def mul(a, b):
    """The product of two units (N*m)."""
    _check(a, b)
    terms = _compose(a._terms(), b._terms(), 1)
    return Unit(_symbol(terms), a.factor * b.factor, tuple(x + y for x, y in zip(a.dims, b.dims)), terms=terms)


def div(a, b):
    """The quotient of two units (km/h)."""
    _check(a, b)
    terms = _compose(a._terms(), b._terms(), -1)
    return Unit(_symbol(terms), a.factor / b.factor, tuple(x - y for x, y in zip(a.dims, b.dims)), terms=terms)


def power(a, n):
    """A unit raised to an integer power (s^2, s^-1)."""
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError("the exponent must be an int")
    _check(a)
    terms = tuple((s, e * n) for s, e in a._terms() if e * n != 0)
    return Unit(_symbol(terms), a.factor**n, tuple(x * n for x in a.dims), terms=terms)


ONE = Unit("1", 1.0, dims())

_UNITS = {}


def register(symbol, factor, offset=0.0, display="", aliases=(), **exponents):
    """Add a unit (and its aliases) to the registry and return it."""
    unit = Unit(symbol, float(factor), dims(**exponents), float(offset), display)
    _UNITS[symbol] = unit
    for alias in aliases:
        _UNITS[alias] = unit
    return unit


for _symbol_, _factor in [
    ("m", 1),
    ("km", 1000),
    ("cm", 0.01),
    ("mm", 0.001),
    ("mi", 1609.344),
    ("ft", 0.3048),
    ("in", 0.0254),
]:
    register(_symbol_, _factor, L=1)
for _symbol_, _factor in [("kg", 1), ("g", 0.001), ("mg", 1e-6), ("lb", 0.45359237)]:
    register(_symbol_, _factor, M=1)
for _symbol_, _factor in [("s", 1), ("ms", 0.001), ("min", 60), ("h", 3600), ("d", 86400)]:
    register(_symbol_, _factor, T=1)
register("K", 1, K=1)
register("degC", 1, offset=273.15, display="°C", aliases=("°C",), K=1)
register("degF", 5 / 9, offset=459.67 * 5 / 9, display="°F", aliases=("°F",), K=1)
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
    """The registered symbols and aliases, sorted."""
    return sorted(_UNITS)
