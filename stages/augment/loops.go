package augment

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/prompts"
	"github.com/lolbench/lolbench/stages/evidence"
)

// conversation is one prompt of a loop and its follow-up.
type conversation struct {
	loop   string
	id     string // the mutant, or "coverage"
	slug   string
	prompt string
	data   *prompts.Augment
	msgs   []llm.Message
	// targets are the mutation loop's mutant; spans the coverage loop's
	// span ids.
	targets []string
	spans   map[string]bool
	rounds  map[int][]*Candidate
}

// generate runs the loops: one round of answers, the retention checks,
// one rewrite of the rejected tests per conversation, the checks again.
func (a *augmenter) generate(ctx context.Context, loops []string) error {
	t := a.t
	var convs []*conversation
	for _, loop := range loops {
		switch loop {
		case LoopMutation:
			surv := t.targetOrder(t.mutants.Matrix.Survivors())
			if max := orDefault(a.s.MaxMutants, DefaultMaxMutants); len(surv) > max {
				a.rep.Notes = append(a.rep.Notes, fmt.Sprintf("mutation loop: %d surviving mutants, the first %d prompted", len(surv), max))
				surv = surv[:max]
			}
			for _, id := range surv {
				conv, err := a.mutationConversation(id)
				if err != nil {
					return err
				}
				convs = append(convs, conv)
			}
			a.statusf("mutation-guided loop: %d surviving mutant%s", len(surv), plural(len(surv)))
		case LoopCoverage:
			conv, err := a.coverageConversation()
			if err != nil {
				return err
			}
			convs = append(convs, conv)
			a.statusf("coverage-guided loop: F2P ∪ P2P covers %.1f%%; %d span%s targeted", t.cov.Suite(coverage.Union).Percent, len(conv.data.Spans), plural(len(conv.data.Spans)))
		}
	}
	var first []*Candidate
	for _, conv := range convs {
		cs, err := a.ask(ctx, conv, 1)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			a.rep.Notes = append(a.rep.Notes, fmt.Sprintf("%s: no answer: %v", conv.id, err))
			continue
		}
		first = append(first, cs...)
	}
	if err := a.checkAll(ctx, first); err != nil {
		return err
	}
	var second []*Candidate
	for _, conv := range convs {
		var rejected []*Candidate
		for _, c := range conv.rounds[1] {
			if c.Status == Rejected {
				rejected = append(rejected, c)
			}
		}
		if len(rejected) == 0 {
			continue
		}
		conv.data.Feedback = nil
		for _, c := range rejected {
			name := c.Name
			if name == "" {
				name = "unnamed"
			}
			conv.data.Feedback = append(conv.data.Feedback, prompts.AugmentFeedback{Path: c.Path, Name: name, Reason: c.Reason})
		}
		text, err := prompts.RenderAugmentRewrite(conv.prompt, conv.data)
		if err != nil {
			return err
		}
		conv.msgs = append(conv.msgs, llm.Message{Role: llm.RoleUser, Content: text})
		cs, err := a.ask(ctx, conv, 2)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			for _, c := range rejected {
				c.Status = Dropped
				c.Reason += " (no rewrite: " + err.Error() + ")"
			}
			continue
		}
		second = append(second, cs...)
	}
	if err := a.checkAll(ctx, second); err != nil {
		return err
	}
	for _, c := range second {
		if c.Status == Rejected {
			c.Status = Dropped
		}
	}
	for i := range a.rep.Loops {
		lr := &a.rep.Loops[i]
		for _, conv := range convs {
			if conv.loop == lr.Loop {
				lr.Prompts++
			}
		}
		for _, c := range a.cands {
			if c.Loop != lr.Loop {
				continue
			}
			lr.Generated++
			switch c.Status {
			case Retained:
				lr.Retained++
			case Rejected:
				lr.Rejected++
			case Dropped:
				lr.Dropped++
			}
		}
	}
	return nil
}

// ask sends a conversation and turns the answer into candidates.
func (a *augmenter) ask(ctx context.Context, conv *conversation, round int) ([]*Candidate, error) {
	var ans Answer
	res, err := a.s.LLM.JSON(ctx, llm.Request{Stage: "augment", Messages: conv.msgs, Schema: "augment.Answer"}, &ans)
	if err != nil {
		return nil, err
	}
	conv.msgs = append(conv.msgs, llm.Message{Role: llm.RoleAssistant, Content: res.Answer})
	tests := ans.Tests
	if max := orDefault(a.s.PerPrompt, DefaultPerPrompt); len(tests) > max {
		a.rep.Notes = append(a.rep.Notes, fmt.Sprintf("%s round %d: %d tests answered, the first %d kept", conv.id, round, len(tests), max))
		tests = tests[:max]
	}
	var out []*Candidate
	for i, p := range tests {
		c := &Candidate{ID: fmt.Sprintf("%s.%d.%d", conv.slug, round, i+1), Loop: conv.loop, Round: round, Conversation: conv.id,
			Path: p.Path, Name: p.Name, Requirement: p.Requirement, source: []byte(p.Source), Targets: []string{}}
		if !bytes.HasSuffix(c.source, []byte("\n")) {
			c.source = append(c.source, '\n')
		}
		if conv.loop == LoopMutation {
			c.Targets = append(c.Targets, conv.targets...)
		} else {
			for _, s := range p.Targets {
				if conv.spans[s] && !contains(c.Targets, s) {
					c.Targets = append(c.Targets, s)
				}
			}
		}
		out = append(out, c)
	}
	if conv.rounds == nil {
		conv.rounds = map[int][]*Candidate{}
	}
	conv.rounds[round] = out
	a.cands = append(a.cands, out...)
	return out, nil
}

// checkAll applies the static rules to each candidate in turn (a later
// candidate may duplicate an earlier one), then runs the live ones.
func (a *augmenter) checkAll(ctx context.Context, cs []*Candidate) error {
	if len(cs) == 0 {
		return nil
	}
	taken := map[string]bool{}
	var kept []existingTest
	for _, c := range a.cands {
		if c.Status == Retained {
			taken[c.Path] = true
			kept = append(kept, existingTest{File: c.Path, Name: c.Name, Fingerprint: c.fingerprint})
		}
	}
	for _, c := range cs {
		a.t.checkStatic(ctx, c, taken, kept)
		if c.ok() {
			taken[c.Path] = true
			kept = append(kept, existingTest{File: c.Path, Name: c.Name, Fingerprint: c.fingerprint})
		}
	}
	return a.check.evaluate(ctx, cs)
}

// baseData is the material both loops show.
func (a *augmenter) baseData() *prompts.Augment {
	t := a.t
	d := &prompts.Augment{Language: t.language, Runs: t.recipe.Runs, MaxTests: orDefault(a.s.PerPrompt, DefaultPerPrompt)}
	d.Candidate = t.c.ID
	if t.audit != nil {
		d.Internal = t.audit.Doc
	}
	if t.epDoc != nil {
		text, shown, cut := evidence.Cut(t.epDoc.Source, evidence.DefaultEPLimit)
		d.EP = prompts.EP{ID: t.info.EP.ID, Title: t.info.EP.Title, Format: string(t.epDoc.Format), Text: text, Truncated: cut, Shown: shown, Bytes: len(t.epDoc.Source)}
		for _, s := range t.epDoc.Sections {
			d.EP.Sections = append(d.EP.Sections, prompts.Section{ID: s.ID, Level: s.Level, Title: s.Title})
		}
	}
	for _, s := range t.sections {
		d.Sections = append(d.Sections, prompts.AugmentSection{ID: s.ID, Title: s.Title, Requirement: s.Requirement})
	}
	text, shown, cut := evidence.Cut(t.solution, solutionBudget)
	d.Solution = text
	if cut {
		d.SolutionNote = fmt.Sprintf("cut: %d of %d bytes shown", shown, len(t.solution))
	}
	left := testsBudget
	for _, f := range t.rec.TestFiles {
		src, err := t.repo.ReadFile(t.head, f)
		if err != nil {
			continue
		}
		if left <= 0 {
			d.TestFiles = append(d.TestFiles, prompts.AugmentFile{Path: f, Note: "[omitted: the budget for test files is used up]"})
			continue
		}
		text, shown, cut := evidence.Cut(src, min(testFileBudget, left))
		af := prompts.AugmentFile{Path: f, Text: text}
		if cut {
			af.Note = fmt.Sprintf("[cut: %d of %d bytes shown]", shown, len(src))
		}
		left -= shown
		d.TestFiles = append(d.TestFiles, af)
	}
	d.Layout = layout(t.language, t.rec.TestFiles)
	return d
}

// layout says where a new test file goes: the language table's NewTest;
// plan skips the loops for a language without one.
func layout(language string, testFiles []string) string {
	dirs := map[string]bool{}
	for _, f := range testFiles {
		dirs[path.Dir(f)] = true
	}
	list := sortedKeys(dirs)
	where := ""
	if len(list) > 0 {
		where = " The task's test files live in: " + strings.Join(list, ", ") + "."
	}
	return newTest(language) + where
}

// newTest is the language table's NewTest, "" for a language without one.
func newTest(language string) string {
	if l := lang.ByName(language); l != nil {
		return l.NewTest
	}
	return ""
}

// mutationConversation is the first request about one surviving mutant.
func (a *augmenter) mutationConversation(id string) (*conversation, error) {
	t := a.t
	d := a.baseData()
	mu := t.mutants.Mutant(id)
	am := &prompts.AugmentMutant{ID: id}
	if mu != nil {
		am = &prompts.AugmentMutant{ID: mu.ID, Method: mu.Method.Title(), Section: mu.Section, SectionTitle: mu.SectionTitle,
			Requirement: mu.Requirement, Reference: mu.Reference, Mutated: mu.Mutated, Scenario: mu.Scenario, Rationale: mu.Rationale}
		am.Changed = a.changedLines(mu)
	}
	d.Mutant = am
	p, err := prompts.RenderAugment(prompts.AugmentMutationPrompt, d)
	if err != nil {
		return nil, err
	}
	return &conversation{loop: LoopMutation, id: id, slug: "m-" + mutation.Slug(id), prompt: prompts.AugmentMutationPrompt, data: d,
		msgs: evidence.Messages(p), targets: []string{id}}, nil
}

// changedLines shows the reference lines a mutant changes, with two lines
// of context, numbered.
func (a *augmenter) changedLines(mu *mutation.Mutant) []prompts.AugmentFile {
	var out []prompts.AugmentFile
	for _, f := range mu.Lines.Files() {
		src, err := a.t.repo.ReadFile(a.t.head, f)
		if err != nil {
			continue
		}
		lines := strings.Split(string(src), "\n")
		show := map[int]bool{}
		for _, n := range mu.Lines[f] {
			for k := n - 2; k <= n+2; k++ {
				if k >= 1 && k <= len(lines) {
					show[k] = true
				}
			}
		}
		out = append(out, prompts.AugmentFile{Path: f, Text: numbered(lines, show, 80)})
	}
	return out
}

// numbered writes the shown lines as "N: text", "..." between gaps, at
// most limit lines.
func numbered(lines []string, show map[int]bool, limit int) string {
	var ns []int
	for n := range show {
		ns = append(ns, n)
	}
	sort.Ints(ns)
	var b strings.Builder
	prev := 0
	for i, n := range ns {
		if i == limit {
			b.WriteString("[more lines omitted]\n")
			break
		}
		if prev != 0 && n != prev+1 {
			b.WriteString("...\n")
		}
		fmt.Fprintf(&b, "%d: %s\n", n, lines[n-1])
		prev = n
	}
	return b.String()
}

// coverageConversation is the first request of the coverage loop: the
// largest uncovered spans with their code.
func (a *augmenter) coverageConversation() (*conversation, error) {
	t := a.t
	d := a.baseData()
	d.Coverage = t.cov.Suite(coverage.Union).Percent
	spans := map[string]bool{}
	// The spans of untested sections first (issue 25), then the rest,
	// largest first.
	order := t.untestedSpans()
	for _, sp := range t.cov.Uncovered {
		if !slices.Contains(order, sp) {
			order = append(order, sp)
		}
	}
	for i, sp := range order {
		if i == orDefault(a.s.MaxSpans, DefaultMaxSpans) {
			break
		}
		id := fmt.Sprintf("span-%d", i+1)
		code := ""
		if src, err := t.repo.ReadFile(t.head, sp.File); err == nil {
			lines := strings.Split(string(src), "\n")
			show := map[int]bool{}
			for n := sp.Start; n <= sp.End && n <= len(lines); n++ {
				show[n] = true
			}
			code = numbered(lines, show, spanLines)
		}
		d.Spans = append(d.Spans, prompts.AugmentSpan{ID: id, File: sp.File, Start: sp.Start, End: sp.End, Lines: sp.Lines, Code: code})
		spans[id] = true
	}
	p, err := prompts.RenderAugment(prompts.AugmentCoveragePrompt, d)
	if err != nil {
		return nil, err
	}
	return &conversation{loop: LoopCoverage, id: "coverage", slug: "cov", prompt: prompts.AugmentCoveragePrompt, data: d,
		msgs: evidence.Messages(p), spans: spans}, nil
}
