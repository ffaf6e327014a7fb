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


def test_speed():
    assert convert(36, "km/h", "m/s") == pytest.approx(10.0)


def test_acceleration_units_agree():
    assert convert(1, "N", "kg*m/s^2") == pytest.approx(1.0)


def test_power_from_energy_per_time():
    assert convert(3600, "J/h", "W") == pytest.approx(1.0)


def test_compound_dimension_error():
    with pytest.raises(DimensionError) as info:
        convert(1, "km/h", "m")
    assert str(info.value) == "cannot convert km/h to m: different dimensions"


def test_si_adds_offset():
    assert Quantity(0.0, lookup("degC")).si() == pytest.approx(273.15)


def test_existing_units_keep_a_zero_offset():
    import unitconv

    assert unitconv.__version__ == "0.4.0"
    for symbol in ("m", "km", "g", "s", "min", "h", "mi"):
        assert lookup(symbol).offset == 0.0
