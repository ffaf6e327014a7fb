package pipeline

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline/workspace"
)

// A reason in status.json is one line, even when the error joins several.
func TestReasonsAreOneLine(t *testing.T) {
	tests := []struct {
		err    error
		result Result
		reason string
	}{
		{Reject("mapping.md:3: bad\nmapping.md:9: worse\n"), Rejected, "mapping.md:3: bad; mapping.md:9: worse"},
		{errors.Join(errors.New("llm rank: no valid answer"), errors.New("llm rank: record exchange: disk full")), Failed,
			"llm rank: no valid answer; llm rank: record exchange: disk full"},
		{Skip("no endpoint;\r\n  set LOLBENCH_LLM_BASE_URL"), Skipped, "no endpoint; set LOLBENCH_LLM_BASE_URL"},
		{errors.New("one line"), Failed, "one line"},
		{nil, Passed, ""},
	}
	for _, tt := range tests {
		res, reason := Classify(tt.err)
		if res != tt.result || reason != tt.reason {
			t.Errorf("Classify(%q) = %s %q, want %s %q", tt.err, res, reason, tt.result, tt.reason)
		}
	}

	ws, err := workspace.Open(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := OpenCandidate(ws, "demo-1")
	os.MkdirAll(c.Dir, 0o755)
	os.WriteFile(c.Dir+"/a.txt", []byte("a"), 0o644)
	s := &fakeStage{name: "a", file: "a.txt", err: Reject("two problems:\nfirst\nsecond")}
	if _, err := RunCandidate(context.Background(), &Env{Workspace: ws, Version: "test"}, c, []CandidateStage{s}); err != nil {
		t.Fatal(err)
	}
	st, err := c.LoadStatus()
	if err != nil || st.Stages["a"].Reason != "two problems: first; second" {
		t.Fatalf("status.json reason %q, %v", st.Stages["a"].Reason, err)
	}
}

// panicStage panics on one candidate.
type panicStage struct{ fakeStage }

func (s *panicStage) Run(ctx context.Context, env *Env, c *Candidate) error {
	if c.ID == "b-2" {
		panic("index out of range [3] with length 3")
	}
	return nil
}

// A stage that panics on one candidate is a bug, reported with its stack
// for that candidate; the other candidates run on.
func TestPanicInAStageIsReportedNotFatal(t *testing.T) {
	env, plan, _ := newPlanWorkspace(t, "a-1", "b-2", "c-3")
	plan.Each = []CandidateStage{&panicStage{fakeStage{name: "map", file: "input.txt"}}}
	sum, err := Run(context.Background(), env, plan, RunOptions{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range sum.Candidates {
		switch c.ID {
		case "b-2":
			if c.Err != "panic: index out of range [3] with length 3" || !strings.Contains(c.Panic, "panicStage).Run") {
				t.Errorf("b-2: error %q, stack %q", c.Err, c.Panic)
			}
		default:
			if c.Err != "" || c.Panic != "" || len(c.Outcomes) != 1 || c.Outcomes[0].Result != Passed {
				t.Errorf("%s: %+v", c.ID, c)
			}
		}
	}
}
