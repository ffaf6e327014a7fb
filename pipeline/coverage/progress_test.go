package coverage

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sync"
	"testing"

	"github.com/lolbench/lolbench/internal/testrepo"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/sandbox/guard"
)

// calc is a Go module whose PR adds Mul and Neg, and their tests, to a
// package with Add.
var (
	calcBase = map[string]string{
		"go.mod":            "module example.com/calc\n\ngo 1.19\n",
		"calc/calc.go":      "package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n",
		"calc/calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"add\")\n\t}\n}\n",
	}
	calcPR = map[string]string{
		"calc/calc.go":      "package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n\nfunc Mul(a, b int) int {\n\treturn a * b\n}\n\nfunc Neg(a int) int {\n\treturn -a\n}\n",
		"calc/calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"add\")\n\t}\n}\n\nfunc TestMul(t *testing.T) {\n\tif Mul(2, 3) != 6 {\n\t\tt.Fatal(\"mul\")\n\t}\n}\n\nfunc TestNeg(t *testing.T) {\n\tif Neg(2) != -2 {\n\t\tt.Fatal(\"neg\")\n\t}\n}\n",
	}
)

// calcEnv prepares the calc module at its base commit with the local
// executor, and returns the spec of its coverage run.
func calcEnv(t *testing.T) (sandbox.Env, Spec) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "calc")
	if err := testrepo.Build(dir,
		testrepo.Step{Files: calcBase, Tag: "base"},
		testrepo.Step{Files: calcPR, Tag: "head"}); err != nil {
		t.Fatal(err)
	}
	repo, err := diff.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	base, _ := repo.Resolve("base")
	head, _ := repo.Resolve("head")
	tp, err := repo.Patch(ctx, base, head, "calc/calc_test.go")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := repo.Patch(ctx, base, head, "calc/calc.go")
	if err != nil {
		t.Fatal(err)
	}
	r := recipe.Recipe{Image: "golang", Env: map[string]string{"CGO_ENABLED": "0"},
		Test: recipe.Test{Command: "go test -json -count=1 {tests}", Format: "go-json"}}.Defaults()
	env, err := sandbox.NewLocal(nil).Prepare(ctx, sandbox.Spec{Project: "calc", Task: "calc-1", Base: base, Recipe: r,
		Tree: sandbox.GitTree{Repo: repo, Commit: base}, LogDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { env.Close() })
	return env, Spec{Recipe: r, Language: "Go", Selection: []string{"./calc"},
		Patches: []Patch{{Name: "test.patch", Data: tp}, {Name: "solution.patch", Data: sp}},
		Sources: []SourceFile{{Path: "calc/calc.go", Language: "Go", Content: []byte(calcPR["calc/calc.go"]), Added: []int{6, 7, 8, 9, 10, 11, 12, 13}}},
		Suites: []SuiteSpec{{Name: F2P, Tests: []string{"example.com/calc/calc.TestMul", "example.com/calc/calc.TestNeg"}},
			{Name: P2P, Tests: []string{"example.com/calc/calc.TestAdd"}}}}
}

// TestMeasureProgress: the reach run and the per-test run report their
// progress as the build's test runs do (issue 25 §2), each its start, with
// the tests to measure as the estimate, and its end, with the tests it ran.
// The polls in between depend on timing.
func TestMeasureProgress(t *testing.T) {
	env, spec := calcEnv(t)
	var mu sync.Mutex
	var got []sandbox.TestProgress
	spec.Progress = func(p sandbox.TestProgress) { mu.Lock(); got = append(got, p); mu.Unlock() }
	res, err := Measure(context.Background(), env, spec, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if res.Suites[0].Covered != res.Suites[0].Executable || res.Suites[0].Executable != 2 {
		t.Fatalf("F2P coverage %+v", res.Suites[0])
	}
	// The reach run's start and end, then the per-test run's: TestAdd
	// runs calc.go too, so all three tests are measured one by one.
	var ends []sandbox.TestProgress
	for _, p := range got {
		if p.Done == 0 && !p.Ended || p.Over {
			ends = append(ends, p)
		}
	}
	want := []sandbox.TestProgress{
		{Side: sandbox.ReachSide, Run: 1, Runs: 1, Known: 3},
		{Side: sandbox.ReachSide, Run: 1, Runs: 1, Done: 3, Known: 3, Ended: true, Over: true},
		{Side: sandbox.CoverageSide, Run: 1, Runs: 1, Known: 3},
		{Side: sandbox.CoverageSide, Run: 1, Runs: 1, Done: 3, Known: 3, Ended: true, Over: true},
	}
	if !reflect.DeepEqual(ends, want) {
		t.Errorf("starts and ends %+v\nwant %+v (all %+v)", ends, want, got)
	}
	if r := res.Reach; r == nil || *r != (Reach{Tests: 3, Reached: 3, Measured: 3, Duration: r.Duration}) {
		t.Errorf("reach %+v", r)
	}
}

// TestProgressScript: the shell functions an adapter's script reports
// with: lolbench_count follows a test log with the verifier's counter
// (lolbench-grade count) until lolbench_count_end, lolbench_done writes a
// count; without progress they do nothing.
func TestProgressScript(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lolbench-grade")
	}
	grader := filepath.Join(t.TempDir(), guard.GraderFile)
	if err := sandbox.BuildGrader(context.Background(), os.Getenv, runtime.GOARCH, grader); err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(grader)
	if err != nil {
		t.Fatal(err)
	}
	env, _ := calcEnv(t)
	const pytest = `printf 'collected 4 items\n\ntests/test_a.py ..F\n' >"$out/run.log"` + "\n"
	tests := []struct {
		name, script string
		on           bool
		want         string // the progress file, "" for none
	}{
		{"count", "lolbench_count \"$out/run.log\"\n" + pytest + "lolbench_count_end\n", true, `{"run":1,"runs":1,"done":3,"known":4,"ended":true}`},
		{"done", "lolbench_done 2\n", true, `{"run":1,"runs":1,"done":2,"known":5}`},
		{"off", "lolbench_count \"$out/run.log\"\n" + pytest + "lolbench_count_end\nlolbench_done 2\n", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			script := "#!/bin/sh\nout=\"$LOLBENCH_DIR/out\"\n" + ProgressScript(tt.on, 5) + tt.script
			job := sandbox.Job{Name: "progress", Script: script, OutDir: out,
				Files: map[string][]byte{guard.GraderFile: bin}, Executables: map[string]bool{guard.GraderFile: true}}
			res, err := env.Run(context.Background(), job)
			if err != nil || res.ExitCode != 0 {
				console, _ := os.ReadFile(filepath.Join(out, "console.log"))
				t.Fatalf("job: %v %+v\n%s", err, res, console)
			}
			f, err := os.Open(filepath.Join(out, guard.ProgressFile))
			got := ""
			if err == nil {
				b, _ := io.ReadAll(f)
				f.Close()
				got = string(b)
			}
			if got != tt.want {
				t.Errorf("progress file %q, want %q", got, tt.want)
			}
		})
	}
}
