import pytest

from unitconv import div, lookup, mul, power


def test_mul():
    u = mul(lookup("N"), lookup("m"))
    assert u.symbol == "N*m"
    assert u.same_dimension(lookup("J"))


def test_div():
    u = div(lookup("km"), lookup("h"))
    assert u.symbol == "km/h"
    assert u.factor == pytest.approx(1000 / 3600)


def test_terms_cancel():
    u = div(mul(lookup("m"), lookup("s")), lookup("s"))
    assert u.symbol == "m"
    assert u.dims == lookup("m").dims


def test_power():
    u = power(lookup("s"), -2)
    assert u.symbol == "1/s^2"
    assert u.factor == 1.0


def test_power_needs_int():
    with pytest.raises(TypeError):
        power(lookup("m"), 1.5)


def test_composed_units_compare_by_value():
    assert div(lookup("m"), lookup("s")) == div(lookup("m"), lookup("s"))


def test_composed_unit_is_a_unit():
    import dataclasses

    from unitconv.units import Unit

    u = mul(lookup("m"), lookup("s"))
    assert isinstance(u, Unit)
    assert u.terms == (("m", 1), ("s", 1))
    with pytest.raises(dataclasses.FrozenInstanceError):
        u.factor = 2.0
