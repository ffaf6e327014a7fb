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


def test_parse_quotient():
    u = parse_unit("km/h")
    assert u.symbol == "km/h"
    assert u.factor == pytest.approx(1000 / 3600)


def test_parse_power():
    u = parse_unit("m/s^2")
    assert u.symbol == "m/s^2"
    assert u.dims == (1, 0, -2, 0)


def test_parse_product_with_blanks():
    u = parse_unit("kg * m / s^2")
    assert u.symbol == "kg*m/s^2"
    assert u.same_dimension(parse_unit("N"))


def test_parse_left_to_right():
    assert parse_unit("m/s/s").symbol == "m/s^2"


def test_parse_reciprocal():
    u = parse_unit("1/s")
    assert (u.symbol, u.dims) == ("1/s", (0, 0, -1, 0))


def test_parse_negative_exponent():
    assert parse_unit("s^-1").same_dimension(parse_unit("1/s"))


@pytest.mark.parametrize(
    "text,message",
    [
        ("m//s", "bad unit expression 'm//s' at column 3: operator / without a unit before it"),
        ("m/", "bad unit expression 'm/' at column 2: operator / without a unit after it"),
        ("m s", "bad unit expression 'm s' at column 3: two units without an operator"),
        ("s^0", "bad unit expression 's^0' at column 1: exponent 0"),
    ],
)
def test_parse_bad_expression(text, message):
    with pytest.raises(ParseError) as info:
        parse_unit(text)
    assert str(info.value) == message


def test_parse_quantity_with_expression():
    q = parse_quantity("36 km / h")
    assert (q.value, q.unit.symbol) == (36.0, "km/h")
