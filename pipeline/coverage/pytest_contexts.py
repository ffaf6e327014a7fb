# lolbench's pytest plugin for the python coverage adapter (python.go).
# pytest loads it with "-p lolbench_pytest_contexts" under `coverage run`.
# Each test runs in a coverage.py context of its own, named by its node id
# ("tests/test_x.py::TestK::test_m[a]"), or, for the reach run, by its test
# file ("tests/test_x.py"), so that per-test data is kept only where it is
# wanted. Lines run before the first test (collection) stay in the empty
# context: they are setup.
#
# LOLBENCH_COV_CONTEXT  "test" (default) or "file"
# LOLBENCH_COV_DONE     a file that receives each finished context, so a
#                       run stopped at its time limit says what it measured
import os
import signal
import sys

import coverage
import pytest

_cov = coverage.Coverage.current()
_by_file = os.environ.get("LOLBENCH_COV_CONTEXT") == "file"
_done_path = os.environ.get("LOLBENCH_COV_DONE")
_done = open(_done_path, "a", buffering=1) if _done_path else None
_current = None


def _switch(name):
    global _current
    if _cov is not None and name != _current:
        _cov.switch_context(name)
        _current = name


def _finished(name):
    if _done is not None:
        _done.write(name + "\n")


def _on_term(signum, frame):
    # timeout(1) sends SIGTERM first: keep what was measured so far.
    if _cov is not None:
        _cov.stop()
        _cov.save()
    sys.stdout.flush()
    os._exit(124)


if _cov is not None:
    signal.signal(signal.SIGTERM, _on_term)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    name = item.nodeid.split("::", 1)[0] if _by_file else item.nodeid
    _switch(name)
    yield
    if not _by_file:
        _finished(name)
    elif nextitem is None or nextitem.nodeid.split("::", 1)[0] != name:
        _finished(name)
