package eval

import (
	"context"
	"math"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/sectiondag"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// alphaDAG is a graph for the synthetic alpha task: 1 (kv/kv.go) -> 2
// (api/api.go) -> 3 (api/api.go, too); 4 owns no file and stands alone.
var alphaDAG = &sectiondag.Result{Candidate: alpha, Graph: &sectiondag.Graph{
	Nodes: []sectiondag.Node{{ID: "1", Layer: 0}, {ID: "2", Layer: 1}, {ID: "3", Layer: 2}, {ID: "4", Layer: 0}},
	Edges: []sectiondag.Edge{{From: "1", To: "2", Evidence: []sectiondag.Evidence{{Kind: sectiondag.ProducerConsumer, Detail: "x"}}},
		{From: "2", To: "3", Evidence: []sectiondag.Evidence{{Kind: sectiondag.StructuralReuse, Detail: "y"}}}},
	Layers: [][]string{{"1", "4"}, {"2"}, {"3"}}, Depth: 3, Width: 2},
	Files: map[string][]string{"1": {"kv/kv.go"}, "2": {"api/api.go"}, "3": {"api/api.go"}, "4": {}}}

// TestDAGScores: eval scores the synthetic job's alpha attempts against
// alphaDAG, exactly (docs/evaluation.md, "The section graph").
func TestDAGScores(t *testing.T) {
	ws := syntheticWorkspace(t)
	if err := workspace.WriteJSON(filepath.Join(ws.Root, "candidates", alpha, sectiondag.File), alphaDAG); err != nil {
		t.Fatal(err)
	}
	job := syntheticJob(t)
	st := &Stage{Jobs: []string{filepath.Dir(job)}}
	if err := st.Run(context.Background(), &pipeline.Env{Workspace: ws}); err != nil {
		t.Fatal(err)
	}
	rowsA, rowsB := readRows(t, ws, "openhands__m-a"), readRows(t, ws, "terminus-2__m-b")
	for _, r := range append(append([]*Row{}, rowsA[2:]...), rowsB[2:]...) {
		if r.DAG != nil {
			t.Errorf("%s %d: a task without dag.json has DAG %s", r.Task, r.Attempt, show(r.DAG))
		}
	}
	// Both ranks: layers 0, 1, 2 against first edits at steps 4, 5, 5
	// (2 and 3 share api/api.go): rho = 1.5 / sqrt(2 * 1.5).
	rho := 1.5 / math.Sqrt(3)
	for _, tc := range []struct {
		name string
		row  *Row
		want *DAGScore
	}{
		// All tests pass; 4 has no test, so it is not completed.
		{"A1", rowsA[0], &DAGScore{Completed: n(3), Regressions: []string{}, Order: [][]string{}}},
		// Only 1's tests pass. The trajectory edits kv/kv.go at step 4,
		// api/api.go at step 5: 1 -> 2 respected, 2 -> 3 tied.
		{"A2", rowsA[1], &DAGScore{Completed: n(1), Regressions: []string{}, Order: [][]string{{"1"}, {"2", "3"}},
			Respected: 1, Tied: 1, EdgeAgreement: f(1), Spearman: f(rho)}},
		// reward.json only: no per-section grade; edits at steps 2 and 4
		// (the failed edit at step 5 does not count).
		{"B1", rowsB[0], &DAGScore{Order: [][]string{{"1"}, {"2", "3"}}, Respected: 1, Tied: 1, EdgeAgreement: f(1), Spearman: f(rho)}},
	} {
		got := tc.row.DAG
		if got == nil || !reflect.DeepEqual(got.Completed, tc.want.Completed) || !reflect.DeepEqual(got.Regressions, tc.want.Regressions) ||
			!reflect.DeepEqual(got.Order, tc.want.Order) || got.Respected != tc.want.Respected || got.Violated != tc.want.Violated || got.Tied != tc.want.Tied ||
			!near(got.EdgeAgreement, tc.want.EdgeAgreement) || !near(got.Spearman, tc.want.Spearman) {
			t.Errorf("%s: got %s\nwant %s", tc.name, show(got), show(tc.want))
		}
	}
	// metrics.json: A's alpha attempts complete 3 + 1 of 4 + 4 sections
	// along the graph; B's first has no per-section grade.
	m, err := ComputeMetrics(ws)
	if err != nil {
		t.Fatal(err)
	}
	wantA := &DAGMetrics{Attempts: 2, Completed: f(50), EdgeAgreement: f(1), Spearman: f(rho)}
	if got := m.Agents[0].DAG; got == nil || got.Attempts != wantA.Attempts || !near(got.Completed, wantA.Completed) || got.Regressions != 0 ||
		!near(got.EdgeAgreement, wantA.EdgeAgreement) || !near(got.Spearman, wantA.Spearman) {
		t.Errorf("agent A: %s", show(got))
	}
	if notes := rowsB[0].Notes; len(notes) == 0 || notes[len(notes)-1] != "no per-section grade: no Completed along the section graph" {
		t.Errorf("B1 notes %q", notes)
	}
}

func near(a, b *float64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return math.Abs(*a-*b) < 1e-12
}

// TestCompletedAlongDAG: a completed section whose ancestor is not is a
// regression and does not count; violated edges and an agent that edits
// in reverse layer order give agreement 0 and rho -1.
func TestCompletedAlongDAG(t *testing.T) {
	s := &DAGScore{}
	completedAlongDAG(alphaDAG, map[string]bool{"1": false, "2": true, "3": true, "4": true}, s)
	if *s.Completed != 1 || !reflect.DeepEqual(s.Regressions, []string{"2", "3"}) {
		t.Errorf("completed %d regressions %q", *s.Completed, s.Regressions)
	}
	g := &sectiondag.Result{Graph: &sectiondag.Graph{Nodes: []sectiondag.Node{{ID: "a", Layer: 0}, {ID: "b", Layer: 1}, {ID: "c", Layer: 2}},
		Edges: []sectiondag.Edge{{From: "a", To: "b"}, {From: "b", To: "c"}}}, Files: map[string][]string{"a": {"a.go"}, "b": {"b.go"}, "c": {"c.go"}}}
	s = &DAGScore{}
	planFidelity(g, map[string]int{"a": 9, "b": 5, "c": 2}, s)
	if s.Respected != 0 || s.Violated != 2 || *s.EdgeAgreement != 0 || math.Abs(*s.Spearman+1) > 1e-12 || !reflect.DeepEqual(s.Order, [][]string{{"c"}, {"b"}, {"a"}}) {
		t.Errorf("reverse: %s", show(s))
	}
	// One section edited: no agreement, no rho.
	s = &DAGScore{}
	planFidelity(g, map[string]int{"b": 3}, s)
	if s.EdgeAgreement != nil || s.Spearman != nil {
		t.Errorf("one section: %s", show(s))
	}
}
