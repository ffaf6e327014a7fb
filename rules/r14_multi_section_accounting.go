package rules

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/lolbench/lolbench/pipeline/mapping"
)

// R14 checks multi section accounting.
var R14 = &Rule{
	ID:    14,
	Name:  "multi-section-accounting",
	Doc:   `For every PR file, the Direct sections cell of its PR File Summary row lists exactly the sections whose blocks name the file in Direct modifications, and the Associated sections cell exactly those whose blocks name it in Associated changes, in any order and each once. A file that serves several sections lists every one of them, and a listed id that no block names it under (one the EP lacks included) is a violation. Cells that are not section lists, paths outside the PR and repeated rows are rules 4, 2 and 17's. Rewrite the cell from the blocks.`,
	Check: checkR14,
}

// r14IDRE is the form of a section id; other list elements are rule 4's.
var r14IDRE = regexp.MustCompile(`^[0-9]+(\.[0-9]+)*$`)

func checkR14(p *Pass) {
	m := p.Mapping
	byPath := p.pfsRowsByPath()
	// Files that a directory, glob or aggregate row of a block table stands
	// for cannot be accounted per section: rule 20 owns them.
	coveredByAggregate := map[string]bool{}
	for _, uses := range []map[string][]FileUse{p.Direct, p.Associated} {
		for entry := range uses {
			if p.AggregatePath(entry) != "" {
				for _, f := range p.aggregateFiles(entry) {
					coveredByAggregate[f] = true
				}
			}
		}
	}
	for i := range m.PFS.Rows {
		r := &m.PFS.Rows[i]
		path := strings.TrimSpace(r.Path)
		if path == "" || (p.Change != nil && p.PRFile[path] == nil) || len(byPath[path]) != 1 || coveredByAggregate[path] {
			continue // rules 2, 20 and 17
		}
		for _, c := range []struct {
			column, cell, table string
			uses                []FileUse
		}{
			{"Direct sections", r.DirectSections, mapping.SubPartDirect, p.Direct[path]},
			{"Associated sections", r.AssociatedSections, mapping.SubPartAssociated, p.Associated[path]},
		} {
			if !hasColumn(m.PFS.Columns, c.column) {
				continue // rule 4
			}
			got, ok := r14IDs(c.cell)
			if !ok {
				continue // rule 4
			}
			want := useSections(c.uses)
			var problems []string
			if d := r14Repeated(got); len(d) > 0 {
				problems = append(problems, "repeats "+strings.Join(d, ", "))
			}
			if miss := r14Minus(want, got); len(miss) > 0 {
				problems = append(problems, fmt.Sprintf("omits %s, whose %s name the file", strings.Join(miss, ", "), c.table))
			}
			if extra := r14Minus(got, want); len(extra) > 0 {
				problems = append(problems, fmt.Sprintf("lists %s, but no block of %s names the file in %s", strings.Join(extra, ", "), r14Those(extra), c.table))
			}
			if len(problems) == 0 {
				continue
			}
			p.Reportf(r.Line, FileWhere(path), "the %s cell of `%s` is %q: it %s; write %q",
				c.column, path, strings.TrimSpace(c.cell), strings.Join(problems, "; it "), sectionList(want))
		}
	}
}

// r14IDs reads a section-list cell; ok is false when rule 4 reports it.
func r14IDs(cell string) ([]string, bool) {
	ids, err := mapping.SectionIDs(cell)
	if err != nil {
		return nil, false
	}
	for _, id := range ids {
		if !r14IDRE.MatchString(id) {
			return nil, false
		}
	}
	return ids, true
}

// r14Minus returns the ids of a that b lacks, once each, in a's order.
func r14Minus(a, b []string) []string {
	in := map[string]bool{}
	for _, id := range b {
		in[id] = true
	}
	var out []string
	for _, id := range a {
		if !in[id] {
			in[id] = true
			out = append(out, id)
		}
	}
	return out
}

// r14Repeated returns the ids listed more than once, once each.
func r14Repeated(ids []string) []string {
	count := map[string]int{}
	var out []string
	for _, id := range ids {
		if count[id]++; count[id] == 2 {
			out = append(out, id)
		}
	}
	return out
}

// r14Those is "that section" or "those sections".
func r14Those(ids []string) string {
	if len(ids) == 1 {
		return "that section"
	}
	return "those sections"
}
