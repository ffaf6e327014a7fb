package rules

import (
	"fmt"
	"strings"

	"github.com/lolbench/lolbench/pipeline/mapping"
)

// Helpers of rules 10 to 19. Like the helpers of rules 1 to 9, they decide
// in one place which rule owns a finding, so that one slip in an artifact
// fails one rule: a category that disagrees with the Implementable flag is
// rule 10's and rules 12 and 13 leave the section alone; a contextual or
// process section placed outside the summary is rule 13's and rule 12
// leaves it alone; a repeated summary row is rule 16's and a repeated PR
// File Summary row rule 17's, and the rules that read one row per section
// or file skip them.

// scsFlag reads an Implementable or Mapped cell; ok is false for a value
// that rules 4 and 5 report.
func scsFlag(cell string) (value, ok bool) {
	return mapping.ParseYesNo(strings.TrimSpace(cell))
}

// scsCategory reads a section Category cell; ok is false for a value that
// rules 4 and 5 report.
func scsCategory(cell string) (mapping.SectionCategory, bool) {
	return mapping.ParseSectionCategory(strings.TrimSpace(cell))
}

// implementableCategory reports whether a category belongs to implementable
// sections (rule 10): implementation and evaluation sections ask for code,
// the others do not.
func implementableCategory(c mapping.SectionCategory) bool {
	return c == mapping.Implementation || c == mapping.Evaluation
}

// categoryConflict reports whether a summary row's Implementable flag and
// Category, both readable, disagree: the finding rule 10 owns.
func categoryConflict(r *mapping.SCSRow) bool {
	impl, ok1 := scsFlag(r.Implementable)
	cat, ok2 := scsCategory(r.Category)
	return ok1 && ok2 && impl != implementableCategory(cat)
}

// soleSCSRow returns the only Section Classification Summary row of a
// section, or nil when it has none (rule 3's or 23's) or several (rule 16's).
func (p *Pass) soleSCSRow(id string) *mapping.SCSRow {
	if rows := p.SCS[id]; len(rows) == 1 {
		return rows[0]
	}
	return nil
}

// outsideSummary reports whether a section's only summary row classifies it
// as a contextual or process section that is not implementable, consistently
// (rule 10 is silent on it): rule 13 then owns every block and Unmapped
// Implementable Sections row of the section, and rule 12 leaves those rows
// to it.
func (p *Pass) outsideSummary(id string) (mapping.SectionCategory, bool) {
	if id == "" {
		return "", false
	}
	r := p.soleSCSRow(id)
	if r == nil {
		return "", false
	}
	impl, ok := scsFlag(r.Implementable)
	cat, ok2 := scsCategory(r.Category)
	if !ok || impl || !ok2 || (cat != mapping.Contextual && cat != mapping.Process) {
		return "", false
	}
	return cat, true
}

// pfsRowsByPath groups the PR File Summary rows by trimmed path, so rules
// that read one row per file can skip the repeated ones (rule 17's).
func (p *Pass) pfsRowsByPath() map[string][]*mapping.PFSRow {
	out := map[string][]*mapping.PFSRow{}
	for i := range p.Mapping.PFS.Rows {
		r := &p.Mapping.PFS.Rows[i]
		path := strings.TrimSpace(r.Path)
		out[path] = append(out[path], r)
	}
	return out
}

// blocksRole is the role the blocks give a file (rule 11): direct when a
// block's Direct modifications name it, else associated when a block's
// Associated changes name it, else unmapped.
func (f *Facts) blocksRole(path string) mapping.Role {
	switch {
	case len(f.Direct[path]) > 0:
		return mapping.RoleDirect
	case len(f.Associated[path]) > 0:
		return mapping.RoleAssociated
	}
	return mapping.RoleUnmapped
}

// useSections returns the distinct sections of the blocks of some uses, in
// block order.
func useSections(uses []FileUse) []string {
	var out []string
	seen := map[string]bool{}
	for _, u := range uses {
		if id := strings.TrimSpace(u.Block.Section); !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// sectionList writes section ids as a section-list cell: "2.1, 3", or "-"
// for none.
func sectionList(ids []string) string {
	if len(ids) == 0 {
		return "-"
	}
	return strings.Join(ids, ", ")
}

// metricRows returns the Global Statistics rows of a metric: spelled
// exactly, or else ignoring case and repeated blanks (a misspelling is rule
// 4's; its value is still checked, as rule 8 does).
func (p *Pass) metricRows(metric string) []*mapping.StatRow {
	var exact, folded []*mapping.StatRow
	for i := range p.Mapping.Stats.Rows {
		r := &p.Mapping.Stats.Rows[i]
		got := strings.TrimSpace(r.Metric)
		switch {
		case got == metric:
			exact = append(exact, r)
		case strings.EqualFold(strings.Join(strings.Fields(got), " "), metric):
			folded = append(folded, r)
		}
	}
	if len(exact) > 0 {
		return exact
	}
	return folded
}

// rowCountWhere names the n-th (1-based) row of a top-level table.
func rowCountWhere(part string, n int) string { return fmt.Sprintf("%s row %d", part, n) }

// sectionsPhrase names sections in prose: "section 2.1", "sections 2.1
// and 3".
func sectionsPhrase(ids []string) string {
	switch len(ids) {
	case 0:
		return "no section"
	case 1:
		return "section " + ids[0]
	}
	return "sections " + strings.Join(ids[:len(ids)-1], ", ") + " and " + ids[len(ids)-1]
}

// hasColumn reports whether a table header, as written, has a canonical
// column, comparing as the parser binds headers (case folded, blanks
// collapsed). A table written "None." has no header and no rows, so it has
// every column. A cell under a missing column is empty and rule 4's.
func hasColumn(columns []string, name string) bool {
	if len(columns) == 0 {
		return true
	}
	key := strings.ToLower(strings.Join(strings.Fields(name), " "))
	for _, c := range columns {
		if strings.ToLower(strings.Join(strings.Fields(c), " ")) == key {
			return true
		}
	}
	return false
}
