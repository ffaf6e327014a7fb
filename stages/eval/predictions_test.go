package eval

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/internal/testbuilt"
	"github.com/lolbench/lolbench/internal/testcand"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/stages/build"
)

// noExecutor fails if the verifier would run: a rerun must reuse grades.
type noExecutor struct{}

func (noExecutor) Name() string   { return "none" }
func (noExecutor) Isolated() bool { return false }
func (noExecutor) Prepare(context.Context, sandbox.Spec) (sandbox.Env, error) {
	return nil, errors.New("the verifier ran again")
}

// Predictions are graded by lolbench's verifier (harbor.Verify) on the
// built tinykv task, here with the local executor: the reference solution
// scores 1, an empty patch 0. Its F2P list is testbuilt's stand-in.
func TestPredictionsGradedByTheVerifier(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the tinykv tests")
	}
	dir := t.TempDir()
	ws, c, err := testbuilt.Build(dir, testcand.Tinykv(filepath.Join("..", "..")))
	if err != nil {
		t.Fatal(err)
	}
	task := filepath.Join(c.Dir, build.TaskDir)
	// testbuilt's grader is a stand-in script; the real one replaces it.
	grader := filepath.Join(task, "tests", "lolbench-grade")
	os.Remove(grader)
	if err := sandbox.BuildGrader(context.Background(), os.Getenv, runtime.GOARCH, grader); err != nil {
		t.Fatal(err)
	}
	// testbuilt selects no tests; the stand-in F2P test is in ./store.
	cfgPath := filepath.Join(task, "tests", "config.json")
	var cfg map[string]any
	data, _ := os.ReadFile(cfgPath)
	if err := json.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	cfg["selection"] = []string{"./store"}
	data, _ = json.Marshal(cfg)
	os.WriteFile(cfgPath, data, 0o644)
	ref, err := os.ReadFile(filepath.Join(c.Dir, build.SolutionFile))
	if err != nil {
		t.Fatal(err)
	}
	preds := filepath.Join(dir, "preds.jsonl")
	var lines []string
	for _, p := range []map[string]any{
		{"instance_id": c.ID, "model_name_or_path": "org/Ref-Model", "model_patch": string(ref), "full_output": "ignored"},
		{"instance_id": c.ID, "model_name_or_path": "org/Ref-Model", "model_patch": nil},
	} {
		b, _ := json.Marshal(p)
		lines = append(lines, string(b))
	}
	os.WriteFile(preds, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	local := sandbox.NewLocal(io.Discard)
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	local.Env = []string{"PATH=" + filepath.Dir(gobin) + ":/usr/bin:/bin"}
	last := map[string]sandbox.TestProgress{}
	st := &Stage{Predictions: []string{preds}, Executor: local,
		Progress: func(name string, p sandbox.TestProgress) { last[name] = p }}
	if err := st.Run(context.Background(), &pipeline.Env{Workspace: ws}); err != nil {
		t.Fatal(err)
	}
	// Each verifier run reports its progress, named by instance and
	// attempt, up to its end (issue 25 §2). Known is the task's one graded
	// test; Done counts what the run finished: the 11 tests of ./store
	// with the reference, none with the empty patch (./store does not
	// compile without it).
	over := sandbox.TestProgress{Side: sandbox.SolutionSide, Run: 1, Runs: 1, Known: 1, Ended: true, Over: true}
	withRef := over
	withRef.Done = 11
	if want := map[string]sandbox.TestProgress{c.ID + ".1": withRef, c.ID + ".2": over}; !reflect.DeepEqual(last, want) {
		t.Errorf("the verifier runs' last progress %+v, want %+v", last, want)
	}
	const agent = "predictions__org-ref-model"
	if !reflect.DeepEqual(st.Agents, []string{agent}) {
		t.Fatalf("agents %v", st.Agents)
	}
	rows := readRows(t, ws, agent)
	if len(rows) != 2 {
		t.Fatalf("%d rows", len(rows))
	}
	type got struct {
		attempt, reward       int
		verdict, by, origin   string
		f2p, f2pTotal, p2pTot int
	}
	for i, want := range []got{{1, 1, "passed", GradedHost, preds + ":1", 1, 1, 0}, {2, 0, "failed", GradedHost, preds + ":2", 0, 1, 0}} {
		r := rows[i]
		g := got{r.Attempt, r.Reward, r.Verdict, r.GradedBy, r.Origin, *r.F2PPassed, *r.F2PTotal, *r.P2PTotal}
		if g != want {
			t.Errorf("row %d: %+v, want %+v", i+1, g, want)
		}
	}
	// The reference localizes perfectly; the empty patch touches nothing.
	// Predictions have no trajectory here: no inspected view.
	one := 1.0
	if l := rows[0].Localization; l == nil || l.Inspected != nil || l.Modified == nil || *l.Modified.Files.Precision != one || *l.Modified.Files.Recall != one ||
		(l.Modified.Functions.Reference > 0 && (*l.Modified.Functions.Precision != one || *l.Modified.Functions.Recall != one)) {
		t.Errorf("reference localization %s", show(rows[0].Localization))
	}
	if l := rows[1].Localization; l == nil || l.Modified.Files.Agent != 0 || *l.Modified.Files.Precision != 0 || *l.Modified.Files.Recall != 0 {
		t.Errorf("empty localization %s", show(rows[1].Localization))
	}
	if _, err := os.Stat(filepath.Join(ws.Root, Dir, agent, RunsDir, c.ID+".1", "verifier", "run-1", "run.json")); err != nil {
		t.Errorf("the verifier's raw run is not kept: %v", err)
	}
	// A rerun with the same patches reuses the grades.
	if err := (&Stage{Predictions: []string{preds}, Executor: noExecutor{}}).Run(context.Background(), &pipeline.Env{Workspace: ws}); err != nil {
		t.Fatal(err)
	}
}
