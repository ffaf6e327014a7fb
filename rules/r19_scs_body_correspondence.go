package rules

import (
	"strings"

	"github.com/lolbench/lolbench/pipeline/mapping"
)

// R19 checks scs body correspondence.
var R19 = &Rule{
	ID:    19,
	Name:  "scs-body-correspondence",
	Doc:   `The Section Classification Summary and the mapped blocks correspond both ways: each block's section has a summary row with the same title (ignoring case and repeated blanks), and each row marked Mapped yes has exactly one block. A block whose section is an EP heading without a summary row is rule 3's; a block that carries the EP's heading title while the summary row does not is rule 23's; a Mapped yes row marked Implementable no is rule 5's, as are the blocks of a Mapped no row. Add the missing block or row, remove or merge the duplicate block, or fix the title.`,
	Check: checkR19,
}

func checkR19(p *Pass) {
	m := p.Mapping
	for i := range m.Blocks {
		b := &m.Blocks[i]
		id := strings.TrimSpace(b.Section)
		rows := p.SCS[id]
		heading := p.SectionByID[id]
		if len(rows) == 0 {
			if heading == nil {
				p.Reportf(b.Line, "section "+id, "block %d maps section %s, which has no %s row and is no heading of the EP; correct the block's section id and title, or remove the block",
					b.Number, id, mapping.PartSCS)
			}
			continue // an EP heading without a row: rule 3
		}
		matched := false
		for _, r := range rows {
			// an empty title is rule 5's
			matched = matched || mapping.IsNone(r.Title) || SameTitle(r.Title, b.Title)
		}
		if matched || (heading != nil && SameTitle(heading.Title, b.Title)) {
			continue // the summary row disagrees with the EP: rule 23
		}
		p.Reportf(b.Line, "section "+id, "block %d is titled %q but the %s row of section %s (line %d) says %q; copy the title from the summary",
			b.Number, strings.TrimSpace(b.Title), mapping.PartSCS, id, rows[0].Line, strings.TrimSpace(rows[0].Title))
	}
	listed := map[string]bool{}
	for _, u := range m.UnmappedSections.Rows {
		listed[strings.TrimSpace(u.Section)] = true
	}
	seen := map[string]bool{}
	for i := range m.SCS.Rows {
		r := &m.SCS.Rows[i]
		id := strings.TrimSpace(r.Section)
		mapped, ok := scsFlag(r.Mapped)
		if id == "" || seen[id] || !ok || !mapped {
			continue
		}
		seen[id] = true // a repeated row is rule 16's
		if impl, ok := scsFlag(r.Implementable); ok && !impl {
			continue // rule 5
		}
		if p.SectionByID[id] == nil {
			continue // a row for no heading of the EP: rule 23
		}
		blocks := p.Blocks[id]
		if len(blocks) == 0 {
			fix := "or mark it Mapped no and list it in " + mapping.PartUnmappedSections
			if listed[id] {
				fix = "or mark it Mapped no, as its row in " + mapping.PartUnmappedSections + " says"
			}
			p.Reportf(r.Line, "section "+id, "section %s is marked Mapped yes but has no block in %s; add its block, %s", id, mapping.PartMappedSections, fix)
			continue
		}
		for _, b := range blocks[1:] {
			p.Reportf(b.Line, "section "+id, "section %s already has block %d (line %d); merge block %d into it so that the section has one block",
				id, blocks[0].Number, blocks[0].Line, b.Number)
		}
	}
}
