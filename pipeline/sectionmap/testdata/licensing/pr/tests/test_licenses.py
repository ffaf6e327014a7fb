from pkg.metadata import canonicalize


def test_canonicalize():
    assert canonicalize(" MIT ") == "MIT"
