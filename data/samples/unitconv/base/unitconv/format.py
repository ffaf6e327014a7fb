"""Formatting of quantities for people."""


def format_quantity(quantity, precision=6):
    """ "VALUE SYMBOL" with at most precision significant digits."""
    if precision < 1:
        raise ValueError("precision must be at least 1")
    return f"{quantity.value:.{precision}g} {quantity.unit.symbol}"
