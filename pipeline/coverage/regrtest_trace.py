"""lolbench's line tracer for CPython's regrtest (pipeline/coverage/regrtest.go).

Run by the interpreter under test, in the repository:

    ./python lolbench_regrtest_trace.py -m test ARGS...

with LOLBENCH_TRACE_OUT (a folder for the data), LOLBENCH_TRACE_ROOT (the
repository) and LOLBENCH_TRACE_FILES (repository paths, one a line) in the
environment. It records the lines of those files that each test runs. The
test is the one unittest started last (TestResult.startTest and stopTest,
whatever result class the runner uses; regrtest's RegressionTestResult
calls both), named by its id, which is the name regrtest's JUnit report
gives it; lines run outside every test (module bodies at import, class
fixtures) are setup, the empty name. Threads are traced too.

Python processes that the tests start (tarfile's command line, run through
script_helper with -I) are traced through a sitecustomize module written
beside the interpreter's own built modules: their lines go to the test
that started them, which the parent names in LOLBENCH_TRACE_TEST.

Each process writes OUT/trace-PID.json at exit. Only sys.settrace is used:
coverage.py from Debian is built for Python 3.11 and its C tracer does
not load into a development build.
"""

import atexit
import json
import os
import sys
import threading

_ENV_TEST = "LOLBENCH_TRACE_TEST"
_targets = {}  # absolute path -> repository path
_data = {}  # test id ("" for setup) -> {repository path: set of lines}
_current = [""]
_notes = []


def _global(frame, event, arg):
    path = _targets.get(frame.f_code.co_filename)
    if path is None:
        return None

    def local(frame, event, arg):
        if event == "line":
            t = _data.get(_current[0])
            if t is None:
                t = _data[_current[0]] = {}
            s = t.get(path)
            if s is None:
                s = t[path] = set()
            s.add(frame.f_lineno)
        return local

    return local


def _load_targets():
    root = os.environ["LOLBENCH_TRACE_ROOT"]
    for rel in os.environ.get("LOLBENCH_TRACE_FILES", "").split("\n"):
        if rel:
            full = os.path.join(root, rel)
            _targets[full] = rel
            _targets[os.path.realpath(full)] = rel
    # A target imported before tracing began had its module body run
    # untraced: its setup lines would be missing.
    for name, mod in list(sys.modules.items()):
        f = getattr(mod, "__file__", None)
        if f and (f in _targets or os.path.realpath(f) in _targets):
            _notes.append("%s was imported before tracing began (module %s)" % (_targets.get(f) or _targets[os.path.realpath(f)], name))


def _write():
    sys.settrace(None)
    threading.settrace(None)
    out = os.environ["LOLBENCH_TRACE_OUT"]
    data = {
        "pid": os.getpid(),
        "argv": sys.argv,
        "notes": _notes,
        "tests": {t: {p: sorted(ls) for p, ls in files.items()} for t, files in _data.items()},
    }
    tmp = os.path.join(out, "trace-%d.json.tmp" % os.getpid())
    with open(tmp, "w") as f:
        json.dump(data, f)
    os.replace(tmp, os.path.join(out, "trace-%d.json" % os.getpid()))


def _start():
    _load_targets()
    atexit.register(_write)
    threading.settrace(_global)
    sys.settrace(_global)


def _set_test(test_id):
    _current[0] = test_id
    if test_id:
        os.environ[_ENV_TEST] = test_id
    else:
        os.environ.pop(_ENV_TEST, None)


def _hook_unittest():
    import unittest.result

    cls = unittest.result.TestResult
    start, stop = cls.startTest, cls.stopTest

    def startTest(self, test):
        _set_test(test.id())
        return start(self, test)

    def stopTest(self, test):
        try:
            return stop(self, test)
        finally:
            _set_test("")

    cls.startTest, cls.stopTest = startTest, stopTest


_SITECUSTOMIZE = '''# Written by lolbench's coverage job: traces this process for the test
# that started it (lolbench_regrtest_trace.py).
import os
if os.environ.get("LOLBENCH_TRACE_OUT"):
    try:
        import lolbench_regrtest_trace
        lolbench_regrtest_trace.child()
    except Exception:
        pass
'''


def _install_sitecustomize():
    """Write this module and a sitecustomize that runs it into the folder
    of the interpreter's built modules (a build's lib.<platform> folder,
    on every child's path, also with -I)."""
    for d in sys.path:
        try:
            if not d or not os.path.isdir(d) or not os.access(d, os.W_OK):
                continue
            if not any(n.startswith("_sysconfigdata") for n in os.listdir(d)):
                continue
        except OSError:
            continue
        if os.path.exists(os.path.join(d, "sitecustomize.py")):
            _notes.append("%s has a sitecustomize.py of its own: Python subprocesses are not traced" % d)
            return
        with open(__file__) as f:
            src = f.read()
        with open(os.path.join(d, "lolbench_regrtest_trace.py"), "w") as f:
            f.write(src)
        with open(os.path.join(d, "sitecustomize.py"), "w") as f:
            f.write(_SITECUSTOMIZE)
        return
    _notes.append("no writable folder of built modules on sys.path: Python subprocesses are not traced")


def child():
    """Trace a process a test started, for that test."""
    _current[0] = os.environ.get(_ENV_TEST, "")
    _start()


def main():
    if len(sys.argv) < 3 or sys.argv[1] != "-m":
        sys.exit("usage: python lolbench_regrtest_trace.py -m MODULE [ARGS...]")
    module = sys.argv[2]
    os.makedirs(os.environ["LOLBENCH_TRACE_OUT"], exist_ok=True)
    os.environ.pop(_ENV_TEST, None)
    _install_sitecustomize()
    _hook_unittest()
    _start()
    import runpy

    sys.argv = [module] + sys.argv[3:]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
