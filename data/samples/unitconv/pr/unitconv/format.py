"""Formatting of quantities for people."""


def format_quantity(quantity, precision=6, ascii=False):
    """ "VALUE SYMBOL" with at most precision significant digits. The
    temperature scales are shown as °C and °F unless ascii is set."""
    if precision < 1:
        raise ValueError("precision must be at least 1")
    unit = quantity.unit
    symbol = unit.symbol if ascii or not unit.display else unit.display
    return f"{quantity.value:.{precision}g} {symbol}"
