package report

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
)

// The charts are inline SVG. Go computes the geometry and the templates
// write the elements, so every label (a stage name, a rejection reason
// from status.json) goes through html/template's escaping like any other
// text: no chart is ever a template.HTML string.

// Chart is one SVG chart: rectangles, text and lines in a viewBox of Width
// by Height user units.
type Chart struct {
	Title  string
	Width  int
	Height int
	Rects  []Rect
	Texts  []Text
	Lines  []Line
	// Legend lists the classes of the coloured series, with their names.
	Legend []LegendItem
	// Empty says there was nothing to draw; the template prints it
	// instead of an empty frame.
	Empty string
}

// Rect is one bar. Class picks its colour in style.css; Tip is the tooltip.
type Rect struct {
	X, Y, W, H Num
	Class      string
	Tip        string
}

// Text is one label. Anchor is "start", "middle" or "end".
type Text struct {
	X, Y   Num
	Anchor string
	Class  string
	Text   string
}

// Line is one axis or tick.
type Line struct {
	X1, Y1, X2, Y2 Num
	Class          string
}

// LegendItem names one series.
type LegendItem struct {
	Class string
	Name  string
}

// Num is a coordinate, written with at most one decimal so that the
// output is stable and small.
type Num float64

// String writes n with at most one decimal ("12", "12.5").
func (n Num) String() string {
	v := math.Round(float64(n)*10) / 10
	if v == 0 {
		v = 0 // no "-0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// Segment is one part of a stacked bar.
type Segment struct {
	Class string
	Name  string
	Value int
}

// BarRow is one row of a horizontal bar chart: a label and its segments.
type BarRow struct {
	Label    string
	Segments []Segment
}

// Layout of the horizontal bar charts, in user units.
const (
	barLabelWidth = 150
	barWidth      = 420
	barHeight     = 18
	barGap        = 6
	barValueWidth = 60
	chartPad      = 10
)

// HBarChart draws one stacked horizontal bar per row, scaled so that the
// longest row fills the bar area, with the row total after each bar. It is
// the funnel chart: stages as rows, results as segments.
func HBarChart(title string, rows []BarRow, legend []LegendItem) Chart {
	// The label column fits the longest label, so that none is clipped at
	// the chart's left edge (a collection step, a long stage name).
	labelWidth := barLabelWidth
	for _, r := range rows {
		labelWidth = max(labelWidth, textWidth(r.Label, labelCharWidth)+12)
	}
	c := Chart{Title: title, Width: chartPad*2 + labelWidth + barWidth + barValueWidth, Legend: legend}
	maxTotal := 0
	for _, r := range rows {
		t := 0
		for _, s := range r.Segments {
			t += max(s.Value, 0)
		}
		maxTotal = max(maxTotal, t)
	}
	if len(rows) == 0 {
		c.Empty = "no data"
		c.Height = 2 * chartPad
		return c
	}
	x0 := Num(chartPad + labelWidth)
	for i, r := range rows {
		y := Num(chartPad + i*(barHeight+barGap))
		c.Texts = append(c.Texts, Text{X: x0 - 6, Y: y + barHeight - 5, Anchor: "end", Class: "label", Text: r.Label})
		x := x0
		total := 0
		for _, s := range r.Segments {
			if s.Value <= 0 {
				continue
			}
			total += s.Value
			w := Num(float64(barWidth) * float64(s.Value) / float64(maxTotal))
			c.Rects = append(c.Rects, Rect{X: x, Y: y, W: w, H: barHeight, Class: s.Class,
				Tip: fmt.Sprintf("%s: %s %d", r.Label, s.Name, s.Value)})
			x += w
		}
		c.Texts = append(c.Texts, Text{X: x + 4, Y: y + barHeight - 5, Anchor: "start", Class: "value", Text: strconv.Itoa(total)})
	}
	c.Height = 2*chartPad + len(rows)*(barHeight+barGap) - barGap
	c.Lines = append(c.Lines, Line{X1: x0, Y1: chartPad - 2, X2: x0, Y2: Num(c.Height - chartPad + 2), Class: "axis"})
	return c
}

// Bin is one histogram bin, [Lo, Hi).
type Bin struct {
	Lo, Hi float64
	Count  int
}

// Bins splits values into about sqrt(n) bins (at most 12) of a "nice"
// width (1, 2 or 5 times a power of ten), starting at a multiple of the
// width, so that the edges read well. Bins are [Lo, Hi) except the last,
// which also holds its Hi; values beyond 50 bins (a far outlier) land in
// the last one.
func Bins(values []float64) []Bin {
	var vs []float64
	for _, v := range values {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return nil
	}
	lo, hi := vs[0], vs[0]
	for _, v := range vs {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	n := min(max(int(math.Ceil(math.Sqrt(float64(len(vs))))), 1), 12)
	span := hi - lo
	if span == 0 {
		span = math.Max(math.Abs(hi), 1)
	}
	width := niceStep(span / float64(n))
	start := math.Floor(lo/width) * width
	// The last bin is closed, so the maximum on an edge makes no bin of
	// its own.
	count := int(math.Ceil((hi-start)/width - 1e-9))
	count = min(max(count, 1), 50)
	bins := make([]Bin, count)
	for i := range bins {
		bins[i] = Bin{Lo: start + float64(i)*width, Hi: start + float64(i+1)*width}
	}
	for _, v := range vs {
		i := min(max(int(math.Floor((v-start)/width)), 0), count-1)
		bins[i].Count++
	}
	return bins
}

// niceStep rounds x up to 1, 2 or 5 times a power of ten.
func niceStep(x float64) float64 {
	if x <= 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// Layout of the histograms, in user units.
const (
	histWidth  = 300
	histHeight = 120
	histLeft   = 36
	histBottom = 34
)

// Histogram draws the distribution of values as vertical bars with their
// counts on top and the bin edges below; unit names the x axis.
func Histogram(title, unit string, values []float64, class string) Chart {
	bins := Bins(values)
	c := Chart{Title: title, Width: histLeft + histWidth + chartPad, Height: chartPad + histHeight + histBottom}
	if len(bins) > 0 {
		// The last bin edge is centred on the chart's right end: room for
		// its right half, so that it is not clipped.
		c.Width = histLeft + histWidth + max(chartPad, textWidth(fmtEdge(bins[len(bins)-1].Hi), tickCharWidth)/2+2)
	}
	if len(bins) == 0 {
		c.Empty = "no data"
		c.Height = 2 * chartPad
		return c
	}
	maxCount := 0
	for _, b := range bins {
		maxCount = max(maxCount, b.Count)
	}
	bw := Num(float64(histWidth) / float64(len(bins)))
	base := Num(chartPad + histHeight)
	for i, b := range bins {
		x := Num(histLeft) + Num(i)*bw
		h := Num(float64(histHeight-14) * float64(b.Count) / float64(maxCount))
		if b.Count > 0 {
			c.Rects = append(c.Rects, Rect{X: x + 1, Y: base - h, W: bw - 2, H: h, Class: class,
				Tip: fmt.Sprintf("%s–%s %s: %d", fmtEdge(b.Lo), fmtEdge(b.Hi), unit, b.Count)})
			c.Texts = append(c.Texts, Text{X: x + bw/2, Y: base - h - 3, Anchor: "middle", Class: "value", Text: strconv.Itoa(b.Count)})
		}
		c.Texts = append(c.Texts, Text{X: x, Y: base + 14, Anchor: "middle", Class: "tick", Text: fmtEdge(b.Lo)})
	}
	c.Texts = append(c.Texts, Text{X: Num(histLeft) + Num(len(bins))*bw, Y: base + 14, Anchor: "middle", Class: "tick", Text: fmtEdge(bins[len(bins)-1].Hi)})
	c.Texts = append(c.Texts, Text{X: Num(histLeft) + histWidth/2, Y: base + 30, Anchor: "middle", Class: "label", Text: unit})
	c.Lines = append(c.Lines,
		Line{X1: histLeft, Y1: base, X2: Num(histLeft + histWidth), Y2: base, Class: "axis"},
		Line{X1: histLeft, Y1: chartPad, X2: histLeft, Y2: base, Class: "axis"})
	return c
}

// Average character widths of the chart fonts (style.css: 11px labels,
// 10px ticks), generous for digits and capitals: an SVG cannot measure its
// text before it is drawn.
const (
	labelCharWidth = 6.6
	tickCharWidth  = 6.0
)

// textWidth estimates the drawn width of s, in user units.
func textWidth(s string, charWidth float64) int {
	return int(math.Ceil(float64(utf8.RuneCountInString(s)) * charWidth))
}

// fmtEdge writes a bin edge without trailing zeros ("0.5", "20", "1500").
func fmtEdge(v float64) string {
	v = math.Round(v*1000) / 1000
	if v == 0 {
		v = 0
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
