package mutation

import (
	"context"
	"fmt"

	"github.com/lolbench/lolbench/pipeline/lang"
)

// Candidate is a generated mutant: its record (status Pending) and its
// edit of the reference solution.
type Candidate struct {
	Mutant *Mutant
	Edit   Edit
	// File and Function locate an operator's site (Function is the
	// enclosing function's first line, 0 at file level): sampling spreads
	// over them (SpreadPerOperator).
	File     string
	Function int
	// Delta is the mutant's diff against the reference solution, which
	// Prepare fills: what the LLM judge reads.
	Delta []byte
}

// RevertCandidates makes the mapped-section revert mutants (see
// Reverts), ids "revert-<section>". A Go revert that had to keep some of
// the section's declarations is marked StubVariant: like a stub revert, it
// leaves part of the section in place. One whose Go files do not parse
// (Revert.Invalid) stays pending: the build check refuses it with the
// same error, and the mutate stage retries it as a stub revert. One that
// changes only comments (Revert.NoCode) is dropped as a duplicate of the
// reference solution: no test could kill it.
func RevertCandidates(sol *Solution, o *Owners) []Candidate {
	var out []Candidate
	for _, r := range Reverts(sol, o) {
		m := &Mutant{ID: "revert-" + Slug(r.Section.ID), Method: MappedRevert, Section: r.Section.ID, SectionTitle: r.Section.Title,
			Requirement: r.Section.Requirement, Status: Pending}
		if len(r.Kept) > 0 {
			m.Variant = StubVariant
		}
		m.Reference, m.Mutated, m.Scenario, m.Rationale = describeRevert(r)
		if r.NoCode {
			m.Status, m.Drop = Dropped, DropDuplicate
			m.Reason = "the revert changes only comments: every line of code section " + r.Section.ID + " owns is still used, so it is equivalent to the reference solution"
		}
		out = append(out, Candidate{Mutant: m, Edit: r.Edit})
	}
	return out
}

// OperatorCandidates applies the operators to the added lines of every
// solution source file in a language they cover: ids "op-<operator>-<NNN>",
// numbered per operator in file and position order. Build files, tests and
// documentation are never mutated (a noxfile.py mutant survives every
// test and says nothing of them). Files that cannot be parsed are
// reported in notes.
func OperatorCandidates(ctx context.Context, sol *Solution, o *Owners, ops []*Operator) ([]Candidate, []string, error) {
	var notes []string
	type found struct {
		file *File
		site Site
	}
	per := map[string][]found{}
	for i := range sol.Files {
		f := &sol.Files[i]
		if f.Skip != "" || f.After == nil || len(f.Added) == 0 || syntaxes[f.Language] == nil || !Mutable(f) {
			continue
		}
		sites, err := OperatorSites(ctx, ops, f.Path, f.Language, f.After, f.Added)
		if err != nil {
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			notes = append(notes, err.Error())
			continue
		}
		for _, op := range ops {
			for _, s := range sites[op.Name] {
				per[op.Name] = append(per[op.Name], found{f, s})
			}
		}
	}
	var out []Candidate
	for _, op := range ops {
		for n, x := range per[op.Name] {
			m := &Mutant{ID: fmt.Sprintf("op-%s-%03d", op.Name, n+1), Method: SyntaxOperator, Operator: op.Name, Status: Pending,
				Reference: x.site.Reference, Mutated: x.site.Mutated, Scenario: x.site.Scenario, Rationale: x.site.Rationale}
			if id := o.Added(x.file.Path, x.site.StartLine); id != "" {
				m.Section = id
				if sec := o.Section(id); sec != nil {
					m.SectionTitle, m.Requirement = sec.Title, sec.Requirement
				}
			}
			if m.Requirement == "" {
				m.Requirement = fmt.Sprintf("no mapped section owns %s:%d; the operator violates whatever requirement the line implements", x.file.Path, x.site.StartLine)
			}
			out = append(out, Candidate{Mutant: m, Edit: Edit{x.file.Path: x.site.Apply(x.file.After)}, File: x.file.Path, Function: x.site.Function})
		}
	}
	return out, notes, nil
}

// Prepare materializes candidates: it fills each record's Files and Lines
// and each candidate's Delta, and returns the patches, in order. A candidate equal to the reference
// solution, or whose patch repeats an earlier one, is dropped as a
// duplicate.
func Prepare(ctx context.Context, sol *Solution, cands []Candidate, tmp string) ([][]byte, error) {
	edits := make([]Edit, len(cands))
	for i, c := range cands {
		edits[i] = c.Edit
	}
	mz, err := Materialize(ctx, sol, edits, tmp)
	if err != nil {
		return nil, err
	}
	patches := make([][]byte, len(cands))
	seen := map[string]string{}
	for i := range cands {
		m := cands[i].Mutant
		m.Files, m.Lines, m.Patch = mz[i].Files, mz[i].Lines, PatchFile
		patches[i] = mz[i].Patch
		cands[i].Delta = mz[i].Delta
		switch prev, dup := seen[string(mz[i].Patch)]; {
		case mz[i].Same:
			m.Status, m.Drop, m.Reason = Dropped, DropDuplicate, "the mutant is identical to the reference solution"
		case dup:
			m.Status, m.Drop, m.Reason = Dropped, DropDuplicate, "the mutant's patch is identical to mutant "+prev
		default:
			seen[string(mz[i].Patch)] = m.ID
		}
	}
	return patches, nil
}

// Mutable reports whether the syntax operators may mutate a solution file:
// source code outside the documentation folders.
func Mutable(f *File) bool {
	return f.Category == lang.Source && !lang.InDocs(f.Path)
}

// SpreadPerOperator keeps at most n candidates of each operator (n > 0),
// sampled across files and, within a file, across functions: each round
// takes one site from every file in turn, each file rotating through its
// functions, so that one large function cannot use up the budget. The kept
// candidates stay in their original order.
func SpreadPerOperator(cands []Candidate, n int) []Candidate {
	if n <= 0 {
		return cands
	}
	type fn struct{ queue []int }
	type file struct {
		fns  []*fn
		next int
	}
	keep := make([]bool, len(cands))
	byOp := map[string][]int{}
	var ops []string
	for i, c := range cands {
		op := c.Mutant.Operator
		if _, ok := byOp[op]; !ok {
			ops = append(ops, op)
		}
		byOp[op] = append(byOp[op], i)
	}
	for _, op := range ops {
		idx := byOp[op]
		if len(idx) <= n {
			for _, i := range idx {
				keep[i] = true
			}
			continue
		}
		var files []*file
		fileOf := map[string]*file{}
		fnOf := map[string]map[int]*fn{}
		for _, i := range idx {
			c := cands[i]
			f := fileOf[c.File]
			if f == nil {
				f = &file{}
				fileOf[c.File] = f
				fnOf[c.File] = map[int]*fn{}
				files = append(files, f)
			}
			g := fnOf[c.File][c.Function]
			if g == nil {
				g = &fn{}
				fnOf[c.File][c.Function] = g
				f.fns = append(f.fns, g)
			}
			g.queue = append(g.queue, i)
		}
		for taken := 0; taken < n; {
			progress := false
			for _, f := range files {
				for tries := 0; tries < len(f.fns) && taken < n; tries++ {
					g := f.fns[f.next%len(f.fns)]
					f.next++
					if len(g.queue) > 0 {
						keep[g.queue[0]] = true
						g.queue = g.queue[1:]
						taken++
						progress = true
						break
					}
				}
			}
			if !progress {
				break
			}
		}
	}
	var out []Candidate
	for i, c := range cands {
		if keep[i] {
			out = append(out, c)
		}
	}
	return out
}
