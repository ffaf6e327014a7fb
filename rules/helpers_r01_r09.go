package rules

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/lolbench/lolbench/pipeline/mapping"
)

// Helpers of rules 1 to 9. They decide, in one place, which of two rules
// owns a finding (a multi-role cell is rule 1's, not rule 4's; a near-miss
// path is rule 2's, not rule 1's), so that a broken artifact fails one rule.

// sectionIDRE is the form of an EP section id: a number path ("2", "2.1").
var sectionIDRE = regexp.MustCompile(`^[0-9]+(\.[0-9]+)*$`)

// wordRE splits a cell into lowercase words for role detection.
var wordRE = regexp.MustCompile(`[a-z]+(?:-[a-z]+)*`)

// tidyPath is a path as a careless writer might mistype it, normalised for
// matching: backticks, "./" and leading "/" removed, "a//b" and "a/./b"
// collapsed. Rule 2 reports such a path; rule 1 counts it as the file's row
// so that one slip is not reported twice.
func tidyPath(s string) string {
	s = strings.Trim(strings.TrimSpace(s), "`")
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	s = path.Clean(s)
	s = strings.TrimLeft(s, "/")
	if s == "." {
		return ""
	}
	return s
}

// namedRoles returns the distinct roles a Role cell names, in vocabulary
// order: "direct, associated" names two (rule 1), "primary" none (rule 4).
func namedRoles(cell string) []mapping.Role {
	var out []mapping.Role
	for _, w := range wordRE.FindAllString(strings.ToLower(cell), -1) {
		if r, ok := mapping.ParseRole(w); ok && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b mapping.Role) int {
		return slices.Index(mapping.Roles, a) - slices.Index(mapping.Roles, b)
	})
	return out
}

// namesSeveralRoles reports whether a Role cell names more than one role, which
// rule 1 reports and rules 4 and 8 leave to it.
func namesSeveralRoles(cell string) bool { return len(namedRoles(cell)) > 1 }

// roleFromBlocks is the role a file should have according to the blocks (rule 11's
// definition), used to suggest a fix.
func (f *Facts) roleFromBlocks(p string) mapping.Role {
	switch {
	case len(f.Direct[p]) > 0:
		return mapping.RoleDirect
	case len(f.Associated[p]) > 0:
		return mapping.RoleAssociated
	}
	return mapping.RoleUnmapped
}

// prFileTotal is the number of files the PR changes; without a change it
// falls back to the distinct paths of the PR File Summary.
func (p *Pass) prFileTotal() int {
	if p.Change != nil {
		return len(p.Change.Files)
	}
	seen := map[string]bool{}
	for _, r := range p.Mapping.PFS.Rows {
		seen[strings.TrimSpace(r.Path)] = true
	}
	return len(seen)
}

// headerKey compares headers the way the mapping parser binds them: case
// folded, blanks collapsed.
func headerKey(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// headerHas reports whether a table written with the given header has the
// canonical column name. A table written "None." (no header) has every
// column, having no rows to miss it in.
func headerHas(columns []string, name string) bool {
	if len(columns) == 0 {
		return true
	}
	for _, c := range columns {
		if sameHeader(c, name) {
			return true
		}
	}
	return false
}

// sameHeader is headerKey(a) == headerKey(b) without allocating: rules 4
// and 5 ask it for every cell of hostile tables with thousands of rows.
func sameHeader(a, b string) bool {
	for {
		a = strings.TrimLeftFunc(a, unicode.IsSpace)
		b = strings.TrimLeftFunc(b, unicode.IsSpace)
		if a == "" || b == "" {
			return a == b
		}
		i, j := strings.IndexFunc(a, unicode.IsSpace), strings.IndexFunc(b, unicode.IsSpace)
		if i < 0 {
			i = len(a)
		}
		if j < 0 {
			j = len(b)
		}
		if !strings.EqualFold(a[:i], b[:j]) {
			return false
		}
		a, b = a[i:], b[j:]
	}
}

// partRowWhere names the n-th (1-based) row of a top-level table.
func partRowWhere(part string, n int) string { return fmt.Sprintf("%s row %d", part, n) }

// unmappedSectionListed reports whether Unmapped Implementable Sections has
// a row for id.
func unmappedSectionListed(m *mapping.Mapping, id string) bool {
	for _, r := range m.UnmappedSections.Rows {
		if strings.TrimSpace(r.Section) == id {
			return true
		}
	}
	return false
}

// doubledPlacement reports whether section id has a mapped block and also an
// Unmapped Implementable Sections row that agrees with its summary row
// (Implementable yes, Mapped no): the one case rule 3 reports. Rules 5 and
// 12 leave it to rule 3; every other disagreement with the Mapped flag is
// theirs.
func (p *Pass) doubledPlacement(id string) bool {
	if len(p.Blocks[id]) == 0 || !unmappedSectionListed(p.Mapping, id) {
		return false
	}
	rows := p.SCS[id]
	if len(rows) == 0 {
		return false
	}
	for _, r := range rows {
		impl, ok1 := mapping.ParseYesNo(strings.TrimSpace(r.Implementable))
		mapped, ok2 := mapping.ParseYesNo(strings.TrimSpace(r.Mapped))
		if !ok1 || !ok2 || !impl || mapped {
			return false
		}
	}
	return true
}

// codeList writes paths as "`a`, `b`".
func codeList(paths []string) string {
	q := make([]string, len(paths))
	for i, s := range paths {
		q[i] = "`" + s + "`"
	}
	return strings.Join(q, ", ")
}

// distinctRowPaths returns the distinct non-empty paths of block table rows, in
// first-seen order.
func distinctRowPaths(rows []mapping.CodeRow) []string {
	var out []string
	for _, r := range rows {
		p := strings.TrimSpace(r.Path)
		if p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// nearMiss reports whether got, a path that is not a PR file, is probably a
// slip for the PR file file: the same path but for case, "./" or doubled
// slashes; the same name in another folder; or at most two edits away.
// Rule 2 reports got and suggests file; rule 1 counts got as file's row.
func nearMiss(got, file string) bool {
	g := tidyPath(got)
	if g == "" || g == file {
		return g != ""
	}
	if strings.EqualFold(g, file) || path.Base(g) == path.Base(file) {
		return true
	}
	return r04EditDistance(g, file, 3) <= 2
}

// aggregateKinds answers Facts.AggregatePath for many paths of one artifact
// without its scan of every PR file per call: the scan only looks for a PR
// file under the path taken as a folder, which a set of the PR's folders
// answers at once. AggregatePath still gives the verdict, so rules 1, 2 and
// 20 never disagree on which entries are aggregates.
type aggregateKinds struct {
	f    *Facts
	dirs map[string]bool
}

func newAggregateKinds(f *Facts) *aggregateKinds {
	k := &aggregateKinds{f: f, dirs: map[string]bool{}}
	for p := range f.PRFile {
		for i := 0; i < len(p); i++ {
			if p[i] == '/' {
				k.dirs[p[:i]] = true
			}
		}
	}
	return k
}

// kind is f.AggregatePath(p).
func (k *aggregateKinds) kind(p string) string {
	if !strings.HasSuffix(p, "/") && !globRE.MatchString(p) && !aggregateRE.MatchString(p) &&
		(k.f.PRFile[p] != nil || !k.dirs[p]) {
		return ""
	}
	return k.f.AggregatePath(p)
}
