package trajectory

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// summarizingRun is a run shaped like a summarizing agent's
// (testdata/summarizing-run): trajectory.json continues in
// trajectory.cont-1.json (v1.7, whose first two steps are copied context),
// the summarization's subagents have files of their own (one with final
// metrics, one without, which refers to a third that is missing), one
// subagent is embedded, and the last file's final metrics are above the
// steps' sums: they count the model calls outside the steps. stages/eval's
// tests read it too.
const summarizingRun = "testdata/summarizing-run"

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
	dir := summarizingRun
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

// FuzzReadATIF: whatever the bytes, ReadATIF returns an error or events
// that pass Check, and never panics.
func FuzzReadATIF(f *testing.F) {
	for _, name := range []string{"trajectory.json", "trajectory.cont-1.json", "trajectory.summarization-1-answers.json"} {
		data, err := os.ReadFile(filepath.Join(summarizingRun, name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"schema_version": "ATIF-v1.7", "steps": [{"step_id": 1, "source": "agent", "message": "", "tool_calls": [{"tool_call_id": "a", "function_name": "bash", "arguments": {"command": "head -n 5 a.go | sed -n '2,3p'"}}]}], "subagent_trajectories": [{"steps": []}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ReadATIF(bytes.NewReader(data), "f.json", 3, func(e *Event) error {
			if err := e.Check(); err != nil {
				t.Fatalf("event %+v: %v", e, err)
			}
			return nil
		})
	})
}

// FuzzClassifyCommand: any command classifies without a panic, into
// ranges that pass Check.
func FuzzClassifyCommand(f *testing.F) {
	for _, s := range []string{"head -n 50 a.py b.py && tail -5 c.py; sed -n '10,$p' d.py; cat e.py | head -3", "git checkout -- a.go", "sed -n 0,0p x", "tail -n +3 f", "head -n -1 f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		c := classifyCommand(cmd)
		e := &Event{Type: ToolCall, Action: c.action, FilesRead: c.read, Ranges: c.ranges}
		if err := e.Check(); err != nil {
			t.Fatalf("%q: %v", cmd, err)
		}
	})
}
