"""Exceptions raised by unitconv. All of them are ValueErrors."""


class UnitError(ValueError):
    """Base class of every unitconv error."""


class UnknownUnitError(UnitError):
    """A unit symbol is not in the registry."""

    def __init__(self, symbol):
        super().__init__(f"unknown unit {symbol!r}")
        self.symbol = symbol


class DimensionError(UnitError):
    """Two units measure different things (metres and seconds)."""

    def __init__(self, source, target):
        super().__init__(f"cannot convert {source} to {target}: different dimensions")
        self.source = source
        self.target = target


class ParseError(UnitError):
    """A quantity or unit string is malformed."""


class OffsetUnitError(UnitError):
    """A unit with an offset (degC, degF) was multiplied, divided or raised
    to a power (UCEP-4, "Temperature scales")."""

    def __init__(self, symbol):
        super().__init__(f"{symbol} cannot be combined with other units; use K for temperature differences")
        self.symbol = symbol
