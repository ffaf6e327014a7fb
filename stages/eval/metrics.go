package eval

import (
	"math"
	"math/big"
	"path/filepath"

	"github.com/lolbench/lolbench/pipeline/trajectory"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// How the figures are averaged (paper, section 4.1), written into
// metrics.json beside them.
var metricNotes = map[string]string{
	"resolved":     "percent of attempts whose every FAIL_TO_PASS and PASS_TO_PASS test passed; macro: averaged over an agent's attempts at a task, then over its tasks",
	"completed":    "percent of a task's implementable sections (the mapping's; the grade's sections_total without one) whose mapped FAIL_TO_PASS tests all passed; per attempt, then macro over tasks as for resolved",
	"f2p":          "percent of FAIL_TO_PASS tests passed, per attempt, then macro over tasks as for resolved (not micro over tests: a task with many tests would dominate)",
	"p2p":          "percent of PASS_TO_PASS tests passed, as for f2p",
	"localization": "precision and recall of the solution's source files, classes and functions (rule 27's scopes) against the reference solution's, in percent; per attempt (an empty solution has precision 0), then macro over tasks",
	"efficiency":   "means per attempt over the attempts that report the figure (micro over attempts); tokens are non-cached input, cached input and generated; phase_tokens split the turns' tokens by activity phase, first attempt and repair loops",
}

// Metrics is eval/metrics.json: one row of Table 2, Figure 4 and the
// efficiency figures per agent.
type Metrics struct {
	Notes  map[string]string `json:"notes"`
	Agents []AgentMetrics    `json:"agents"`
}

// AgentMetrics is one agent's figures, in percent with one decimal
// (rounded half up from the exact value), nil where no attempt has them.
type AgentMetrics struct {
	Agent        string     `json:"agent"`
	Scaffold     string     `json:"scaffold"`
	Model        string     `json:"model"`
	Tasks        int        `json:"tasks"`
	Attempts     int        `json:"attempts"`
	Resolved     *float64   `json:"resolved"`
	Completed    *float64   `json:"completed"`
	F2P          *float64   `json:"f2p"`
	P2P          *float64   `json:"p2p"`
	Localization LocMetrics `json:"localization"`
	Efficiency   EffMetrics `json:"efficiency"`
}

// LocMetrics is Figure 4 for one agent.
type LocMetrics struct {
	Files     PRMetric `json:"files"`
	Classes   PRMetric `json:"classes"`
	Functions PRMetric `json:"functions"`
}

// PRMetric is precision and recall at one level, and how many attempts
// gave them.
type PRMetric struct {
	Precision *float64 `json:"precision"`
	Recall    *float64 `json:"recall"`
	Attempts  int      `json:"attempts"`
}

// EffMetrics are the efficiency means of one agent.
type EffMetrics struct {
	Attempts     int         `json:"attempts"`
	Turns        *float64    `json:"turns"`
	WallSec      *float64    `json:"wall_time_sec"`
	InputTokens  *float64    `json:"input_tokens"`
	CachedTokens *float64    `json:"cached_tokens"`
	OutputTokens *float64    `json:"output_tokens"`
	CostUSD      *float64    `json:"cost_usd"`
	PhaseTokens  []PhaseMean `json:"phase_tokens"`
	// PhaseAttempts counts the attempts whose turns all had tokens.
	PhaseAttempts int `json:"phase_attempts"`
}

// PhaseMean is one activity phase's mean tokens per attempt.
type PhaseMean struct {
	Phase  string  `json:"phase"`
	First  float64 `json:"first"`
	Repair float64 `json:"repair"`
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
	v := all.value()
	if v == nil {
		return nil
	}
	return round1(new(big.Rat).Mul(v, big.NewRat(100, 1)))
}

// round1 rounds an exact value half up to one decimal.
func round1(r *big.Rat) *float64 {
	x := new(big.Rat).Mul(r, big.NewRat(10, 1))
	x.Add(x, big.NewRat(1, 2))
	q := new(big.Int).Div(x.Num(), x.Denom()) // floor for a positive denominator
	f, _ := new(big.Rat).SetFrac(q, big.NewInt(10)).Float64()
	return &f
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

type effSum struct {
	n   int
	sum float64
}

func (e *effSum) add(v float64) { e.n++; e.sum += v }

func (e *effSum) mean(decimals int) *float64 {
	if e.n == 0 {
		return nil
	}
	p := math.Pow(10, float64(decimals))
	v := math.Round(e.sum/float64(e.n)*p) / p
	return &v
}

func agentMetrics(agent, path string) (*AgentMetrics, error) {
	am := &AgentMetrics{Agent: agent}
	var resolved, completed, f2p, p2p macro
	var loc [3][2]macro // files, classes, functions × precision, recall
	var turns, wall, in, cached, out, cost effSum
	phase := map[string]*[2]int64{}
	tasks := map[string]bool{}
	effAttempts := 0
	err := ReadResults(path, func(r *Row) error {
		am.Attempts++
		tasks[r.Task] = true
		am.Scaffold, am.Model = r.Scaffold, r.Model
		rv := 0
		if r.Resolved {
			rv = 1
		}
		resolved.add(r.Task, frac(rv, 1))
		if r.SectionsCompleted != nil && r.Sections != nil && *r.Sections > 0 {
			completed.add(r.Task, frac(min(*r.SectionsCompleted, *r.Sections), *r.Sections))
		}
		if r.F2PPassed != nil && r.F2PTotal != nil && *r.F2PTotal > 0 {
			f2p.add(r.Task, frac(*r.F2PPassed, *r.F2PTotal))
		}
		if r.P2PPassed != nil && r.P2PTotal != nil && *r.P2PTotal > 0 {
			p2p.add(r.Task, frac(*r.P2PPassed, *r.P2PTotal))
		}
		if l := r.Localization; l != nil {
			for i, mt := range []Match{l.Files, l.Classes, l.Functions} {
				if mt.Reference == 0 {
					continue
				}
				p := frac(0, 1)
				if mt.Agent > 0 {
					p = frac(mt.Hit, mt.Agent)
				}
				loc[i][0].add(r.Task, p)
				loc[i][1].add(r.Task, frac(mt.Hit, mt.Reference))
			}
		}
		if e := r.Efficiency; e != nil {
			effAttempts++
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
					if phase[pt.Phase] == nil {
						phase[pt.Phase] = &[2]int64{}
					}
					phase[pt.Phase][0] += pt.First
					phase[pt.Phase][1] += pt.Repair
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	am.Tasks = len(tasks)
	am.Resolved, am.Completed, am.F2P, am.P2P = resolved.percent(), completed.percent(), f2p.percent(), p2p.percent()
	for i, pm := range []*PRMetric{&am.Localization.Files, &am.Localization.Classes, &am.Localization.Functions} {
		pm.Precision, pm.Recall, pm.Attempts = loc[i][0].percent(), loc[i][1].percent(), loc[i][0].count()
	}
	ef := &am.Efficiency
	ef.Attempts = effAttempts
	ef.Turns, ef.WallSec = turns.mean(1), wall.mean(1)
	ef.InputTokens, ef.CachedTokens, ef.OutputTokens = in.mean(0), cached.mean(0), out.mean(0)
	ef.CostUSD = cost.mean(4)
	ef.PhaseTokens = []PhaseMean{}
	if n := ef.PhaseAttempts; n > 0 {
		for _, p := range trajectory.Phases {
			v := phase[p]
			if v == nil {
				v = &[2]int64{}
			}
			ef.PhaseTokens = append(ef.PhaseTokens, PhaseMean{Phase: p, First: math.Round(float64(v[0]) / float64(n)), Repair: math.Round(float64(v[1]) / float64(n))})
		}
	}
	return am, nil
}
