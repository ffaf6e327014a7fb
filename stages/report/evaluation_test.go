package report

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/data/taxonomy"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/trajectory"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/eval"
)

func writeJSONLines(t *testing.T, path string, vs ...any) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	var b strings.Builder
	for _, v := range vs {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The evaluation section renders what eval and analyze wrote, and each
// failed attempt gets an evidence page with its cited steps in place.
func TestEvaluationSection(t *testing.T) {
	ws, err := workspace.Open(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	const agent = "openhands__m-a"
	dir := filepath.Join(ws.Root, eval.Dir)
	f := func(v float64) *float64 { return &v }
	m := eval.Metrics{Agents: []eval.AgentMetrics{{Agent: agent, Tasks: 3, Attempts: 6, Resolved: f(50), Completed: f(58.3), F2P: f(66.7), P2P: f(75),
		Localization: eval.LocMetrics{Files: eval.PRMetric{Precision: f(91.7), Recall: f(91.7), Attempts: 6}},
		Efficiency: eval.EffMetrics{Attempts: 3, Turns: f(5.3), InputTokens: f(12345), PhaseAttempts: 3,
			PhaseTokens: []eval.PhaseMean{{Phase: "localization", First: 200}, {Phase: "implementation", First: 300, Repair: 100}}}}}}
	writeJSONLines(t, filepath.Join(dir, eval.MetricsFile), m)
	tx := taxonomy.Default()
	tl := eval.NewTally(tx)
	dets := []eval.Detection{{Mode: "requirement_misread", Phase: "requirement_understanding", Detection: "llm", Confidence: eval.Medium, Finding: eval.Finding{Steps: []int{2}}, Reason: "reads ms as <seconds>"},
		{Mode: "no_test_run", Phase: "verification", Detection: "rule", Confidence: eval.High}}
	tl.Add(dets)
	an := eval.Analysis{Phases: tx.Phases, Judge: eval.JudgeSummary{Status: "used", Model: "judge-m", Judged: 1, Kept: 1}, Agents: []eval.AgentAnalysis{{Agent: agent, Attempts: 6, Failed: 1, Table: tl.Table()}}}
	writeJSONLines(t, filepath.Join(dir, eval.AnalysisFile), an)
	row := eval.Row{Agent: agent, Task: "kv-ep-0001", Candidate: "kv-ep-0001", Variant: "plain", Attempt: 2, Source: "harbor", Origin: "jobs/j/t",
		Verdict: "failed", GradedBy: "host", Trajectory: "events/kv-ep-0001.2.jsonl"}
	writeJSONLines(t, filepath.Join(dir, agent, eval.ResultsFile), row)
	writeJSONLines(t, filepath.Join(dir, agent, "events", "kv-ep-0001.2.jsonl"),
		trajectory.Event{Step: 1, Type: "message", Source: "user", Text: "Implement it."},
		trajectory.Event{Step: 2, Type: "message", Source: "agent", Text: "TTL is in ms <script>alert(1)</script>"},
		trajectory.Event{Step: 3, Type: "message", Source: "agent", Text: "Done."})
	writeJSONLines(t, filepath.Join(dir, agent, eval.AttributionsFile), eval.Attribution{Task: "kv-ep-0001", Attempt: 2, Trajectory: row.Trajectory, Modes: dets, Judged: true,
		Dropped: []eval.Dropped{{Mode: "scope_misjudged", Why: eval.DropLowConfidence}}})

	st := &Stage{}
	if err := st.Run(context.Background(), &pipeline.Env{Workspace: ws}); err != nil {
		t.Fatal(err)
	}
	index, _ := os.ReadFile(st.Index)
	html := string(index)
	for _, want := range []string{
		`<a href="#evaluation">Evaluation</a>`,
		`<tr><th scope="row">openhands__m-a</th><td class="num">3</td><td class="num">6</td><td class="num">50.0</td><td class="num">58.3</td><td class="num">66.7</td><td class="num">75.0</td><td class="num">5.3</td><td class="num">–</td><td class="num">12,345</td>`,
		`<tr><th scope="row">openhands__m-a</th><td class="num">91.7</td><td class="num">91.7</td><td class="num">–</td>`,
		// Equation 1: high 1.0 and medium 0.6 over one attempt: 62.5% and
		// 37.5%.
		`<td class="num" title="exact 75/2; rounded alone 37.5">37.5</td>`,
		`<td class="num" title="exact 125/2; rounded alone 62.5">62.5</td>`,
		`<a class="attempt-link" href="eval/openhands__m-a/kv-ep-0001.2.html">kv-ep-0001 attempt 2</a>: requirement_misread, no_test_run`,
		`fill="url(#hatch-3)"`, `<pattern id="hatch-0"`,
		`Semantic judge: used (judge-m, 1 attempts judged, 1 judgments kept)`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("index lacks %s", want)
		}
	}
	page, err := os.ReadFile(filepath.Join(st.Dir, "eval", agent, "kv-ep-0001.2.html"))
	if err != nil {
		t.Fatal(err)
	}
	p := string(page)
	for _, want := range []string{
		`<a class="ln" href="#step-2">2</a>`,
		`<article class="block cited" id="step-2">`,
		`<h4>Step 2 <span class="badge failed">requirement_misread</span></h4>`,
		`agent: TTL is in ms &lt;script&gt;alert(1)&lt;/script&gt;`,
		`reads ms as &lt;seconds&gt;`,
		`<li>scope_misjudged: low confidence</li>`,
		`<article class="block" id="step-3">`,
	} {
		if !strings.Contains(p, want) {
			t.Errorf("evidence page lacks %s", want)
		}
	}
	if strings.Contains(p, "<script>") {
		t.Error("unescaped script in the evidence page")
	}
	// Without an evaluation the section and its pages are gone.
	os.RemoveAll(dir)
	if err := st.Run(context.Background(), &pipeline.Env{Workspace: ws}); err != nil {
		t.Fatal(err)
	}
	index, _ = os.ReadFile(st.Index)
	if strings.Contains(string(index), `id="evaluation"`) {
		t.Error("an evaluation section without an evaluation")
	}
	if _, err := os.Stat(filepath.Join(st.Dir, "eval")); !os.IsNotExist(err) {
		t.Errorf("stale evidence pages: %v", err)
	}
}
