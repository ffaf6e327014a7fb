package rules

import (
	"fmt"
	"strings"

	"github.com/lolbench/lolbench/pipeline/mapping"
)

// R11 checks pfs consistency.
var R11 = &Rule{
	ID:    11,
	Name:  "pfs-consistency",
	Doc:   `Each PR File Summary role agrees with the body: a file is direct exactly when some block's Direct modifications name it; associated when no block's Direct modifications name it but some block's Associated changes do; unmapped when no block names it, and then it is listed in Unmapped PR Files, which lists only files with role unmapped. A wrong role is reported at its PR File Summary row, together with the Unmapped PR Files change the right role needs; a file whose role is right but which is listed in Unmapped PR Files although not unmapped is reported at that row. Paths outside the PR are rule 2's (and a row of Unmapped PR Files whose path rule 2 or 20 reports may stand for an unlisted file, which is then not reported again), repeated rows rule 17's, and Role cells that are empty, unknown or name several roles rules 1 and 4's. Change the role, or move the file to the right table.`,
	Check: checkR11,
}

func checkR11(p *Pass) {
	m := p.Mapping
	byPath := p.pfsRowsByPath()
	listed := map[string]bool{}
	spare, anyFile := 0, false // rows whose path rule 2 or 20 reports
	for _, r := range m.UnmappedFiles.Rows {
		path := strings.TrimSpace(r.Path)
		switch {
		case p.Change == nil || p.PRFile[path] != nil:
			listed[path] = true
		case path != "" && p.AggregatePath(path) != "":
			anyFile = true
		default:
			spare++
		}
	}
	// isListed reports whether a file is listed in Unmapped PR Files. A row
	// with a mistyped path (rule 2's) or an aggregate one (rule 20's) may
	// stand for a file that is not listed by its path, so that one slip is
	// reported once: each such row excuses one unlisted file, an aggregate
	// row every one.
	isListed := func(path string) bool {
		switch {
		case listed[path] || anyFile:
			return true
		case spare > 0:
			spare--
			listed[path] = true
			return true
		}
		return false
	}
	for i := range m.PFS.Rows {
		r := &m.PFS.Rows[i]
		path, role, ok := r11Row(p, byPath, r)
		if !ok {
			continue
		}
		want := p.blocksRole(path)
		switch {
		case role != want:
			fix := "write " + string(want)
			switch {
			case want == mapping.RoleUnmapped && !isListed(path):
				fix += fmt.Sprintf(" and list it in %s with a reason", mapping.PartUnmappedFiles)
			case want != mapping.RoleUnmapped && listed[path]:
				fix += fmt.Sprintf(" and remove its row from %s", mapping.PartUnmappedFiles)
			}
			p.Reportf(r.Line, FileWhere(path), "`%s` has role %s but %s; %s, or change the blocks if they are wrong",
				path, role, r11Why(p, path, want), fix)
		case role == mapping.RoleUnmapped && !isListed(path):
			p.Reportf(r.Line, FileWhere(path), "`%s` has role unmapped but is not listed in %s; add the row \"| `%s` | %s | <reason> |\" with the reason it is left unmapped",
				path, mapping.PartUnmappedFiles, path, strings.TrimSpace(r.Category))
		}
	}
	for i := range m.UnmappedFiles.Rows {
		u := &m.UnmappedFiles.Rows[i]
		path := strings.TrimSpace(u.Path)
		rows := byPath[path]
		if len(rows) != 1 {
			continue // no summary row (rules 1 and 2) or several (rule 17)
		}
		_, role, ok := r11Row(p, byPath, rows[0])
		if !ok || role == mapping.RoleUnmapped || role != p.blocksRole(path) {
			continue // a wrong role is reported at the summary row
		}
		p.Reportf(u.Line, FileWhere(path), "`%s` is listed in %s but has role %s, since %s; remove this row (%s lists only files with role unmapped)",
			path, mapping.PartUnmappedFiles, role, r11Why(p, path, role), mapping.PartUnmappedFiles)
	}
}

// r11Row reads a PR File Summary row that this rule checks: a PR file with
// one row and one readable role.
func r11Row(p *Pass, byPath map[string][]*mapping.PFSRow, r *mapping.PFSRow) (string, mapping.Role, bool) {
	path := strings.TrimSpace(r.Path)
	if path == "" || (p.Change != nil && p.PRFile[path] == nil) || len(byPath[path]) != 1 {
		return "", "", false
	}
	role, ok := mapping.ParseRole(strings.TrimSpace(r.Role))
	return path, role, ok
}

// r11Why says which blocks give a file its role.
func r11Why(p *Pass, path string, role mapping.Role) string {
	switch role {
	case mapping.RoleDirect:
		return "the Direct modifications of " + sectionsPhrase(useSections(p.Direct[path])) + " name it"
	case mapping.RoleAssociated:
		return "no block's Direct modifications name it and the Associated changes of " + sectionsPhrase(useSections(p.Associated[path])) + " do"
	}
	return "no block's Direct modifications or Associated changes name it"
}
