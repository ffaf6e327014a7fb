package report

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/lolbench/lolbench/data/taxonomy"
	"github.com/lolbench/lolbench/pipeline/trajectory"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/eval"
)

// The evaluation section (issues 15 and 21): what `lolbench eval` and
// `lolbench analyze` wrote under <workspace>/eval, as Table 2 (agents ×
// metrics, in the paper's micro form), localization precision and recall in
// its two views (Figure 4), the non-cached input and generated tokens per
// phase (Figure 9: solid for the first attempt, hatched for repair loops,
// the unattributed tokens beside the bars), Table 3 (agents × phases) and
// one table per phase (agents × modes), both in attribution units, and the
// signals. Each failed attempt links to a page of its evidence,
// eval/<agent>/<task>.<n>.html, where the modes found cite its steps and the
// steps are shown in place.

// evalDir is the evidence pages' folder under the site.
const evalDir = "eval"

// evalView is the index's evaluation section; nil when the workspace has
// no evaluation.
type evalView struct {
	Metrics  *eval.Metrics
	Analysis *eval.Analysis
	// Table2, Macro, Efficiency and Loc are the metrics' rows, formatted:
	// one decimal, "–" where no attempt gave the figure.
	Table2     []evalRow
	Macro      []evalRow
	Efficiency []evalRow
	Loc        []evalRow
	Notes      []string // what could not be read
	Phases     []evalPhaseName
	Table3     []evalPhaseRow
	ByPhase    []evalPhaseTable
	Signals    []evalSignalRow
	Charts     []tokenChart
	Failed     []evalAgentFailures
}

// evalCell is a formatted figure and what it is made of.
type evalCell struct {
	Text  string
	Title string
}

type evalRow struct {
	Agent           string
	Tasks, Attempts int
	Cells           []evalCell
}

type evalPhaseName struct {
	ID, Name string
}

// fmtOpt formats an optional figure.
func fmtOpt(v *float64, decimals int) string {
	if v == nil {
		return "–"
	}
	return formatNumber(*v, decimals)
}

// fmtCost shows a cost with four significant digits: costs under a cent
// are common.
func fmtCost(v *float64) string {
	if v == nil {
		return "–"
	}
	return strconv.FormatFloat(*v, 'g', 4, 64)
}

// rate is a percentage with the counts it comes from.
func rate(v *float64, num, den int, of string) evalCell {
	return evalCell{Text: fmtOpt(v, 1), Title: fmt.Sprintf("%d of %d %s", num, den, of)}
}

type evalPhaseRow struct {
	Agent                          string
	Failed, NoTrajectory, Analyzed int
	Unattributed, Evaluable        int64
	Cells                          []evalUnits
}

// evalUnits is one cell of a table in units.
type evalUnits struct {
	Units string
	Title string
}

func unitsCell(c eval.Cell) evalUnits {
	return evalUnits{Units: formatNumber(c.Units, 1), Title: fmt.Sprintf("exact %s; rounded alone %s; %s%% of the evaluable failed attempts", c.Exact, formatNumber(c.Naive, 1), formatNumber(c.Percent, 1))}
}

type evalPhaseTable struct {
	Phase evalPhaseName
	Modes []taxonomy.Mode
	Rows  []evalModeRow
}

type evalModeRow struct {
	Agent string
	Total string
	Cells []evalUnits
}

type evalSignalRow struct {
	Agent    string
	Analyzed int
	Counts   []int
}

type evalAgentFailures struct {
	Agent    string
	Attempts []evalAttemptLink
	Note     string // why the list is incomplete
}

type evalAttemptLink struct {
	Task    string
	Attempt int
	Href    string
	Modes   []string
	Skipped string
}

// evidencePage is one failed attempt's page.
type evidencePage struct {
	Agent   string
	Row     *eval.Row
	Att     *eval.Attribution
	Steps   []evidenceStep
	Index   string // link back to the index
	StepErr string
}

type evidenceStep struct {
	N     int
	ID    string
	Text  string
	Cited []string // the modes that cite it
}

// evaluation reads the workspace's evaluation and writes the evidence
// pages under out/eval; it returns nil when there is none. Problems with
// the files are shown as notes, not errors: only a failed write fails.
func (s *Stage) evaluation(ws *workspace.Workspace, out string) (*evalView, error) {
	dir, err := ws.Path(eval.Dir)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(dir, eval.MetricsFile)); errors.Is(err, os.ErrNotExist) {
		return nil, os.RemoveAll(filepath.Join(out, evalDir))
	}
	tx := taxonomy.Default()
	v := &evalView{}
	for _, p := range tx.Phases {
		v.Phases = append(v.Phases, evalPhaseName{ID: p, Name: taxonomy.PhaseName(p)})
	}
	var m eval.Metrics
	if err := workspace.ReadJSON(filepath.Join(dir, eval.MetricsFile), &m); err != nil {
		v.Notes = append(v.Notes, fmt.Sprintf("%s: %v", eval.MetricsFile, err))
	} else {
		v.Metrics = &m
		v.metrics(&m)
	}
	var an eval.Analysis
	if err := workspace.ReadJSON(filepath.Join(dir, eval.AnalysisFile), &an); errors.Is(err, os.ErrNotExist) {
		v.Notes = append(v.Notes, "no failure analysis yet: run lolbench analyze")
	} else if err != nil {
		v.Notes = append(v.Notes, fmt.Sprintf("%s: %v", eval.AnalysisFile, err))
	} else {
		v.Analysis = &an
		v.tables(&an)
	}
	if err := os.RemoveAll(filepath.Join(out, evalDir)); err != nil {
		return nil, err
	}
	if v.Analysis != nil {
		for _, a := range v.Analysis.Agents {
			f, err := s.evidence(ws, out, a.Agent)
			if err != nil {
				return nil, err
			}
			v.Failed = append(v.Failed, f)
		}
	}
	return v, nil
}

// metrics lays out Table 2, the macro extra, efficiency, Figure 4 and
// Figure 9.
func (v *evalView) metrics(m *eval.Metrics) {
	v.Charts = []tokenChart{
		tokensChart(m.Agents, "input", "Non-cached input tokens", func(u eval.UsageMean) float64 { return u.Input }),
		tokensChart(m.Agents, "output", "Generated tokens", func(u eval.UsageMean) float64 { return u.Output }),
	}
	plain := func(texts ...string) []evalCell {
		var out []evalCell
		for _, t := range texts {
			out = append(out, evalCell{Text: t})
		}
		return out
	}
	pr := func(p eval.PRMetric) []evalCell {
		title := fmt.Sprintf("%d attempts", p.Attempts)
		return []evalCell{{fmtOpt(p.Precision, 1), title}, {fmtOpt(p.Recall, 1), title}}
	}
	for _, a := range m.Agents {
		c, e, l := a.Counts, a.Efficiency, a.Localization
		v.Table2 = append(v.Table2, evalRow{Agent: a.Agent, Tasks: a.Tasks, Attempts: a.Attempts, Cells: []evalCell{
			rate(a.Resolved, c.Resolved, a.Attempts, "attempts"), rate(a.Completed, c.SectionsCompleted, c.Sections, "implementable sections"),
			rate(a.F2P, c.F2PPassed, c.F2PTotal, "FAIL_TO_PASS tests"), rate(a.P2P, c.P2PPassed, c.P2PTotal, "PASS_TO_PASS tests"),
			{Text: strconv.Itoa(c.Crashed)}, {Text: strconv.Itoa(c.WithoutCounts)}}})
		v.Macro = append(v.Macro, evalRow{Agent: a.Agent, Cells: plain(fmtOpt(a.Macro.Completed, 1), fmtOpt(a.Macro.F2P, 1), fmtOpt(a.Macro.P2P, 1))})
		un := "–"
		if e.Unattributed != nil {
			un = formatNumber(e.Unattributed.Input, 0) + " / " + formatNumber(e.Unattributed.Output, 0)
		}
		v.Efficiency = append(v.Efficiency, evalRow{Agent: a.Agent, Attempts: e.Attempts, Cells: plain(fmtOpt(e.Turns, 1), fmtOpt(e.WallSec, 1),
			fmtOpt(e.InputTokens, 0), fmtOpt(e.CachedTokens, 0), fmtOpt(e.OutputTokens, 0), fmtCost(e.CostUSD), un)})
		var loc []evalCell
		for _, p := range []eval.PRMetric{l.Inspected.Files, l.Inspected.Functions, l.Modified.Files, l.Modified.Functions} {
			loc = append(loc, pr(p)...)
		}
		v.Loc = append(v.Loc, evalRow{Agent: a.Agent, Cells: loc})
	}
}

// tables lays out Table 3, the per-phase tables and the signals.
func (v *evalView) tables(an *eval.Analysis) {
	tx := taxonomy.Default()
	for _, a := range an.Agents {
		row := evalPhaseRow{Agent: a.Agent, Failed: a.Failed, NoTrajectory: a.NoTrajectory, Analyzed: a.Analyzed, Unattributed: a.Unattributed, Evaluable: a.Evaluable}
		for _, c := range a.Table.Phases {
			row.Cells = append(row.Cells, unitsCell(c))
		}
		v.Table3 = append(v.Table3, row)
		sr := evalSignalRow{Agent: a.Agent, Analyzed: a.Analyzed}
		for _, sg := range a.Signals {
			sr.Counts = append(sr.Counts, sg.Attempts)
		}
		v.Signals = append(v.Signals, sr)
	}
	for pi, p := range tx.Phases {
		pt := evalPhaseTable{Phase: v.Phases[pi], Modes: tx.InPhase(p)}
		for _, a := range an.Agents {
			cells := a.Table.Modes[p]
			if len(cells) != len(pt.Modes) {
				cells = make([]eval.Cell, len(pt.Modes))
			}
			row := evalModeRow{Agent: a.Agent, Total: "0.0"}
			if pi < len(a.Table.Phases) {
				row.Total = formatNumber(a.Table.Phases[pi].Units, 1)
			}
			for _, c := range cells {
				row.Cells = append(row.Cells, unitsCell(c))
			}
			pt.Rows = append(pt.Rows, row)
		}
		v.ByPhase = append(v.ByPhase, pt)
	}
}

// evidence writes the evidence pages of one agent's failed attempts.
func (s *Stage) evidence(ws *workspace.Workspace, out, agent string) (evalAgentFailures, error) {
	fa := evalAgentFailures{Agent: agent}
	agentDir, err := eval.AgentDir(ws, agent)
	if err != nil {
		return fa, nil
	}
	rows := map[string]*eval.Row{}
	_ = eval.ReadResults(filepath.Join(agentDir, eval.ResultsFile), func(r *eval.Row) error {
		if !r.Resolved {
			rows[r.Task+"\x00"+strconv.Itoa(r.Attempt)] = r
		}
		return nil
	})
	var werr error
	err = eval.ReadAttributions(filepath.Join(agentDir, eval.AttributionsFile), func(a *eval.Attribution) error {
		name := fmt.Sprintf("%s.%d.html", a.Task, a.Attempt)
		link := evalAttemptLink{Task: a.Task, Attempt: a.Attempt, Href: evalDir + "/" + agent + "/" + name, Skipped: a.Skipped}
		for _, d := range a.Modes {
			link.Modes = append(link.Modes, d.Mode)
		}
		page := &evidencePage{Agent: agent, Row: rows[a.Task+"\x00"+strconv.Itoa(a.Attempt)], Att: a, Index: "../../" + IndexFile}
		if page.Row != nil && page.Row.Trajectory != "" {
			var events []trajectory.Event
			if err := eval.ReadEvents(agentDir, page.Row, func(e *trajectory.Event) error {
				if len(events) >= eval.MaxEvents {
					return fmt.Errorf("more than %d events", eval.MaxEvents)
				}
				events = append(events, *e)
				return nil
			}); err != nil {
				page.StepErr = err.Error()
			}
			cites := map[int][]string{}
			for _, d := range a.Modes {
				for _, n := range d.Steps {
					cites[n] = append(cites[n], d.Mode)
				}
			}
			for _, st := range eval.Steps(events) {
				page.Steps = append(page.Steps, evidenceStep{N: st.N, ID: fmt.Sprintf("step-%d", st.N), Text: st.Text, Cited: cites[st.N]})
			}
		}
		fa.Attempts = append(fa.Attempts, link)
		if werr = writePage(filepath.Join(out, evalDir, agent, name), "evidence", page); werr != nil {
			return werr
		}
		return nil
	})
	if werr != nil {
		return fa, werr
	}
	if err != nil {
		fa.Note = err.Error()
	}
	return fa, nil
}

// tokenChart is one of Figure 9's two charts: per agent a bar of its mean
// tokens per attempt (non-cached input, or generated), one colour per
// activity phase, the first attempt solid and the repair loops hatched.
// Go computes the geometry; the template writes it.
type tokenChart struct {
	ID, Title     string
	Width, Height int
	// Palette has one colour per activity phase; a hatched segment is
	// filled with its phase's pattern, "url(#hatch-ID-N)".
	Palette []string
	Bars    []tokenBar
	Legend  []tokenLegend
	Max     string
	Empty   string
}

type tokenBar struct {
	Label    string
	Y, TextY Num
	Segs     []tokenSeg
}

type tokenSeg struct {
	X, W Num
	Fill string
	Tip  string
}

type tokenLegend struct {
	Fill string
	Name string
}

// phaseColours are the activity phases' colours, in trajectory.Phases order.
var phaseColours = []string{"#868e96", "#ae3ec9", "#4c6ef5", "#12b886", "#f59f00"}

// tokensChart draws the tokens pick takes of each phase's means.
func tokensChart(agents []eval.AgentMetrics, id, title string, pick func(eval.UsageMean) float64) tokenChart {
	const left, right, barH, gap, top = 190.0, 20.0, 18.0, 10.0, 8.0
	c := tokenChart{ID: id, Title: title, Width: 760, Palette: phaseColours}
	for i, p := range trajectory.Phases {
		c.Legend = append(c.Legend, tokenLegend{Fill: phaseColours[i], Name: taxonomy.PhaseName(p)})
	}
	var total float64
	for _, a := range agents {
		var t float64
		for _, p := range a.Efficiency.PhaseTokens {
			t += pick(p.First) + pick(p.Repair)
		}
		total = math.Max(total, t)
	}
	if total == 0 {
		c.Empty = "No trajectory reported tokens per step."
		return c
	}
	scale := (float64(c.Width) - left - right) / total
	y := top
	for _, a := range agents {
		if len(a.Efficiency.PhaseTokens) == 0 {
			continue
		}
		b := tokenBar{Label: a.Agent, Y: Num(y), TextY: Num(y + barH - 5)}
		x := left
		for _, p := range a.Efficiency.PhaseTokens {
			ci := slices.Index(trajectory.Phases, p.Phase)
			if ci < 0 || ci >= len(phaseColours) {
				continue
			}
			for _, part := range []struct {
				v       float64
				hatched bool
				what    string
			}{{pick(p.First), false, "first attempt"}, {pick(p.Repair), true, "repair loops"}} {
				if part.v <= 0 {
					continue
				}
				w := part.v * scale
				fill := phaseColours[ci]
				if part.hatched {
					fill = fmt.Sprintf("url(#hatch-%s-%d)", id, ci)
				}
				b.Segs = append(b.Segs, tokenSeg{X: Num(x), W: Num(w), Fill: fill,
					Tip: fmt.Sprintf("%s, %s, %s: %s tokens per attempt", a.Agent, taxonomy.PhaseName(p.Phase), part.what, formatNumber(part.v, 0))})
				x += w
			}
		}
		c.Bars = append(c.Bars, b)
		y += barH + gap
	}
	c.Height = int(y + 4)
	c.Max = formatNumber(total, 0)
	return c
}
