package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lolbench/lolbench/pipeline/mapping"
)

// R02 checks file validity.
var R02 = &Rule{
	ID:    2,
	Name:  "file-validity",
	Doc:   `Every path the mapping names, in the PR File Summary, in the Direct modifications and Associated changes tables, in the modification summaries and in Unmapped PR Files, is a file that the PR changes, written as its path after the change (a deleted file keeps its old path). A renamed file's old path is reported with the new path to use, and an empty File cell is reported too. Correct the path, or remove the row if the file is not part of the PR. Directory, glob and aggregate entries are rule 20's, and a table without a File column is rule 4's.`,
	Check: checkR02,
}

func checkR02(p *Pass) {
	if p.Change == nil {
		return
	}
	m := p.Mapping
	type ref struct {
		path, where string
		line        int
	}
	var refs []ref
	add := func(columns []string, path string, line int, where string) {
		if strings.TrimSpace(path) == "" && !headerHas(columns, "File") {
			return // rule 4: the column itself is missing or renamed
		}
		refs = append(refs, ref{path, where, line})
	}
	for i, r := range m.PFS.Rows {
		add(m.PFS.Columns, r.Path, r.Line, partRowWhere(mapping.PartPFS, i+1))
	}
	for _, b := range m.Blocks {
		for _, r := range b.Direct.Rows {
			add(b.Direct.Columns, r.Path, r.Line, BlockWhere(&b)+" "+mapping.SubPartDirect)
		}
		for _, r := range b.Associated.Rows {
			add(b.Associated.Columns, r.Path, r.Line, BlockWhere(&b)+" "+mapping.SubPartAssociated)
		}
		for _, it := range b.Summary.Items {
			add(nil, it.Path, it.Line, BlockWhere(&b)+" "+mapping.SubPartSummary)
		}
	}
	for i, r := range m.UnmappedFiles.Rows {
		add(m.UnmappedFiles.Columns, r.Path, r.Line, partRowWhere(mapping.PartUnmappedFiles, i+1))
	}
	fix := &r02Fixer{p: p, budget: r02NearMissBudget}
	kinds := newAggregateKinds(p.Facts)
	for _, r := range refs {
		got := strings.TrimSpace(r.path)
		if got == "" {
			p.Reportf(r.line, r.where, "the File cell is empty; write the path of a file the PR changes, or remove the row")
			continue
		}
		if p.PRFile[got] != nil || kinds.kind(got) != "" {
			continue
		}
		p.Reportf(r.line, FileWhere(got), "`%s` (%s) is not a file the PR changes; %s", got, r.where, fix.suggest(got))
	}
}

// r02NearMissBudget bounds the near-miss comparisons (wrong paths times PR
// files) of one artifact, so that a hostile artifact stays fast; past it,
// a wrong path gets the plain message without a "did you mean".
const r02NearMissBudget = 20_000

// r02Fixer suggests the path to write instead of a path that is not a PR
// file.
type r02Fixer struct {
	p      *Pass
	fold   map[string][]string // lowercased PR path -> PR paths
	budget int
}

func (x *r02Fixer) suggest(got string) string {
	p := x.p
	if f := p.OldPath[got]; f != nil {
		return fmt.Sprintf("the PR renames it to `%s`: write the path after the change, `%s`", f.Path(), f.Path())
	}
	tidy := tidyPath(got)
	if f := p.OldPath[tidy]; f != nil {
		return fmt.Sprintf("the PR renames `%s` to `%s`: write `%s`", tidy, f.Path(), f.Path())
	}
	if p.PRFile[tidy] != nil {
		return fmt.Sprintf("write it exactly as `%s`", tidy)
	}
	if x.fold == nil {
		x.fold = map[string][]string{}
		for i := range p.Change.Files {
			file := p.Change.Files[i].Path()
			x.fold[strings.ToLower(file)] = append(x.fold[strings.ToLower(file)], file)
		}
	}
	if files := x.fold[strings.ToLower(tidy)]; len(files) == 1 {
		return fmt.Sprintf("write it exactly as `%s`", files[0])
	}
	n := len(p.Change.Files)
	var near []string
	if x.budget >= n {
		x.budget -= n
		for i := range p.Change.Files {
			if file := p.Change.Files[i].Path(); nearMiss(got, file) {
				near = append(near, file)
			}
		}
	}
	if len(near) > 0 {
		slices.Sort(near)
		return fmt.Sprintf("did you mean %s? Correct the path, or remove the row if the file is not part of the PR", codeList(near))
	}
	switch {
	case n == 0:
		return "the PR changes no files; remove the row"
	case n > 12:
		return fmt.Sprintf("the PR changes %d files, none of them at this path: correct the path, or remove the row", n)
	}
	all := make([]string, n)
	for i := range p.Change.Files {
		all[i] = p.Change.Files[i].Path()
	}
	return fmt.Sprintf("correct the path to one of %s, or remove the row if the file is not part of the PR", codeList(all))
}
