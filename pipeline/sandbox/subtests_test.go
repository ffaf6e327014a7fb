package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lolbench/lolbench/pipeline/results"
	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
)

// The product of testdata/gosuite, per side: Add and Mul are two
// sections, Ready a third that TestReady checks outside its subtest.
const (
	gosuiteBase    = "package gosuite\n\nfunc Add(a, b int) int { return 0 }\n\nfunc Mul(a, b int) int { return 0 }\n\nfunc Ready() bool { return false }\n"
	gosuiteRef     = "package gosuite\n\nfunc Add(a, b int) int { return a + b }\n\nfunc Mul(a, b int) int { return a * b }\n\nfunc Ready() bool { return true }\n"
	gosuitePartial = "package gosuite\n\nfunc Add(a, b int) int { return a + b }\n\nfunc Mul(a, b int) int { return a * b }\n\nfunc Ready() bool { return false }\n"
)

// runGosuite runs `go test -json` on testdata/gosuite with impl as its
// product, on the host, and reads the log as every run is read
// (grade.ReadResults), judged with the exit status.
func runGosuite(t *testing.T, impl string) []results.Result {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on the host")
	}
	dir := t.TempDir()
	for _, f := range []string{"go.mod", "calc.go", "calc_test.go"} {
		data, err := os.ReadFile(filepath.Join("testdata", "gosuite", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "calc_impl.go"), []byte(impl), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(gobin, "test", "-json", "-count=1", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOTOOLCHAIN=local", "GOWORK=off")
	out, err := cmd.Output()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "test-output.log")
	if err := os.WriteFile(log, out, 0o644); err != nil {
		t.Fatal(err)
	}
	res, perr := grade.ReadResults("go-json", log, "")
	return grade.Judge(res, grade.ExitOf(code), perr).Results
}

// TestClassifyGoSubtests: a real go test -json run of a grpctest-like
// suite and a table-driven test is classified at subtest level, parents
// absent; TestReady, which fails outside t.Run before the solution, passes
// its failure down to its subtest, which becomes fail-to-pass. Grading a
// solution that leaves Ready unimplemented completes Add and Mul only
// (issue 36 §3: graded as a parent, TestReady would have tied the three).
func TestClassifyGoSubtests(t *testing.T) {
	before := runGosuite(t, gosuiteBase)
	after := runGosuite(t, gosuiteRef)
	c := Classify([][]results.Result{before}, [][]results.Result{after})
	const pkg = "example.com/gosuite."
	wantF2P := []string{pkg + "Test/Add_Small", pkg + "Test/Mul_Small", pkg + "TestReady/inner", pkg + "TestTable/one_plus_one"}
	wantP2P := []string{pkg + "TestTable/zero"}
	if !reflect.DeepEqual(c.FailToPass, wantF2P) || !reflect.DeepEqual(c.PassToPass, wantP2P) ||
		len(c.Flaky)+len(c.Broken)+len(c.FailBoth)+len(c.Skipped) != 0 {
		t.Fatalf("classification %+v;\nwant F2P %q, P2P %q", c, wantF2P, wantP2P)
	}

	cfg := grade.Config{Format: "go-json", FailToPass: c.FailToPass, PassToPass: c.PassToPass,
		Sections: map[string][]string{
			pkg + "Test/Add_Small": {"1"}, pkg + "TestTable/one_plus_one": {"1"},
			pkg + "Test/Mul_Small": {"2"}, pkg + "TestReady/inner": {"3"},
		},
		Implementable: []string{"1", "2", "3"}}
	partial := runGosuite(t, gosuitePartial)
	g := grade.Score(cfg, partial, results.Exit{Code: 1}, nil)
	var done []string
	for _, s := range g.Sections {
		if s.Completed {
			done = append(done, s.ID)
		}
	}
	if g.Reward != 0 || g.F2PPassed != 3 || g.P2PPassed != 1 || !reflect.DeepEqual(done, []string{"1", "2"}) {
		t.Fatalf("partial solution: reward %d, F2P %d/%d, P2P %d/%d, completed %q; want 0, 3/4, 1/1, [1 2]",
			g.Reward, g.F2PPassed, g.F2PTotal, g.P2PPassed, g.P2PTotal, done)
	}
	if g := grade.Score(cfg, after, results.Exit{}, nil); g.Reward != 1 || g.SectionsCompleted != 3 {
		t.Fatalf("reference solution: reward %d, %d sections completed", g.Reward, g.SectionsCompleted)
	}
	// A task built before lists named leaves names the parents: each
	// rolls its subtests up.
	old := grade.Config{Format: "go-json", FailToPass: []string{pkg + "Test", pkg + "TestReady"}, PassToPass: []string{pkg + "TestTable"}}
	if g := grade.Score(old, partial, results.Exit{Code: 1}, nil); g.F2PPassed != 1 || g.P2PPassed != 1 || g.Tests[1].Status != results.Failed {
		t.Fatalf("parent lists: F2P %d, P2P %d, tests %+v", g.F2PPassed, g.P2PPassed, g.Tests)
	}
}
