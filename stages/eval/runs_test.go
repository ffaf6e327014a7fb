package eval

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/trajectory"
)

// summarizingRun reads pipeline/trajectory's run of a summarizing agent:
// trajectory.json continued in trajectory.cont-1.json, two subagent files
// (a third is referred to and missing, a fourth lies outside the trial),
// one embedded subagent, and final_metrics above the steps' sums.
func summarizingRun(t *testing.T) map[string]string {
	t.Helper()
	dir := filepath.Join("..", "..", "pipeline", "trajectory", "testdata", "summarizing-run")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files["agent/"+e.Name()] = string(data)
	}
	return files
}

// Whole trajectories and exact totals (issue 21, section 4): the
// continuation's turns count, subagents count towards tokens and cost but
// not turns, final_metrics are the totals when the last file has them,
// and what the phases do not claim is unattributed.
func TestWholeRunsAndExactTotals(t *testing.T) {
	ws := syntheticWorkspace(t)
	job := filepath.Join(t.TempDir(), "job")
	run := summarizingRun(t)
	// Without the continuation's final_metrics the totals are the steps'
	// sums and the subagents'.
	noFinal := map[string]string{}
	for p, c := range run {
		noFinal[p] = c
	}
	cont := run["agent/trajectory.cont-1.json"]
	i := strings.LastIndex(cont, `"final_metrics"`)
	noFinal["agent/trajectory.cont-1.json"] = strings.TrimRight(cont[:i], " \n,") + "}\n"
	// A v1.7 trajectory whose final_metrics give only the cost, under a
	// cent: exact in the JSON.
	single := `{"schema_version": "ATIF-v1.7", "session_id": "s", "agent": {"name": "openhands", "version": "1"},
	  "steps": [{"step_id": 1, "source": "user", "message": "Go."},
	    {"step_id": 2, "source": "agent", "message": "Done.", "llm_call_count": 1, "metrics": {"prompt_tokens": 120, "completion_tokens": 40, "cost_usd": 0.00075}},
	    {"step_id": 3, "source": "agent", "message": "Really done.", "metrics": {"prompt_tokens": 100, "completion_tokens": 40, "cost_usd": 0.0006}}],
	  "final_metrics": {"total_cost_usd": 0.00135}}`
	for _, tr := range []trial{
		{agent: "summarizer", model: "m", task: alpha, attempt: 1, passed: nil, extra: run, agentResult: `{"n_input_tokens": 999999, "n_output_tokens": 999999, "cost_usd": 99}`},
		{agent: "summarizer", model: "m", task: beta, attempt: 1, passed: nil, extra: noFinal},
		{agent: "openhands", model: "m", task: gamma, attempt: 1, passed: nil, atif: single},
	} {
		tr.write(t, job)
	}
	st := &Stage{Jobs: []string{job}}
	if err := st.Run(context.Background(), &pipeline.Env{Workspace: ws}); err != nil {
		t.Fatal(err)
	}
	rows := readRows(t, ws, "summarizer__m")
	if len(rows) != 2 {
		t.Fatalf("%d rows", len(rows))
	}
	u := func(in, out int64) trajectory.Usage { return trajectory.Usage{Input: in, Output: out} }
	phases := []PhaseTokens{{"requirement_understanding", u(0, 0), u(0, 0)}, {"task_planning", u(0, 0), u(0, 0)},
		{"code_localization", u(800, 50), u(0, 0)}, {"code_editing", u(500, 60), u(0, 0)}, {"code_verification", u(1500, 80), u(0, 0)}}
	i64 := func(v int64) *int64 { return &v }
	// With final_metrics: 9000 prompt tokens of which 3500 cached, 400
	// generated, $0.0123, never the trial's agent_result. The phases claim
	// (800 + 500 + 1500, 50 + 60 + 80) = (2800, 190): the rest, (2700,
	// 210), is the closing message, the summarization and the subagents.
	// Turns: 2 in trajectory.json, 2 in the continuation (its copied step
	// and its orchestration step are not turns, nor are the subagents').
	want := &Efficiency{Turns: n(4), InputTokens: i64(5500), CachedTokens: i64(3500), OutputTokens: i64(400), CostUSD: f(0.0123),
		TokensFrom: FromFinalMetrics, CostFrom: FromFinalMetrics, Subagents: 2, PhaseTokens: phases, Unattributed: &trajectory.Usage{Input: 2700, Output: 210}}
	if got := rows[0].Efficiency; !reflect.DeepEqual(got, want) {
		t.Errorf("with final_metrics:\n got %s\nwant %s", show(got), show(want))
	}
	// Without: the steps' sums (non-cached 3200, cached 3500, generated
	// 230, $0.0066) and the subagents' (1000, 0, 130, $0.0012).
	got := rows[1].Efficiency
	wantSteps := &Efficiency{Turns: n(4), InputTokens: i64(4200), CachedTokens: i64(3500), OutputTokens: i64(360), CostUSD: got.CostUSD,
		TokensFrom: FromSteps, CostFrom: FromSteps, Subagents: 2, PhaseTokens: phases, Unattributed: &trajectory.Usage{Input: 1400, Output: 170}}
	if !reflect.DeepEqual(got, wantSteps) || got.CostUSD == nil || *got.CostUSD < 0.0077999 || *got.CostUSD > 0.0078001 {
		t.Errorf("from the steps:\n got %s\nwant %s", show(got), show(wantSteps))
	}
	for _, note := range []string{`subagent trajectory "../outside.json" (in trajectory.json) is not a file of the trial: its tokens are not counted`,
		"subagent trajectory trajectory.summarization-1-questions.json is not in the trial: its tokens are not counted"} {
		if !strings.Contains(strings.Join(rows[0].Notes, "\n"), note) {
			t.Errorf("notes %q lack %q", rows[0].Notes, note)
		}
	}
	// The continuation's steps are numbered on: its last step is 10.
	events, _ := os.ReadFile(filepath.Join(ws.Root, Dir, "summarizer__m", rows[0].Trajectory))
	if !strings.Contains(string(events), `{"step":10,"type":"message","source":"agent","text":"I have implemented the proposal."`) {
		t.Errorf("events:\n%s", events)
	}
	// The v1.7 file: 2 turns, tokens from its steps, the cost from its
	// final_metrics, exact in metrics.json.
	oh := readRows(t, ws, "openhands__m")[0].Efficiency
	if *oh.Turns != 2 || *oh.InputTokens != 220 || *oh.OutputTokens != 80 || *oh.CostUSD != 0.00135 || oh.TokensFrom != FromSteps || oh.CostFrom != FromFinalMetrics {
		t.Errorf("v1.7 %s", show(oh))
	}
	for _, am := range st.Metrics.Agents {
		if am.Agent == "openhands__m" && (am.Efficiency.CostUSD == nil || *am.Efficiency.CostUSD != 0.00135) {
			t.Errorf("metrics cost %s", show(am.Efficiency))
		}
	}
}
