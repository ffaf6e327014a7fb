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
	m := eval.Metrics{Agents: []eval.AgentMetrics{{Agent: agent, Tasks: 3, Attempts: 6, Resolved: f(50), Completed: f(800.0 / 14), F2P: f(1200.0 / 18), P2P: f(500.0 / 6),
		Counts: eval.Counts{Resolved: 3, SectionsCompleted: 8, Sections: 14, F2PPassed: 12, F2PTotal: 18, P2PPassed: 5, P2PTotal: 6, Crashed: 1},
		Macro:  eval.MacroMetrics{Completed: f(700.0 / 12), F2P: f(200.0 / 3), P2P: f(75)},
		Localization: eval.LocMetrics{Inspected: eval.LocView{Files: eval.PRMetric{Precision: f(100), Recall: f(100), Attempts: 3}, Functions: eval.PRMetric{Precision: f(700.0 / 9), Recall: f(100), Attempts: 3}},
			Modified: eval.LocView{Files: eval.PRMetric{Precision: f(100), Recall: f(1100.0 / 12), Attempts: 6}}},
		Efficiency: eval.EffMetrics{Attempts: 3, Turns: f(16.0 / 3), InputTokens: f(12345), CostUSD: f(0.00135), PhaseAttempts: 3,
			PhaseTokens:  []eval.PhaseMean{{Phase: "code_localization", First: eval.UsageMean{Input: 200, Output: 20}}, {Phase: "code_editing", First: eval.UsageMean{Input: 300, Output: 30}, Repair: eval.UsageMean{Input: 100, Output: 10}}},
			Unattributed: &eval.UsageMean{Input: 100, Output: 10}}}}}
	writeJSONLines(t, filepath.Join(dir, eval.MetricsFile), m)
	tx := taxonomy.Default()
	tl := eval.NewTally(tx)
	dets := []eval.Detection{{Mode: "misread_requirement", Phase: "requirement_understanding", Detection: "llm", Confidence: eval.Medium, Finding: eval.Finding{Steps: []int{2}}, Reason: "reads ms as <seconds>"},
		{Mode: "no_validation_attempted", Phase: "code_verification", Detection: "rule", Confidence: eval.High}}
	tl.Add(dets)
	an := eval.Analysis{Phases: tx.Phases, Signals: []string{"edit_before_exploration"}, Judge: eval.JudgeSummary{Status: "used", Model: "judge-m", Judged: 1, Kept: 1},
		Agents: []eval.AgentAnalysis{{Agent: agent, Attempts: 6, Failed: 2, NoTrajectory: 1, Analyzed: 1, Evaluable: 1, Table: tl.Table(),
			Signals: []eval.SignalCount{{Signal: "edit_before_exploration", Attempts: 1}}}}}
	writeJSONLines(t, filepath.Join(dir, eval.AnalysisFile), an)
	row := eval.Row{Agent: agent, Task: "kv-ep-0001", Candidate: "kv-ep-0001", Variant: "plain", Attempt: 2, Source: "harbor", Origin: "jobs/j/t",
		Verdict: "failed", GradedBy: "host", Trajectory: "events/kv-ep-0001.2.jsonl"}
	writeJSONLines(t, filepath.Join(dir, agent, eval.ResultsFile), row)
	writeJSONLines(t, filepath.Join(dir, agent, "events", "kv-ep-0001.2.jsonl"),
		trajectory.Event{Step: 1, Type: "message", Source: "user", Text: "Implement it."},
		trajectory.Event{Step: 2, Type: "message", Source: "agent", Text: "TTL is in ms <script>alert(1)</script>"},
		trajectory.Event{Step: 3, Type: "message", Source: "agent", Text: "Done."})
	writeJSONLines(t, filepath.Join(dir, agent, eval.AttributionsFile), eval.Attribution{Task: "kv-ep-0001", Attempt: 2, Trajectory: row.Trajectory, Modes: dets, Judged: true,
		Signals: []eval.SignalHit{{Signal: "edit_before_exploration", Finding: eval.Finding{Steps: []int{3}, Detail: "first edit: kv.go"}}},
		Dropped: []eval.Dropped{{Mode: "scope_misjudged", Why: eval.DropLowConfidence}}})

	st := &Stage{}
	if err := st.Run(context.Background(), &pipeline.Env{Workspace: ws}); err != nil {
		t.Fatal(err)
	}
	index, _ := os.ReadFile(st.Index)
	html := string(index)
	for _, want := range []string{
		`<a href="#evaluation">Evaluation</a>`,
		// Table 2 in the micro form, with its counts.
		`<tr><th scope="row">openhands__m-a</th><td class="num">3</td><td class="num">6</td><td class="num" title="3 of 6 attempts">50.0</td><td class="num" title="8 of 14 implementable sections">57.1</td>` +
			`<td class="num" title="12 of 18 FAIL_TO_PASS tests">66.7</td><td class="num" title="5 of 6 PASS_TO_PASS tests">83.3</td><td class="num">1</td><td class="num">0</td></tr>`,
		`<tr><th scope="row">openhands__m-a</th><td class="num">58.3</td><td class="num">66.7</td><td class="num">75.0</td></tr>`,
		// Efficiency: a cost under a cent keeps its digits.
		`<tr><th scope="row">openhands__m-a</th><td class="num">3</td><td class="num">5.3</td><td class="num">–</td><td class="num">12,345</td><td class="num">–</td><td class="num">–</td><td class="num">0.00135</td><td class="num">100 / 10</td></tr>`,
		// Figure 4 in both views.
		`<tr><th scope="row">openhands__m-a</th><td class="num" title="3 attempts">100.0</td><td class="num" title="3 attempts">100.0</td><td class="num" title="3 attempts">77.8</td><td class="num" title="3 attempts">100.0</td>` +
			`<td class="num" title="6 attempts">100.0</td><td class="num" title="6 attempts">91.7</td><td class="num" title="0 attempts">–</td><td class="num" title="0 attempts">–</td></tr>`,
		// Table 3 in units: high 1.0 and medium 0.6 split one unit as 5/8
		// and 3/8; N is 1, one failed attempt had no trajectory.
		`<tr><th scope="row">openhands__m-a</th><td class="num">2</td><td class="num">1</td><td class="num">1</td><td class="num">0</td><td class="num">1</td>` +
			`<td class="num" title="exact 3/8; rounded alone 0.4; 37.5% of the evaluable failed attempts">0.4</td>`,
		`<td class="num" title="exact 5/8; rounded alone 0.6; 62.5% of the evaluable failed attempts">0.6</td>`,
		`<th class="num">Requirement Understanding</th>`, `<h4 id="phase-self_repair">Self-Repair</h4>`,
		`<tr><th scope="row">openhands__m-a</th><td class="num">1</td><td class="num">1</td></tr>`,
		`<a class="attempt-link" href="eval/openhands__m-a/kv-ep-0001.2.html">kv-ep-0001 attempt 2</a>: misread_requirement, no_validation_attempted`,
		`fill="url(#hatch-input-3)"`, `<pattern id="hatch-output-0"`, `Non-cached input tokens per phase (Figure 9)`, `Generated tokens per phase (Figure 9)`,
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
		`<h4>Step 2 <span class="badge failed">misread_requirement</span></h4>`,
		`<li>edit_before_exploration (steps <a class="ln" href="#step-3">3</a> ): first edit: kv.go</li>`,
		`<td>llm, medium</td>`, `<td>rule, high</td>`,
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
