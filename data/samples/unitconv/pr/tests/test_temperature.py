import pytest

from unitconv import OffsetUnitError, convert, lookup, mul, parse_unit, power


@pytest.mark.parametrize(
    "value,source,target,want",
    [
        (0, "degC", "K", 273.15),
        (100, "degC", "degF", 212.0),
        (-40, "degF", "degC", -40.0),
        (32, "degF", "K", 273.15),
        (0, "K", "degF", -459.67),
    ],
)
def test_scales(value, source, target, want):
    assert convert(value, source, target) == pytest.approx(want)


def test_round_trip():
    assert convert(convert(21.3, "degC", "degF"), "degF", "degC") == pytest.approx(21.3)


def test_aliases():
    assert lookup("°C") is lookup("degC")
    assert lookup("°F") is lookup("degF")


def test_offset_units_cannot_be_composed():
    with pytest.raises(OffsetUnitError):
        parse_unit("degC/s")
    with pytest.raises(OffsetUnitError):
        mul(lookup("degF"), lookup("m"))
    with pytest.raises(OffsetUnitError):
        power(lookup("degC"), 2)


def test_kelvin_composes():
    assert parse_unit("K/s").symbol == "K/s"
