import pytest

from pkg.metadata import license_files, parse


class TestParse:
    def test_expression(self):
        assert parse("License-Expression: mit")["license_expression"] == "MIT"

    @pytest.mark.parametrize("field", ["license_files"])
    def test_fields(self, field):
        assert license_files(parse("License-Files: a,b")) == ["a", "b"]
