package rules

import (
	"strconv"
	"strings"

	"github.com/lolbench/lolbench/pipeline/mapping"
)

// R18 checks sequential numbering.
var R18 = &Rule{
	ID:    18,
	Name:  "sequential-numbering",
	Doc:   `The # column of the Section Classification Summary and of the PR File Summary counts 1, 2, 3, ... without gaps or repeats, and the mapped blocks are numbered 1, 2, 3, ... in the order they appear. Each table, and the list of blocks, is reported once, at its first misnumbered row or block, with the number of misnumbered ones. Empty Section Classification Summary cells are rule 5's and a missing # column rule 4's. Renumber.`,
	Check: checkR18,
}

func checkR18(p *Pass) {
	m := p.Mapping
	if hasColumn(m.SCS.Columns, "#") {
		var got []string
		var lines []int
		for _, r := range m.SCS.Rows {
			got = append(got, r.Index)
			lines = append(lines, r.Line)
		}
		r18Check(p, mapping.PartSCS, "row", got, lines, true)
	}
	if hasColumn(m.PFS.Columns, "#") {
		var got []string
		var lines []int
		for _, r := range m.PFS.Rows {
			got = append(got, r.Index)
			lines = append(lines, r.Line)
		}
		r18Check(p, mapping.PartPFS, "row", got, lines, false)
	}
	var got []string
	var lines []int
	for _, b := range m.Blocks {
		got = append(got, strconv.Itoa(b.Number))
		lines = append(lines, b.Line)
	}
	r18Check(p, mapping.PartMappedSections, "block", got, lines, false)
}

// r18Check reports the first element whose number is not its position,
// once per table; skipEmpty leaves empty cells to rule 5.
func r18Check(p *Pass, part, what string, got []string, lines []int, skipEmpty bool) {
	bad, firstBad := 0, -1
	for i, g := range got {
		g = strings.TrimSpace(g)
		if (skipEmpty && mapping.IsNone(g)) || g == strconv.Itoa(i+1) {
			continue
		}
		bad++
		if firstBad < 0 {
			firstBad = i
		}
	}
	if bad == 0 {
		return
	}
	i := firstBad
	verb := "are"
	if bad == 1 {
		verb = "is"
	}
	p.Reportf(lines[i], part+" "+what+" "+strconv.Itoa(i+1), "%s %s %d is numbered %q, want %d; %d of the %d %ss %s misnumbered: number them 1 to %d in the order they appear",
		part, what, i+1, strings.TrimSpace(got[i]), i+1, bad, len(got), what, verb, len(got))
}
