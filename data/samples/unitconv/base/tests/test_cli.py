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
