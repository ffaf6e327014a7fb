import pytest

from unitconv import DimensionError, convert, lookup
from unitconv.quantity import Quantity


def test_kilometres_to_metres():
    assert Quantity(3.0, lookup("km")).to(lookup("m")).value == 3000.0


def test_minutes_to_hours():
    assert convert(90, "min", "h") == 1.5


def test_miles_to_kilometres():
    assert convert(1, "mi", "km") == pytest.approx(1.609344)


def test_si():
    assert Quantity(2.0, lookup("g")).si() == pytest.approx(0.002)


def test_dimension_error():
    with pytest.raises(DimensionError) as info:
        convert(1, "m", "s")
    assert str(info.value) == "cannot convert m to s: different dimensions"
