"""Quantities: a value with a unit."""

from dataclasses import dataclass

from .errors import DimensionError
from .units import Unit


@dataclass(frozen=True)
class Quantity:
    value: float
    unit: Unit

    def si(self):
        """The value in SI base units."""
        return self.value * self.unit.factor

    def to(self, target):
        """The same quantity in the target unit."""
        if not self.unit.same_dimension(target):
            raise DimensionError(self.unit.symbol, target.symbol)
        return Quantity(self.si() / target.factor, target)
