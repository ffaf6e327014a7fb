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

// TestLLVMCovPerTest: the adapter runs the recipe's test command with
// --coverage and the plan's test ids, and reads lolbench-cargo-test's
// index and lcov files back per test: lines of the target files only,
// matched by the end of llvm-cov's absolute paths, counts above zero; a
// test without data or absent from the index is a note.
func TestLLVMCovPerTest(t *testing.T) {
	src := "fn f(a: u32) -> u32 {\n    let b = a + 1;\n    if b > 2 {\n        return b;\n    }\n    0\n}\n"
	rc := recipe.Recipe{Test: recipe.Test{Command: "lolbench-cargo-test {tests} 2>&1", Suite: []string{"."}, Select: recipe.SelectNone}, Limits: recipe.Limits{TimeoutSec: 60}}
	tests := []string{"verso::tests::it_works", "req::it's", "select::never", "select::no_data"}
	p := NewPlan(context.Background(), Spec{Recipe: rc, Language: "Rust",
		Sources: []SourceFile{{Path: "src/req.rs", Language: "Rust", Content: []byte(src), Added: []int{1, 2, 3, 4, 5, 6, 7}}},
		Suites:  []SuiteSpec{{Name: F2P, Tests: tests[:2]}, {Name: P2P, Tests: tests[2:]}},
	})
	if !reflect.DeepEqual(p.Target.Files[0].Executable, []int{2, 3, 4, 6}) {
		t.Fatalf("executable lines %v", p.Target.Files[0].Executable)
	}
	s, err := llvmCovAdapter{}.Script(p)
	if err != nil {
		t.Fatal(err)
	}
	want := `lolbench-cargo-test --coverage "$cov/pertest" 'req::it'\''s' select::never select::no_data verso::tests::it_works 2>&1`
	if !strings.Contains(s, "timeout -k 10 120 sh -c '"+strings.ReplaceAll(want, "'", `'\''`)+"'") {
		t.Errorf("script:\n%s\nwant it to run\n%s", s, want)
	}
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "pertest"), 0o755)
	os.WriteFile(filepath.Join(dir, "pertest", "index.tsv"), []byte("1\tverso::tests::it_works\t0\n2\treq::it's\t101\n3\tselect::no_data\t0\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "pertest", "1.lcov"), []byte("SF:/testbed/src/req.rs\nDA:2,1\nDA:3,1\nDA:4,0\nDA:6,3\nend_of_record\nSF:/testbed/src/other.rs\nDA:9,1\nend_of_record\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "pertest", "2.lcov"), []byte("SF:/testbed/src/req.rs\nDA:2,5,abcd\nDA:4,18446744073709551615\nend_of_record\nDA:6,1\n"), 0o644)
	raw, err := llvmCovAdapter{}.Read(dir, p)
	if err != nil {
		t.Fatal(err)
	}
	wantRaw := map[string]Lines{
		"verso::tests::it_works": {"src/req.rs": {2, 3, 6}},
		"req::it's":              {"src/req.rs": {2, 4}}, // a count past int64 is still a count
	}
	if !reflect.DeepEqual(raw.PerTest, wantRaw) {
		t.Errorf("per test %v, want %v", raw.PerTest, wantRaw)
	}
	wantNotes := []string{"select::no_data left no coverage data", "1 test(s) did not run with coverage, e.g. select::never"}
	if !reflect.DeepEqual(raw.Notes, wantNotes) {
		t.Errorf("notes %q, want %q", raw.Notes, wantNotes)
	}
	// Hostile files: bad index lines and bad lcov lines are errors, not
	// panics; a timed-out run says so.
	for _, c := range []struct{ index, lcov, exit, want string }{
		{"x\tt\t0\n", "", "", "pertest/index.tsv: bad number \"x\""},
		{"1\tt\n", "", "", "pertest/index.tsv: bad line \"1\\tt\""},
		{"1\tt\t0\n", "SF:src/req.rs\nDA:zero,1\n", "", "pertest/1.lcov: bad line \"DA:zero,1\""},
		{"1\tt\t0\n", "SF:src/req.rs\nDA:-3,1\n", "", "pertest/1.lcov: bad line \"DA:-3,1\""},
		{"", "", "124\n", "the coverage run timed out after 120 s (twice the recipe's limits.timeout_sec): raise it (run.log shows how far it got)"},
	} {
		d := t.TempDir()
		os.MkdirAll(filepath.Join(d, "pertest"), 0o755)
		if c.exit != "" {
			os.WriteFile(filepath.Join(d, "run.exit"), []byte(c.exit), 0o644)
		}
		os.WriteFile(filepath.Join(d, "pertest", "index.tsv"), []byte(c.index), 0o644)
		os.WriteFile(filepath.Join(d, "pertest", "1.lcov"), []byte(c.lcov), 0o644)
		if _, err := (llvmCovAdapter{}).Read(d, p); err == nil || err.Error() != c.want {
			t.Errorf("%q %q: error %v, want %q", c.index, c.lcov, err, c.want)
		}
	}
	if _, err := (llvmCovAdapter{}).Read(t.TempDir(), p); err == nil || !strings.HasPrefix(err.Error(), "lolbench-cargo-test wrote no coverage index") {
		t.Errorf("no index: %v", err)
	}
	// Single tests by id, only through lolbench-cargo-test.
	if items, ok := (llvmCovAdapter{}).Select(p, []string{"select::never", "req::it's"}); !ok || !reflect.DeepEqual(items, []string{"req::it's", "select::never"}) {
		t.Errorf("select: %q %v", items, ok)
	}
	other := NewPlan(context.Background(), Spec{Recipe: recipe.Recipe{Test: recipe.Test{Command: "cargo test {tests}"}}})
	if _, ok := (llvmCovAdapter{}).Select(other, []string{"a::b"}); ok {
		t.Error("select without lolbench-cargo-test")
	}
	if _, err := (llvmCovAdapter{}).Script(other); err == nil {
		t.Error("script without lolbench-cargo-test")
	}
}
