import io

from unitconv.cli import main


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_cli_convert():
    assert run("3.5 km", "m") == (0, "3500 m\n", "")


def test_cli_precision():
    assert run("-p", "3", "1 mi", "km") == (0, "1.61 km\n", "")


def test_cli_dimension_error():
    code, out, err = run("1 m", "s")
    assert (code, out) == (1, "")
    assert err == "unitconv: cannot convert m to s: different dimensions\n"


def test_cli_missing_target():
    assert run("1 m")[0] == 2


def test_cli_list():
    code, out, _ = run("--list")
    assert code == 0
    assert "km\n" in out and "N\n" in out


def test_cli_compound():
    assert run("36 km/h", "m/s") == (0, "10 m/s\n", "")


def test_cli_temperature():
    assert run("98.6 degF", "degC") == (0, "37 °C\n", "")


def test_cli_temperature_ascii():
    assert run("--ascii", "300 K", "degC") == (0, "26.85 degC\n", "")


def test_cli_offset_error():
    code, _, err = run("1 degC/s", "K/s")
    assert code == 1
    assert err == "unitconv: degC cannot be combined with other units; use K for temperature differences\n"
