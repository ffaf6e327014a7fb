package augment

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lolbench/lolbench/internal/testcand"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/sandbox/harbor"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/build"
	"github.com/lolbench/lolbench/stages/mutate"
)

// Tests the model writes for two of the int-constant mutants of tinykv
// that the original tests miss: `ttl <= 0` made `ttl <= 1` in
// Store.SetWithTTL (a one-nanosecond TTL is positive, so it is accepted)
// and `secs <= 0` made `secs <= 1` in the SETEX handler (one second is a
// valid TTL, answered OK). Both go through public entry points and use only
// names the EP writes.
const (
	tinykvStoreTest = `package store_test

import (
	"testing"
	"time"

	"example.com/tinykv/store"
)

func TestSetWithTTLAcceptsTheSmallestPositiveTTL(t *testing.T) {
	s := store.New()
	if err := s.SetWithTTL("a", "1", time.Nanosecond); err != nil {
		t.Fatalf("SetWithTTL with a positive ttl: %v", err)
	}
}
`
	tinykvServerTest = `package server

import (
	"testing"

	"example.com/tinykv/store"
)

func TestSetexAcceptsOneSecond(t *testing.T) {
	srv := &Server{Store: store.New()}
	if got := srv.Handle("SETEX a 1 v"); got != "OK" {
		t.Fatalf("SETEX a 1 v = %q, want OK", got)
	}
}
`
)

// TestDockerTinykv runs build, mutate (int-constant operator) and augment
// (mutation loop) on the tinykv sample with the real Docker engine: the
// scripted tests each kill the surviving mutant they target and are
// retained; every other survivor gets an answer that fails the static
// checks twice and is dropped.
func TestDockerTinykv(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPING Docker end-to-end test in -short mode")
	}
	ctx := context.Background()
	d, err := sandbox.NewDocker(ctx)
	if err != nil {
		t.Skipf("SKIPPING Docker test: %v", err)
	}
	defer d.Close()
	if id, err := d.ImageID(ctx, "lolbench-test/base:bookworm-2"); err != nil || id == "" {
		t.Skipf("SKIPPING Docker test: no base image lolbench-test/base:bookworm-2 (build it with test/base-image.sh): %v", err)
	}
	spec := testcand.Tinykv(filepath.Join("..", ".."))
	ws, c, err := testcand.Build(t.TempDir(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if err := testcand.CopyMapping(spec, c, "mapping.md"); err != nil {
		t.Fatal(err)
	}
	r, err := os.ReadFile(filepath.Join(spec.Sample, "recipe.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := workspace.WriteFile(filepath.Join(c.Dir, build.RecipeFile), r, 0o644); err != nil {
		t.Fatal(err)
	}
	env := &pipeline.Env{Workspace: ws, Status: io.Discard, Getenv: os.Getenv, Version: "test"}
	outs, err := pipeline.RunCandidate(ctx, env, c, []pipeline.CandidateStage{&build.Stage{Executor: d},
		&mutate.Stage{Executor: d, Families: []string{mutation.FamilyOps}, Operators: []string{"int-constant"}}})
	if err != nil || len(outs) != 2 || outs[1].Result != pipeline.Passed {
		t.Fatalf("build and mutate: %+v %v", outs, err)
	}
	set, err := mutation.Load(c)
	if err != nil {
		t.Fatal(err)
	}
	const storeMutant, serverMutant = "op-int-constant-026", "op-int-constant-011"
	survivors := set.Matrix.Survivors()
	for _, m := range []string{storeMutant, serverMutant} {
		if !contains(survivors, m) {
			t.Fatalf("%s does not survive the original tests; survivors %q", m, survivors)
		}
	}
	script := map[string]map[int]string{}
	invalid := answer(t, Proposal{Path: "NOTES.txt", Name: "none", Source: "not a test"})
	for _, m := range survivors {
		script[fmt.Sprintf("The surviving mutant %q", m)] = map[int]string{1: invalid, 2: invalid}
	}
	script[fmt.Sprintf("The surviving mutant %q", storeMutant)][1] = answer(t,
		Proposal{Path: "store/ttl_smallest_test.go", Name: "TestSetWithTTLAcceptsTheSmallestPositiveTTL", Source: tinykvStoreTest})
	script[fmt.Sprintf("The surviving mutant %q", serverMutant)][1] = answer(t,
		Proposal{Path: "server/setex_one_second_test.go", Name: "TestSetexAcceptsOneSecond", Source: tinykvServerTest})
	model := newFakeModel(t, script)
	st := &Stage{LLM: model.client(t, ws), Executor: d, Loops: []string{LoopMutation}}
	outs, err = pipeline.RunCandidate(ctx, env, c, []pipeline.CandidateStage{st})
	if err != nil || outs[0].Result != pipeline.Passed {
		t.Fatalf("augment: %+v %v", outs, err)
	}
	rep, err := LoadReport(c)
	if err != nil {
		t.Fatal(err)
	}
	kept := map[string][]string{}
	for _, cd := range rep.Candidates {
		if cd.Status == Retained {
			kept[cd.Conversation] = cd.Kills
			continue
		}
		if cd.Rule != "structure" || (cd.Round == 2) != (cd.Status == Dropped) {
			t.Errorf("candidate %s: %s %s: %s", cd.ID, cd.Status, cd.Rule, cd.Reason)
		}
	}
	if len(kept) != 2 || !contains(kept[storeMutant], storeMutant) || !contains(kept[serverMutant], serverMutant) {
		t.Errorf("kept tests and their kills: %v", kept)
	}
	wantAdded := []string{"example.com/tinykv/server.TestSetexAcceptsOneSecond", "example.com/tinykv/store.TestSetWithTTLAcceptsTheSmallestPositiveTTL"}
	sortStrings(rep.Added)
	if !reflect.DeepEqual(rep.Added, wantAdded) {
		t.Errorf("added %q", rep.Added)
	}
	m := rep.Mutants
	if m.KilledOverall != m.KilledOriginal+2 || contains(m.Survivors, storeMutant) || contains(m.Survivors, serverMutant) {
		t.Errorf("mutants %+v", m)
	}
	// The rewritten Harbor task, verified the way Harbor runs it: the
	// reference solution passes every listed test and completes every
	// section that has tests.
	solution, err := os.ReadFile(filepath.Join(c.Dir, build.SolutionFile))
	if err != nil {
		t.Fatal(err)
	}
	g, err := harbor.Verify(ctx, d, filepath.Join(c.Dir, build.TaskDir), solution, filepath.Join(t.TempDir(), "verify"), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if g.Reward != 1 || g.F2PTotal != len(rep.FailToPass) || g.F2PPassed != g.F2PTotal || g.SectionsTotal == 0 || g.SectionsCompleted != g.SectionsTotal {
		t.Errorf("verify: reward %d, F2P %d/%d, sections %d/%d", g.Reward, g.F2PPassed, g.F2PTotal, g.SectionsCompleted, g.SectionsTotal)
	}
	t.Logf("mutants killed %d -> %d of %d (%.1f%% -> %.1f%%); F2P coverage %.1f%% -> %.1f%%; %d jobs, %d runs; verified: reward %d, sections %d/%d",
		m.KilledOriginal, m.KilledOverall, m.SurvivedP2P, m.ScoreOriginal, m.ScoreOverall, rep.Coverage.F2POriginal, rep.Coverage.F2POverall, rep.Jobs, rep.Runs, g.Reward, g.SectionsCompleted, g.SectionsTotal)
}
