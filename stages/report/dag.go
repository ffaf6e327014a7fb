package report

import (
	"fmt"
	"strings"

	"github.com/lolbench/lolbench/pipeline/sectiondag"
)

// Geometry of the section graph: one column per layer, a section per row.
const (
	dagMargin = 12
	dagColumn = 170 // column pitch
	dagRow    = 36  // row pitch
	dagBoxW   = 130
	dagBoxH   = 24
)

// dagChart draws a section graph as the other charts are drawn: a box per
// section in the column of its layer, a line per edge from the right side
// of the prerequisite to the left side of the section that builds on it.
// The tooltips carry the titles and the evidence.
func dagChart(g *sectiondag.Result) Chart {
	c := Chart{Title: "Section dependency graph: layers left to right; a line joins a section to one that builds on it"}
	if g == nil || g.Graph == nil || len(g.Nodes) == 0 {
		c.Empty = "no sections"
		return c
	}
	type pos struct{ x, y float64 }
	at := map[string]pos{}
	rows := 0
	for l, layer := range g.Layers {
		rows = max(rows, len(layer))
		for i, s := range layer {
			at[s] = pos{float64(dagMargin + l*dagColumn), float64(dagMargin + i*dagRow)}
		}
	}
	c.Width = 2*dagMargin + (len(g.Layers)-1)*dagColumn + dagBoxW
	c.Height = 2*dagMargin + (rows-1)*dagRow + dagBoxH
	for _, e := range g.Edges {
		u, v := at[e.From], at[e.To]
		c.Lines = append(c.Lines, Line{X1: Num(u.x + dagBoxW), Y1: Num(u.y + dagBoxH/2), X2: Num(v.x), Y2: Num(v.y + dagBoxH/2), Class: "edge"})
	}
	for _, n := range g.Nodes {
		p := at[n.ID]
		tip := n.ID
		if t := g.Titles[n.ID]; t != "" {
			tip += " " + t
		}
		c.Rects = append(c.Rects, Rect{X: Num(p.x), Y: Num(p.y), W: dagBoxW, H: dagBoxH, Class: "node", Tip: fmt.Sprintf("%s (layer %d)", tip, n.Layer)})
		c.Texts = append(c.Texts, Text{X: Num(p.x + dagBoxW/2), Y: Num(p.y + 16), Anchor: "middle", Class: "node", Text: clip(tip, 18)})
	}
	return c
}

// clip cuts a label to n characters, marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}
