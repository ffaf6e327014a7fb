import pytest

from unitconv import format_quantity, parse_quantity


def test_format_plain():
    assert format_quantity(parse_quantity("3.5 km")) == "3.5 km"


def test_format_precision():
    assert format_quantity(parse_quantity("3.14159265 m"), precision=3) == "3.14 m"


def test_format_large_value():
    assert format_quantity(parse_quantity("1e9 g")) == "1e+09 g"


def test_format_bad_precision():
    with pytest.raises(ValueError):
        format_quantity(parse_quantity("1 m"), precision=0)
