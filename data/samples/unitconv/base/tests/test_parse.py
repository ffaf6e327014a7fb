import pytest

from unitconv import ParseError, UnknownUnitError, parse_quantity, parse_unit


def test_parse_quantity_with_blank():
    q = parse_quantity("3.5 km")
    assert q.value == 3.5
    assert q.unit.symbol == "km"


def test_parse_quantity_without_blank():
    q = parse_quantity("12kg")
    assert (q.value, q.unit.symbol) == (12.0, "kg")


@pytest.mark.parametrize("text,value", [("1e3 m", 1000.0), ("-2.5 s", -2.5), (".5 h", 0.5), ("+7 mm", 7.0)])
def test_parse_number_forms(text, value):
    assert parse_quantity(text).value == value


@pytest.mark.parametrize("text", ["", "km", "3..5 km", "three km"])
def test_parse_quantity_malformed(text):
    with pytest.raises(ParseError):
        parse_quantity(text)


def test_parse_unit_unknown():
    with pytest.raises(UnknownUnitError):
        parse_unit("parsec")


def test_parse_unit_empty():
    with pytest.raises(ParseError):
        parse_unit("   ")
