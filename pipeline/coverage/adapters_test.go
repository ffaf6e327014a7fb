package coverage

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
)

func TestParseGoTest(t *testing.T) {
	for id, want := range map[string]goTest{
		"example.com/tinykv/store.TestDelete":         {"example.com/tinykv/store", "TestDelete"},
		"example.com/m/pkg.TestX/sub_case/a.b":        {"example.com/m/pkg", "TestX/sub_case/a.b"},
		"m.TestA":                                     {"m", "TestA"},
		"example.com/Testing/x.ExampleFoo":            {"example.com/Testing/x", "ExampleFoo"},
		"example.com/tinykv/store [package]":          {},
		"TestOnly":                                    {},
		"example.com/m.Tester/x":                      {"example.com/m", "Tester/x"},
		"example.com/m.Helper":                        {},
		"example.com/tinykv/internal/proto.TestParse": {"example.com/tinykv/internal/proto", "TestParse"},
	} {
		got, ok := parseGoTest(id)
		if ok != (want != goTest{}) || got != want {
			t.Errorf("parseGoTest(%q) = %v, %v; want %v", id, got, ok, want)
		}
	}
}

const goSrc = `package store

func A(x int) int {
	if x > 0 {
		return 1
	}
	return 2
}

func B() {
	println("b")
}
`

func goPlan() *Plan {
	src := SourceFile{Path: "store/s.go", Language: "Go", Content: []byte(goSrc), Added: []int{3, 4, 5, 6, 7, 8, 10, 11, 12}}
	return NewPlan(context.Background(), Spec{
		Recipe:  recipe.Recipe{Test: recipe.Test{Command: "go test -json -count=1 {tests}"}, Limits: recipe.Limits{TimeoutSec: 60}},
		Sources: []SourceFile{src},
		Suites: []SuiteSpec{{Name: F2P, Tests: []string{"example.com/m/store.TestA/one", "example.com/m/store.TestA/sub"}},
			{Name: P2P, Tests: []string{"example.com/m/store.TestB"}}},
	})
}

// The Go adapter reads the profiles of the test binaries: per test, the
// executable target lines whose statement's block ran; the union profile;
// and the function figures as go tool cover -func computes them.
func TestGoRead(t *testing.T) {
	p := goPlan()
	if got := p.Target.Lines(); !reflect.DeepEqual(got, Lines{"store/s.go": {4, 5, 7, 11}}) {
		t.Fatalf("target %v", got)
	}
	dir := t.TempDir()
	write := func(name, s string) { os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644) }
	write("dirs.txt", "store example.com/m/store\n")
	// TestA/one ran A with x > 0, its sibling TestA/sub A's first
	// statement only (each subtest runs alone, with a profile of its
	// own); TestB ran B.
	write("p0-t0.out", "mode: set\nexample.com/m/store/s.go:3.19,4.11 1 1\nexample.com/m/store/s.go:7.2,7.10 1 0\nexample.com/m/store/s.go:4.11,6.3 1 1\nexample.com/m/store/s.go:10.10,12.2 1 0\nexample.com/m/other/o.go:1.1,2.2 3 1\n")
	write("p0-t1.out", "mode: set\nexample.com/m/store/s.go:3.19,4.11 1 1\nexample.com/m/store/s.go:4.11,6.3 1 0\nexample.com/m/store/s.go:7.2,7.10 1 0\nexample.com/m/store/s.go:10.10,12.2 1 0\n")
	write("p0-t2.out", "mode: set\nexample.com/m/store/s.go:3.19,4.11 1 0\nexample.com/m/store/s.go:4.11,6.3 1 0\nexample.com/m/store/s.go:7.2,7.10 1 0\nexample.com/m/store/s.go:10.10,12.2 1 1\n")
	raw, err := goAdapter{}.Read(dir, p)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Lines{
		"example.com/m/store.TestA/one": {"store/s.go": {4, 5}},
		"example.com/m/store.TestA/sub": {"store/s.go": {4}},
		"example.com/m/store.TestB":     {"store/s.go": {11}},
	}
	if !reflect.DeepEqual(raw.PerTest, want) {
		t.Errorf("per test %v", raw.PerTest)
	}
	wantUnion := "mode: set\nexample.com/m/other/o.go:1.1,2.2 3 1\nexample.com/m/store/s.go:3.19,4.11 1 1\nexample.com/m/store/s.go:4.11,6.3 1 1\nexample.com/m/store/s.go:7.2,7.10 1 0\nexample.com/m/store/s.go:10.10,12.2 1 1\n"
	if got := string(raw.Keep["union.out"]); got != wantUnion {
		t.Errorf("union profile:\n%s\nwant:\n%s", got, wantUnion)
	}
	wantFns := []FuncCoverage{
		{File: "store/s.go", Line: 3, Function: "A", Covered: 2, Total: 3, Percent: 100 * 2.0 / 3},
		{File: "store/s.go", Line: 10, Function: "B", Covered: 1, Total: 1, Percent: 100},
	}
	if !reflect.DeepEqual(raw.Functions, wantFns) {
		t.Errorf("functions %+v", raw.Functions)
	}
	res := &Result{Target: *p.Target}
	finish(res, p, raw)
	var got []string
	for _, s := range res.Suites {
		got = append(got, s.Name+" "+strings.Join(s.Tests, ",")+" "+itoa(s.Covered)+"/"+itoa(s.Executable))
	}
	wantSuites := []string{
		"F2P example.com/m/store.TestA/one,example.com/m/store.TestA/sub 2/4",
		"P2P example.com/m/store.TestB 1/4",
		"F2P ∪ P2P example.com/m/store.TestA/one,example.com/m/store.TestA/sub,example.com/m/store.TestB 3/4",
	}
	if !reflect.DeepEqual(got, wantSuites) || !reflect.DeepEqual(res.Uncovered, []Span{{"store/s.go", 7, 7, 1}}) {
		t.Errorf("suites %q uncovered %v", got, res.Uncovered)
	}
	if r, ok := res.Reaching(Lines{"store/s.go": {5}}); !ok || !reflect.DeepEqual(r, []string{"example.com/m/store.TestA/one"}) {
		t.Errorf("Reaching(5) = %v %v", r, ok)
	}
	if r, ok := res.Reaching(Lines{"store/s.go": {7}}); !ok || r != nil {
		t.Errorf("Reaching(7) = %v %v", r, ok)
	}
	// Line 3 is a signature, not a statement: coverage cannot tell.
	if _, ok := res.Reaching(Lines{"store/s.go": {3}}); ok {
		t.Errorf("Reaching(3) selected tests")
	}
	// A malformed profile names its line.
	write("p0-t0.out", "mode: set\nexample.com/m/store/s.go:3.19,4 1 1\n")
	if _, err := (goAdapter{}).Read(dir, p); err == nil || err.Error() != `p0-t0.out:2: bad profile position "3.19,4"` {
		t.Errorf("bad profile: %v", err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestGoScriptAndSelect(t *testing.T) {
	p := goPlan()
	s, err := goAdapter{}.Script(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"printf '%s %s\\n' store \"$(go list -f '{{.ImportPath}}' ./store 2>>\"$cov/list.err\")\" >>\"$cov/dirs.txt\"\n",
		"go test -c -cover -covermode=set -coverpkg=./store -o \"$cov/p0.test\" example.com/m/store >\"$cov/p0.build.log\" 2>&1",
		"\trunt \"$cov/p0.test\" -test.run '^TestA$/^one$' -test.count=1 -test.coverprofile=\"$cov/p0-t0.out\" >\"$cov/p0-t0.log\" 2>&1 </dev/null\n",
		"\trunt \"$cov/p0.test\" -test.run '^TestA$/^sub$' -test.count=1 -test.coverprofile=\"$cov/p0-t1.out\"",
		"\trunt \"$cov/p0.test\" -test.run '^TestB$' -test.count=1 -test.coverprofile=\"$cov/p0-t2.out\"",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("script lacks %q:\n%s", want, s)
		}
	}
	items, ok := goAdapter{}.Select(p, []string{"example.com/m/store.TestB", "example.com/m/a.TestZ/x", "example.com/m/store.TestA",
		"example.com/m/store.TestB/covered", "example.com/m/a.Test/Balancer_OneAddress", "example.com/m/a.TestT/a_(b)|c.d#01/[x]"})
	const pat = `^Test$/^Balancer_OneAddress$|^TestA$|^TestB$|^TestT$/^a_\(b\)\|c\.d#01$/^\[x\]$|^TestZ$/^x$`
	if want := []string{"-run", pat, "example.com/m/a", "example.com/m/store"}; !ok || !reflect.DeepEqual(items, want) {
		t.Errorf("Select = %q %v", items, ok)
	}
	if got := testcmd.TestCommand(p.Recipe, items); got != "go test -json -count=1 -run '"+pat+"' example.com/m/a example.com/m/store" {
		t.Errorf("command %q", got)
	}
	if _, ok := (goAdapter{}).Select(p, []string{"example.com/m/store [package]"}); ok {
		t.Errorf("a package entry was selected")
	}
}

func TestPython(t *testing.T) {
	for in, want := range map[string]string{
		"python3 -m pytest -p no:cacheprovider {tests}":   `python3 -m coverage run --rcfile="$cov/coveragerc" -m pytest -p lolbench_pytest_contexts -p no:cacheprovider {tests}`,
		"cd src && python -m pytest -q {tests}":           `cd src && python -m coverage run --rcfile="$cov/coveragerc" -m pytest -p lolbench_pytest_contexts -q {tests}`,
		"pytest {tests}":                                  `python3 -m coverage run --rcfile="$cov/coveragerc" -m pytest -p lolbench_pytest_contexts {tests}`,
		"/opt/venv/bin/python3.11 -m pytest -x {tests}":   `/opt/venv/bin/python3.11 -m coverage run --rcfile="$cov/coveragerc" -m pytest -p lolbench_pytest_contexts -x {tests}`,
		"go test {tests}":                                 "",
		"python3 -m unittest {tests}":                     "",
		"env A=1 pytest --junitxml=r.xml {tests} || true": `env A=1 python3 -m coverage run --rcfile="$cov/coveragerc" -m pytest -p lolbench_pytest_contexts --junitxml=r.xml {tests} || true`,
	} {
		got, err := coverageCommand(in)
		if (err == nil) != (want != "") || got != want {
			t.Errorf("coverageCommand(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	exists := func(p string) bool { return p == "tests/test_x.py" || p == "tests/test_cli.py" }
	for _, c := range []struct {
		id     string
		exists func(string) bool
		want   string
	}{
		{"tests.test_cli::test_cli_compound", exists, "tests/test_cli.py::test_cli_compound"},
		{"tests.test_x.TestK::test_m[a b]", exists, "tests/test_x.py::TestK::test_m[a b]"},
		{"tests.test_x.TestK::test_m", nil, "tests/test_x.py::TestK::test_m"},
		{"pkg.tests.test_y::test_z", nil, "pkg/tests/test_y.py::test_z"},
		{"no_separator", nil, ""},
	} {
		got, ok := pytestNodeID(c.id, c.exists)
		if ok != (c.want != "") || got != c.want {
			t.Errorf("pytestNodeID(%q) = %q %v, want %q", c.id, got, ok, c.want)
		}
	}

	// Reading coverage.py's JSON: contexts are pytest node ids, matched to
	// junit ids exactly (each parametrized case its own), or as a path
	// suffix when pytest's rootdir was tests/; the empty context is setup;
	// lines outside the target are dropped later.
	src := "def f(x):\n    if x:\n        return 1\n    return 2\n\nY = f(0)\n"
	p := NewPlan(context.Background(), Spec{
		Recipe:  recipe.Recipe{Test: recipe.Test{Command: "python3 -m pytest {tests}"}},
		Sources: []SourceFile{{Path: "pkg/m.py", Language: "Python", Content: []byte(src), Added: []int{1, 2, 3, 4, 5, 6}}},
		Suites: []SuiteSpec{{Name: F2P, Tests: []string{"tests.test_cli::test_a[1]", "tests.test_cli::test_a[2]"}},
			{Name: P2P, Tests: []string{"tests.test_cli.TestK::test_b", "tests.test_other::test_c"}}},
	})
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "coverage.json"), []byte(`{"meta": {"version": "6.5.0"}, "files": {
"pkg/m.py": {"executed_lines": [1, 2, 3, 4, 6], "contexts": {"1": [""], "2": ["", "tests/test_cli.py::test_a[1]", "tests/test_cli.py::test_a[2]", "test_cli.py::TestK::test_b"], "3": ["tests/test_cli.py::test_a[1]"], "4": ["", "test_cli.py::TestK::test_b"], "6": [""]}},
"tests/test_cli.py": {"executed_lines": [1], "contexts": {"1": [""]}}}}`), 0o644)
	raw, err := pythonAdapter{}.Read(dir, p)
	if err != nil {
		t.Fatal(err)
	}
	wantPer := map[string]Lines{
		"tests.test_cli::test_a[1]":    {"pkg/m.py": {2, 3}},
		"tests.test_cli::test_a[2]":    {"pkg/m.py": {2}},
		"tests.test_cli.TestK::test_b": {"pkg/m.py": {2, 4}},
	}
	if !reflect.DeepEqual(raw.PerTest, wantPer) || !reflect.DeepEqual(raw.Setup, Lines{"pkg/m.py": {1, 2, 4, 6}}) {
		t.Errorf("per test %v setup %v", raw.PerTest, raw.Setup)
	}
	if len(raw.Notes) != 1 || raw.Notes[0] != "1 test(s) reached no line of the changed files (or ran under another node id), e.g. tests.test_other::test_c" {
		t.Errorf("notes %q", raw.Notes)
	}
	res := &Result{Target: *p.Target}
	finish(res, p, raw)
	if got := p.Target.Lines(); !reflect.DeepEqual(got, Lines{"pkg/m.py": {2, 3, 4, 6}}) {
		t.Errorf("target %v", got)
	}
	if res.Suites[0].Covered != 4 || res.Suites[1].Covered != 3 || res.Suites[2].Covered != 4 || !reflect.DeepEqual(res.Setup, Lines{"pkg/m.py": {2, 4, 6}}) {
		t.Errorf("suites %+v setup %v", res.Suites, res.Setup)
	}
	// A mutant on a setup line needs every test.
	if _, ok := res.Reaching(Lines{"pkg/m.py": {4}}); ok {
		t.Errorf("a setup line selected tests")
	}
	if r, ok := res.Reaching(Lines{"pkg/m.py": {3}}); !ok || !reflect.DeepEqual(r, []string{"tests.test_cli::test_a[1]"}) {
		t.Errorf("Reaching(3) = %v %v", r, ok)
	}
	if got := (pythonAdapter{}).BuildCheck([]string{"a.py", "b.go", "c d.py"}); !strings.HasSuffix(got, "' a.py 'c d.py'") {
		t.Errorf("build check %q", got)
	}
}

func TestJaCoCo(t *testing.T) {
	src := "package com.x;\nclass A {\n  int f(int a) {\n    if (a > 0) {\n      return 1;\n    }\n    return 2;\n  }\n}\n"
	rc := recipe.Recipe{Coverage: recipe.Coverage{Adapter: "jacoco", Command: "mvn -q test jacoco:report -Dtest={tests}", Report: "target/site/jacoco/jacoco.xml"}, Limits: recipe.Limits{TimeoutSec: 60}}
	p := NewPlan(context.Background(), Spec{Recipe: rc, Language: "Java",
		Sources: []SourceFile{{Path: "src/main/java/com/x/A.java", Language: "Java", Content: []byte(src), Added: []int{3, 4, 5, 6, 7}}},
		Suites:  []SuiteSpec{{Name: F2P, Tests: []string{"com.x.ATest::testPos", "com.x.ATest::testPar[1]"}}, {Name: P2P, Tests: []string{"com.x.BTest::testB"}}},
	})
	s, err := jacocoAdapter{}.Script(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s, `timeout -k 10 60 sh -c 'mvn -q test jacoco:report -Dtest='\''com.x.ATest#testPar,com.x.ATest#testPos'\''' >"$cov/s0.log"`) ||
		!strings.Contains(s, "cp target/site/jacoco/jacoco.xml \"$cov/s1.xml\"") {
		t.Errorf("script:\n%s", s)
	}
	dir := t.TempDir()
	xml := `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><!DOCTYPE report PUBLIC "-//JACOCO//DTD Report 1.1//EN" "report.dtd">
<report name="x"><package name="com/x"><class name="com/x/A"/><sourcefile name="A.java">
<line nr="4" mi="0" ci="3" mb="0" cb="2"/><line nr="5" mi="0" ci="2"/><line nr="7" mi="2" ci="0"/></sourcefile></package>
<package name="com/y"><sourcefile name="A.java"><line nr="7" mi="0" ci="2"/></sourcefile></package></report>`
	os.WriteFile(filepath.Join(dir, "s0.xml"), []byte(xml), 0o644)
	raw, err := jacocoAdapter{}.Read(dir, p)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Lines{F2P: {"src/main/java/com/x/A.java": {4, 5}}, P2P: {}}
	if !reflect.DeepEqual(raw.PerSuite, want) || len(raw.Notes) != 1 {
		t.Errorf("per suite %v notes %q", raw.PerSuite, raw.Notes)
	}
	res := &Result{Target: *p.Target}
	finish(res, p, raw)
	if res.PerTest || res.Suites[0].Covered != 2 || res.Suites[0].Executable != 3 || res.Suites[2].Covered != 2 {
		t.Errorf("result %+v", res)
	}
	if _, ok := res.Reaching(Lines{"src/main/java/com/x/A.java": {5}}); ok {
		t.Errorf("per-suite coverage selected tests")
	}
	os.WriteFile(filepath.Join(dir, "s0.xml"), []byte("<report><package"), 0o644)
	if _, err := (jacocoAdapter{}).Read(dir, p); err == nil {
		t.Errorf("a broken report gave no error")
	}
	if a, err := AdapterFor(recipe.Recipe{}, "Java"); err != nil || a.Name() != "jacoco" {
		t.Errorf("jacoco without a recipe section (per test): %v %v", a, err)
	}
	if _, err := AdapterFor(recipe.Recipe{Coverage: recipe.Coverage{Command: "mvn {tests}"}}, "Java"); err == nil || !strings.Contains(err.Error(), "set coverage.report") {
		t.Errorf("jacoco with a command and no report: %v", err)
	}
	if _, err := AdapterFor(recipe.Recipe{}, "C#"); err == nil || err.Error() != "no coverage adapter for C#: set coverage.adapter in the recipe (go, python, jacoco, llvm-cov, gcov, v8 or regrtest)" {
		t.Errorf("C#: %v", err)
	}
	if a, err := AdapterFor(recipe.Recipe{}, "Rust"); err != nil || a.Name() != "llvm-cov" {
		t.Errorf("Rust: %v %v", a, err)
	}
	for _, l := range []string{"C", "C++"} {
		if a, err := AdapterFor(recipe.Recipe{}, l); err != nil || a.Name() != "gcov" {
			t.Errorf("%s: %v %v", l, a, err)
		}
	}
	for _, l := range []string{"JavaScript", "TypeScript"} {
		if a, err := AdapterFor(recipe.Recipe{}, l); err != nil || a.Name() != "v8" {
			t.Errorf("%s: %v %v", l, a, err)
		}
	}
}

// TestPythonTimedOut: a coverage run stopped by timeout(1) keeps what it
// measured (the plugin saves coverage.py's data on SIGTERM and lists the
// tests it finished): the others are unmeasured, not covering nothing
// (pypa/packaging's 26,921 tests under per-test contexts ran past 1200 s:
// docs/real-projects.md). A run that ends no test says so.
func TestPythonTimedOut(t *testing.T) {
	src := "def f(x):\n    return x\n"
	p := NewPlan(context.Background(), Spec{Recipe: recipe.Recipe{Test: recipe.Test{Command: "python3 -m pytest {tests}"}, Limits: recipe.Limits{TimeoutSec: 1200}},
		Sources: []SourceFile{{Path: "m.py", Language: "Python", Content: []byte(src), Added: []int{1, 2}}},
		Suites:  []SuiteSpec{{Name: F2P, Tests: []string{"tests.test_a::test_1", "tests.test_a::test_2", "tests.test_b::test_3"}}}})
	report := `{"files": {"m.py": {"executed_lines": [2], "contexts": {"2": ["tests/test_a.py::test_1"]}}}}`
	for _, c := range []struct {
		name, exit, done, report, jsonLog string
		unmeasured                        []string
		notes                             []string
		err                               string
	}{
		{name: "stopped after two tests", exit: "124\n", done: "tests/test_a.py::test_1\ntests/test_a.py::test_2\n", report: report,
			unmeasured: []string{"tests.test_b::test_3"}, notes: []string{"1 test(s) reached no line of the changed files (or ran under another node id), e.g. tests.test_a::test_2"}},
		{name: "killed", exit: "137\n", done: "tests/test_a.py::test_1\n", report: report,
			unmeasured: []string{"tests.test_a::test_2", "tests.test_b::test_3"}},
		{name: "no test ended", exit: "124\n", jsonLog: "Couldn't use data file",
			err: "the coverage run timed out before its first test ended (the recipe's limits.timeout_sec): raise limits.timeout_sec (run.log shows how far it got)"},
		{name: "no changed line ran", exit: "0\n", jsonLog: "No data to report.\n",
			notes: []string{"3 test(s) reached no line of the changed files (or ran under another node id), e.g. tests.test_a::test_1"}},
		{name: "a broken report", exit: "1\n", report: "{", err: "coverage.json: unexpected end of JSON input"},
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "run.exit"), []byte(c.exit), 0o644)
		os.WriteFile(filepath.Join(dir, "done.txt"), []byte(c.done), 0o644)
		os.WriteFile(filepath.Join(dir, "json.log"), []byte(c.jsonLog), 0o644)
		if c.report != "" {
			os.WriteFile(filepath.Join(dir, "coverage.json"), []byte(c.report), 0o644)
		}
		raw, err := (pythonAdapter{}).Read(dir, p)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%s: error %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !reflect.DeepEqual(raw.Unmeasured, c.unmeasured) || !reflect.DeepEqual(raw.Notes, c.notes) {
			t.Errorf("%s: unmeasured %q notes %q, want %q %q", c.name, raw.Unmeasured, raw.Notes, c.unmeasured, c.notes)
		}
	}
}
