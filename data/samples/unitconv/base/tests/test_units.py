import pytest

from unitconv import UnknownUnitError, lookup, symbols
from unitconv.units import dims


def test_lookup_length():
    km = lookup("km")
    assert km.factor == 1000.0
    assert km.dims == dims(L=1)


def test_lookup_unknown():
    with pytest.raises(UnknownUnitError) as info:
        lookup("furlong")
    assert str(info.value) == "unknown unit 'furlong'"


def test_symbols_sorted():
    names = symbols()
    assert names == sorted(names)
    assert {"m", "kg", "s", "N"} <= set(names)


def test_derived_dimensions():
    assert lookup("N").dims == dims(M=1, L=1, T=-2)
    assert lookup("W").dims == dims(M=1, L=2, T=-3)
