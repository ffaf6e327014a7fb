package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lolbench/lolbench/internal/testrepo"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/results"
	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
)

// The toy project: run.sh is a test runner that prints pytest's -rA
// summary; every line "NAME COMMAND" of a test file is a test that passes
// when COMMAND succeeds. tests/test_old.t has a flaky test that flips on a
// counter kept in $TMPDIR, like tinykv's TestParseRepeatable.
var toyBase = map[string]string{
	"run.sh": `#!/bin/sh
echo "========== short test summary info =========="
rc=0
for f in "$@"; do
	while read -r name cmd; do
		[ -z "$name" ] && continue
		if sh -c "$cmd" >/dev/null 2>&1; then echo "PASSED $f::$name"; else echo "FAILED $f::$name - failed"; rc=1; fi
	done <"$f"
done
exit $rc
`,
	"flip.sh": `n=$(cat "$TMPDIR/toy-counter" 2>/dev/null || echo 0)
echo $((n + 1)) >"$TMPDIR/toy-counter"
[ $((n % 2)) -eq 0 ]
`,
	"lib.txt":          "version 1\n",
	"reports/old.txt":  "========== short test summary info ==========\nFAILED stale::report - left over\n",
	"tests/test_old.t": "old_ok grep -q version lib.txt\nflaky sh flip.sh\n",
}

var toyPR = map[string]string{
	"lib.txt":          "version 2\nfeature\n",
	"tests/test_new.t": "feature grep -q feature lib.txt\n",
	"tests/test_old.t": "old_ok grep -q version lib.txt\nflaky sh flip.sh\nv2 grep -q 'version 2' lib.txt\n",
}

type toy struct {
	repo       *diff.Repo
	base, head string
	plan       Plan
}

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func newToy(t *testing.T, r recipe.Recipe) *toy {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "toy")
	if err := testrepo.Build(dir,
		testrepo.Step{Overlay: writeTree(t, toyBase), Tag: "base", Message: "toy"},
		testrepo.Step{Overlay: writeTree(t, toyPR), Tag: "head", Message: "feature"},
	); err != nil {
		t.Fatal(err)
	}
	repo, err := diff.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	base, _ := repo.Resolve("base")
	head, _ := repo.Resolve("head")
	ctx := context.Background()
	tp, err := repo.Patch(ctx, base, head, "tests/test_new.t", "tests/test_old.t")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := repo.Patch(ctx, base, head, "lib.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	r = r.Defaults()
	return &toy{repo: repo, base: base, head: head,
		plan: Plan{Recipe: r, Selection: testcmd.Selection(r, []string{"tests/test_new.t", "tests/test_old.t"}), TestPatch: tp, Solution: sp, Grader: testGrader(t)}}
}

func toyRecipe() recipe.Recipe {
	return recipe.Recipe{Image: "debian:bookworm", Test: recipe.Test{Command: "sh run.sh {tests}", Format: "pytest-ra"}}
}

func (ty *toy) prepare(t *testing.T, ex Executor) Env {
	t.Helper()
	env, err := ex.Prepare(context.Background(), Spec{Project: "toy", Task: "toy-1", Base: ty.base, Recipe: ty.plan.Recipe,
		Tree: GitTree{Repo: ty.repo, Commit: ty.base}, LogDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { env.Close() })
	return env
}

var toyWant = Classification{
	FailToPass: []string{"tests/test_new.t::feature", "tests/test_old.t::v2"},
	PassToPass: []string{"tests/test_old.t::old_ok"},
	Flaky: []Flaky{{Name: "tests/test_old.t::flaky", Side: "before",
		Statuses: []results.Status{results.Passed, results.Failed, results.Passed}}},
	Broken: []string{}, FailBoth: []string{}, FailAfter: []string{}, Skipped: []string{},
}

func TestLocalValidate(t *testing.T) {
	var warn strings.Builder
	ex := NewLocal(&warn)
	ty := newToy(t, toyRecipe())
	rep, err := Validate(context.Background(), ty.prepare(t, ex), ty.plan, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rejected != "" {
		t.Fatalf("rejected: %s", rep.Rejected)
	}
	if !reflect.DeepEqual(rep.Classification, toyWant) {
		t.Fatalf("got  %+v\nwant %+v", rep.Classification, toyWant)
	}
	if warn.String() != LocalWarning+"\n" {
		t.Fatalf("warning %q", warn.String())
	}
	if rep.Env.Isolated || rep.Env.Executor != "local" || len(rep.Before.Runs) != 3 || len(rep.After.Runs) != 3 {
		t.Fatalf("report: %+v", rep)
	}
	// The flaky test fails in run 2 of each side: those runs failed.
	if rep.Before.Runs[1].Status != results.Failed || rep.After.Runs[0].Status != results.Passed || rep.After.Runs[1].Status != results.Failed {
		t.Fatalf("run statuses: %+v / %+v", rep.Before.Runs, rep.After.Runs)
	}
}

// TestLocalResultsGlob: result files are read instead of the log, and a
// stale report committed in the repository is removed before each run.
func TestLocalResultsGlob(t *testing.T) {
	r := toyRecipe()
	r.Test.Command = "sh run.sh {tests} >reports/out.txt"
	r.Test.Results = "reports/*.txt"
	ty := newToy(t, r)
	logs := t.TempDir()
	rep, err := Validate(context.Background(), ty.prepare(t, NewLocal(nil)), ty.plan, logs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rep.Classification, toyWant) {
		t.Fatalf("got  %+v\nwant %+v", rep.Classification, toyWant)
	}
	entries, err := os.ReadDir(filepath.Join(logs, "after", "run-1", "results"))
	if err != nil || len(entries) != 1 || entries[0].Name() != "1-out.txt" {
		t.Fatalf("collected results: %v, %v", entries, err)
	}
}

func TestLocalRejections(t *testing.T) {
	tests := []struct {
		name   string
		edit   func(p *Plan)
		reason string
	}{
		{"solution does not apply", func(p *Plan) {
			p.Solution = []byte(strings.Replace(string(p.Solution), "-version 1", "-version 0", 1))
		}, "the reference solution does not apply: error: patch failed: lib.txt:1"},
		{"test patch does not apply", func(p *Plan) {
			p.TestPatch = []byte(strings.Replace(string(p.TestPatch), " old_ok grep", " old_ok grpe", 1))
		}, "the test patch does not apply at the base commit: error: patch failed: tests/test_old.t:1"},
		{"solution fixes nothing", func(p *Plan) {
			p.Solution = []byte("diff --git a/NOTES b/NOTES\nnew file mode 100644\n--- /dev/null\n+++ b/NOTES\n@@ -0,0 +1 @@\n+notes\n")
		}, "no fail-to-pass test: every test that passes after the reference solution also passes before it (1 pass-to-pass, 2 fail on both sides, 0 broken by the solution, 1 flaky)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ty := newToy(t, toyRecipe())
			tt.edit(&ty.plan)
			rep, err := Validate(context.Background(), ty.prepare(t, NewLocal(nil)), ty.plan, t.TempDir(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Rejected != tt.reason {
				t.Fatalf("rejected %q\nwant     %q", rep.Rejected, tt.reason)
			}
		})
	}
}

// TestLocalRunTimeout: a run past the recipe's limit is killed by
// `timeout`, recorded as timed out, and none of its passes is trusted.
func TestLocalRunTimeout(t *testing.T) {
	r := toyRecipe()
	r.Test.Command = "sh run.sh {tests}; sleep 30"
	r.Runs = 1
	r.Limits.TimeoutSec = 1
	ty := newToy(t, r)
	rep, err := Validate(context.Background(), ty.prepare(t, NewLocal(nil)), ty.plan, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	run := rep.After.Runs[0]
	if !run.Exit.TimedOut || run.Exit.Code != 124 || run.Status != results.Error {
		t.Fatalf("run: %+v", run)
	}
	want := "no fail-to-pass test: no test passes after the reference solution (run 1: exit code 124, 4 error; the test command timed out; 4 passed result(s) not trusted)"
	if rep.Rejected != want {
		t.Fatalf("rejected %q\nwant     %q", rep.Rejected, want)
	}
}

// TestLocalJobDeadline: a job past its deadline is killed with everything
// it started, and reported as timed out.
func TestLocalJobDeadline(t *testing.T) {
	ty := newToy(t, toyRecipe())
	env := ty.prepare(t, NewLocal(nil))
	out := t.TempDir()
	res, err := env.Run(context.Background(), Job{Name: "sleepy", Script: "echo started >\"$LOLBENCH_DIR/out/mark\"\nsleep 60 & wait\n", Timeout: time.Second, OutDir: out})
	if err != nil {
		t.Fatal(err)
	}
	if !res.TimedOut {
		t.Fatalf("result %+v", res)
	}
	if data, err := os.ReadFile(filepath.Join(out, "mark")); err != nil || string(data) != "started\n" {
		t.Fatalf("out/ not collected after the deadline: %q, %v", data, err)
	}
}

func TestJobChecks(t *testing.T) {
	tests := []struct {
		job  Job
		want string
	}{
		{Job{Name: "a b", OutDir: "x"}, `job name "a b": letters, digits, - and _ only`},
		{Job{Name: "j"}, "job j: no output folder"},
		{Job{Name: "j", OutDir: "x", Files: map[string][]byte{"../x": nil}}, `job j: file name "../x" is not a clean relative path`},
		{Job{Name: "j", OutDir: "x", Files: map[string][]byte{"/etc/passwd": nil}}, `job j: file name "/etc/passwd" is not a relative slash path`},
		{Job{Name: "j", OutDir: "x", Mounts: map[string]string{"tests": "/x"}}, `job j: mount target "tests" is not a clean absolute path`},
		{Job{Name: "j", OutDir: "x", Collect: []string{"/"}}, `job j: collect path "/" is not a clean absolute path`},
	}
	for _, tt := range tests {
		if err := checkJob(tt.job); err == nil || err.Error() != tt.want {
			t.Errorf("checkJob(%+v) = %v, want %s", tt.job, err, tt.want)
		}
	}
}

// TestLocalPath: the local executor's PATH is the recipe's folders, then
// the host's folders the recipe lacks; empty and relative host folders are
// dropped.
func TestLocalPath(t *testing.T) {
	tests := []struct{ recipe, host, want string }{
		{"/home/lolbench/go/bin:/usr/bin:/bin", "/usr/local/go/bin:/root/.pyenv/shims:/usr/bin:/bin",
			"/home/lolbench/go/bin:/usr/bin:/bin:/usr/local/go/bin:/root/.pyenv/shims"},
		{"/usr/bin", "", "/usr/bin"},
		{"/usr/bin:/usr/bin", "::.:bin:/opt/x/bin", "/usr/bin:/opt/x/bin"},
	}
	for _, tt := range tests {
		if got := localPath(tt.recipe, tt.host); got != tt.want {
			t.Errorf("localPath(%q, %q) = %q, want %q", tt.recipe, tt.host, got, tt.want)
		}
	}
}

// TestLocalHostToolchain: on a host whose Go is only in a folder the
// recipe's image PATH does not name (/usr/local/go/bin, where the official
// installer puts it), the local executor still finds it (issue 25 §3: the
// tinykv build failed with "go: not found"). One run per side.
func TestLocalHostToolchain(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	goDir := filepath.Dir(gobin)
	s := loadSample(t, "tinykv")
	for _, d := range filepath.SplitList(s.recipe.Env["PATH"]) {
		if _, err := os.Stat(filepath.Join(d, "go")); err == nil || d == goDir {
			t.Skipf("go is in %s, a folder of the recipe's PATH: this host cannot show the defect", d)
		}
	}
	t.Setenv("PATH", goDir+":/usr/bin:/bin")
	plan := s.plan
	plan.Recipe.Runs = 1
	// No log folder: the install step's output is dropped, not fatal.
	env, err := NewLocal(nil).Prepare(context.Background(), s.spec("tinykv-local-path"))
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	rep, err := Validate(context.Background(), env, plan, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := Classification{FailToPass: tinykvF2P, PassToPass: []string{"example.com/tinykv/internal/proto.TestParse", "example.com/tinykv/internal/proto.TestParseRepeatable"}}
	if rep.Rejected != "" || !reflect.DeepEqual(rep.FailToPass, want.FailToPass) || !reflect.DeepEqual(rep.PassToPass, want.PassToPass) {
		t.Fatalf("rejected %q\nF2P %v\nP2P %v", rep.Rejected, rep.FailToPass, rep.PassToPass)
	}
}
