package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lolbench/lolbench/pipeline/workspace"
)

// fakeStage reads one file of the candidate and returns a scripted error;
// it counts its runs.
type fakeStage struct {
	name string
	file string
	err  error
	runs int
}

func (s *fakeStage) Name() string   { return s.name }
func (s *fakeStage) String() string { return "running " + s.name }
func (s *fakeStage) Inputs(env *Env, c *Candidate) (Inputs, error) {
	return Inputs{Files: []string{s.file}, Params: []string{"threshold=1"}}, nil
}
func (s *fakeStage) Run(ctx context.Context, env *Env, c *Candidate) error {
	s.runs++
	return s.err
}

func TestRunCandidateIsIncremental(t *testing.T) {
	ws, err := workspace.Open(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := OpenCandidate(ws, "demo-1")
	os.MkdirAll(c.Dir, 0o755)
	write := func(name, text string) { os.WriteFile(filepath.Join(c.Dir, name), []byte(text), 0o644) }
	write("a.txt", "a")
	write("b.txt", "b")
	write("c.txt", "c")
	a := &fakeStage{name: "a", file: "a.txt"}
	b := &fakeStage{name: "b", file: "b.txt", err: Skip("no endpoint; set X")}
	cc := &fakeStage{name: "c", file: "c.txt"}
	stages := []CandidateStage{a, b, cc}
	env := &Env{Workspace: ws, Version: "test"}
	run := func() []StageOutcome {
		out, err := RunCandidate(context.Background(), env, c, stages)
		if err != nil {
			t.Fatal(err)
		}
		for i := range out {
			out[i].Duration = 0 // wall time is not part of the contract
		}
		return out
	}

	first := run()
	want := []StageOutcome{{Stage: "a", Result: Passed}, {Stage: "b", Result: Skipped, Reason: "no endpoint; set X"}, {Stage: "c", Result: Passed}}
	if !reflect.DeepEqual(first, want) {
		t.Fatalf("first run = %+v", first)
	}
	run()
	if a.runs != 1 || b.runs != 1 || cc.runs != 1 {
		t.Fatalf("second run reran up-to-date stages: %d %d %d", a.runs, b.runs, cc.runs)
	}
	// Editing what b reads reruns b and everything after it, not a.
	write("b.txt", "b2")
	run()
	if a.runs != 1 || b.runs != 2 || cc.runs != 2 {
		t.Fatalf("after editing b's input: runs %d %d %d, want 1 2 2", a.runs, b.runs, cc.runs)
	}
	// A rejection stops the candidate and is remembered.
	a.err = Reject("too small")
	env.Force = true
	out := run()
	if len(out) != 1 || out[0].Result != Rejected || out[0].Reason != "too small" {
		t.Fatalf("rejected run = %+v", out)
	}
	env.Force = false
	a.err = nil
	out = run()
	if len(out) != 1 || !out[0].UpToDate || out[0].Result != Rejected {
		t.Fatalf("rerun after rejection = %+v", out)
	}
	// A failure is never up to date.
	cc.err = errors.New("docker down")
	write("a.txt", "a2")
	run()
	cc.err = nil
	out = run()
	if out[2].Result != Passed || out[2].UpToDate {
		t.Fatalf("a failed stage must rerun: %+v", out)
	}
}
