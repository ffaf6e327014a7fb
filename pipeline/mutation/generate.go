package mutation

import (
	"context"
	"fmt"
)

// Candidate is a generated mutant: its record (status Pending) and its
// edit of the reference solution.
type Candidate struct {
	Mutant *Mutant
	Edit   Edit
}

// RevertCandidates makes the mapped-section revert mutants (see
// Reverts), ids "revert-<section>".
func RevertCandidates(sol *Solution, o *Owners) []Candidate {
	var out []Candidate
	for _, r := range Reverts(sol, o) {
		m := &Mutant{ID: "revert-" + Slug(r.Section.ID), Method: MappedRevert, Section: r.Section.ID, SectionTitle: r.Section.Title,
			Requirement: r.Section.Requirement, Status: Pending}
		m.Reference, m.Mutated, m.Scenario, m.Rationale = describeRevert(r)
		out = append(out, Candidate{Mutant: m, Edit: r.Edit})
	}
	return out
}

// OperatorCandidates applies the operators to the added lines of every
// solution file in a language they cover: ids "op-<operator>-<NNN>",
// numbered per operator in file and position order. Files that cannot be
// parsed are reported in notes.
func OperatorCandidates(ctx context.Context, sol *Solution, o *Owners, ops []*Operator) ([]Candidate, []string, error) {
	var notes []string
	type found struct {
		file *File
		site Site
	}
	per := map[string][]found{}
	for i := range sol.Files {
		f := &sol.Files[i]
		if f.Skip != "" || f.After == nil || len(f.Added) == 0 || syntaxes[f.Language] == nil {
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
			out = append(out, Candidate{Mutant: m, Edit: Edit{x.file.Path: x.site.Apply(x.file.After)}})
		}
	}
	return out, notes, nil
}

// Prepare materializes candidates: it fills each record's Files and Lines
// and returns the patches, in order. A candidate equal to the reference
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
	for i, c := range cands {
		m := c.Mutant
		m.Files, m.Lines, m.Patch = mz[i].Files, mz[i].Lines, PatchFile
		patches[i] = mz[i].Patch
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
