package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/sectiondag"
	"github.com/lolbench/lolbench/pipeline/sectionmap"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

func TestRunFlags(t *testing.T) {
	tests := []struct {
		args    []string
		want    *RunOptions
		wantErr string
	}{
		{[]string{"--workspace", "w", "--from", "validate", "--to", "build", "--only", "a-1, b-2", "--jobs", "3", "--shard", "1/4", "--force"},
			&RunOptions{Workspace: "w", From: "validate", To: "build", Only: []string{"a-1", "b-2"}, Jobs: 3, Shard: pipeline.Shard{I: 1, N: 4}, Force: true, Executor: "auto"}, ""},
		{[]string{"--executor", "local", "--include-unreviewed", "--projects", "p.yaml", "--offline", "--runs", "1"},
			&RunOptions{Workspace: "work", Jobs: 1, Executor: "local", IncludeUnreviewed: true, Projects: "p.yaml", Offline: true, Runs: 1}, ""},
		{[]string{"--runs", "-1"}, nil, "--runs -1: want 1 or more (0: each recipe's)"},
		{[]string{"--shard", "4/4"}, nil, "want i/n with 0 <= i < n"},
		{[]string{"--jobs", "0"}, nil, "--jobs 0: want at least 1"},
		{[]string{"--only", "../x"}, nil, "invalid candidate id"},
		{[]string{"--executor", "kvm"}, nil, `invalid argument "kvm" for "--executor" flag: want docker, local or auto`},
	}
	for _, tt := range tests {
		var got *RunOptions
		cmd := NewCmdRun(&Factory{IO: &IOStreams{}}, func(o *RunOptions) error { got = o; return nil })
		cmd.SetArgs(tt.args)
		cmd.SetOut(&strings.Builder{})
		cmd.SetErr(&strings.Builder{})
		err := cmd.Execute()
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%v: error %v, want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%v: options %+v, %v; want %+v", tt.args, got, err, tt.want)
		}
	}
}

func TestStatus(t *testing.T) {
	ws, err := workspace.Open(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	write := func(id string, st map[string]*pipeline.StageStatus) {
		c, _ := pipeline.OpenCandidate(ws, id)
		os.MkdirAll(c.Dir, 0o755)
		if st != nil {
			if err := c.SaveStatus(&pipeline.Status{Stages: st}); err != nil {
				t.Fatal(err)
			}
		}
	}
	write("a-1", map[string]*pipeline.StageStatus{
		"map": {Result: pipeline.Skipped, Reason: "hand-written"}, "validate": {Result: pipeline.Passed},
		"audit": {Result: pipeline.Skipped, Reason: "no LLM endpoint"}, "build": {Result: pipeline.Passed},
	})
	write("b-2", map[string]*pipeline.StageStatus{
		"validate": {Result: pipeline.Rejected, Reason: "3 static-rule violations (R07)"},
		"build":    {Result: pipeline.Passed}, // stale: after the rejection
	})
	write("c-3", nil)
	// The tasks of a-1 and d-4 leave section 2 untested; d-4's augment had
	// no model.
	write("d-4", map[string]*pipeline.StageStatus{"build": {Result: pipeline.Passed}, "mutate": {Result: pipeline.Passed},
		"augment": {Result: pipeline.Skipped, Reason: llm.ErrNoEndpoint.Error() + "; untested sections it would target first: 2"}})
	for _, id := range []string{"a-1", "d-4"} {
		c, _ := pipeline.OpenCandidate(ws, id)
		m := sectionmap.Compute("mutate", sectionmap.Input{Tests: []string{"T"}, Sections: []mapping.TaskSection{{ID: "1"}, {ID: "2"}},
			Reverts: map[string]string{"revert-1": "1", "revert-2": "2"}, Judged: map[string]bool{"T": true}, Kills: map[string][]string{"T": {"revert-1"}}})
		if err := sectionmap.Save(c, m, true); err != nil {
			t.Fatal(err)
		}
	}
	// d-4's discriminativeness check flagged section 1.
	d4, _ := pipeline.OpenCandidate(ws, "d-4")
	if err := workspace.WriteJSON(filepath.Join(d4.Dir, sectiondag.File), &sectiondag.Result{Candidate: "d-4", Graph: &sectiondag.Graph{},
		Checks: []sectiondag.Check{{Section: "1", Ancestors: []string{"2"}, Tests: 1, Why: "the reference restricted to its ancestors (2) passes all 1 of its tests: they do not test its own code"},
			{Section: "2", Undetermined: true, Tests: 1, Why: "undetermined"}}}); err != nil {
		t.Fatal(err)
	}
	out, _, code := runCLI(t, "status", "--workspace", ws.Root)
	want := `CANDIDATE  LAST PASSED  STATE                 SECTIONS  REASON
a-1        build        passed                1/2       skipped: map, audit
b-2        -            rejected at validate  -         3 static-rule violations (R07)
c-3        -            new                   -         
d-4        mutate       passed                1/2       augment skipped: no LLM endpoint configured; set LOLBENCH_LLM_BASE_URL (and LOLBENCH_LLM_MODEL, LOLBENCH_LLM_API_KEY if the endpoint needs one); untested sections it would target first: 2

a-1: not ready: 1 untested section (no FAIL_TO_PASS test asserts it):
  2: no FAIL_TO_PASS test fails on its revert (revert-2) and no mapping row names a FAIL_TO_PASS test for it
  next: run lolbench mutate a-1: its kill matrix is the first evidence of which sections each test asserts

d-4: not ready: 1 untested section (no FAIL_TO_PASS test asserts it):
  2: no FAIL_TO_PASS test fails on its revert (revert-2) and no mapping row names a FAIL_TO_PASS test for it
  next: augment writes tests for untested sections first, but needs an LLM endpoint: set LOLBENCH_LLM_BASE_URL and LOLBENCH_LLM_MODEL, then run lolbench augment d-4

d-4: 1 section not discriminative (lolbench dag --check):
  1: the reference restricted to its ancestors (2) passes all 1 of its tests: they do not test its own code
`
	if code != 0 || out != want {
		t.Fatalf("status: code %d\n%s\nwant:\n%s", code, out, want)
	}
	out, _, code = runCLI(t, "status", "--workspace", ws.Root, "--json")
	var rows []statusRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil || code != 0 || len(rows) != 4 {
		t.Fatalf("status --json: code %d, %v\n%s", code, err, out)
	}
	if got := rows[3].Sections; got == nil || got.Reference != "1/2" || got.Stage != "mutate" ||
		!reflect.DeepEqual(got.Untested, []untestedStatus{{ID: "2", Why: "no FAIL_TO_PASS test fails on its revert (revert-2) and no mapping row names a FAIL_TO_PASS test for it"}}) {
		t.Errorf("status --json sections %+v", got)
	}
	if _, errOut, code := runCLI(t, "status", "--workspace", filepath.Join(ws.Root, "nope")); code != 2 || !strings.Contains(errOut, "does not exist") {
		t.Fatalf("missing workspace: code %d, %s", code, errOut)
	}
}

// fakeStage names a stage in progress events.
type fakeStage string

func (s fakeStage) Name() string   { return string(s) }
func (s fakeStage) String() string { return "running " + string(s) }

func TestRunProgress(t *testing.T) {
	events := []pipeline.Event{
		{Candidate: "a-1", Stage: fakeStage("validate")},
		{Candidate: "a-1", Stage: fakeStage("validate"), Done: &pipeline.StageOutcome{Stage: "validate", Result: pipeline.Passed}},
		{Candidate: "a-1", Stage: fakeStage("build"), Done: &pipeline.StageOutcome{Stage: "build", Result: pipeline.Rejected, Reason: "no F2P test", UpToDate: true}},
	}
	var plain strings.Builder
	p := newRunProgress(&plain, false, 2)
	for _, e := range events {
		p.observe(e)
	}
	p.wait()
	if want := "a-1: validate passed\na-1: build rejected (up to date): no F2P test\n"; plain.String() != want {
		t.Errorf("plain progress = %q, want %q", plain.String(), want)
	}
	var term strings.Builder
	p = newRunProgress(&term, true, 2)
	for _, e := range events {
		p.observe(e)
	}
	p.wait()
	if out := term.String(); !strings.Contains(out, "candidate a-1") || !strings.Contains(out, "rejected") {
		t.Errorf("terminal progress lacks the candidate's bar:\n%q", out)
	}
}
