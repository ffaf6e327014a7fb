package coverage

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/registry"
	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
)

// The CPython recipe's command (data/real/cpython.yaml): a loop that
// turns test file paths into regrtest's module names and passes any
// other item (the adapter's -m ID) through.
const cpythonCommand = `set --; for t in {tests}; do case "$t" in Lib/test/*.py) t=$(printf '%s' "${t#Lib/test/}" | sed 's/\.py$//; s|/|.|g');; esac; set -- "$@" "$t"; done
mkdir -p reports && ./python -m test --junit-xml reports/junit.xml "$@"`

// TestCPythonRecipeCommand runs the real recipe's test command with a
// ./python that prints its arguments: the task's selection (test files
// and the verifier's canary) becomes regrtest's module names, and the
// adapter's single-test items pass through.
func TestCPythonRecipeCommand(t *testing.T) {
	reg, err := registry.Load("../../data/real/cpython.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := *reg.Projects[0].Recipe
	if r.Test.Command != cpythonCommand {
		t.Fatalf("data/real/cpython.yaml's command changed:\n%s\nthis test has:\n%s", r.Test.Command, cpythonCommand)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "python"), []byte("#!/bin/sh\nprintf '<%s>' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := regrtestPlan(t)
	items, _ := regrtestAdapter{}.Select(p, []string{"test.test_tarfile.TestExtractionFilters.test_data_filter"})
	for _, tc := range []struct {
		sel  []string
		want string
	}{
		{[]string{"Lib/test/test_shutil.py", "Lib/test/test_tarfile.py", "Lib/test/test_vobakidu.py", "Lib/test/test_email/test_defect_handling.py"},
			"<-m><test><--junit-xml><reports/junit.xml><test_shutil><test_tarfile><test_vobakidu><test_email.test_defect_handling>"},
		{items, "<-m><test><--junit-xml><reports/junit.xml><test.test_tarfile><-m><test.test_tarfile.TestExtractionFilters.test_data_filter>"},
	} {
		cmd := exec.Command("sh", "-c", testcmd.TestCommand(r, tc.sel))
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil || string(out) != tc.want {
			t.Errorf("%q: %s, %v; want %s", tc.sel, out, err, tc.want)
		}
	}
}

func TestRegrtestTraced(t *testing.T) {
	for in, want := range map[string]string{
		"./python -m test --junit-xml r.xml {tests}": `./python "$cov/lolbench_regrtest_trace.py" -m test --junit-xml r.xml {tests}`,
		"cd /testbed && ./python -m test {tests}":    `cd /testbed && ./python "$cov/lolbench_regrtest_trace.py" -m test {tests}`,
		"python3.12 -m test":                         `python3.12 "$cov/lolbench_regrtest_trace.py" -m test`,
		cpythonCommand:                               strings.Replace(cpythonCommand, "./python -m test", `./python "$cov/lolbench_regrtest_trace.py" -m test`, 1),
		"./python -m testtools {tests}":              "",
		"python3 -m pytest {tests}":                  "",
	} {
		got, err := regrtestTraced(in)
		if (err == nil) != (want != "") || got != want {
			t.Errorf("regrtestTraced(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func regrtestPlan(t *testing.T) *Plan {
	t.Helper()
	src := "import os\n\ndef f(x):\n    if x:\n        return 1\n    return 2\n\nY = f(0)\n"
	return NewPlan(context.Background(), Spec{
		Recipe:    recipe.Recipe{Test: recipe.Test{Command: cpythonCommand}, Limits: recipe.Limits{TimeoutSec: 900}},
		Selection: []string{"Lib/test/test_shutil.py", "Lib/test/test_tarfile.py"},
		Sources:   []SourceFile{{Path: "Lib/tarfile.py", Language: "Python", Content: []byte(src), Added: []int{3, 4, 5, 6, 8}}},
		Suites: []SuiteSpec{{Name: F2P, Tests: []string{"test.test_tarfile.TestExtractionFilters.test_data_filter", "test.test_tarfile.CommandLineTest.test_extract_command_filter"}},
			{Name: P2P, Tests: []string{"test.test_shutil.TestArchives.test_unpack_archive_tar"}}},
	})
}

func TestRegrtestScriptSelectBuildCheck(t *testing.T) {
	p := regrtestPlan(t)
	script, err := regrtestAdapter{}.Script(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"cat >\"$cov/lolbench_regrtest_trace.py\" <<'LOLBENCH_TRACER_EOF'\n\"\"\"lolbench's line tracer for CPython's regrtest",
		"\nLOLBENCH_TRACER_EOF\nLOLBENCH_TRACE_OUT=\"$cov/trace\" LOLBENCH_TRACE_ROOT=\"$PWD\" LOLBENCH_TRACE_FILES=Lib/tarfile.py\nexport LOLBENCH_TRACE_OUT LOLBENCH_TRACE_ROOT LOLBENCH_TRACE_FILES\n",
		"timeout -k 10 900 sh -c ",
		`./python "$cov/lolbench_regrtest_trace.py" -m test --junit-xml reports/junit.xml`,
		// The selection is in the loop, quoted for the sh -c.
		`for t in Lib/test/test_shutil.py Lib/test/test_tarfile.py; do`,
	} {
		if !strings.Contains(script, want) {
			t.Errorf("script lacks %q:\n%s", want, script)
		}
	}

	items, ok := regrtestAdapter{}.Select(p, []string{"test.test_tarfile.TestX.test_b", "test.test_shutil.TestArchives.test_unpack_archive_tar", "test.test_tarfile.TestX.test_a"})
	want := []string{"test.test_shutil", "test.test_tarfile",
		"-m", "test.test_shutil.TestArchives.test_unpack_archive_tar", "-m", "test.test_tarfile.TestX.test_a", "-m", "test.test_tarfile.TestX.test_b"}
	if !ok || !reflect.DeepEqual(items, want) {
		t.Errorf("Select = %q, %v; want %q", items, ok, want)
	}
	if items, ok := (regrtestAdapter{}).Select(p, nil); !ok || len(items) != 0 {
		t.Errorf("Select(nil) = %q, %v", items, ok)
	}
	for _, bad := range []string{"test_tarfile", "test.test_tarfile.TestX.test_y (sub=1)", "(unnamed testcase)", "-m.x.y"} {
		if _, ok := (regrtestAdapter{}).Select(p, []string{bad}); ok {
			t.Errorf("Select(%q) selected", bad)
		}
	}
	pyt := *p
	pyt.Recipe.Test.Command = "python3 -m pytest {tests}"
	if _, ok := (regrtestAdapter{}).Select(&pyt, nil); ok {
		t.Errorf("a pytest command selected with regrtest")
	}

	got := regrtestAdapter{}.BuildCheck([]string{"Lib/tarfile.py", "Modules/x.c"})
	if want := `py=python3; if [ -x ./python ]; then py=./python; fi; "$py" -c 'import ast, os, sys` + "\n" +
		`for f in sys.argv[1:]:` + "\n" + `    if os.path.exists(f):` + "\n" + `        ast.parse(open(f, "rb").read(), f)' Lib/tarfile.py`; got != want {
		t.Errorf("BuildCheck = %q\nwant %q", got, want)
	}
	if got := (regrtestAdapter{}).BuildCheck([]string{"Modules/x.c"}); got != "" {
		t.Errorf("BuildCheck of no Python file = %q", got)
	}
}

// TestRegrtestRead: the traces of the regrtest process and of a process
// a test started merge per test id; the empty id is setup; lines of
// other files and tests of no suite are dropped.
func TestRegrtestRead(t *testing.T) {
	p := regrtestPlan(t)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "trace"), 0o755)
	os.WriteFile(filepath.Join(dir, "trace", "trace-100.json"), []byte(`{"pid": 100, "argv": ["test", "--junit-xml", "reports/junit.xml", "test_tarfile"], "notes": [],
"tests": {"": {"Lib/tarfile.py": [1, 3, 8], "Lib/shutil.py": [5]},
 "test.test_tarfile.TestExtractionFilters.test_data_filter": {"Lib/tarfile.py": [4, 5]},
 "test.test_tarfile.TestExtractionFilters.test_skipped": {"Lib/tarfile.py": [6]},
 "test.test_shutil.TestArchives.test_unpack_archive_tar": {"Lib/tarfile.py": [4, 6], "Lib/shutil.py": [9]}}}`), 0o644)
	os.WriteFile(filepath.Join(dir, "trace", "trace-101.json"), []byte(`{"pid": 101, "argv": ["/testbed/Lib/tarfile.py", "-e", "x.tar", "--filter", "data"], "notes": ["n"],
"tests": {"test.test_tarfile.CommandLineTest.test_extract_command_filter": {"Lib/tarfile.py": [1, 3, 4, 6, 8]}}}`), 0o644)
	raw, err := regrtestAdapter{}.Read(dir, p)
	if err != nil {
		t.Fatal(err)
	}
	wantPer := map[string]Lines{
		"test.test_tarfile.TestExtractionFilters.test_data_filter":      {"Lib/tarfile.py": {4, 5}},
		"test.test_tarfile.CommandLineTest.test_extract_command_filter": {"Lib/tarfile.py": {1, 3, 4, 6, 8}},
		"test.test_shutil.TestArchives.test_unpack_archive_tar":         {"Lib/tarfile.py": {4, 6}},
	}
	if !reflect.DeepEqual(raw.PerTest, wantPer) || !reflect.DeepEqual(raw.Setup, Lines{"Lib/tarfile.py": {1, 3, 8}}) {
		t.Errorf("per test %v\nsetup %v", raw.PerTest, raw.Setup)
	}
	if !reflect.DeepEqual(raw.Notes, []string{"n"}) {
		t.Errorf("notes %q", raw.Notes)
	}
	res := &Result{Target: *p.Target}
	finish(res, p, raw)
	// The target: f's body and the module-level call; the body's lines
	// each test ran, the call at setup.
	if got := p.Target.Lines(); !reflect.DeepEqual(got, Lines{"Lib/tarfile.py": {4, 5, 6, 8}}) {
		t.Errorf("target %v", got)
	}
	if r, ok := res.Reaching(Lines{"Lib/tarfile.py": {5}}); !ok || !reflect.DeepEqual(r, []string{"test.test_tarfile.TestExtractionFilters.test_data_filter"}) {
		t.Errorf("Reaching(5) = %v %v", r, ok)
	}
	if r, ok := res.Reaching(Lines{"Lib/tarfile.py": {6}}); !ok || !reflect.DeepEqual(r, []string{"test.test_shutil.TestArchives.test_unpack_archive_tar", "test.test_tarfile.CommandLineTest.test_extract_command_filter"}) {
		t.Errorf("Reaching(6) = %v %v", r, ok)
	}

	// No trace: say what the run printed last.
	empty := t.TempDir()
	os.WriteFile(filepath.Join(empty, "run.log"), []byte("Fatal Python error: init_fs_encoding\nModuleNotFoundError: No module named 'encodings'\n"), 0o644)
	if _, err := (regrtestAdapter{}).Read(empty, p); err == nil || err.Error() != "the tracer wrote no trace (trace/trace-*.json): ModuleNotFoundError: No module named 'encodings'" {
		t.Errorf("no trace: %v", err)
	}
	os.WriteFile(filepath.Join(empty, "run.exit"), []byte("124\n"), 0o644)
	if _, err := (regrtestAdapter{}).Read(empty, p); err == nil || !strings.HasPrefix(err.Error(), "the coverage run timed out after 900 s") {
		t.Errorf("timed out: %v", err)
	}
}

// TestRegrtestTracerRuns runs the tracer for real under the host's
// python3, around unittest (regrtest's own results class is a
// TestResult too): lines per test id, module-level lines as setup, and a
// Python subprocess a test starts traced for that test through the
// sitecustomize it writes beside a _sysconfigdata module on the path.
func TestRegrtestTracerRuns(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on this host")
	}
	root := t.TempDir()
	lib := filepath.Join(root, "Lib")
	built := filepath.Join(root, "build")
	os.MkdirAll(lib, 0o755)
	os.MkdirAll(built, 0o755)
	os.WriteFile(filepath.Join(built, "_sysconfigdata_test.py"), []byte("build_time_vars = {}\n"), 0o644)
	os.WriteFile(filepath.Join(lib, "target.py"), []byte(`import sys


def double(x):
    if x > 0:
        return 2 * x
    return 0


if __name__ == "__main__":
    print(double(int(sys.argv[1])))
`), 0o644)
	os.WriteFile(filepath.Join(lib, "test_target.py"), []byte(`import os, subprocess, sys, unittest
import target


class TestDouble(unittest.TestCase):
    def test_positive(self):
        self.assertEqual(target.double(3), 6)

    def test_zero(self):
        self.assertEqual(target.double(0), 0)

    def test_command(self):
        out = subprocess.run([sys.executable, os.path.join(os.path.dirname(target.__file__), "target.py"), "-4"], capture_output=True, text=True)
        self.assertEqual(out.stdout, "0\n", out.stderr)
`), 0o644)
	tracer := filepath.Join(t.TempDir(), regrtestTraceFile)
	os.WriteFile(tracer, []byte(regrtestTracer), 0o644)
	out := filepath.Join(t.TempDir(), "trace")
	cmd := exec.Command(py, tracer, "-m", "unittest", "-v", "test_target")
	cmd.Dir = lib
	cmd.Env = append(os.Environ(), "PYTHONPATH="+lib+string(os.PathListSeparator)+built,
		"LOLBENCH_TRACE_OUT="+out, "LOLBENCH_TRACE_ROOT="+root, "LOLBENCH_TRACE_FILES=Lib/target.py\nLib/absent.py")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	names, _ := filepath.Glob(filepath.Join(out, "trace-*.json"))
	if len(names) != 2 {
		t.Fatalf("traces %q, want the test process's and the subprocess's", names)
	}
	p := NewPlan(context.Background(), Spec{
		Recipe:  recipe.Recipe{Test: recipe.Test{Command: "./python -m test {tests}"}},
		Sources: []SourceFile{{Path: "Lib/target.py", Language: "Python", Content: []byte("x\n"), Added: []int{1}}},
		Suites:  []SuiteSpec{{Name: F2P, Tests: []string{"test_target.TestDouble.test_positive", "test_target.TestDouble.test_zero", "test_target.TestDouble.test_command"}}},
	})
	raw, err := regrtestAdapter{}.Read(filepath.Dir(out), p)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Lines{
		"test_target.TestDouble.test_positive": {"Lib/target.py": {5, 6}},
		"test_target.TestDouble.test_zero":     {"Lib/target.py": {5, 7}},
		// The subprocess runs the module as a script: its body, then
		// double(-4).
		"test_target.TestDouble.test_command": {"Lib/target.py": {1, 4, 10, 11, 5, 7}},
	}
	for _, l := range want {
		l.Normalize()
	}
	if !reflect.DeepEqual(raw.PerTest, want) {
		t.Errorf("per test %v\nwant %v", raw.PerTest, want)
	}
	if got := raw.Setup["Lib/target.py"]; !reflect.DeepEqual(got, []int{1, 4, 10}) {
		t.Errorf("setup %v, want the module body's lines 1, 4, 10", got)
	}
	sort.Strings(raw.Notes)
	if len(raw.Notes) != 0 {
		t.Errorf("notes %q", raw.Notes)
	}
	if _, err := os.Stat(filepath.Join(built, "sitecustomize.py")); err != nil {
		t.Errorf("no sitecustomize beside _sysconfigdata: %v", err)
	}
}
