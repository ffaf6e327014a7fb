package augment

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lolbench/lolbench/internal/dockertest"
	"github.com/lolbench/lolbench/internal/testcand"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/harbor"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/build"
	"github.com/lolbench/lolbench/stages/mutate"
)

// Tests the model writes for two of the int-constant mutants of tinykv
// that the original tests miss. `ttl <= 0` made `ttl <= 1` in
// Store.SetWithTTL: a one-nanosecond TTL is positive, so it is accepted;
// the test goes through public entry points and uses only names the EP
// writes. `d + time.Second - 1` made `- 2` in the TTL reply's rounding:
// one second and one nanosecond left round up to 2, but only a clock the
// test controls can leave exactly that, and the only way in is
// NewWithClock, which the PR adds and the EP never names, so the audit
// rejects the test as overly narrow.
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
	"time"

	"example.com/tinykv/store"
)

func TestTTLRoundsUpANanosecondPastASecond(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	srv := &Server{Store: store.NewWithClock(func() time.Time { return now })}
	if got := srv.Handle("SETEX a 10 v"); got != "OK" {
		t.Fatalf("SETEX a 10 v = %q, want OK", got)
	}
	now = now.Add(9*time.Second - time.Nanosecond)
	if got := srv.Handle("TTL a"); got != "TTL 2" {
		t.Fatalf("TTL a with 1s and 1ns left = %q, want TTL 2", got)
	}
}
`
)

// dockerCandidate puts a sample into a fresh workspace with its mapping
// and recipe, builds it and runs the int-constant operator's mutants, at
// most maxMutants of them (mutation.SpreadPerOperator: every container job
// costs seconds, and these tests are about what augment keeps, not about
// mutate), and returns the Docker executor; it skips without an engine or
// the offline base image.
func dockerCandidate(t *testing.T, spec testcand.Spec, language string, maxMutants int) (*sandbox.Docker, *pipeline.Env, *pipeline.Candidate) {
	t.Helper()
	if testing.Short() {
		t.Skip("SKIPPING Docker end-to-end test in -short mode")
	}
	d := dockertest.Executor(t)
	ws, c, err := testcand.Build(t.TempDir(), spec)
	if err != nil {
		t.Fatal(err)
	}
	info, err := c.LoadInfo()
	if err != nil {
		t.Fatal(err)
	}
	info.Language = language
	if err := workspace.WriteJSON(filepath.Join(c.Dir, pipeline.InfoFile), info); err != nil {
		t.Fatal(err)
	}
	if err := testcand.CopyMapping(spec, c, "mapping.md"); err != nil {
		t.Fatal(err)
	}
	r, err := recipe.Load(filepath.Join(spec.Sample, "recipe.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// One run per test job: these tests are about what augment keeps, not
	// about flaky tests (the build's and augment's repeated runs are
	// tested in their own packages), and each run costs seconds.
	r.Runs = 1
	r.Dir = ""                   // recorded by Load, not a field of recipe.yaml; the samples name no host file
	data, err := json.Marshal(r) // the recipe as YAML is JSON's superset
	if err != nil {
		t.Fatal(err)
	}
	if err := workspace.WriteFile(filepath.Join(c.Dir, build.RecipeFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	env := &pipeline.Env{Workspace: ws, Status: io.Discard, Getenv: os.Getenv, Version: "test"}
	outs, err := pipeline.RunCandidate(context.Background(), env, c, []pipeline.CandidateStage{&build.Stage{IncludeUnreviewed: true, Executor: d},
		&mutate.Stage{Executor: d, Families: []string{mutation.FamilyOps}, Operators: []string{"int-constant"}, MaxPerOperator: maxMutants}})
	if err != nil || len(outs) != 2 || outs[1].Result != pipeline.Passed {
		t.Fatalf("build and mutate: %+v %v", outs, err)
	}
	return d, env, c
}

// scriptSurvivors answers every surviving mutant's conversation with a
// file that fails the static checks (twice: it is dropped), except the
// scripted ones.
func scriptSurvivors(t *testing.T, survivors []string, scripted map[string]map[int]string) map[string]map[int]string {
	t.Helper()
	invalid := answer(t, Proposal{Path: "NOTES.txt", Name: "none", Source: "not a test"})
	script := map[string]map[int]string{}
	for _, m := range survivors {
		script[fmt.Sprintf("The surviving mutant %q", m)] = map[int]string{1: invalid, 2: invalid}
	}
	for m, rounds := range scripted {
		if !contains(survivors, m) {
			t.Fatalf("%s does not survive the original tests; survivors %q", m, survivors)
		}
		for r, a := range rounds {
			script[fmt.Sprintf("The surviving mutant %q", m)][r] = a
		}
	}
	return script
}

// TestDockerTinykv runs build, mutate (nine int-constant mutants) and
// augment (mutation loop) on the tinykv sample with the real Docker
// engine. Two mutants survive the original tests: the store test kills
// its target and is retained; the rounding test is rejected by the audit
// (a PR-only name) and its conversation's second answer fails the static
// checks and is dropped.
func TestDockerTinykv(t *testing.T) {
	t.Parallel() // beside TestDockerUnitconv: containers wait as much as they compute
	ctx := context.Background()
	d, env, c := dockerCandidate(t, testcand.Tinykv(filepath.Join("..", "..")), "Go", 9)
	set, err := mutation.Load(c)
	if err != nil {
		t.Fatal(err)
	}
	// The Python client's mutant survives too: go test's coverage cannot
	// see its lines, so it runs against every test, and none sees it.
	const storeMutant, serverMutant, clientMutant = "op-int-constant-026", "op-int-constant-015", "op-int-constant-001"
	script := scriptSurvivors(t, set.Matrix.Survivors(), map[string]map[int]string{
		storeMutant:  {1: answer(t, Proposal{Path: "store/ttl_smallest_test.go", Name: "TestSetWithTTLAcceptsTheSmallestPositiveTTL", Source: tinykvStoreTest})},
		serverMutant: {1: answer(t, Proposal{Path: "server/ttl_rounding_test.go", Name: "TestTTLRoundsUpANanosecondPastASecond", Source: tinykvServerTest})},
	})
	model := newFakeModel(t, script)
	st := &Stage{LLM: model.client(t, env.Workspace), Executor: d, Loops: []string{LoopMutation}}
	outs, err := pipeline.RunCandidate(ctx, env, c, []pipeline.CandidateStage{st})
	if err != nil || outs[0].Result != pipeline.Passed {
		t.Fatalf("augment: %+v %v", outs, err)
	}
	rep, err := LoadReport(c)
	if err != nil {
		t.Fatal(err)
	}
	kept := map[string][]string{}
	var server []string
	for _, cd := range rep.Candidates {
		switch {
		case cd.Status == Retained:
			kept[cd.Conversation] = cd.Kills
		case cd.Conversation == serverMutant:
			server = append(server, cd.ID+" "+cd.Status+" "+cd.Rule+": "+cd.Reason)
		case cd.Conversation == clientMutant && cd.Rule == "structure" && cd.Reason == "NOTES.txt is not a Go file":
			// The unscripted survivor's invalid answers.
		default:
			t.Errorf("candidate %s: %s %s: %s", cd.ID, cd.Status, cd.Rule, cd.Reason)
		}
	}
	if len(kept) != 1 || !contains(kept[storeMutant], storeMutant) {
		t.Errorf("kept tests and their kills: %v", kept)
	}
	wantServer := []string{
		"m-op-int-constant-015.1.1 rejected audit: overly narrow test: line 12: calls `NewWithClock`, which the PR introduces and the EP never names",
		"m-op-int-constant-015.2.1 dropped structure: NOTES.txt is not a Go file",
	}
	if !reflect.DeepEqual(server, wantServer) {
		t.Errorf("the rounding test's conversation:\n got %q\nwant %q", server, wantServer)
	}
	if !reflect.DeepEqual(set.Matrix.Survivors(), []string{clientMutant, serverMutant, storeMutant}) {
		t.Errorf("survivors of the original tests %q", set.Matrix.Survivors())
	}
	if !reflect.DeepEqual(rep.Added, []string{"example.com/tinykv/store.TestSetWithTTLAcceptsTheSmallestPositiveTTL"}) {
		t.Errorf("added %q", rep.Added)
	}
	m := rep.Mutants
	if m.KilledOverall != m.KilledOriginal+1 || contains(m.Survivors, storeMutant) || !contains(m.Survivors, serverMutant) {
		t.Errorf("mutants %+v", m)
	}
	// The rewritten Harbor task, verified the way Harbor runs it: the
	// reference solution passes every listed test and completes every task
	// section (only the int-constant operator ran, so no revert ties a
	// test to a section: the map rests on coverage and the rows, and every
	// section has a test).
	solution, err := os.ReadFile(filepath.Join(c.Dir, build.SolutionFile))
	if err != nil {
		t.Fatal(err)
	}
	g, err := harbor.Verify(ctx, d, filepath.Join(c.Dir, build.TaskDir), solution, filepath.Join(t.TempDir(), "verify"), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if g.Reward != 1 || g.F2PTotal != len(rep.FailToPass) || g.F2PPassed != g.F2PTotal || g.SectionsCompleted != 6 || g.SectionsTotal != 6 {
		t.Errorf("verify: reward %d, F2P %d/%d, sections %d/%d", g.Reward, g.F2PPassed, g.F2PTotal, g.SectionsCompleted, g.SectionsTotal)
	}
	for _, sec := range g.Sections {
		if sec.Completed != (sec.Tests > 0) || (sec.Tests > 0 && sec.Passed != sec.Tests) {
			t.Errorf("section %+v", sec)
		}
	}
	t.Logf("mutants killed %d -> %d of %d (%.1f%% -> %.1f%%); F2P coverage %.1f%% -> %.1f%%; %d jobs, %d runs; verified: reward %d, sections %d/%d",
		m.KilledOriginal, m.KilledOverall, m.SurvivedP2P, m.ScoreOriginal, m.ScoreOverall, rep.Coverage.F2POriginal, rep.Coverage.F2POverall, rep.Jobs, rep.Runs, g.Reward, g.SectionsCompleted, g.SectionsTotal)
}

// TestDockerUnitconv is the Python end to end: pytest through JUnit
// reports. The first answer reaches into a private method and is rejected
// by the audit; its rewrite asserts the canonical symbol of power(u, 1),
// kills the int-constant mutant that drops exponent-1 terms
// (`e * n != 0` made `!= 1`), and is retained.
func TestDockerUnitconv(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	spec := testcand.Spec{Sample: filepath.Join("..", "..", "data", "samples", "unitconv"), ID: "unitconv-ucep-0004", EPFile: "ep.md",
		EPID: "UCEP 4", Title: "Unit expressions and temperature scales"}
	d, env, c := dockerCandidate(t, spec, "Python", 16)
	set, err := mutation.Load(c)
	if err != nil {
		t.Fatal(err)
	}
	const target = "op-int-constant-024"
	private := "from unitconv import parse_unit, power\n\n\ndef test_power_one_terms():\n    assert power(parse_unit(\"m/s\"), 1)._terms() == ((\"m\", 1), (\"s\", -1))\n"
	public := "from unitconv import parse_unit, power\n\n\ndef test_power_one_keeps_every_term():\n    assert power(parse_unit(\"m/s\"), 1).symbol == \"m/s\"\n"
	script := scriptSurvivors(t, set.Matrix.Survivors(), map[string]map[int]string{target: {
		1: answer(t, Proposal{Path: "tests/test_power_terms.py", Name: "test_power_one_terms", Source: private}),
		2: answer(t, Proposal{Path: "tests/test_power_one.py", Name: "test_power_one_keeps_every_term", Source: public}),
	}})
	model := newFakeModel(t, script)
	st := &Stage{LLM: model.client(t, env.Workspace), Executor: d, Loops: []string{LoopMutation}}
	outs, err := pipeline.RunCandidate(ctx, env, c, []pipeline.CandidateStage{st})
	if err != nil || outs[0].Result != pipeline.Passed {
		t.Fatalf("augment: %+v %v", outs, err)
	}
	rep, err := LoadReport(c)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, cd := range rep.Candidates {
		if cd.Conversation == target {
			got = append(got, cd.ID+" "+cd.Status+" "+cd.Reason)
		}
	}
	want := []string{
		"m-op-int-constant-024.1.1 rejected overly narrow test: line 5: calls the private `_terms`",
		"m-op-int-constant-024.2.1 retained ",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("candidates:\n got %q\nwant %q", got, want)
	}
	if !reflect.DeepEqual(rep.Added, []string{"tests.test_power_one::test_power_one_keeps_every_term"}) {
		t.Errorf("added %q", rep.Added)
	}
	m := rep.Mutants
	if m.KilledOverall != m.KilledOriginal+1 || contains(m.Survivors, target) {
		t.Errorf("mutants %+v", m)
	}
	t.Logf("mutants killed %d -> %d of %d (%.1f%% -> %.1f%%); F2P coverage %.1f%% -> %.1f%%; %d jobs, %d runs",
		m.KilledOriginal, m.KilledOverall, m.SurvivedP2P, m.ScoreOriginal, m.ScoreOverall, rep.Coverage.F2POriginal, rep.Coverage.F2POverall, rep.Jobs, rep.Runs)
}
