package rules

import (
	"strings"

	"github.com/lolbench/lolbench/pipeline/mapping"
)

// R12 checks unmapped section consistency.
var R12 = &Rule{
	ID:    12,
	Name:  "unmapped-section-consistency",
	Doc:   `Unmapped Implementable Sections lists exactly the Section Classification Summary rows marked implementable yes and mapped no, each once, with the same id and title as its summary row (ignoring case and repeated blanks) and a non-empty reason. A missing section is reported at its summary row, and a row that does not belong at the row itself. Add the missing sections, remove the ones that are mapped or not implementable and the repeated ones, copy the titles from the summary, and give each a reason. Left to other rules: sections whose category disagrees with their Implementable flag (rule 10), contextual and process sections (rule 13), repeated summary rows (rule 16), headings without a summary row (rule 3), summary rows the EP does not have (rule 23), a mapped block of a section marked Mapped no (rules 3 and 5), a Mapped yes row without a block (rule 19), and unreadable flags (rules 4 and 5).`,
	Check: checkR12,
}

func checkR12(p *Pass) {
	m := p.Mapping
	cols := m.UnmappedSections.Columns
	first := map[string]int{}
	for i := range m.UnmappedSections.Rows {
		u := &m.UnmappedSections.Rows[i]
		id := strings.TrimSpace(u.Section)
		if id == "" {
			if hasColumn(cols, "Section") {
				p.Reportf(u.Line, rowCountWhere(mapping.PartUnmappedSections, i+1), "row %d has no section id; write the id of an implementable section that is not mapped, or remove the row", i+1)
			}
			continue
		}
		where := "section " + id
		if _, ok := p.outsideSummary(id); ok {
			continue // every row of a contextual or process section: rule 13
		}
		if line, ok := first[id]; ok {
			p.Reportf(u.Line, where, "section %s is listed again (first at line %d); remove this row", id, line)
			continue
		}
		first[id] = u.Line
		if hasColumn(cols, "Reason") && strings.TrimSpace(u.Reason) == "" {
			p.Reportf(u.Line, where, "section %s has an empty Reason; write why it is not mapped, one of %s", id, r12Reasons())
		}
		r12Listed(p, u, id, hasColumn(cols, "Title"))
	}
	for i := range m.SCS.Rows {
		r := &m.SCS.Rows[i]
		id := strings.TrimSpace(r.Section)
		if !r12Belongs(p, r, id) || len(p.Blocks[id]) > 0 {
			continue // a block of a Mapped no section: rules 3 and 5
		}
		if p.EP != nil && p.SectionByID[id] == nil {
			continue // rule 23
		}
		if _, ok := first[id]; !ok {
			p.Reportf(r.Line, "section "+id, "section %s is marked Implementable yes and Mapped no but %s does not list it; add \"| %s | %s | <reason> |\" there, in document order",
				id, mapping.PartUnmappedSections, id, strings.TrimSpace(r.Title))
		}
	}
}

// r12Listed checks one Unmapped Implementable Sections row against the
// section's summary row.
func r12Listed(p *Pass, u *mapping.UnmappedSectionRow, id string, titled bool) {
	where := "section " + id
	rows := p.SCS[id]
	if len(rows) == 0 {
		if p.EP == nil || p.SectionByID[id] == nil {
			p.Reportf(u.Line, where, "section %s has no row in the %s, and the EP has no such heading; remove this row, or correct the id", id, mapping.PartSCS)
		}
		return // an EP heading without a summary row: rule 3
	}
	r := p.soleSCSRow(id)
	if r == nil || categoryConflict(r) {
		return // rules 16 and 10
	}
	impl, ok1 := scsFlag(r.Implementable)
	mapped, ok2 := scsFlag(r.Mapped)
	if !ok1 || !ok2 {
		return // rules 4 and 5
	}
	switch {
	case impl && !mapped:
		if titled && !mapping.IsNone(r.Title) && !SameTitle(u.Title, r.Title) { // an empty summary title is rule 5's
			p.Reportf(u.Line, where, "section %s is titled %q here but %q in the %s (line %d); copy the title from the summary",
				id, strings.TrimSpace(u.Title), strings.TrimSpace(r.Title), mapping.PartSCS, r.Line)
		}
	case !impl && mapped:
		// rule 5: a Mapped yes row must be implementable
	case !impl:
		p.Reportf(u.Line, where, "section %s is marked Implementable no in the %s (line %d), so it is not an unmapped implementable section; remove this row, or mark the section Implementable yes with category implementation or evaluation if it asks for code",
			id, mapping.PartSCS, r.Line)
	case len(p.Blocks[id]) > 0:
		b := p.Blocks[id][0]
		p.Reportf(u.Line, where, "section %s is mapped (block %d, line %d); remove this row", id, b.Number, b.Line)
	default:
		// Mapped yes without a block: rule 19, whose fix (Mapped no) makes
		// this row right.
	}
}

// r12Belongs reports whether a summary row says its section belongs in
// Unmapped Implementable Sections: Implementable yes, Mapped no, the only
// row of its section, its category agreeing (rule 10).
func r12Belongs(p *Pass, r *mapping.SCSRow, id string) bool {
	if id == "" || p.soleSCSRow(id) != r || categoryConflict(r) {
		return false
	}
	impl, ok1 := scsFlag(r.Implementable)
	mapped, ok2 := scsFlag(r.Mapped)
	return ok1 && ok2 && impl && !mapped
}

// r12Reasons lists the unmapped reasons.
func r12Reasons() string {
	words := make([]string, len(mapping.Reasons))
	for i, r := range mapping.Reasons {
		words[i] = string(r)
	}
	return strings.Join(words, ", ")
}
