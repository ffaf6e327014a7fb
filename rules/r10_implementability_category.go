package rules

import (
	"strings"

	"github.com/lolbench/lolbench/pipeline/mapping"
)

// R10 checks implementability category.
var R10 = &Rule{
	ID:    10,
	Name:  "implementability-category",
	Doc:   `A section's category agrees with its implementability: an implementable section is an implementation or evaluation section, and a section that is not implementable is a knowledge, contextual or process section. Each Section Classification Summary row whose Implementable flag and Category are both readable is checked; empty cells are rule 5's and values outside the vocabulary rule 4's. Change the category or the Implementable flag, whichever is wrong.`,
	Check: checkR10,
}

func checkR10(p *Pass) {
	for i := range p.Mapping.SCS.Rows {
		r := &p.Mapping.SCS.Rows[i]
		if !categoryConflict(r) {
			continue
		}
		id := strings.TrimSpace(r.Section)
		where := "section " + id
		if id == "" {
			where = rowCountWhere(mapping.PartSCS, i+1)
		}
		cat := strings.TrimSpace(r.Category)
		if impl, _ := scsFlag(r.Implementable); impl {
			p.Reportf(r.Line, where, "section %s is marked Implementable yes but its category is %s, which only sections that ask for no code have; change the category to implementation or evaluation, or mark the section Implementable no (and Mapped no)",
				id, cat)
			continue
		}
		p.Reportf(r.Line, where, "section %s is marked Implementable no but its category is %s, which only implementable sections have; mark the section Implementable yes, or change the category to knowledge, contextual or process",
			id, cat)
	}
}
