package report

import (
	"reflect"
	"testing"

	"github.com/lolbench/lolbench/pipeline/sectiondag"
)

// TestDagChart: boxes by layer and row, edges from the right of the
// prerequisite to the left of the section that builds on it.
func TestDagChart(t *testing.T) {
	g := &sectiondag.Result{Titles: map[string]string{"1": "Store API", "2": "A very long section title"},
		Graph: &sectiondag.Graph{Nodes: []sectiondag.Node{{ID: "1"}, {ID: "2", Layer: 1}, {ID: "3"}},
			Edges:  []sectiondag.Edge{{From: "1", To: "2"}},
			Layers: [][]string{{"1", "3"}, {"2"}}, Depth: 2, Width: 2}}
	c := dagChart(g)
	if c.Width != 324 || c.Height != 84 || c.Empty != "" {
		t.Fatalf("size %dx%d %q", c.Width, c.Height, c.Empty)
	}
	if want := []Line{{X1: 142, Y1: 24, X2: 182, Y2: 24, Class: "edge"}}; !reflect.DeepEqual(c.Lines, want) {
		t.Errorf("lines %+v", c.Lines)
	}
	wantRects := []Rect{{X: 12, Y: 12, W: 130, H: 24, Class: "node", Tip: "1 Store API (layer 0)"},
		{X: 182, Y: 12, W: 130, H: 24, Class: "node", Tip: "2 A very long section title (layer 1)"},
		{X: 12, Y: 48, W: 130, H: 24, Class: "node", Tip: "3 (layer 0)"}}
	if !reflect.DeepEqual(c.Rects, wantRects) {
		t.Errorf("rects %+v", c.Rects)
	}
	if c.Texts[1].Text != "2 A very long sec…" || c.Texts[0].Text != "1 Store API" {
		t.Errorf("labels %q %q", c.Texts[0].Text, c.Texts[1].Text)
	}
	if e := dagChart(&sectiondag.Result{Graph: &sectiondag.Graph{}}); e.Empty != "no sections" {
		t.Errorf("empty: %+v", e)
	}
}
