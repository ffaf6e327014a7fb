package eval

import (
	"math"
	"sort"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
	"github.com/lolbench/lolbench/pipeline/sectiondag"
	"github.com/lolbench/lolbench/pipeline/trajectory"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// loadDAG reads a candidate's dag.json.
func loadDAG(ws *workspace.Workspace, candidate string) (*sectiondag.Result, error) {
	c, err := pipeline.OpenCandidate(ws, candidate)
	if err != nil {
		return nil, err
	}
	return sectiondag.Load(c)
}

// dagScore scores an attempt against its task's graph: Completed along
// the graph from the grade's per-section results, plan fidelity from the
// normalized trajectory (row.Trajectory). nil, with a note, without a
// graph.
func dagScore(agentDir string, ti *taskInfo, g *grade.Grade, row *Row) (*DAGScore, error) {
	if ti.dag == nil {
		return nil, nil
	}
	s := &DAGScore{Order: [][]string{}}
	if row.GradedBy != GradedResultJSON && len(g.Sections) > 0 {
		done := map[string]bool{}
		for _, sec := range g.Sections {
			done[sec.ID] = sec.Completed
		}
		completedAlongDAG(ti.dag, done, s)
	} else {
		row.Notes = append(row.Notes, "no per-section grade: no Completed along the section graph")
	}
	if row.Trajectory == "" {
		return s, nil
	}
	var edits []*trajectory.Event
	if err := ReadEvents(agentDir, row, func(e *trajectory.Event) error {
		if e.Type == trajectory.Edit {
			edits = append(edits, &trajectory.Event{Type: e.Type, Step: e.Step, Path: e.Path, Error: e.Error, Revert: e.Revert})
		}
		return nil
	}); err != nil {
		return nil, err
	}
	planFidelity(ti.dag, firstEdits(ti.dag, edits), s)
	return s, nil
}

// DAGScore is one attempt against its task's section dependency graph
// (issue 35; docs/evaluation.md, "The section graph").
type DAGScore struct {
	// Completed counts the completed sections whose ancestors are all
	// completed; Regressions are the completed sections with an ancestor
	// that is not. Both are nil when the grade has no per-section result.
	Completed   *int     `json:"completed"`
	Regressions []string `json:"regressions"`
	// Order are the sections in the order the agent first edited a file
	// each owns; sections first edited by one step share a rank. Empty
	// without a trajectory.
	Order [][]string `json:"order"`
	// Respected, Violated and Tied count the graph's edges u -> v whose
	// ends the agent both edited: u first, v first, or both in one step.
	// EdgeAgreement is Respected / (Respected + Violated), nil when both
	// are 0.
	Respected     int      `json:"edges_respected"`
	Violated      int      `json:"edges_violated"`
	Tied          int      `json:"edges_tied"`
	EdgeAgreement *float64 `json:"edge_agreement"`
	// Spearman is Spearman's rho between the graph's layers and the
	// agent's first-edit order over the sections it edited (ties get
	// their mean rank); nil for fewer than two such sections or when
	// either ranking has no spread.
	Spearman *float64 `json:"spearman_layers"`
}

// completedAlongDAG scores the per-section grade against the graph.
func completedAlongDAG(g *sectiondag.Result, completed map[string]bool, s *DAGScore) {
	n := 0
	s.Regressions = []string{}
	for _, node := range g.Nodes {
		if !completed[node.ID] {
			continue
		}
		ok := true
		for _, a := range g.Ancestors(node.ID) {
			ok = ok && completed[a]
		}
		if ok {
			n++
		} else {
			s.Regressions = append(s.Regressions, node.ID)
		}
	}
	s.Completed = &n
}

// firstEdits maps each section to the step at which the agent first
// changed a file the section owns: an applied edit that undoes nothing.
func firstEdits(g *sectiondag.Result, events []*trajectory.Event) map[string]int {
	owners := map[string][]string{}
	for _, node := range g.Nodes {
		for _, f := range g.Files[node.ID] {
			owners[f] = append(owners[f], node.ID)
		}
	}
	first := map[string]int{}
	for _, e := range events {
		if e.Type != trajectory.Edit || e.Error || e.Revert {
			continue
		}
		for _, s := range owners[e.Path] {
			if _, ok := first[s]; !ok {
				first[s] = e.Step
			}
		}
	}
	return first
}

// planFidelity compares the first-edit order with the graph.
func planFidelity(g *sectiondag.Result, first map[string]int, s *DAGScore) {
	s.Order = [][]string{}
	var edited []string
	for _, node := range g.Nodes {
		if _, ok := first[node.ID]; ok {
			edited = append(edited, node.ID)
		}
	}
	sort.SliceStable(edited, func(i, j int) bool { return first[edited[i]] < first[edited[j]] })
	for i, id := range edited {
		if i > 0 && first[id] == first[edited[i-1]] {
			s.Order[len(s.Order)-1] = append(s.Order[len(s.Order)-1], id)
		} else {
			s.Order = append(s.Order, []string{id})
		}
	}
	for _, e := range g.Edges {
		fu, okU := first[e.From]
		fv, okV := first[e.To]
		switch {
		case !okU || !okV:
		case fu < fv:
			s.Respected++
		case fu > fv:
			s.Violated++
		default:
			s.Tied++
		}
	}
	if s.Respected+s.Violated > 0 {
		a := float64(s.Respected) / float64(s.Respected+s.Violated)
		s.EdgeAgreement = &a
	}
	layer := map[string]float64{}
	for _, node := range g.Nodes {
		layer[node.ID] = float64(node.Layer)
	}
	xs, ys := make([]float64, len(edited)), make([]float64, len(edited))
	for i, id := range edited {
		xs[i], ys[i] = layer[id], float64(first[id])
	}
	s.Spearman = spearman(xs, ys)
}

// spearman is Spearman's rank correlation: Pearson's r of the mean ranks.
func spearman(xs, ys []float64) *float64 {
	if len(xs) < 2 {
		return nil
	}
	rx, ry := ranks(xs), ranks(ys)
	var mx, my float64
	for i := range rx {
		mx += rx[i]
		my += ry[i]
	}
	mx /= float64(len(rx))
	my /= float64(len(ry))
	var sxy, sxx, syy float64
	for i := range rx {
		dx, dy := rx[i]-mx, ry[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return nil
	}
	r := sxy / math.Sqrt(sxx*syy)
	return &r
}

// ranks gives each value its 1-based rank, ties their mean rank.
func ranks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
	out := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && v[idx[j+1]] == v[idx[i]] {
			j++
		}
		mean := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			out[idx[k]] = mean
		}
		i = j + 1
	}
	return out
}
