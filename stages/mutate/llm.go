package mutate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/prompts"
	"github.com/lolbench/lolbench/stages/evidence"
)

// maxEdits bounds the edits of one LLM answer.
const maxEdits = 20

// llmTries is how many answers one mutant may take: the first and two
// rewrites after an answer that does not fit the solution.
const llmTries = 3

// promptOf is each LLM method's prompt.
var promptOf = map[mutation.Method]string{
	mutation.SectionRevert:       prompts.MutateSectionRevertPrompt,
	mutation.RequirementMismatch: prompts.MutateRequirementMismatchPrompt,
	mutation.SemanticMutation:    prompts.MutateSemanticMutationPrompt,
}

// promptParams are the mutate prompts' digests, for the fingerprint.
func promptParams() ([]string, error) {
	var out []string
	for _, n := range prompts.MutateNames() {
		d, err := prompts.MutateDigest(n)
		if err != nil {
			return nil, err
		}
		out = append(out, "prompt "+n+" "+d)
	}
	d, err := prompts.MutateJudgeDigest()
	if err != nil {
		return nil, err
	}
	return append(out, "prompt "+prompts.MutateJudgePrompt+" "+d), nil
}

// Answer is the model's answer for one mutant (prompts/mutate-common.tmpl).
type Answer struct {
	MutatedSection string `json:"mutated_section"`
	Requirement    string `json:"requirement"`
	Reference      string `json:"reference_behaviour"`
	Mutated        string `json:"mutated_behaviour"`
	Scenario       string `json:"scenario"`
	Rationale      string `json:"rationale"`
	Edits          []Edit `json:"edits"`
}

// Edit is one search-and-replace edit of a solution file.
type Edit struct {
	Path string `json:"path"`
	Old  string `json:"old"`
	New  string `json:"new"`
}

// Validate implements llm.Validator: the shape the answer must have
// before it is compared with the solution.
func (a *Answer) Validate() error {
	var errs []string
	for _, f := range []struct{ name, v string }{
		{"mutated_section", a.MutatedSection}, {"requirement", a.Requirement}, {"reference_behaviour", a.Reference},
		{"mutated_behaviour", a.Mutated}, {"scenario", a.Scenario}, {"rationale", a.Rationale},
	} {
		if strings.TrimSpace(f.v) == "" {
			errs = append(errs, f.name+" is empty")
		}
	}
	switch {
	case len(a.Edits) == 0:
		errs = append(errs, "edits is empty: give at least one edit")
	case len(a.Edits) > maxEdits:
		errs = append(errs, fmt.Sprintf("edits has %d entries, more than %d", len(a.Edits), maxEdits))
	}
	for i, e := range a.Edits {
		if strings.TrimSpace(e.Path) == "" || e.Old == "" {
			errs = append(errs, fmt.Sprintf("edits[%d] needs a path and a non-empty old text", i))
		}
		if e.Old == e.New {
			errs = append(errs, fmt.Sprintf("edits[%d] changes nothing (old equals new)", i))
		}
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// apply applies the answer's edits to the solution's files and returns the
// mutant's edit, or the first problem, worded for the model.
func (a *Answer) apply(sol *mutation.Solution) (mutation.Edit, error) {
	cur := map[string]string{}
	for i, e := range a.Edits {
		f := sol.File(e.Path)
		switch {
		case f == nil:
			return nil, fmt.Errorf("edits[%d]: %q is not a file of the reference solution (edit only the files shown)", i, e.Path)
		case f.Skip != "" || f.After == nil:
			return nil, fmt.Errorf("edits[%d]: %s cannot be edited (%s)", i, e.Path, orText(f.Skip, "the solution deletes it"))
		case f.Category == "test":
			return nil, fmt.Errorf("edits[%d]: %s is a test file; edit only solution files", i, e.Path)
		}
		text, ok := cur[e.Path]
		if !ok {
			text = string(f.After)
		}
		switch n := strings.Count(text, e.Old); n {
		case 0:
			return nil, fmt.Errorf("edits[%d]: the old text does not occur in %s (copy it exactly, white space included, from the file as your earlier edits left it)", i, e.Path)
		case 1:
		default:
			return nil, fmt.Errorf("edits[%d]: the old text occurs %d times in %s; make it longer so that it occurs once", i, n, e.Path)
		}
		cur[e.Path] = strings.Replace(text, e.Old, e.New, 1)
	}
	edit := mutation.Edit{}
	for p, text := range cur {
		if text != string(sol.File(p).After) {
			edit[p] = []byte(text)
		}
	}
	if len(edit) == 0 {
		return nil, errors.New("the edits leave the reference solution unchanged")
	}
	return edit, nil
}

// normalize folds white space and case, to find a quoted clause.
func normalize(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// llmCandidates asks the model for one mutant per method and mapped
// section that owns changed lines. A mutant the model cannot produce is a
// skip line in the report, not a failure of the stage.
func (s *Stage) llmCandidates(ctx context.Context, env *pipeline.Env, c *pipeline.Candidate, t *task) ([]mutation.Candidate, []string, error) {
	ev, err := evidence.Load(ctx, env.Workspace, c, s.Evidence)
	if err != nil {
		return nil, nil, err
	}
	base := ev.Data()
	reverts := mutation.Reverts(t.sol, t.owners)
	var all []prompts.MutateSection
	for _, sec := range t.owners.Sections {
		all = append(all, s.promptSection(ev, sec))
	}
	limit := s.Evidence.FileLimit
	if limit <= 0 {
		limit = evidence.DefaultFileLimit
	}
	budget := s.Evidence.Budget
	if budget <= 0 {
		budget = evidence.DefaultBudget
	}
	var out []mutation.Candidate
	var skipped []string
	for _, r := range reverts {
		if len(s.Sections) > 0 && !slices.Contains(s.Sections, r.Section.ID) {
			continue
		}
		d := &prompts.Mutate{Data: *base, Language: t.info.Language, Section: s.promptSection(ev, r.Section), Sections: all, MaxEdits: maxEdits}
		// Files: the section's own first, then the rest, within the budget.
		left := budget
		order := append([]string{}, r.Files...)
		for _, f := range t.sol.Files {
			if !slices.Contains(order, f.Path) {
				order = append(order, f.Path)
			}
		}
		for _, p := range order {
			f := t.sol.File(p)
			if f == nil || f.After == nil || f.Skip != "" || f.Category != "source" {
				continue
			}
			text, kept, cutOff := evidence.Cut(f.After, min(limit, max(left, 0)))
			mf := prompts.MutateFile{Path: p, Text: text, Owned: slices.Contains(r.Files, p)}
			if cutOff {
				mf.Note = fmt.Sprintf("cut at %d of %d bytes; edit only text shown", kept, len(f.After))
			}
			left -= kept
			d.Files = append(d.Files, mf)
		}
		sol, kept, cutOff := evidence.Cut(t.solutionPatch, max(left, limit))
		d.Solution = sol
		if cutOff {
			d.SolutionNote = fmt.Sprintf("cut at %d of %d bytes", kept, len(t.solutionPatch))
		}
		for _, m := range mutation.LLMMethods {
			d.Method = m.Title()
			p, err := prompts.RenderMutate(promptOf[m], d)
			if err != nil {
				return nil, nil, err
			}
			var ans Answer
			var edit mutation.Edit
			check := func() error {
				e, err := ans.apply(t.sol)
				if err != nil {
					return err
				}
				sec := d.Section
				if !strings.Contains(normalize(sec.Text+" "+sec.Quote+" "+sec.Requirement), normalize(ans.Requirement)) {
					return fmt.Errorf("requirement %q is not quoted word for word from section %s", ans.Requirement, sec.ID)
				}
				edit = e
				return nil
			}
			req := llm.Request{Stage: "mutate", Messages: evidence.Messages(p), Schema: "mutate.Answer"}
			_, err = evidence.Ask(ctx, s.LLM, req, &ans, check, llmTries)
			if err != nil {
				if ctx.Err() != nil {
					return nil, nil, ctx.Err()
				}
				skipped = append(skipped, fmt.Sprintf("llm %s, section %s: %v", m, r.Section.ID, err))
				continue
			}
			mu := &mutation.Mutant{ID: "llm-" + string(m) + "-" + mutation.Slug(r.Section.ID), Method: m, Section: r.Section.ID,
				SectionTitle: r.Section.Title, Requirement: strings.TrimSpace(ans.Requirement), Reference: ans.Reference,
				Mutated: ans.Mutated, Scenario: ans.Scenario, Rationale: ans.Rationale, Status: mutation.Pending}
			out = append(out, mutation.Candidate{Mutant: mu, Edit: edit})
		}
	}
	return out, skipped, nil
}

// promptSection is a mapped section with its EP text (own text, cut at
// 8 KiB).
func (s *Stage) promptSection(ev *evidence.Evidence, sec mutation.Section) prompts.MutateSection {
	ps := prompts.MutateSection{ID: sec.ID, Title: sec.Title, Requirement: sec.Requirement, Quote: sec.Quote}
	if ev.EP != nil {
		if es := ev.EP.Section(sec.ID); es != nil {
			text, _, _ := evidence.Cut([]byte(strings.TrimSpace(ev.EP.Text(es.Own))), 8<<10)
			ps.Text = text
		}
	}
	return ps
}
