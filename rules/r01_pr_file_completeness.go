package rules

import (
	"path"
	"regexp"
	"strings"

	"github.com/lolbench/lolbench/pipeline/mapping"
)

// R01 checks pr file completeness.
var R01 = &Rule{
	ID:    1,
	Name:  "pr-file-completeness",
	Doc:   `Every file the PR changes has a row in the PR File Summary whose Role names exactly one of direct, associated and unmapped, and the distinct PR files with such a row, counted per role, add up to the PR's file count. A PR file without a row is reported with no artifact line; add a row for it. A Role cell naming several roles ("direct, associated") is reported at its row; keep the one role that applies: direct when a block's Direct modifications name the file, else associated when Associated changes do, else unmapped. Rows for files outside the PR are rule 2's (a row that misspells a PR file's path, differing in case, "./", folder or at most two characters, or that names a renamed file's old path, counts as that file's row here), directory, glob and aggregate rows rule 20's (the files they cover are not reported missing), repeated rows rule 17's, and empty or unknown role words rule 4's.`,
	Check: checkR01,
}

// aggregatePieceRE splits an aggregate entry ("a.go, b.go and c.go") into
// the paths it names.
var aggregatePieceRE = regexp.MustCompile(`\s*(?:[,;]|\s\+\s|\band\b|\bplus\b)\s*`)

// openAggregateRE marks an aggregate whose files cannot be listed from it
// ("a.go, ...", "and 3 more", "etc.", "all files").
var openAggregateRE = regexp.MustCompile(`(?i)(\.\.\.|…|\bmore\b|\betc\b|\ball files\b|\bothers\b)`)

func checkR01(p *Pass) {
	if p.Change == nil {
		return
	}
	rows := p.Mapping.PFS.Rows
	for i := range rows {
		r := &rows[i]
		roles := namedRoles(r.Role)
		if len(roles) < 2 {
			continue
		}
		path := strings.TrimSpace(r.Path)
		names := make([]string, len(roles))
		for j, role := range roles {
			names[j] = string(role)
		}
		want := p.roleFromBlocks(path)
		p.Reportf(r.Line, FileWhere(path), "Role %q names %d roles (%s); a file has exactly one role: write %s, since %s",
			r.Role, len(roles), strings.Join(names, ", "), want, roleReason(want))
	}
	idx := newR01Index(p)
	for i := range p.Change.Files {
		f := &p.Change.Files[i]
		file := f.Path()
		if idx.covered(file, f.OldPath) {
			continue
		}
		want := p.roleFromBlocks(file)
		p.Reportf(0, FileWhere(file), "the PR changes `%s` (%s, %s) but the PR File Summary has no row for it; add a row for it with role %s, since %s",
			file, f.Status, f.Category, want, roleReason(want))
	}
}

// roleReason explains the role the blocks give a file.
func roleReason(r mapping.Role) string {
	switch r {
	case mapping.RoleDirect:
		return "a block's Direct modifications name the file"
	case mapping.RoleAssociated:
		return "no block's Direct modifications name the file but a block's Associated changes do"
	}
	return "no block names the file (and list it in Unmapped PR Files)"
}

// r01NearMissBudget bounds the near-miss comparisons (PR files times rows
// outside the PR) of one artifact, so that a hostile artifact with
// thousands of wrong rows stays linear; past it, misspelt rows no longer
// stand for the files they probably meant.
const r01NearMissBudget = 20_000

// r01Index holds the PR File Summary rows in the forms rule 1 matches a PR
// file against.
type r01Index struct {
	exact      map[string]bool // paths as written
	tidy       map[string]bool // rows outside the PR as tidyPath, lowercased: slips of case, "./", slashes
	foreign    []string        // rows naming no PR file: candidate near misses
	aggregates [][2]string     // directory, glob and aggregate rows (rule 20), with their kind
	budget     int
}

func newR01Index(p *Pass) *r01Index {
	x := &r01Index{exact: map[string]bool{}, tidy: map[string]bool{}, budget: r01NearMissBudget}
	kinds := newAggregateKinds(p.Facts)
	for _, r := range p.Mapping.PFS.Rows {
		got := strings.TrimSpace(r.Path)
		if got == "" {
			continue
		}
		x.exact[got] = true
		if p.PRFile[got] != nil {
			continue
		}
		if kind := kinds.kind(got); kind != "" {
			x.aggregates = append(x.aggregates, [2]string{got, kind})
			continue
		}
		x.tidy[strings.ToLower(tidyPath(got))] = true
		x.foreign = append(x.foreign, got)
	}
	return x
}

// covered reports whether some row stands for the PR file: its exact path,
// a near miss of it or its old path (rule 2's), or a directory, glob or
// aggregate entry that covers it (rule 20's).
func (x *r01Index) covered(file, oldPath string) bool {
	if x.exact[file] || x.tidy[strings.ToLower(tidyPath(file))] {
		return true
	}
	if oldPath != "" && oldPath != file && x.tidy[strings.ToLower(tidyPath(oldPath))] {
		return true
	}
	if x.budget < len(x.aggregates)+len(x.foreign) {
		return false
	}
	x.budget -= len(x.aggregates) + len(x.foreign)
	for _, a := range x.aggregates {
		if aggregateCovers(a[0], a[1], file) {
			return true
		}
	}
	for _, got := range x.foreign {
		if nearMiss(got, file) {
			return true
		}
	}
	return false
}

// aggregateCovers reports whether a directory, glob or aggregate entry,
// which rule 20 reports, stands for file.
// kind is Facts.AggregatePath's verdict on entry.
func aggregateCovers(entry, kind, file string) bool {
	switch kind {
	case "":
		return false
	case "a directory":
		dir := strings.TrimSuffix(tidyPath(entry), "/")
		return dir == "" || strings.HasPrefix(file, dir+"/")
	case "a glob":
		pat := tidyPath(entry)
		if ok, err := path.Match(pat, file); err == nil && ok {
			return true
		}
		if !strings.Contains(pat, "/") {
			ok, err := path.Match(pat, path.Base(file))
			return err == nil && ok
		}
		return strings.HasSuffix(pat, "/**") && strings.HasPrefix(file, strings.TrimSuffix(pat, "**"))
	}
	if openAggregateRE.MatchString(entry) {
		return true
	}
	for _, piece := range aggregatePieceRE.Split(entry, -1) {
		if tidyPath(piece) == file {
			return true
		}
	}
	return false
}
