package harbor

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/lolbench/lolbench/internal/testrepo"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/sandbox/guard"
)

// A toy task: run.sh prints pytest's -rA summary for "NAME COMMAND" test
// lines; the PR adds a feature to lib.txt and a test of it.
var (
	toyBase = map[string]string{
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
		"lib.txt":          "version 1\n",
		"more.txt":         "x\n",
		"tests/test_old.t": "old_ok grep -q version lib.txt\n",
	}
	toyPR = map[string]string{
		"lib.txt":          "version 2\nfeature\n",
		"more.txt":         "x\ny\n",
		"tests/test_old.t": "old_ok grep -q version lib.txt\nmore grep -q y more.txt\n",
		"tests/test_new.t": "feature grep -q feature lib.txt\n",
	}
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var (
	graderOnce sync.Once
	graderPath string
	graderErr  error
)

func grader(t *testing.T) string {
	t.Helper()
	graderOnce.Do(func() {
		dir, err := os.MkdirTemp("", "lolbench-grade-test-")
		if err != nil {
			graderErr = err
			return
		}
		graderPath = filepath.Join(dir, "lolbench-grade")
		graderErr = sandbox.BuildGrader(context.Background(), os.Getenv, runtime.GOARCH, graderPath)
	})
	if graderErr != nil {
		t.Fatal(graderErr)
	}
	return graderPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if graderPath != "" {
		os.RemoveAll(filepath.Dir(graderPath))
	}
	os.Exit(code)
}

type toyTask struct {
	task     *Task
	repo     *diff.Repo
	partial  []byte
	solution []byte
}

func newToyTask(t *testing.T) *toyTask {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "toy")
	if err := testrepo.Build(dir,
		testrepo.Step{Overlay: writeFiles(t, toyBase), Tag: "base", Message: "toy"},
		testrepo.Step{Overlay: writeFiles(t, toyPR), Tag: "head", Message: "feature"},
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
	tp, _ := repo.Patch(ctx, base, head, "tests/test_new.t", "tests/test_old.t")
	sp, _ := repo.Patch(ctx, base, head, "lib.txt", "more.txt")
	partial, _ := repo.Patch(ctx, base, head, "lib.txt")
	r := recipe.Recipe{Image: "debian:bookworm", Test: recipe.Test{Command: "sh run.sh {tests}", Format: "pytest-ra"}}.Defaults()
	return &toyTask{repo: repo, partial: partial, solution: sp, task: &Task{
		ID: "toy-tep-0001", Project: "toy", Repo: "example/toy", Language: "Shell", Domain: "testing",
		EPID: "TEP 1", EPTitle: "Features", PRNumber: 7, BaseCommit: base,
		EP: []byte("Title\n=====\n\nAdd ```a feature```.\n"), EPFormat: "rst",
		Recipe: r, Tree: sandbox.GitTree{Repo: repo, Commit: base},
		TestPatch: tp, Solution: sp, TestPaths: []string{"tests/test_new.t", "tests/test_old.t"},
		Selection:  []string{"tests/test_new.t", "tests/test_old.t"},
		FailToPass: []string{"tests/test_new.t::feature", "tests/test_old.t::more"},
		PassToPass: []string{"tests/test_old.t::old_ok"},
		Sections:   map[string][]string{"tests/test_new.t::feature": {"1"}, "tests/test_old.t::more": {"2"}},
		Grader:     grader(t),
	}}
}

// TestWriteComplete: every file of the layout is there, with the fields
// Harbor reads.
func TestWriteComplete(t *testing.T) {
	ty := newToyTask(t)
	dir := filepath.Join(t.TempDir(), "task")
	if err := Write(dir, ty.task); err != nil {
		t.Fatal(err)
	}
	for _, f := range append(Files, RepoDir+"/run.sh", RepoDir+"/tests/test_old.t") {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	for _, f := range []string{SolveSh, TestSh, GraderBin} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Mode()&0o111 == 0 {
			t.Errorf("%s is not executable", f)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, RepoDir, "tests", "test_new.t")); err == nil {
		t.Error("the environment holds a test file the PR adds: it must stay hidden")
	}
	m, err := ReadToml(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"schema_version": "1.1",
		"task":           map[string]any{"name": "lolbench/toy-tep-0001"},
		"metadata": map[string]any{"project": "toy", "repo": "example/toy", "language": "Shell", "domain": "testing",
			"ep_id": "TEP 1", "ep_title": "Features", "pr_number": int64(7), "base_commit": ty.task.BaseCommit,
			"f2p_count": int64(2), "p2p_count": int64(1), "category": "programming", "tags": []any{"lolbench", "long-horizon", "shell"}},
		"verifier":    map[string]any{"timeout_sec": 1920.0, "user": "root"},
		"agent":       map[string]any{"timeout_sec": 7200.0, "user": "lolbench"},
		"environment": map[string]any{"build_timeout_sec": 3600.0, "cpus": 2.0, "memory_mb": int64(4096), "storage_mb": int64(10240), "network_mode": "no-network"},
	}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("task.toml\n%v\nwant\n%v", m, want)
	}
	ins, _ := os.ReadFile(filepath.Join(dir, Instruction))
	for _, s := range []string{"# Implement TEP 1: Features\n", "`/testbed`", "Tests are optional and separate", "There is no network", "````rst\nTitle\n=====\n\nAdd ```a feature```.\n````\n"} {
		if !strings.Contains(string(ins), s) {
			t.Errorf("instruction.md lacks %q:\n%s", s, ins)
		}
	}
	cfg, err := LoadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cfg.FailToPass, ty.task.FailToPass) || !reflect.DeepEqual(cfg.PassToPass, ty.task.PassToPass) ||
		!reflect.DeepEqual(cfg.Sections, ty.task.Sections) || cfg.Task != "lolbench/toy-tep-0001" || cfg.Recipe.Test.Format != "pytest-ra" {
		t.Fatalf("config %+v", cfg)
	}
	if tp, _ := os.ReadFile(filepath.Join(dir, TestPatch)); !bytes.Equal(tp, ty.task.TestPatch) {
		t.Fatal("tests/test.patch is not the test patch")
	}
	rd, _ := os.ReadFile(filepath.Join(dir, Readme))
	if !strings.Contains(string(rd), "- `tests/test_new.t::feature` (sections 1)\n") {
		t.Fatalf("README.md:\n%s", rd)
	}
}

// TestVerifyLocal runs the task's verifier (tests/test.sh and
// lolbench-grade) on the host with several solutions.
func TestVerifyLocal(t *testing.T) {
	ty := newToyTask(t)
	dir := filepath.Join(t.TempDir(), "task")
	if err := Write(dir, ty.task); err != nil {
		t.Fatal(err)
	}
	// An agent that edited a hidden test file in place: the verifier puts
	// the PR's version back before it applies the test patch.
	cheat := "diff --git a/tests/test_old.t b/tests/test_old.t\n--- a/tests/test_old.t\n+++ b/tests/test_old.t\n@@ -1 +1 @@\n-old_ok grep -q version lib.txt\n+old_ok true\n"
	tests := []struct {
		name     string
		solution []byte
		want     [7]int // reward, f2p passed/total, p2p passed/total, sections completed/total
		errText  string
	}{
		{"reference", ty.solution, [7]int{1, 2, 2, 1, 1, 2, 2}, ""},
		{"partial", ty.partial, [7]int{0, 1, 2, 1, 1, 1, 2}, ""},
		{"nothing", nil, [7]int{0, 0, 2, 1, 1, 0, 2}, ""},
		{"edits a test file", []byte(string(ty.partial) + cheat), [7]int{0, 1, 2, 1, 1, 1, 2}, ""},
		{"does not apply", []byte("diff --git a/nope b/nope\n--- a/nope\n+++ b/nope\n@@ -1 +1 @@\n-a\n+b\n"), [7]int{0, 0, 2, 0, 1, 0, 2},
			"the solution does not apply: error: nope: No such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := Verify(context.Background(), sandbox.NewLocal(nil), dir, tt.solution, t.TempDir(), nil)
			if err != nil {
				t.Fatal(err)
			}
			got := [7]int{g.Reward, g.F2PPassed, g.F2PTotal, g.P2PPassed, g.P2PTotal, g.SectionsCompleted, g.SectionsTotal}
			if got != tt.want || g.Error != tt.errText {
				t.Fatalf("got %v %q, want %v %q (%+v)", got, g.Error, tt.want, tt.errText, g)
			}
		})
	}
}

func TestHeredocDelimiter(t *testing.T) {
	if d := heredoc("X", []byte("a\nLOLBENCH_X\nb\n")); d == "LOLBENCH_X" || !strings.HasPrefix(d, "LOLBENCH_X_") {
		t.Fatalf("delimiter %q collides with the data", d)
	}
	if d := heredoc("X", []byte("LOLBENCH_X is mentioned\n")); d != "LOLBENCH_X" {
		t.Fatalf("delimiter %q", d)
	}
}

func TestLoadConfigErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := LoadConfig(dir); err == nil || !strings.Contains(err.Error(), "no tests/config.json (not a task folder written by lolbench build?)") {
		t.Fatalf("err = %v", err)
	}
	os.MkdirAll(filepath.Join(dir, "tests"), 0o755)
	os.WriteFile(filepath.Join(dir, ConfigJSON), []byte(`{"bogus": 1}`), 0o644)
	if _, err := LoadConfig(dir); err == nil || !strings.Contains(err.Error(), `unknown field "bogus"`) {
		t.Fatalf("err = %v", err)
	}
	os.WriteFile(filepath.Join(dir, ConfigJSON), []byte(`{"task": "x", "recipe": {"image": "debian", "user": "root", "test": {"command": "t {tests}", "format": "junit"}}}`), 0o644)
	if _, err := LoadConfig(dir); err == nil || !strings.Contains(err.Error(), "user: root is refused") {
		t.Fatalf("err = %v", err)
	}
}

// TestVerifyProgress: lolbench verify's run reports its progress as the
// build's runs do (issue 25 §2): it starts with the task's listed tests as
// the estimate, and ends with what the verifier counted in its folder,
// where the host follows it: the toy's -rA summary lists its three tests.
func TestVerifyProgress(t *testing.T) {
	ty := newToyTask(t)
	dir := filepath.Join(t.TempDir(), "task")
	if err := Write(dir, ty.task); err != nil {
		t.Fatal(err)
	}
	var got []sandbox.TestProgress
	out := t.TempDir()
	// The polls' states in between depend on timing; the first and the
	// last do not.
	g, err := VerifyProgress(context.Background(), sandbox.NewLocal(nil), dir, ty.solution, out, nil, func(p sandbox.TestProgress) { got = append(got, p) })
	if err != nil {
		t.Fatal(err)
	}
	if g.Reward != 1 {
		t.Fatalf("grade %+v", g)
	}
	first, last := got[0], got[len(got)-1]
	if want := (sandbox.TestProgress{Side: sandbox.SolutionSide, Run: 1, Runs: 1, Known: 3}); first != want {
		t.Errorf("first %+v, want %+v", first, want)
	}
	if want := (sandbox.TestProgress{Side: sandbox.SolutionSide, Run: 1, Runs: 1, Done: 3, Known: 3, Ended: true, Over: true}); last != want {
		t.Errorf("last %+v, want %+v (all: %+v)", last, want, got)
	}
	if _, err := os.Stat(filepath.Join(out, "verifier", guard.ProgressFile)); err != nil {
		t.Errorf("the verifier's folder has no progress file: %v", err)
	}
}
