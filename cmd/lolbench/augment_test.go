package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/internal/testcand"
)

func TestAugmentFlags(t *testing.T) {
	tests := []struct {
		args []string
		want AugmentOptions
		err  string
	}{
		{[]string{"a-1"}, AugmentOptions{Candidates: []string{"a-1"}, Workspace: "work", Loops: []string{"mutation", "coverage"}, Executor: "docker",
			PerPrompt: 2, MaxMutants: 20, MaxSpans: 6, Threshold: 50}, ""},
		{[]string{"--loops", "coverage", "--executor", "local", "--workspace", "w", "--force", "--json", "--per-prompt", "3", "--threshold", "60",
			"--max-mutants", "5", "--max-spans", "2", "--model", "m", "--replay-only", "--llm-config", "c.yaml"},
			AugmentOptions{Candidates: []string{}, Workspace: "w", Loops: []string{"coverage"}, Executor: "local", Force: true, JSON: true,
				PerPrompt: 3, MaxMutants: 5, MaxSpans: 2, Threshold: 60, Model: "m", ReplayOnly: true, ConfigFile: "c.yaml"}, ""},
		{[]string{"--loops", "mutation,ops"}, AugmentOptions{}, `--loops: unknown loop "ops" (loops: mutation, coverage)`},
		{[]string{"--executor", "podman"}, AugmentOptions{}, `invalid argument "podman" for "--executor" flag: want docker or local`},
		{[]string{"--threshold", "0"}, AugmentOptions{}, "augment: --threshold 0: a percentage above 0 and at most 100"},
	}
	for _, tt := range tests {
		var got *AugmentOptions
		f := &Factory{IO: &IOStreams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
		cmd := newCmdAugment(f, func(o *AugmentOptions) error { got = o; return nil })
		cmd.SetArgs(tt.args)
		cmd.SetOut(&bytes.Buffer{})
		cmd.SetErr(&bytes.Buffer{})
		err := cmd.Execute()
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%q: err %v, want %s", tt.args, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		got.Factory = nil
		if got.Candidates == nil {
			got.Candidates = []string{}
		}
		if tt.want.Candidates == nil {
			tt.want.Candidates = []string{}
		}
		if !reflect.DeepEqual(*got, tt.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", tt.args, *got, tt.want)
		}
	}
}

// TestAugmentRun: over a workspace whose candidate is not built, the stage
// skips with the next step and the summary covers no task; an unknown
// candidate is bad input.
func TestAugmentRun(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := testcand.Build(dir, testcand.Tinykv(filepath.Join("..", ".."))); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "augment", "--workspace", dir)
	wantOut := "tinykv-tkep-0002: skipped: no task built: run lolbench build tinykv-tkep-0002 first\n\nTable 9 over 0 augmented tasks:\n"
	if code != 0 || !strings.HasPrefix(out, wantOut) || !strings.Contains(out, "Mutation score                                  n/a        n/a\n") {
		t.Errorf("code %d\nstdout %q\nstderr %q", code, out, errOut)
	}
	if errOut != "tinykv-tkep-0002: augmenting tests\n" {
		t.Errorf("stderr %q", errOut)
	}
	out, _, code = runCLI(t, "augment", "--workspace", dir, "--json")
	var got augmentOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 {
		t.Fatalf("json: %v (code %d): %s", err, code, out)
	}
	if len(got.Candidates) != 1 || got.Candidates[0].Stages[0].Result != "skipped" || got.Summary == nil || got.Summary.Tasks != 0 {
		t.Errorf("json %+v", got)
	}
	_, errOut, code = runCLI(t, "augment", "nope", "--workspace", dir)
	if code != exitBadInput || !strings.Contains(errOut, "no candidate nope in workspace") {
		t.Errorf("unknown candidate: code %d, stderr %q", code, errOut)
	}
}
