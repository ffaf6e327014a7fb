"""Parsing of quantities ("3.5 km") and unit expressions ("kg*m/s^2").

The grammar of unit expressions (UCEP-4, "Unit expressions"):

    expression := term (("*" | "/") term)*
    term       := symbol ("^" integer)?    the first term may also be "1"

Operators bind left to right, so m/s/s is m/s^2; blanks around operators
are allowed.
"""

import re

from .errors import ParseError
from .quantity import Quantity
from .units import ONE, div, lookup, mul, power

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_QUANTITY = re.compile(r"^\s*(" + _NUMBER + r")\s*([A-Za-z°1].*?)\s*$")
_TOKEN = re.compile(r"\s*(?:(?P<op>[*/])|(?P<sym>[^\s*/^]+)(?:\s*\^\s*(?P<exp>[-+]?\d+))?)")


def _bad(text, pos, what):
    return ParseError(f"bad unit expression {text!r} at column {pos + 1}: {what}")


def parse_unit(text):
    """The unit a symbol or an expression names."""
    if not text.strip():
        raise ParseError("empty unit")
    pos, unit, op, first = 0, None, None, True
    end = len(text.rstrip())
    while pos < end:
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise _bad(text, pos, "unexpected character")
        start = m.start("op") if m.group("op") else m.start("sym")
        if m.group("op"):
            if unit is None or op is not None:
                raise _bad(text, start, f"operator {m.group('op')} without a unit before it")
            op = m.group("op")
        else:
            if unit is not None and op is None:
                raise _bad(text, start, "two units without an operator")
            sym, exp = m.group("sym"), m.group("exp")
            if sym == "1" and first and exp is None:
                term = ONE
            else:
                term = lookup(sym)
                if exp is not None:
                    n = int(exp)
                    if n == 0:
                        raise _bad(text, start, "exponent 0")
                    if n != 1:
                        term = power(term, n)
            if unit is None:
                unit = term
            elif op == "*":
                unit = mul(unit, term)
            else:
                unit = div(unit, term)
            op, first = None, False
        pos = m.end()
    if op is not None:
        raise _bad(text, end - 1, f"operator {op} without a unit after it")
    if unit is ONE:
        raise _bad(text, 0, "1 alone is not a unit")
    return unit


def parse_quantity(text):
    """A Quantity from "VALUE UNIT"; the blank between them is optional and
    the unit may be an expression ("36 km / h")."""
    m = _QUANTITY.match(text)
    if not m:
        raise ParseError(f"not a quantity: {text!r}")
    return Quantity(float(m.group(1)), parse_unit(m.group(2)))
