package trajectory

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// A run shaped like a summarizing agent's: trajectory.json continues in
// trajectory.cont-1.json (v1.7, whose first two steps are copied context),
// the summarization's subagents have files of their own (one with final
// metrics, one without, which refers to a third that is missing), one
// subagent is embedded, and the last file's final metrics are above the
// steps' sums: they count the model calls outside the steps.
var summarizingRun = map[string]string{
	"trajectory.json": `{"schema_version": "ATIF-v1.6", "session_id": "s", "agent": {"name": "summarizer", "version": "1", "model_name": "m"},
  "steps": [
    {"step_id": 1, "source": "user", "message": "Implement the proposal."},
    {"step_id": 2, "source": "agent", "message": "Reading.", "metrics": {"prompt_tokens": 1000, "cached_tokens": 200, "completion_tokens": 50, "cost_usd": 0.001},
     "tool_calls": [{"tool_call_id": "a", "function_name": "str_replace_editor", "arguments": {"command": "view", "path": "/testbed/kv/kv.go", "view_range": [1, 20]}}],
     "observation": {"results": [{"source_call_id": "a", "content": "package kv"}]}},
    {"step_id": 3, "source": "agent", "message": "Editing.", "metrics": {"prompt_tokens": 1500, "cached_tokens": 1000, "completion_tokens": 60, "cost_usd": 0.0015},
     "tool_calls": [{"tool_call_id": "b", "function_name": "str_replace_editor", "arguments": {"command": "str_replace", "path": "/testbed/kv/kv.go", "old_str": "1", "new_str": "2"}}],
     "observation": {"results": [{"source_call_id": "b", "content": "The file /testbed/kv/kv.go has been edited."}]}},
    {"step_id": 4, "source": "system", "message": "Summarized the context.",
     "observation": {"results": [{"subagent_trajectory_ref": [
       {"session_id": "s-sum", "trajectory_path": "trajectory.summarization-1-summary.json"},
       {"session_id": "s-ans", "trajectory_path": "trajectory.summarization-1-answers.json"},
       {"session_id": "s-out", "trajectory_path": "../outside.json"},
       {"trajectory_id": "emb-1"}]}]}}
  ],
  "final_metrics": {"total_prompt_tokens": 2500, "total_completion_tokens": 110, "total_cached_tokens": 1200},
  "continued_trajectory_ref": "trajectory.cont-1.json"}`,
	"trajectory.cont-1.json": `{"schema_version": "ATIF-v1.7", "session_id": "s", "agent": {"name": "summarizer", "version": "1", "model_name": "m"},
  "steps": [
    {"step_id": 1, "source": "user", "message": "Implement the proposal.", "is_copied_context": true},
    {"step_id": 2, "source": "agent", "message": "Reading.", "is_copied_context": true, "metrics": {"prompt_tokens": 1000, "completion_tokens": 50}},
    {"step_id": 3, "source": "user", "message": "You are picking up the work of another agent."},
    {"step_id": 4, "source": "agent", "message": "Testing.", "llm_call_count": 1, "metrics": {"prompt_tokens": 2000, "cached_tokens": 500, "completion_tokens": 80, "cost_usd": 0.002},
     "tool_calls": [{"tool_call_id": "c", "function_name": "bash", "arguments": {"command": "go test ./kv"}}],
     "observation": {"results": [{"source_call_id": "c", "content": "--- FAIL: TestGet (0.00s)\nFAIL\n[exit code 1]"}]}},
    {"step_id": 5, "source": "agent", "message": "", "llm_call_count": 0,
     "tool_calls": [{"tool_call_id": "d", "function_name": "bash", "arguments": {"command": "ls kv"}}],
     "observation": {"results": [{"source_call_id": "d", "content": "kv.go"}]}},
    {"step_id": 6, "source": "agent", "message": "I have implemented the proposal.", "metrics": {"prompt_tokens": 2200, "cached_tokens": 1800, "completion_tokens": 40, "cost_usd": 0.0021}}
  ],
  "subagent_trajectories": [{"schema_version": "ATIF-v1.7", "trajectory_id": "emb-1", "session_id": "e", "agent": {"name": "helper", "version": "1"},
    "steps": [{"step_id": 1, "source": "agent", "message": "", "metrics": {"prompt_tokens": 70, "completion_tokens": 4}}],
    "final_metrics": {"total_prompt_tokens": 100, "total_completion_tokens": 10, "total_cost_usd": 0.0001}}],
  "final_metrics": {"total_prompt_tokens": 9000, "total_completion_tokens": 400, "total_cached_tokens": 3500, "total_cost_usd": 0.0123}}`,
	"trajectory.summarization-1-summary.json": `{"schema_version": "ATIF-v1.6", "session_id": "s-sum", "agent": {"name": "summarizer", "version": "1"},
  "steps": [{"step_id": 1, "source": "user", "message": "Summarize."}, {"step_id": 2, "source": "agent", "message": "Summary.", "metrics": {"prompt_tokens": 550, "completion_tokens": 90}}],
  "final_metrics": {"total_prompt_tokens": 600, "total_completion_tokens": 100, "total_cost_usd": 0.0008}}`,
	"trajectory.summarization-1-answers.json": `{"schema_version": "ATIF-v1.6", "session_id": "s-ans", "agent": {"name": "summarizer", "version": "1"},
  "steps": [{"step_id": 1, "source": "user", "message": "Answer."},
    {"step_id": 2, "source": "agent", "message": "Answers.", "metrics": {"prompt_tokens": 300, "completion_tokens": 20, "cost_usd": 0.0003},
     "observation": {"results": [{"subagent_trajectory_ref": [{"session_id": "s-q", "trajectory_path": "trajectory.summarization-1-questions.json"}]}]}}]}`,
}

// dirOpener opens files of a folder (tests only: no link checks).
func dirOpener(dir string) Opener {
	return func(name string) (io.ReadCloser, error) { return os.Open(filepath.Join(dir, filepath.FromSlash(name))) }
}

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for n, c := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestReadRunSummarizingAgent(t *testing.T) {
	dir := writeFiles(t, summarizingRun)
	s := NewSummary()
	var steps []int
	run, err := ReadRun(dir, dirOpener(dir), "trajectory.json", func(e *Event) error {
		s.Add(e)
		if e.Type == Message {
			steps = append(steps, e.Step)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Finish()
	// The continuation numbers its steps on from 4; its copied steps 1
	// and 2 (5 and 6) are skipped.
	if !reflect.DeepEqual(steps, []int{1, 2, 3, 4, 7, 8, 9, 10}) {
		t.Errorf("message steps %v", steps)
	}
	if !reflect.DeepEqual(run.Files, []string{"trajectory.json", "trajectory.cont-1.json"}) || run.Info.SessionID != "s" ||
		!reflect.DeepEqual(run.SubagentFiles, []string{"trajectory.summarization-1-summary.json", "trajectory.summarization-1-answers.json"}) {
		t.Errorf("files %v subagent files %v", run.Files, run.SubagentFiles)
	}
	if want := []string{`subagent trajectory "../outside.json" (in trajectory.json) is not a file of the trial: its tokens are not counted`,
		"subagent trajectory trajectory.summarization-1-questions.json is not in the trial: its tokens are not counted"}; !reflect.DeepEqual(run.Notes, want) {
		t.Errorf("notes %q", run.Notes)
	}
	// The last file's final metrics are the run's: 9000 prompt tokens of
	// which 3500 cached, 400 generated.
	if run.Final == nil || run.Final.Totals().Tokens != (Tokens{Input: 5500, Cached: 3500, Output: 400}) || *run.Final.CostUSD != 0.0123 {
		t.Errorf("final %+v", run.Final)
	}
	// Subagents: the summary's final metrics (600, 100, $0.0008), the
	// answers' step (300, 20, $0.0003) and the embedded one's final
	// metrics (100, 10, $0.0001).
	if sub := run.Subagents; sub.Tokens != (Tokens{Input: 1000, Output: 130}) || math.Abs(sub.CostUSD-0.0012) > 1e-12 {
		t.Errorf("subagents %+v", sub)
	}
	// Turns: steps 2 and 3, then 8 and 10 (9 made no model call; the
	// copied step is not the agent's). Steps' sums: prompt 1000 + 1500 +
	// 2000 + 2200 = 6700 of which cached 200 + 1000 + 500 + 1800 = 3500,
	// generated 50 + 60 + 80 + 40 = 230, cost $0.0066.
	if s.Turns != 4 || s.Steps.Tokens != (Tokens{Input: 3200, Cached: 3500, Output: 230}) || math.Abs(s.Steps.CostUSD-0.0066) > 1e-12 {
		t.Errorf("turns %d steps %+v", s.Turns, s.Steps)
	}
	// Phases: the read (800 in, 50 out) is localization, the edit (500,
	// 60) editing, the failing test run (1500, 80) verification; the
	// closing message (400, 40) is unclaimed.
	u := func(in, out int64) Usage { return Usage{Input: in, Output: out} }
	if s.Phases[PhaseLocalization].First != u(800, 50) || s.Phases[PhaseEditing].First != u(500, 60) || s.Phases[PhaseVerification].First != u(1500, 80) ||
		s.Claimed() != u(2800, 190) || s.Unclaimed != u(400, 40) {
		t.Errorf("phases %+v %+v %+v unclaimed %+v", *s.Phases[PhaseLocalization], *s.Phases[PhaseEditing], *s.Phases[PhaseVerification], s.Unclaimed)
	}
	if !reflect.DeepEqual(s.Inspected["kv/kv.go"], &Coverage{Ranges: []Range{{From: 1, To: 20}}}) || len(s.Inspected) != 1 {
		t.Errorf("inspected %v", s.Inspected)
	}
}

func TestReadRunGuards(t *testing.T) {
	one := func(ref string) string {
		return fmt.Sprintf(`{"schema_version": "ATIF-v1.5", "steps": [{"step_id": 1, "source": "agent", "message": "x"}], "continued_trajectory_ref": %q}`, ref)
	}
	for _, c := range []struct {
		name  string
		files map[string]string
		want  string // an error, or "note: ..." for a note
	}{
		{"cycle", map[string]string{"trajectory.json": one("b.json"), "b.json": one("trajectory.json")}, `DIR/b.json: continued_trajectory_ref "trajectory.json" comes back to a file already read`},
		{"self", map[string]string{"trajectory.json": one("./trajectory.json")}, `DIR/trajectory.json: continued_trajectory_ref "./trajectory.json" comes back to a file already read`},
		{"escape", map[string]string{"trajectory.json": one("../other/trajectory.json")}, `DIR/trajectory.json: continued_trajectory_ref: "../other/trajectory.json" leaves the trial's folder`},
		{"absolute", map[string]string{"trajectory.json": one("/etc/passwd")}, `DIR/trajectory.json: continued_trajectory_ref: "/etc/passwd" leaves the trial's folder`},
		{"url", map[string]string{"trajectory.json": one("s3://bucket/t.json")}, `DIR/trajectory.json: continued_trajectory_ref: "s3://bucket/t.json" leaves the trial's folder`},
		{"missing", map[string]string{"trajectory.json": one("cont.json")}, "note: continuation cont.json is not in the trial: the run's later steps are missing"},
		{"broken continuation", map[string]string{"trajectory.json": one("cont.json"), "cont.json": "{"}, "DIR/cont.json: "},
		{"long", func() map[string]string {
			m := map[string]string{"trajectory.json": one("c1.json")}
			for i := 1; i < MaxRunFiles; i++ {
				m[fmt.Sprintf("c%d.json", i)] = one(fmt.Sprintf("c%d.json", i+1))
			}
			return m
		}(), "DIR/c63.json: the run continues past 64 files"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := writeFiles(t, c.files)
			run, err := ReadRun(dir, dirOpener(dir), "trajectory.json", func(*Event) error { return nil })
			if note, ok := strings.CutPrefix(c.want, "note: "); ok {
				if err != nil || len(run.Notes) != 1 || run.Notes[0] != note {
					t.Fatalf("error %v notes %v", err, run)
				}
				return
			}
			want := strings.ReplaceAll(c.want, "DIR", dir)
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Fatalf("error %v, want %q", err, want)
			}
		})
	}
}
