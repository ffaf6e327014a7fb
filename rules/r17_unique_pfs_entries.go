package rules

import (
	"strings"
)

// R17 checks unique pfs entries.
var R17 = &Rule{
	ID:    17,
	Name:  "unique-pfs-entries",
	Doc:   `Each PR file has exactly one row in the PR File Summary: every row after the first for the same path is reported. Paths outside the PR are rule 2's and PR files without a row rule 1's. Merge the repeated rows into one, listing all the file's sections in it.`,
	Check: checkR17,
}

func checkR17(p *Pass) {
	first := map[string]int{}
	for i := range p.Mapping.PFS.Rows {
		r := &p.Mapping.PFS.Rows[i]
		path := strings.TrimSpace(r.Path)
		if path == "" || (p.Change != nil && p.PRFile[path] == nil) {
			continue // rules 2 and 20
		}
		j, seen := first[path]
		if !seen {
			first[path] = i
			continue
		}
		f := &p.Mapping.PFS.Rows[j]
		p.Reportf(r.Line, FileWhere(path), "`%s` already has row %d (line %d); merge this row into it, so that its one row lists every section that names the file (Direct sections %s, Associated sections %s), and remove this row",
			path, j+1, f.Line, sectionList(useSections(p.Direct[path])), sectionList(useSections(p.Associated[path])))
	}
}
