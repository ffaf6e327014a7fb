package mapping

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Marker fills a judgement cell that nobody has filled yet: a cell of a
// scaffold (Scaffold) that needs a curator's or a model's decision, or an
// Unmapped row that Recompute added. A cell is unfilled when its whole
// value, trimmed, is Marker; a Marker inside a longer text is text.
const Marker = "TODO"

// IsMarker reports whether a cell, heading part or paragraph is unfilled.
func IsMarker(s string) bool { return strings.TrimSpace(s) == Marker }

// Unfilled is one judgement cell that still holds the Marker.
type Unfilled struct {
	Line int `json:"line"`
	// Where names the place the way rule violations do: "section 3.1",
	// "block 2", "file `a.go`", "Unmapped PR Files".
	Where string `json:"where"`
	// Cell names the decision that is missing: "Implementable",
	// "Category", "section", "quote", "which section `a.go` `T.f` serves".
	Cell string `json:"cell"`
}

// Unfilled lists the judgement cells of m that hold the Marker, in line
// order (docs/mapping-format.md, "Scaffolds and unfilled cells"). The
// judgement cells are the Implementable and Category of each section,
// a block's section, title, quote, requirement and summary bullets, the
// Reason of an Associated changes row and of both Unmapped tables, and
// each row of a block whose section is unfilled: which section that file
// or scope serves is the decision still to make.
func (m *Mapping) Unfilled() []Unfilled {
	var out []Unfilled
	add := func(line int, where, cell string) {
		out = append(out, Unfilled{Line: line, Where: where, Cell: cell})
	}
	for _, r := range m.SCS.Rows {
		where := "section " + strings.TrimSpace(r.Section)
		if IsMarker(r.Implementable) {
			add(r.Line, where, "Implementable")
		}
		if IsMarker(r.Category) {
			add(r.Line, where, "Category")
		}
	}
	for _, b := range m.Blocks {
		where := fmt.Sprintf("block %d", b.Number)
		if IsMarker(b.Section) {
			add(b.Line, where, "section")
		}
		if IsMarker(b.Title) {
			add(b.Line, where, "title")
		}
		if IsMarker(b.Quote.Text) {
			add(b.Quote.Line, where, "quote")
		}
		if IsMarker(b.Requirement.Text) {
			add(b.Requirement.Line, where, "requirement")
		}
		unassigned := IsMarker(b.Section)
		for _, t := range []*Table[CodeRow]{&b.Direct, &b.Associated} {
			for _, r := range t.Rows {
				if unassigned {
					add(r.Line, where, fmt.Sprintf("which section %s serves", scopeName(r)))
				}
				if t == &b.Associated && IsMarker(r.Reason) {
					add(r.Line, where, fmt.Sprintf("reason for %s", scopeName(r)))
				}
			}
		}
		for _, it := range b.Summary.Items {
			if IsMarker(it.Text) {
				add(it.Line, where, fmt.Sprintf("summary of `%s`", it.Path))
			}
		}
	}
	for _, r := range m.UnmappedSections.Rows {
		if IsMarker(r.Reason) {
			add(r.Line, "section "+strings.TrimSpace(r.Section), "Reason")
		}
	}
	for _, r := range m.UnmappedFiles.Rows {
		if IsMarker(r.Reason) {
			add(r.Line, "file `"+strings.TrimSpace(r.Path)+"`", "Reason")
		}
	}
	slices.SortStableFunc(out, func(a, b Unfilled) int { return cmp.Compare(a.Line, b.Line) })
	return out
}

// scopeName writes a block row's scope for a message: "`a.go` `T.f`",
// "`a.go` `T`" for a class body, "`a.go` (file level)".
func scopeName(r CodeRow) string {
	class, fn := strings.TrimSpace(r.Class), strings.TrimSpace(r.Function)
	if IsNone(class) {
		class = ""
	}
	if IsNone(fn) {
		fn = ""
	}
	name := strings.TrimPrefix(class+"."+fn, ".")
	name = strings.TrimSuffix(name, ".")
	if name == "" {
		return fmt.Sprintf("`%s` (file level)", strings.TrimSpace(r.Path))
	}
	return fmt.Sprintf("`%s` `%s`", strings.TrimSpace(r.Path), name)
}

// MarkerLines returns the lines at which a rule violation is a consequence
// of unfilled cells rather than a mistake of its own: every line that
// holds a Marker (a judgement cell, or a section list naming a block whose
// section is unfilled), and every line of a block whose section is
// unfilled, since the rules cannot judge rows that serve no section yet.
// `lolbench validate` holds back the violations at these lines while the
// cells are unfilled and reports the cells instead.
func (m *Mapping) MarkerLines() map[int]bool {
	lines := map[int]bool{}
	for _, u := range m.Unfilled() {
		lines[u.Line] = true
	}
	for _, r := range m.PFS.Rows {
		for _, cell := range []string{r.DirectSections, r.AssociatedSections, r.Role, r.Category} {
			if listHoldsMarker(cell) {
				lines[r.Line] = true
			}
		}
	}
	for _, b := range m.Blocks {
		if !IsMarker(b.Section) {
			continue
		}
		for l := b.Line; l <= b.lastLine(); l++ {
			lines[l] = true
		}
	}
	return lines
}

// listHoldsMarker reports a cell that is the Marker or a comma-separated
// list holding it ("3.1, TODO").
func listHoldsMarker(cell string) bool {
	for part := range strings.SplitSeq(cell, ",") {
		if IsMarker(part) {
			return true
		}
	}
	return false
}

// lastLine is the last line the parser saw content on in the block.
func (b *Block) lastLine() int {
	last := max(b.Line, b.Quote.Line, b.Requirement.Line, b.Counts.Line, b.Direct.Line, b.Associated.Line, b.Summary.Line)
	for _, t := range []*Table[CodeRow]{&b.Direct, &b.Associated} {
		for _, r := range t.Rows {
			last = max(last, r.Line)
		}
	}
	for _, it := range b.Summary.Items {
		last = max(last, it.Line)
	}
	if b.Quote.Raw != "" {
		last = max(last, b.Quote.Line+strings.Count(b.Quote.Raw, "\n"))
	}
	return last
}
