package rules

import (
	"strings"

	"github.com/lolbench/lolbench/pipeline/mapping"
)

// R13 checks no redundant section lists.
var R13 = &Rule{
	ID:    13,
	Name:  "no-redundant-section-lists",
	Doc:   `Contextual and process sections appear only in the Section Classification Summary: never as a mapped block and never in Unmapped Implementable Sections. A section counts as contextual or process by its only summary row, when that row also says Implementable no; a row whose category disagrees with its Implementable flag is rule 10's, and once it is fixed this rule applies. Remove the block or the row, or reclassify the section (implementation or evaluation, Implementable yes) if it does ask for code.`,
	Check: checkR13,
}

func checkR13(p *Pass) {
	m := p.Mapping
	for i := range m.Blocks {
		b := &m.Blocks[i]
		id := strings.TrimSpace(b.Section)
		cat, ok := p.outsideSummary(id)
		if !ok {
			continue
		}
		p.Reportf(b.Line, "section "+id, "section %s is a %s section (%s line %d) but has mapped block %d; a %s section appears only in the %s: remove the block, or reclassify the section as implementation or evaluation, Implementable yes, if it asks for code",
			id, cat, mapping.PartSCS, p.soleSCSRow(id).Line, b.Number, cat, mapping.PartSCS)
	}
	for i := range m.UnmappedSections.Rows {
		u := &m.UnmappedSections.Rows[i]
		id := strings.TrimSpace(u.Section)
		cat, ok := p.outsideSummary(id)
		if !ok {
			continue
		}
		p.Reportf(u.Line, "section "+id, "section %s is a %s section (%s line %d), not an implementable one; a %s section appears only in the %s: remove this row, or reclassify the section as implementation or evaluation, Implementable yes, if it asks for code",
			id, cat, mapping.PartSCS, p.soleSCSRow(id).Line, cat, mapping.PartSCS)
	}
}
