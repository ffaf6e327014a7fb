package rules

import (
	"strings"

	"github.com/lolbench/lolbench/pipeline/mapping"
)

// R03 checks ep section completeness.
var R03 = &Rule{
	ID:    3,
	Name:  "ep-section-completeness",
	Doc:   `Every heading of the EP, Markdown or reStructuredText as pipeline/ep reads it, has a row in the Section Classification Summary with the heading's section id, and no section is placed twice: a section that has a mapped block is not also listed in Unmapped Implementable Sections. A missing heading is reported with no artifact line; a doubly placed section at its Unmapped Implementable Sections row. Add a row for each missing heading, in document order; keep each section in exactly one place (a mapped block, the unmapped table, or the summary only for non-implementable sections). A row that carries a heading's title under an id the EP does not have is rule 23's, and the heading is not reported missing here; rows that disagree with their Mapped flag are rules 5, 12 and 19's, so the double placement is reported here only when the section's summary row says Implementable yes and Mapped no.`,
	Check: checkR03,
}

func checkR03(p *Pass) {
	if p.EP != nil {
		for _, s := range p.EP.Sections {
			if len(p.SCS[s.ID]) > 0 || r03Misnumbered(p, s.Title) {
				continue
			}
			prev := "at the top of the table"
			for i := p.SectionPos[s.ID] - 1; i >= 0; i-- {
				if id := p.EP.Sections[i].ID; len(p.SCS[id]) > 0 {
					prev = "after the row of section " + id
					break
				}
			}
			p.Reportf(0, "section "+s.ID, "the EP heading %s %q (EP line %d) has no row in the Section Classification Summary; add a row for section %s %s",
				s.ID, s.Title, s.Line, s.ID, prev)
		}
	}
	for i, r := range p.Mapping.UnmappedSections.Rows {
		id := strings.TrimSpace(r.Section)
		if !p.doubledPlacement(id) {
			continue
		}
		b := p.Blocks[id][0]
		p.Reportf(r.Line, "section "+id, "section %s has mapped block %d (line %d) and is also listed in %s (row %d); keep it in one place: remove this row if the block is right (and mark it Mapped yes), or remove the block",
			id, b.Number, b.Line, mapping.PartUnmappedSections, i+1)
	}
}

// r03Misnumbered reports whether a summary row whose id the EP does not
// have carries the title, which rule 23 reports as a wrong id.
func r03Misnumbered(p *Pass, title string) bool {
	for _, r := range p.Mapping.SCS.Rows {
		if p.SectionByID[strings.TrimSpace(r.Section)] == nil && SameTitle(r.Title, title) {
			return true
		}
	}
	return false
}
