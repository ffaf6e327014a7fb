def test_smoke():
    import pkg.metadata  # noqa: F401
