import pytest

from metadata import parse


def test_license_expression():
    assert parse({"license_expression": " MIT "})["license_expression"] == "MIT"


def test_license_files():
    assert parse({"license_files": ["LICENSE"]})["license_files"] == ["LICENSE"]
    with pytest.raises(ValueError):
        parse({"license_files": ["../LICENSE"]})
