package rules

import (
	"strings"

	"github.com/lolbench/lolbench/pipeline/mapping"
)

// R05 checks scs consistency.
var R05 = &Rule{
	ID:    5,
	Name:  "scs-consistency",
	Doc:   `Every Section Classification Summary row fills all six cells ("-" does not fill one), a section marked Mapped yes is marked Implementable yes, and a section marked Mapped no has no mapped block. Fill the empty cell, or correct the flag that disagrees. Cells under a missing column and values outside the vocabulary are rule 4's; which categories suit implementable sections is rule 10's; a Mapped yes row without a block is rule 19's; and a Mapped no section that has a block and is also listed in Unmapped Implementable Sections is rule 3's, as is a block of a contextual or process section rule 13's.`,
	Check: checkR05,
}

func checkR05(p *Pass) {
	scs := p.Mapping.SCS
	present := map[string]bool{}
	for _, c := range mapping.SCSColumns {
		present[c] = headerHas(scs.Columns, c) // a missing column is rule 4's
	}
	for i, r := range scs.Rows {
		id := strings.TrimSpace(r.Section)
		where := partRowWhere(mapping.PartSCS, i+1)
		if id != "" {
			where = "section " + id
		}
		var empty []string
		for _, c := range []struct{ col, val string }{
			{"#", r.Index}, {"Section", r.Section}, {"Title", r.Title},
			{"Implementable", r.Implementable}, {"Category", r.Category}, {"Mapped", r.Mapped},
		} {
			if present[c.col] && mapping.IsNone(c.val) {
				empty = append(empty, c.col)
			}
		}
		if len(empty) > 0 {
			p.Reportf(r.Line, where, "row %d leaves %s empty; fill every cell of the Section Classification Summary (%s)",
				i+1, r05List(empty), strings.Join(mapping.SCSColumns, ", "))
		}
		impl, okImpl := mapping.ParseYesNo(strings.TrimSpace(r.Implementable))
		mapped, okMapped := mapping.ParseYesNo(strings.TrimSpace(r.Mapped))
		if !okMapped {
			continue
		}
		if mapped && okImpl && !impl {
			p.Reportf(r.Line, where, "section %s is marked Mapped yes but Implementable no; a section that is not implementable is never mapped: mark it Implementable yes if it asks for code, else Mapped no and remove its block", id)
		}
		if _, ctx := p.outsideSummary(id); !mapped && id != "" && len(p.Blocks[id]) > 0 && !p.doubledPlacement(id) && !ctx {
			b := p.Blocks[id][0]
			p.Reportf(r.Line, where, "section %s is marked Mapped no but has mapped block %d (line %d); mark it Mapped yes (and Implementable yes), or remove the block", id, b.Number, b.Line)
		}
	}
}

// r05List writes column names as "Title" or "Title and Category".
func r05List(cols []string) string {
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = `"` + c + `"`
	}
	if len(q) == 1 {
		return "the " + q[0] + " cell"
	}
	return "the " + strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1] + " cells"
}
