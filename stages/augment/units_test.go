package augment

import (
	"bytes"
	"context"
	"github.com/lolbench/lolbench/pipeline/sectionmap"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline"
)

func TestTestRefMatches(t *testing.T) {
	cases := []struct {
		format string
		ref    testRef
		id     string
		want   bool
	}{
		{"go-json", testRef{File: "store/a_test.go", Name: "TestA"}, "example.com/m/store.TestA", true},
		{"go-json", testRef{File: "store/a_test.go", Name: "TestA"}, "example.com/m/store.TestA/sub_case", true},
		{"go-json", testRef{File: "store/a_test.go", Name: "TestA"}, "example.com/m/store.TestAB", false},
		{"go-json", testRef{File: "store/a_test.go", Name: "TestA"}, "example.com/m/server.TestA", false},
		{"go-json", testRef{File: "store/a_test.go", Name: "TestA"}, "example.com/m/store [package]", false},
		{"go-json", testRef{File: "a_test.go", Name: "TestA"}, "example.com/m.TestA", true},
		{"pytest-ra", testRef{File: "tests/test_a.py", Name: "test_a"}, "tests/test_a.py::test_a", true},
		{"pytest-ra", testRef{File: "tests/test_a.py", Name: "test_a"}, "tests/test_a.py::test_a[1-x]", true},
		{"pytest-ra", testRef{File: "tests/test_a.py", Name: "test_a"}, "tests/test_a.py::TestK::test_a", false},
		{"pytest-ra", testRef{File: "tests/test_a.py", Name: "test_a", Class: "TestK"}, "tests/test_a.py::TestK::test_a", true},
		{"pytest-ra", testRef{File: "tests/test_a.py", Name: "test_a"}, "tests/test_ab.py::test_a", false},
		{"junit", testRef{File: "src/test/java/org/x/StoreAugTest.java", Name: "ttl", Class: "StoreAugTest"}, "org.x.StoreAugTest::ttl", true},
		{"junit", testRef{File: "src/test/java/org/x/StoreAugTest.java", Name: "ttl", Class: "StoreAugTest"}, "org.x.StoreAugTest::ttl()", true},
		{"junit", testRef{File: "src/test/java/org/x/StoreAugTest.java", Name: "ttl", Class: "StoreAugTest"}, "org.x.OtherStoreAugTest::ttl", false},
		{"junit", testRef{File: "src/test/java/org/x/StoreAugTest.java", Name: "ttl"}, "org.x.StoreAugTest::ttl[1]", true},
		// lolbench-node-test: the file, then "describe › it".
		{"junit", testRef{File: "test/bump.test.ts", Name: "drops build metadata", Class: "bump › releases"}, "test/bump.test.ts::bump › releases › drops build metadata", true},
		{"junit", testRef{File: "test/bump.test.ts", Name: "x (y)"}, "test/bump.test.ts::x (y)", true},
		{"junit", testRef{File: "test/bump.test.ts", Name: "drops build metadata", Class: "bump"}, "test/bump.test.ts::bump › releases › drops build metadata", false},
		{"junit", testRef{File: "test/bump.test.ts", Name: "drops build metadata", Class: "bump › releases"}, "test/other.test.ts::bump › releases › drops build metadata", false},
		// CTest: GoogleTest's Suite.Name, parameterized too, and cmocka's
		// PROGRAM.FUNCTION.
		{"junit", testRef{File: "tests/range_aug_test.cpp", Name: "Caret", Class: "RangeAug"}, "RangeAug.Caret", true},
		{"junit", testRef{File: "tests/range_aug_test.cpp", Name: "Caret", Class: "RangeAug"}, "Ops/RangeAug.Caret/2", true},
		{"junit", testRef{File: "tests/range_aug_test.cpp", Name: "Caret", Class: "RangeAug"}, "Range.Caret", false},
		{"junit", testRef{File: "tests/range_aug_test.cpp", Name: "Caret", Class: "RangeAug"}, "RangeAug.CaretToo", false},
		{"junit", testRef{File: "tests/test_doc_aug.c", Name: "gets_nested"}, "test_doc_aug.gets_nested", true},
		{"junit", testRef{File: "tests/test_doc_aug.c", Name: "gets_nested"}, "test_doc.gets_nested", false},
	}
	for _, tc := range cases {
		if got := tc.ref.matches(tc.format, tc.id); got != tc.want {
			t.Errorf("%s %+v %q: %v", tc.format, tc.ref, tc.id, got)
		}
	}
}

// TestNewFilePatch: the patch is exact and git applies it, with and
// without a final newline.
func TestNewFilePatch(t *testing.T) {
	p := newFilePatch("pkg/a_test.go", []byte("package pkg\n\nfunc f() {}\n"))
	want := "diff --git a/pkg/a_test.go b/pkg/a_test.go\nnew file mode 100644\n--- /dev/null\n+++ b/pkg/a_test.go\n@@ -0,0 +1,3 @@\n+package pkg\n+\n+func f() {}\n"
	if string(p) != want {
		t.Errorf("patch:\n%s", p)
	}
	q := newFilePatch("b.txt", []byte("no newline"))
	dir := t.TempDir()
	if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	os.WriteFile(filepath.Join(dir, "x.patch"), joinPatches(p, q), 0o644)
	if out, err := exec.Command("git", "-C", dir, "apply", "x.patch").CombinedOutput(); err != nil {
		t.Fatalf("git apply: %v %s", err, out)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "b.txt")); string(b) != "no newline" {
		t.Errorf("b.txt = %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "pkg", "a_test.go")); string(b) != "package pkg\n\nfunc f() {}\n" {
		t.Errorf("a_test.go = %q", b)
	}
	if got := patchedFiles(joinPatches(p, q)); !reflect.DeepEqual(got, []string{"pkg/a_test.go", "b.txt"}) {
		t.Errorf("patched files %q", got)
	}
}

func TestSummaryTable(t *testing.T) {
	reps := []*Report{
		{OriginalF2P: []string{"a", "b"}, FailToPass: []string{"a", "b", "c", "d"}, AddedBy: map[string]int{LoopMutation: 1, LoopCoverage: 1},
			Mutants:  MutantStats{Available: true, SurvivedP2P: 10, KilledOriginal: 6, KilledOverall: 9},
			Coverage: CovStats{Available: true, F2POriginal: 40, F2POverall: 80}, Map: &sectionmap.Map{Broad: []string{"a"}}},
		{OriginalF2P: []string{"x"}, FailToPass: []string{"x"}, AddedBy: map[string]int{},
			Mutants:  MutantStats{Available: true, SurvivedP2P: 5, KilledOriginal: 5, KilledOverall: 5},
			Coverage: CovStats{Available: true, F2POriginal: 90, F2POverall: 90}},
		{OriginalF2P: []string{"y"}, FailToPass: []string{"y", "z"}, AddedBy: map[string]int{LoopMutation: 1}},
	}
	s := Summarize(reps)
	var b bytes.Buffer
	if err := WriteTable(&b, s); err != nil {
		t.Fatal(err)
	}
	want := `                                            Original  Augmented
Tasks                                              3          3
F2P tests                                          4          7
  added by the mutation-guided loop                -          2
  added by the coverage-guided loop                -          1
Mutants killed (of 15 past the P2P filter)        11         14
Mutation score                                 73.3%      93.3%
Mean F2P coverage (2 tasks)                    65.0%      85.0%
`
	if b.String() != want {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), want)
	}
	if s.PossiblyOverlyBroad != 1 || s.MutantTasks != 2 || s.CoverageTasks != 2 {
		t.Errorf("summary %+v", s)
	}
	b.Reset()
	WriteTable(&b, Summarize(nil))
	if want := `                                           Original  Augmented
Tasks                                             0          0
F2P tests                                         0          0
  added by the mutation-guided loop               -          0
  added by the coverage-guided loop               -          0
Mutants killed (of 0 past the P2P filter)         0          0
Mutation score                                  n/a        n/a
Mean F2P coverage (0 tasks)                     n/a        n/a
`; b.String() != want {
		t.Errorf("empty table:\n%s", b.String())
	}
}

// TestStaticChecks: the rules that need no run, each with its exact
// reason, on the calc fixture.
func TestStaticChecks(t *testing.T) {
	ws, c := calcCopy(t)
	tk, err := loadTask(context.Background(), &pipeline.Env{Workspace: ws, Getenv: os.Getenv}, c)
	if err != nil {
		t.Fatal(err)
	}
	good := "package calc\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"x\")\n\t}\n}\n"
	cases := []struct {
		path, src  string
		rule, want string
	}{
		{"calc/x_test.go", good, "", ""},
		{"../x_test.go", good, "structure", `the path "../x_test.go" is not a plain repository-relative path (letters, digits, '.', '_', '-' and '/' only)`},
		{"/etc/x_test.go", good, "structure", `the path "/etc/x_test.go" is not a plain repository-relative path (letters, digits, '.', '_', '-' and '/' only)`},
		{"calc/x test.go", good, "structure", `the path "calc/x test.go" is not a plain repository-relative path (letters, digits, '.', '_', '-' and '/' only)`},
		{"calc/x.py", good, "structure", "calc/x.py is not a Go file"},
		{"calc/x.go", good, "structure", "calc/x.go is not named or placed as a test file of this project (Go test files look like *_test.go)"},
		{"nowhere/x_test.go", good, "structure", "the folder nowhere does not exist in the repository; put the test next to the existing tests"},
		{"calc/calc_test.go", good, "structure", "calc/calc_test.go exists already; every added test goes into a new file"},
		{"calc/taken_test.go", good, "structure", "calc/taken_test.go exists already; every added test goes into a new file"},
		{"calc/two_test.go", good + "\nfunc TestY(t *testing.T) {}\n", "structure", "the file holds 2 test functions (TestX, TestY); write exactly one"},
		{"calc/none_test.go", "package calc\n", "structure", "the file holds 0 test functions (); write exactly one"},
		{"calc/bad_test.go", "package calc\nfunc TestX(t *testing.T) {\n", "structure", "calc/bad_test.go:2: syntax error"},
		{"calc/name_test.go", strings.Replace(good, "TestX", "TestClamp", 1), "duplicate", "the name TestClamp is taken by the test in calc/calc_test.go; choose another"},
		{"calc/redecl_test.go", good + "\nfunc TestAdd2(t *testing.T) {}\n", "structure", "the file holds 2 test functions (TestX, TestAdd2); write exactly one"},
	}
	for _, tc := range cases {
		c := &Candidate{Path: tc.path, source: []byte(tc.src)}
		tk.checkStatic(context.Background(), c, map[string]bool{"calc/taken_test.go": true}, nil)
		if c.Rule != tc.rule || c.Reason != tc.want {
			t.Errorf("%s: rule %q reason %q", tc.path, c.Rule, c.Reason)
		}
	}
	// A helper name the package's test files declare does not compile
	// twice; two candidates declaring one name never share a run.
	a := &Candidate{Path: "calc/a_test.go", source: []byte(good + "\nfunc helper() int { return 1 }\n")}
	b := &Candidate{Path: "calc/b_test.go", source: []byte(strings.Replace(good, "TestX", "TestZ", 1) + "\nfunc helper() int { return 2 }\n")}
	d := &Candidate{Path: "calc/d_test.go", source: []byte(strings.Replace(good, "TestX", "TestW", 1))}
	for _, x := range []*Candidate{a, b, d} {
		tk.checkStatic(context.Background(), x, map[string]bool{}, nil)
		if !x.ok() {
			t.Fatalf("%s: %s", x.Path, x.Reason)
		}
	}
	if got := batches([]*Candidate{a, b, d}); len(got) != 2 || len(got[0]) != 2 || got[0][1] != d || got[1][0] != b {
		t.Errorf("batches %v", got)
	}
}
