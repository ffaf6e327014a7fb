package dag

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lolbench/lolbench/internal/dockertest"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/sectiondag"
	"github.com/lolbench/lolbench/stages/build"
)

// TestCheck runs the discriminativeness check on the tinykv sample, built
// in Docker. 3.3 (protocol commands) and 3.4 (snapshot format) build on
// 3.1: restricted to 3.1, the server and the snapshot code are gone and
// their tests fail. Then a crafted graph makes section 4 (backwards
// compatibility, whose code is comments only) build on every other
// section: restricted to them, the reference is the whole solution but
// comments, its test passes, and 4 is flagged.
func TestCheck(t *testing.T) {
	d := dockertest.Executor(t)
	env, c := sample(t, "tinykv")
	rec, err := os.ReadFile(filepath.Join("..", "..", "data", "samples", "tinykv", "recipe.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(c.Dir, "recipe.yaml"), rec, 0o644); err != nil {
		t.Fatal(err)
	}
	env.Getenv = os.Getenv
	outs, err := pipeline.RunCandidate(context.Background(), env, c, []pipeline.CandidateStage{&build.Stage{IncludeUnreviewed: true, Executor: d, Runs: 1}})
	if err != nil || len(outs) != 1 || outs[0].Result != pipeline.Passed {
		t.Fatalf("build: %+v %v", outs, err)
	}
	r, err := Compute(context.Background(), env, c)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(context.Background(), env, c, d, r); err != nil {
		t.Fatal(err)
	}
	type verdict struct {
		section        string
		ancestors      []string
		tests, failing int
		ok, undecided  bool
	}
	var got []verdict
	for _, ck := range r.Checks {
		got = append(got, verdict{ck.Section, ck.Ancestors, ck.Tests, ck.Failing, ck.Discriminative, ck.Undetermined})
	}
	// 3.3's and 3.4's restricted reference does not build: 3.4 changes
	// the type of the store's map, which 3.1's kept code uses.
	want := []verdict{{"3.1", []string{}, 4, 4, true, false}, {"3.2", []string{}, 2, 2, true, false}, {"3.3", []string{"3.1"}, 1, 0, false, true},
		{"3.4", []string{"3.1"}, 2, 0, false, true}, {"3.5", []string{}, 1, 1, true, false}, {"4", []string{}, 1, 1, true, false}}
	if !reflect.DeepEqual(got, want) || len(r.NotDiscriminative) != 0 {
		t.Errorf("checks %+v\nnot discriminative %q", got, r.NotDiscriminative)
	}
	if w := r.Checks[2].Why; w != "undetermined: the restricted reference cannot run its tests: the build check (go build ./...) fails: store/store.go:141:11: cannot use make(map[string]string, len(items)) (value of type map[string]string) as type map[string]value in assignment" {
		t.Errorf("3.3: %q", w)
	}
	saved, err := sectiondag.Load(c)
	if err != nil || !reflect.DeepEqual(saved.Checks, r.Checks) {
		t.Errorf("dag.json: %v", err)
	}

	// Section 4 on top of everything else.
	for _, u := range []string{"3.1", "3.2", "3.3", "3.4", "3.5"} {
		r.Edges = append(r.Edges, sectiondag.Edge{From: u, To: "4", Evidence: []sectiondag.Evidence{{Kind: sectiondag.TestEvidence, Detail: "crafted"}}})
	}
	if err := Check(context.Background(), env, c, d, r); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.NotDiscriminative, []string{"4"}) {
		t.Fatalf("not discriminative %q: %+v", r.NotDiscriminative, r.Checks)
	}
	last := r.Checks[len(r.Checks)-1]
	if last.Why != "the reference restricted to its ancestors (3.1, 3.2, 3.3, 3.4, 3.5) passes all 1 of its tests: they do not test its own code" {
		t.Errorf("why %q", last.Why)
	}
}
