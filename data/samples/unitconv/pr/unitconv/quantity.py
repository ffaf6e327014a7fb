"""Quantities: a value with a unit."""

from dataclasses import dataclass

from .errors import DimensionError
from .units import Unit


@dataclass(frozen=True)
class Quantity:
    value: float
    unit: Unit

    def si(self):
        """The value in SI base units; the offset of a temperature scale
        is added after scaling (0 degC is 273.15 K)."""
        return self.value * self.unit.factor + self.unit.offset

    def to(self, target):
        """The same quantity in the target unit. Conversions between
        temperature scales are affine, not just scaled."""
        if not self.unit.same_dimension(target):
            raise DimensionError(self.unit.symbol, target.symbol)
        return Quantity((self.si() - target.offset) / target.factor, target)
