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

// The evaluation section (issue 15): what `lolbench eval` and `lolbench
// analyze` wrote under <workspace>/eval, as Table 2 (agents × metrics),
// localization precision and recall (Figure 4), the tokens per phase
// (Figure 9: solid for the first attempt, hatched for repair loops),
// Table 3 (agents × phases) and one table per phase (agents × modes). Each
// failed attempt links to a page of its evidence, eval/<agent>/<task>.<n>.html,
// where the modes found cite its steps and the steps are shown in place.

// evalDir is the evidence pages' folder under the site.
const evalDir = "eval"

// evalView is the index's evaluation section; nil when the workspace has
// no evaluation.
type evalView struct {
	Metrics  *eval.Metrics
	Analysis *eval.Analysis
	// Table2 and Loc are the metrics' rows, formatted: one decimal, "–"
	// where no attempt gave the figure.
	Table2  []evalRow
	Loc     []evalRow
	Notes   []string // what could not be read
	Phases  []string
	Table3  []evalPhaseRow
	ByPhase []evalPhaseTable
	Chart   tokenChart
	Failed  []evalAgentFailures
}

type evalRow struct {
	Agent           string
	Tasks, Attempts int
	Cells           []string
}

// fmtOpt formats an optional figure.
func fmtOpt(v *float64, decimals int) string {
	if v == nil {
		return "–"
	}
	return formatNumber(*v, decimals)
}

type evalPhaseRow struct {
	Agent    string
	Attempts int64
	Failed   int
	Cells    []eval.Share
	Judge    string
}

type evalPhaseTable struct {
	Phase string
	Modes []taxonomy.Mode
	Rows  []evalModeRow
}

type evalModeRow struct {
	Agent string
	Cells []eval.Share
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
	v := &evalView{Phases: taxonomy.Default().Phases}
	var m eval.Metrics
	if err := workspace.ReadJSON(filepath.Join(dir, eval.MetricsFile), &m); err != nil {
		v.Notes = append(v.Notes, fmt.Sprintf("%s: %v", eval.MetricsFile, err))
	} else {
		v.Metrics = &m
		v.Chart = tokensChart(m.Agents)
		for _, a := range m.Agents {
			e, l := a.Efficiency, a.Localization
			v.Table2 = append(v.Table2, evalRow{Agent: a.Agent, Tasks: a.Tasks, Attempts: a.Attempts, Cells: []string{
				fmtOpt(a.Resolved, 1), fmtOpt(a.Completed, 1), fmtOpt(a.F2P, 1), fmtOpt(a.P2P, 1),
				fmtOpt(e.Turns, 1), fmtOpt(e.WallSec, 1), fmtOpt(e.InputTokens, 0), fmtOpt(e.CachedTokens, 0), fmtOpt(e.OutputTokens, 0), fmtOpt(e.CostUSD, 4)}})
			v.Loc = append(v.Loc, evalRow{Agent: a.Agent, Cells: []string{
				fmtOpt(l.Files.Precision, 1), fmtOpt(l.Files.Recall, 1), fmtOpt(l.Classes.Precision, 1), fmtOpt(l.Classes.Recall, 1),
				fmtOpt(l.Functions.Precision, 1), fmtOpt(l.Functions.Recall, 1)}})
		}
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

// tables lays out Table 3 and the per-phase tables.
func (v *evalView) tables(an *eval.Analysis) {
	tx := taxonomy.Default()
	for _, a := range an.Agents {
		v.Table3 = append(v.Table3, evalPhaseRow{Agent: a.Agent, Attempts: a.Table.Attempts, Failed: a.Failed, Cells: a.Table.Phases})
	}
	for _, p := range tx.Phases {
		pt := evalPhaseTable{Phase: p, Modes: tx.InPhase(p)}
		for _, a := range an.Agents {
			cells := a.Table.Modes[p]
			if len(cells) != len(pt.Modes) {
				cells = make([]eval.Share, len(pt.Modes))
			}
			pt.Rows = append(pt.Rows, evalModeRow{Agent: a.Agent, Cells: cells})
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

// tokenChart is Figure 9: per agent a bar of its mean tokens per attempt,
// one colour per activity phase, the first attempt solid and the repair
// loops hatched. Go computes the geometry; the template writes it.
type tokenChart struct {
	Width, Height int
	// Palette has one colour per activity phase; a hatched segment is
	// filled with its phase's pattern, "url(#hatch-N)".
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
var phaseColours = []string{"#868e96", "#ae3ec9", "#4c6ef5", "#12b886", "#f59f00", "#e03131"}

func tokensChart(agents []eval.AgentMetrics) tokenChart {
	const left, right, barH, gap, top = 190.0, 20.0, 18.0, 10.0, 8.0
	c := tokenChart{Width: 760, Palette: phaseColours}
	for i, p := range trajectory.Phases {
		c.Legend = append(c.Legend, tokenLegend{Fill: phaseColours[i], Name: p})
	}
	var total float64
	for _, a := range agents {
		var t float64
		for _, p := range a.Efficiency.PhaseTokens {
			t += p.First + p.Repair
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
			if ci >= len(phaseColours) {
				ci = -1
			}
			for _, part := range []struct {
				v       float64
				hatched bool
				what    string
			}{{p.First, false, "first attempt"}, {p.Repair, true, "repair loops"}} {
				if part.v <= 0 || ci < 0 {
					continue
				}
				w := part.v * scale
				fill := phaseColours[ci]
				if part.hatched {
					fill = fmt.Sprintf("url(#hatch-%d)", ci)
				}
				b.Segs = append(b.Segs, tokenSeg{X: Num(x), W: Num(w), Fill: fill,
					Tip: fmt.Sprintf("%s, %s, %s: %s tokens per attempt", a.Agent, p.Phase, part.what, formatNumber(part.v, 0))})
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
