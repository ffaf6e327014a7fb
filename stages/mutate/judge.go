package mutate

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/prompts"
	"github.com/lolbench/lolbench/stages/evidence"
)

// The judge's verdicts.
const (
	verdictConfirmed = "confirmed"
	verdictRejected  = "rejected"
)

// Verdict is the mutant judge's answer (prompts/mutate-judge.tmpl).
type Verdict struct {
	Verdict string `json:"verdict"`
	Reason  string `json:"reason"`
}

// Validate implements llm.Validator.
func (v *Verdict) Validate() error {
	var errs []string
	if v.Verdict != verdictConfirmed && v.Verdict != verdictRejected {
		errs = append(errs, fmt.Sprintf("verdict is %q; give %q or %q", v.Verdict, verdictConfirmed, verdictRejected))
	}
	if strings.TrimSpace(v.Reason) == "" {
		errs = append(errs, "reason is empty")
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// judgeDeltaLimit bounds the diff the judge reads.
const judgeDeltaLimit = 48 << 10

// vet asks the judge about every LLM mutant that is still pending (paper,
// section 3.4): a mutant it confirms keeps the judge's account for the
// reviewer; one it rejects, or about which it gives no usable answer, is
// dropped before any run. Mutants of the deterministic methods are not
// judged: what they break is fixed by construction.
func (s *Stage) vet(ctx context.Context, env *pipeline.Env, c *pipeline.Candidate, t *task, cands []mutation.Candidate) error {
	var ev *evidence.Evidence
	for _, cd := range cands {
		m := cd.Mutant
		if !m.Method.EPLevel() || m.Status != mutation.Pending {
			continue
		}
		if ev == nil {
			var err error
			if ev, err = evidence.Load(ctx, env.Workspace, c, s.Evidence); err != nil {
				return err
			}
		}
		sec := mutation.Section{ID: m.Section, Title: m.SectionTitle, Requirement: m.Requirement}
		if o := t.owners.Section(m.Section); o != nil {
			sec = *o
		}
		d := &prompts.MutateJudge{Method: m.Method.Title(), Language: t.info.Language, Section: s.promptSection(ev, sec),
			Requirement: m.Requirement, Reference: m.Reference, Mutated: m.Mutated, Scenario: m.Scenario, Rationale: m.Rationale}
		var kept int
		var cut bool
		d.Delta, kept, cut = evidence.Cut(cd.Delta, judgeDeltaLimit)
		if cut {
			d.DeltaNote = fmt.Sprintf("cut at %d of %d bytes", kept, len(cd.Delta))
		}
		p, err := prompts.RenderMutateJudge(d)
		if err != nil {
			return err
		}
		var v Verdict
		req := llm.Request{Stage: "mutate", Messages: evidence.Messages(p), Schema: "mutate.Verdict"}
		if _, err := evidence.Ask(ctx, s.LLM, req, &v, nil, llmTries); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			m.Status, m.Drop, m.Reason = mutation.Dropped, mutation.DropJudge, "the judge gave no usable answer: "+err.Error()
			continue
		}
		reason := strings.Join(strings.Fields(v.Reason), " ")
		if v.Verdict == verdictRejected {
			m.Status, m.Drop, m.Reason = mutation.Dropped, mutation.DropJudge, "the judge rejected it: "+reason
			continue
		}
		m.Judge = reason
	}
	return nil
}
