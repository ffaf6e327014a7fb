package coverage

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline/recipe"
)

// TestCFamilyExecutable: statements of function bodies; a declaration
// counts when it initializes, or in C++ when a constructor runs; braces,
// labels, try, a bare declaration of a built-in type and a static one of
// a built-in type do not.
func TestCFamilyExecutable(t *testing.T) {
	for _, c := range []struct {
		lang, src string
		want      []int
	}{
		{"C", "#include <stdio.h>\nstatic int n = 3;\nint f(int a) {\n    int x;\n    int y = a;\n    if (a > 0)\n        y++;\n    switch (a) {\n    case 1:\n        return 2;\n    }\n    for (x = 0; x < a; x++) {\n        g(x);\n    }\n    return y;\n}\n",
			[]int{5, 6, 7, 8, 10, 12, 13, 15}},
		{"C++", "int V::f(int a) {\n  std::string s;\n  int x;\n  try {\n    s = g(a);\n  } catch (...) {\n    throw;\n  }\n  for (auto c : s) x += c;\n  return x;\n}\n",
			[]int{2, 5, 7, 9, 10}},
		// Static locals: initialized before the program runs in C; in
		// C++ a class's constructor runs once, on the first pass.
		{"C", "int f(void) {\n    static const char *const w[2] = {\"a\", \"b\"};\n    static int n;\n    return w[n++] != 0;\n}\n",
			[]int{4}},
		{"C++", "int f() {\n  static const char *const w[2] = {\"a\", \"b\"};\n  static const std::string s = \"x\";\n  static int n = 1;\n  return n;\n}\n",
			[]int{3, 5}},
	} {
		got, _, err := Executable(context.Background(), c.lang, []byte(c.src))
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: executable %v, %v; want %v", c.lang, got, err, c.want)
		}
	}
	for _, l := range []string{"C", "C++"} {
		if a, err := AdapterFor(recipe.Recipe{}, l); err != nil || a.Name() != "gcov" || !a.Support().PerTest {
			t.Errorf("%s: adapter %v, %v", l, a, err)
		}
	}
}

// TestGcovScriptAndRead: one CTest run and one gcovr report per test;
// Read takes the covered lines of the target's files only, whatever paths
// a report names, and notes a test without a report.
func TestGcovScriptAndRead(t *testing.T) {
	p := &Plan{Spec: Spec{Recipe: recipe.Recipe{Limits: recipe.Limits{TimeoutSec: 60}}},
		Target: &Target{Files: []FileTarget{{Path: "src/range.cpp", Language: "C++", Executable: []int{3, 4, 5}}}},
		Tests:  []string{"Range.Every", "Small/W.Fits/0", "Bump.Major"}}
	a := gcovAdapter{}
	script, err := a.Script(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`ctest --test-dir "$B" -R '^Range\.Every$'`, `-R '^Small/W\.Fits/0$'`, `find "$B" -name '*.gcda' -delete`,
		`gcovr -r . --json -o "$cov/t2.json" "$B"`, `"-DCMAKE_CXX_FLAGS=$F"`, "timeout -k 10 60 "} {
		if !strings.Contains(script, want) {
			t.Errorf("script lacks %s:\n%s", want, script)
		}
	}
	if items, ok := a.Select(p, []string{"Range.Every"}); !ok || !reflect.DeepEqual(items, []string{"Range.Every"}) {
		t.Errorf("Select: %v %v", items, ok)
	}
	dir := t.TempDir()
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("index.tsv", "0\tRange.Every\n1\tSmall/W.Fits/0\n2\tBump.Major\n")
	write("t0.json", `{"files":[{"file":"src/range.cpp","lines":[{"line_number":3,"count":2},{"line_number":4,"count":0},{"line_number":5,"count":1}]},`+
		`{"file":"../../etc/passwd","lines":[{"line_number":1,"count":1}]},{"file":"src/other.cpp","lines":[{"line_number":3,"count":1}]}]}`)
	write("t1.json", `{"files":[{"file":"./src/range.cpp","lines":[{"line_number":4,"count":7},{"line_number":-2,"count":1}]}]}`)
	raw, err := a.Read(dir, p)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Lines{"Range.Every": {"src/range.cpp": {3, 5}}, "Small/W.Fits/0": {"src/range.cpp": {4}}}
	if !reflect.DeepEqual(raw.PerTest, want) || len(raw.Notes) != 1 || !strings.Contains(raw.Notes[0], "Bump.Major") {
		t.Errorf("Read: %v, notes %q; want %v and a note on Bump.Major", raw.PerTest, raw.Notes, want)
	}
	write("t2.exit", "124\n")
	if _, err := a.Read(dir, p); err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Errorf("a timed-out test: %v", err)
	}
	write("t2.exit", "0\n")
	write("index.tsv", "x\tBad\n")
	if _, err := a.Read(dir, p); err == nil {
		t.Error("a bad index gave no error")
	}
	os.Remove(filepath.Join(dir, "index.tsv"))
	os.Symlink("/etc/passwd", filepath.Join(dir, "index.tsv"))
	if _, err := a.Read(dir, p); err == nil {
		t.Error("an index that is a link was read")
	}
}
