package eval

import (
	"math/big"
	"path/filepath"

	"github.com/lolbench/lolbench/pipeline/trajectory"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// How the figures are computed (paper, section 4.1, 4.5 and Figure 9),
// written into metrics.json beside them.
var metricNotes = map[string]string{
	"resolved":     "percent of attempts whose verifier accepted the solution (every FAIL_TO_PASS and PASS_TO_PASS test passed); the paper runs one attempt per task, so this is its share of tasks resolved",
	"completed":    "micro over sections: the implementable sections completed over all implementable sections, summed over the agent's attempts; a section is completed when every FAIL_TO_PASS test mapped to it passed",
	"f2p":          "micro over tests: FAIL_TO_PASS tests passed over FAIL_TO_PASS tests, summed over the agent's attempts",
	"p2p":          "micro over tests: PASS_TO_PASS tests passed over PASS_TO_PASS tests, summed over the agent's attempts",
	"crashed":      "an attempt without a verifier result (the agent crashed or timed out before verification) counts as failed with none of its task's tests passed and no section completed",
	"counts":       "the numerators and denominators of the figures; without_counts are attempts graded from result.json's reward alone, which count in resolved but not in the test and section figures",
	"macro":        "an extra, not the paper's definition: completed, f2p and p2p per attempt, averaged over an agent's attempts at a task, then over its tasks",
	"localization": "Figure 4: precision and recall of the source files and functions the agent inspected (its reads), and separately of those its solution modified, against those the reference solution modified; files and functions that did not exist before are left out; per attempt (an empty set has precision 0), then macro over tasks",
	"efficiency":   "means per attempt over the attempts that report the figure; tokens are non-cached input, cached input and generated, from the trajectory's final_metrics, else its steps and subagents, else the trial's agent_result; phase_tokens split the steps' non-cached input and generated tokens by activity phase, first attempt and repair loops (Figure 9), and unattributed is the rest of the totals",
	"exact":        "figures in this file are not rounded; tables round them for display",
}

// Metrics is eval/metrics.json: one row of Table 2, Figure 4 and the
// efficiency figures per agent.
type Metrics struct {
	Notes  map[string]string `json:"notes"`
	Agents []AgentMetrics    `json:"agents"`
}

// AgentMetrics is one agent's figures, in percent, exact (not rounded),
// nil where no attempt has them.
type AgentMetrics struct {
	Agent    string `json:"agent"`
	Scaffold string `json:"scaffold"`
	Model    string `json:"model"`
	Tasks    int    `json:"tasks"`
	Attempts int    `json:"attempts"`
	// Table 2 as the paper defines it.
	Resolved  *float64 `json:"resolved"`
	Completed *float64 `json:"completed"`
	F2P       *float64 `json:"f2p"`
	P2P       *float64 `json:"p2p"`
	Counts    Counts   `json:"counts"`
	// Macro are the per-attempt figures averaged over tasks: an extra.
	Macro        MacroMetrics `json:"macro"`
	Localization LocMetrics   `json:"localization"`
	Efficiency   EffMetrics   `json:"efficiency"`
	// DAG sums the attempts scored against a section graph (issue 35);
	// nil when none was.
	DAG *DAGMetrics `json:"dag,omitempty"`
}

// DAGMetrics are the section-graph figures of an agent's attempts
// (docs/evaluation.md, "The section graph"): Completed along the graph
// over the attempts with a per-section grade (its numerator, the same
// denominator as Completed), their regressions, and the mean plan
// fidelity over the attempts that have it.
type DAGMetrics struct {
	Attempts      int      `json:"attempts"`
	Completed     *float64 `json:"completed"`
	Regressions   int      `json:"regressions"`
	EdgeAgreement *float64 `json:"edge_agreement"`
	Spearman      *float64 `json:"spearman_layers"`
}

// Counts are the numerators and denominators of Table 2.
type Counts struct {
	Resolved          int `json:"resolved"`
	SectionsCompleted int `json:"sections_completed"`
	Sections          int `json:"sections"`
	F2PPassed         int `json:"f2p_passed"`
	F2PTotal          int `json:"f2p_total"`
	P2PPassed         int `json:"p2p_passed"`
	P2PTotal          int `json:"p2p_total"`
	// Crashed are the attempts without a verifier result, counted as 0;
	// WithoutCounts those graded from result.json's reward alone.
	Crashed       int `json:"crashed"`
	WithoutCounts int `json:"without_counts"`
}

// MacroMetrics are per-attempt rates averaged over attempts at a task,
// then over tasks.
type MacroMetrics struct {
	Completed *float64 `json:"completed"`
	F2P       *float64 `json:"f2p"`
	P2P       *float64 `json:"p2p"`
}

// LocMetrics is Figure 4 for one agent: the two views.
type LocMetrics struct {
	Inspected LocView `json:"inspected"`
	Modified  LocView `json:"modified"`
}

// LocView is one view at the two levels.
type LocView struct {
	Files     PRMetric `json:"files"`
	Functions PRMetric `json:"functions"`
}

// PRMetric is precision and recall at one level, and how many attempts
// gave them.
type PRMetric struct {
	Precision *float64 `json:"precision"`
	Recall    *float64 `json:"recall"`
	Attempts  int      `json:"attempts"`
}

// EffMetrics are the efficiency means of one agent, per attempt.
type EffMetrics struct {
	Attempts     int      `json:"attempts"`
	Turns        *float64 `json:"turns"`
	WallSec      *float64 `json:"wall_time_sec"`
	InputTokens  *float64 `json:"input_tokens"`
	CachedTokens *float64 `json:"cached_tokens"`
	OutputTokens *float64 `json:"output_tokens"`
	CostUSD      *float64 `json:"cost_usd"`
	// PhaseTokens are Figure 9's means; PhaseAttempts counts the attempts
	// whose steps reported tokens. Unattributed is the mean of the totals
	// no phase claims, over those attempts.
	PhaseTokens   []PhaseMean `json:"phase_tokens"`
	PhaseAttempts int         `json:"phase_attempts"`
	Unattributed  *UsageMean  `json:"unattributed"`
}

// PhaseMean is one activity phase's mean tokens per attempt.
type PhaseMean struct {
	Phase  string    `json:"phase"`
	First  UsageMean `json:"first"`
	Repair UsageMean `json:"repair"`
}

// UsageMean is a mean of non-cached input and of generated tokens.
type UsageMean struct {
	Input  float64 `json:"input"`
	Output float64 `json:"output"`
}

// mean is an exact running mean.
type mean struct {
	sum big.Rat
	n   int64
}

func (m *mean) add(r *big.Rat) {
	m.sum.Add(&m.sum, r)
	m.n++
}

func (m *mean) value() *big.Rat {
	if m.n == 0 {
		return nil
	}
	return new(big.Rat).Quo(&m.sum, big.NewRat(m.n, 1))
}

// macro is a mean over tasks of the means over each task's attempts.
type macro struct {
	order  []string
	byTask map[string]*mean
}

func (m *macro) add(task string, r *big.Rat) {
	if m.byTask == nil {
		m.byTask = map[string]*mean{}
	}
	t, ok := m.byTask[task]
	if !ok {
		t = &mean{}
		m.byTask[task] = t
		m.order = append(m.order, task)
	}
	t.add(r)
}

func (m *macro) count() int {
	n := 0
	for _, t := range m.byTask {
		n += int(t.n)
	}
	return n
}

func (m *macro) percent() *float64 {
	var all mean
	for _, task := range m.order {
		all.add(m.byTask[task].value())
	}
	return percentOf(all.value())
}

// percentOf is 100 r as the nearest float64; nil for nil.
func percentOf(r *big.Rat) *float64 {
	if r == nil {
		return nil
	}
	f, _ := new(big.Rat).Mul(r, big.NewRat(100, 1)).Float64()
	return &f
}

// micro is a ratio of sums.
func micro(num, den int) *float64 {
	if den == 0 {
		return nil
	}
	return percentOf(big.NewRat(int64(num), int64(den)))
}

// round1 rounds an exact value half up to one decimal.
func round1(r *big.Rat) float64 {
	x := new(big.Rat).Mul(r, big.NewRat(10, 1))
	x.Add(x, big.NewRat(1, 2))
	q := new(big.Int).Div(x.Num(), x.Denom()) // floor for a positive denominator
	f, _ := new(big.Rat).SetFrac(q, big.NewInt(10)).Float64()
	return f
}

func frac(a, b int) *big.Rat { return big.NewRat(int64(a), int64(b)) }

// ComputeMetrics builds the tables over every agent's results.
func ComputeMetrics(ws *workspace.Workspace) (*Metrics, error) {
	agents, err := Agents(ws)
	if err != nil {
		return nil, err
	}
	m := &Metrics{Notes: metricNotes, Agents: []AgentMetrics{}}
	for _, agent := range agents {
		dir, err := AgentDir(ws, agent)
		if err != nil {
			return nil, err
		}
		am, err := agentMetrics(agent, filepath.Join(dir, ResultsFile))
		if err != nil {
			return nil, err
		}
		m.Agents = append(m.Agents, *am)
	}
	return m, nil
}

// sum is a running float sum for the efficiency means.
type sum struct {
	n int
	v float64
}

func (s *sum) add(v float64) { s.n++; s.v += v }

func (s *sum) mean() *float64 {
	if s.n == 0 {
		return nil
	}
	v := s.v / float64(s.n)
	return &v
}

func agentMetrics(agent, path string) (*AgentMetrics, error) {
	am := &AgentMetrics{Agent: agent}
	c := &am.Counts
	var completed, f2p, p2p macro
	var loc [2][2][2]macro // inspected, modified × files, functions × precision, recall
	var turns, wall, in, cached, out, cost sum
	var dagDone, dagSections int
	var agreement, rho sum
	phases := map[string]*[4]int64{}
	var unattributed [2]int64
	tasks := map[string]bool{}
	err := ReadResults(path, func(r *Row) error {
		am.Attempts++
		tasks[r.Task] = true
		am.Scaffold, am.Model = r.Scaffold, r.Model
		if r.Resolved {
			c.Resolved++
		}
		if r.GradedBy == GradedNone {
			c.Crashed++
		}
		if r.F2PPassed == nil || r.F2PTotal == nil || r.P2PPassed == nil || r.P2PTotal == nil || r.SectionsCompleted == nil || r.Sections == nil {
			c.WithoutCounts++
		} else {
			done := min(*r.SectionsCompleted, *r.Sections)
			c.SectionsCompleted += done
			c.Sections += *r.Sections
			c.F2PPassed += *r.F2PPassed
			c.F2PTotal += *r.F2PTotal
			c.P2PPassed += *r.P2PPassed
			c.P2PTotal += *r.P2PTotal
			if *r.Sections > 0 {
				completed.add(r.Task, frac(done, *r.Sections))
			}
			if *r.F2PTotal > 0 {
				f2p.add(r.Task, frac(*r.F2PPassed, *r.F2PTotal))
			}
			if *r.P2PTotal > 0 {
				p2p.add(r.Task, frac(*r.P2PPassed, *r.P2PTotal))
			}
		}
		if d := r.DAG; d != nil {
			if am.DAG == nil {
				am.DAG = &DAGMetrics{}
			}
			am.DAG.Attempts++
			if d.Completed != nil && r.Sections != nil {
				dagDone += min(*d.Completed, *r.Sections)
				dagSections += *r.Sections
				am.DAG.Regressions += len(d.Regressions)
			}
			if d.EdgeAgreement != nil {
				agreement.add(*d.EdgeAgreement)
			}
			if d.Spearman != nil {
				rho.add(*d.Spearman)
			}
		}
		if l := r.Localization; l != nil {
			for v, view := range []*View{l.Inspected, l.Modified} {
				if view == nil {
					continue
				}
				for lv, mt := range []Match{view.Files, view.Functions} {
					if mt.Reference == 0 {
						continue
					}
					p := frac(0, 1)
					if mt.Agent > 0 {
						p = frac(mt.Hit, mt.Agent)
					}
					loc[v][lv][0].add(r.Task, p)
					loc[v][lv][1].add(r.Task, frac(mt.Hit, mt.Reference))
				}
			}
		}
		if e := r.Efficiency; e != nil {
			am.Efficiency.Attempts++
			if e.Turns != nil {
				turns.add(float64(*e.Turns))
			}
			if e.WallSec != nil {
				wall.add(*e.WallSec)
			}
			if e.InputTokens != nil {
				in.add(float64(*e.InputTokens))
				cached.add(float64(val64(e.CachedTokens)))
				out.add(float64(val64(e.OutputTokens)))
			}
			if e.CostUSD != nil {
				cost.add(*e.CostUSD)
			}
			if len(e.PhaseTokens) > 0 {
				am.Efficiency.PhaseAttempts++
				for _, pt := range e.PhaseTokens {
					if phases[pt.Phase] == nil {
						phases[pt.Phase] = &[4]int64{}
					}
					v := phases[pt.Phase]
					v[0] += pt.First.Input
					v[1] += pt.First.Output
					v[2] += pt.Repair.Input
					v[3] += pt.Repair.Output
				}
				if u := e.Unattributed; u != nil {
					unattributed[0] += u.Input
					unattributed[1] += u.Output
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	am.Tasks = len(tasks)
	if am.Attempts > 0 {
		am.Resolved = micro(c.Resolved, am.Attempts)
	}
	am.Completed, am.F2P, am.P2P = micro(c.SectionsCompleted, c.Sections), micro(c.F2PPassed, c.F2PTotal), micro(c.P2PPassed, c.P2PTotal)
	am.Macro = MacroMetrics{Completed: completed.percent(), F2P: f2p.percent(), P2P: p2p.percent()}
	for v, lv := range []*LocView{&am.Localization.Inspected, &am.Localization.Modified} {
		for l, pm := range []*PRMetric{&lv.Files, &lv.Functions} {
			pm.Precision, pm.Recall, pm.Attempts = loc[v][l][0].percent(), loc[v][l][1].percent(), loc[v][l][0].count()
		}
	}
	if am.DAG != nil {
		am.DAG.Completed, am.DAG.EdgeAgreement, am.DAG.Spearman = micro(dagDone, dagSections), agreement.mean(), rho.mean()
	}
	ef := &am.Efficiency
	ef.Turns, ef.WallSec = turns.mean(), wall.mean()
	ef.InputTokens, ef.CachedTokens, ef.OutputTokens = in.mean(), cached.mean(), out.mean()
	ef.CostUSD = cost.mean()
	ef.PhaseTokens = []PhaseMean{}
	if n := float64(ef.PhaseAttempts); n > 0 {
		for _, p := range trajectory.Phases {
			v := phases[p]
			if v == nil {
				v = &[4]int64{}
			}
			ef.PhaseTokens = append(ef.PhaseTokens, PhaseMean{Phase: p,
				First: UsageMean{float64(v[0]) / n, float64(v[1]) / n}, Repair: UsageMean{float64(v[2]) / n, float64(v[3]) / n}})
		}
		ef.Unattributed = &UsageMean{float64(unattributed[0]) / n, float64(unattributed[1]) / n}
	}
	return am, nil
}
