// Package rank is the ranking stage of phase 2 (paper, section 3.2): an LLM
// judge grades the quality of a candidate's mapping, section by section, and
// Go turns the grades into the candidate score Q, which decides whether the
// candidate is retained.
//
// The judge grades the mapping, not the PR. For every implementable section
// of the artifact it extracts the requirement claims and scores five
// dimensions from 1 to 10: coverage, precision, scope and granularity grade
// the mapping, specificity grades how precisely the EP's own text states
// what the code must do. It also gives an importance category with
// modifiers, independent of file counts. The arithmetic is Go's and exact
// (score.go):
//
//	q = 0.40 coverage + 0.25 precision + 0.15 scope + 0.10 granularity + 0.10 specificity
//	w = base(category) + modifiers, clipped to [0.1, 1.0] for every section
//	    the artifact marks implementable, whatever the judge's category
//	Q = Σ w·q / Σ w
//
// Section scores and Q are published rounded half up to one decimal. A
// candidate is retained when it passed the static (validate.json) and the
// semantic (audit.json) gates and its published Q is at least 8.0; it then
// waits for an expert's review record (stages/review). A candidate with a
// lower Q is rejected with the judge's main reason.
package rank

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/prompts"
	"github.com/lolbench/lolbench/stages/audit"
	"github.com/lolbench/lolbench/stages/evidence"
	"github.com/lolbench/lolbench/stages/validate"
)

// Stage is the rank stage, a pipeline.CandidateStage.
type Stage struct {
	// LLM asks the judge; nil makes the stage skip with the message that
	// names the variables to set.
	LLM *llm.Client
	// Evidence sets the patch and EP byte budgets of the prompt.
	Evidence evidence.Options
}

var _ pipeline.CandidateStage = (*Stage)(nil)

// Name is the command name.
func (s *Stage) Name() string { return "rank" }

// String is the log title.
func (s *Stage) String() string { return "ranking mappings" }

// ScoringParam describes the scoring constants, for the input fingerprint:
// a change of weights or threshold reranks every candidate.
func ScoringParam() string {
	var b strings.Builder
	fmt.Fprintf(&b, "scoring q=%d/%d/%d/%d/%d", WeightCoverage, WeightPrecision, WeightScope, WeightGranularity, WeightSpecificity)
	for _, c := range Categories {
		fmt.Fprintf(&b, " %s=%s", c.Category, c.Base)
	}
	for _, m := range Modifiers {
		fmt.Fprintf(&b, " %s%+d", m.Modifier, int(m.Delta))
	}
	fmt.Fprintf(&b, " clip=%s..%s(every implementable section) threshold=%s", MinWeight, MaxWeight, Threshold)
	return b.String()
}

// Inputs are candidate.json, the EP, mapping.md, the two gates' reports,
// the model, the prompt, the scoring constants and the budgets.
func (s *Stage) Inputs(env *pipeline.Env, c *pipeline.Candidate) (pipeline.Inputs, error) {
	info, err := c.LoadInfo()
	if err != nil {
		return pipeline.Inputs{}, err
	}
	ps, err := evidence.PromptParams(prompts.JudgePrompt)
	if err != nil {
		return pipeline.Inputs{}, err
	}
	ps = append(ps, evidence.ModelParam(s.LLM, "rank"), ScoringParam())
	ps = append(ps, s.Evidence.Params()...)
	return pipeline.Inputs{
		Files:  []string{pipeline.InfoFile, info.EP.File, pipeline.MappingFile, pipeline.ValidateFile, pipeline.AuditFile},
		Params: ps,
	}, nil
}

// JudgedSection is one row of the judge's answer.
type JudgedSection struct {
	Section string   `json:"section"`
	Claims  []string `json:"claims"`
	Dimensions
	Category  Category   `json:"category"`
	Modifiers []Modifier `json:"modifiers"`
	Reason    string     `json:"reason"`
}

// Judgement is the judge's answer.
type Judgement struct {
	Sections      []JudgedSection `json:"sections"`
	InstanceScore float64         `json:"instance_score"`
	MainReason    string          `json:"main_reason"`
}

// Validate checks every row on its own: an id, claims, scores from 1 to 10,
// a known category, known modifiers given once, a reason; and the instance
// score and main reason. Which rows must be present is checked against the
// artifact by the stage.
func (j *Judgement) Validate() error {
	if j.Sections == nil {
		return errors.New(`field "sections" is missing or null`)
	}
	seen := map[string]bool{}
	for i, s := range j.Sections {
		where := fmt.Sprintf("sections[%d]", i)
		if strings.TrimSpace(s.Section) != "" {
			where = fmt.Sprintf("section %s", s.Section)
		}
		switch {
		case strings.TrimSpace(s.Section) == "":
			return fmt.Errorf(`%s: field "section" is empty`, where)
		case seen[s.Section]:
			return fmt.Errorf("%s is graded twice; give one row per section", where)
		case len(s.Claims) == 0:
			return fmt.Errorf(`%s: field "claims" is empty; list the section's requirement claims`, where)
		case strings.TrimSpace(s.Reason) == "":
			return fmt.Errorf(`%s: field "reason" is empty`, where)
		}
		seen[s.Section] = true
		for k, c := range s.Claims {
			if strings.TrimSpace(c) == "" {
				return fmt.Errorf("%s: claim %d is empty", where, k+1)
			}
		}
		if err := s.Dimensions.Check(); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		if _, err := Weight(true, s.Category, s.Modifiers); err != nil {
			return fmt.Errorf("%s: %w; categories are %s, modifiers %s", where, err, categoryKeys(), modifierKeys())
		}
	}
	if j.InstanceScore < 1 || j.InstanceScore > 10 {
		return fmt.Errorf("instance_score is %g; it is a number from 1 to 10", j.InstanceScore)
	}
	if strings.TrimSpace(j.MainReason) == "" {
		return errors.New(`field "main_reason" is empty`)
	}
	return nil
}

func categoryKeys() string {
	var ks []string
	for _, c := range Categories {
		ks = append(ks, string(c.Category))
	}
	return strings.Join(ks, ", ")
}

func modifierKeys() string {
	var ks []string
	for _, m := range Modifiers {
		ks = append(ks, string(m.Modifier))
	}
	return strings.Join(ks, ", ")
}

// Implementable returns the sections the artifact's Section Classification
// Summary marks implementable, in its order.
func Implementable(m *mapping.Mapping) []prompts.Section {
	var out []prompts.Section
	for _, r := range m.SCS.Rows {
		if yes, ok := mapping.ParseYesNo(r.Implementable); ok && yes {
			out = append(out, prompts.Section{ID: r.Section, Level: strings.Count(r.Section, ".") + 1, Title: r.Title})
		}
	}
	return out
}

// JudgeData fills the judge's vocabularies and, when sections is not nil,
// the sections to grade.
func JudgeData(d *prompts.Data, sections []prompts.Section) {
	d.Judge.Categories = nil
	for _, c := range Categories {
		d.Judge.Categories = append(d.Judge.Categories, prompts.Choice{Key: string(c.Category), Meaning: c.Meaning, Effect: c.Base.String()})
	}
	d.Judge.Modifiers = nil
	for _, m := range Modifiers {
		sign := "+"
		if m.Delta < 0 {
			sign = ""
		}
		d.Judge.Modifiers = append(d.Judge.Modifiers, prompts.Choice{Key: string(m.Modifier), Meaning: m.Meaning, Effect: sign + m.Delta.String()})
	}
	if sections != nil {
		d.Judge.Sections = sections
	}
}

// Prompt renders the judge prompt for d, grading sections (nil keeps
// d.Judge.Sections).
func Prompt(d *prompts.Data, sections []prompts.Section) (prompts.Prompt, error) {
	JudgeData(d, sections)
	return prompts.Render(prompts.JudgePrompt, d)
}

// coversSections checks that the judge graded exactly the wanted sections.
func coversSections(j *Judgement, want []prompts.Section) error {
	var missing, extra []string
	for _, w := range want {
		if !slices.ContainsFunc(j.Sections, func(s JudgedSection) bool { return s.Section == w.ID }) {
			missing = append(missing, w.ID)
		}
	}
	for _, s := range j.Sections {
		if !slices.ContainsFunc(want, func(w prompts.Section) bool { return w.ID == s.Section }) {
			extra = append(extra, s.Section)
		}
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, "sections "+strings.Join(missing, ", ")+" are not graded")
	}
	if len(extra) > 0 {
		parts = append(parts, "sections "+strings.Join(extra, ", ")+" are not implementable sections of the artifact")
	}
	if len(parts) > 0 {
		return errors.New(strings.Join(parts, "; ") + "; give exactly one row per listed section")
	}
	return nil
}

// SectionRow is one section of rank.json.
type SectionRow struct {
	Section string   `json:"section"`
	Title   string   `json:"title"`
	Claims  []string `json:"claims"`
	Dimensions
	Category  Category   `json:"category"`
	Modifiers []Modifier `json:"modifiers"`
	// W is the importance weight, Q the section score rounded to one
	// decimal, QExact the score before rounding.
	W      Tenths     `json:"w"`
	Q      Tenths     `json:"q"`
	QExact Hundredths `json:"q_exact"`
	Reason string     `json:"reason"`
}

// Gates are the two validation gates a retained candidate passed.
type Gates struct {
	Static   bool `json:"static"`
	Semantic bool `json:"semantic"`
}

// Review states of rank.json.
const (
	ReviewAwaiting = "awaiting expert review"
)

// Report is rank.json.
type Report struct {
	Candidate     string       `json:"candidate"`
	MappingSHA256 string       `json:"mapping_sha256"`
	Model         string       `json:"model"`
	Exchanges     []string     `json:"exchanges"`
	Sections      []SectionRow `json:"sections"`
	// Q is the candidate score rounded to one decimal; null when no
	// section carries weight. QExact is the unrounded ratio, for display.
	Q           *Tenths     `json:"q"`
	QExact      json.Number `json:"q_exact"`
	Computation string      `json:"computation"`
	// Reason is the judge's main reason for its grade of the instance.
	Reason string `json:"reason"`
	// JudgeScore is the judge's own overall grade; Q, not this, decides.
	JudgeScore float64 `json:"judge_score"`
	Threshold  Tenths  `json:"threshold"`
	Gates      Gates   `json:"gates"`
	Retained   bool    `json:"retained"`
	// Review is ReviewAwaiting for a retained candidate.
	Review string `json:"review,omitempty"`
}

// Summary is the report in one line.
func (r *Report) Summary() string {
	q := "undefined"
	if r.Q != nil {
		q = r.Q.String()
	}
	if r.Retained {
		return fmt.Sprintf("Q %s >= %s: retained, %s", q, r.Threshold, r.Review)
	}
	if r.Q == nil {
		return fmt.Sprintf("Q %s: no implementable section carries weight", q)
	}
	return fmt.Sprintf("Q %s < %s: %s", q, r.Threshold, r.Reason)
}

// BuildReport scores a judgement over the artifact's implementable
// sections (in the artifact's order) and applies the retention rule.
func BuildReport(j *Judgement, sections []prompts.Section, gates Gates) (*Report, error) {
	var in []Section
	var rows []SectionRow
	for _, want := range sections {
		i := slices.IndexFunc(j.Sections, func(s JudgedSection) bool { return s.Section == want.ID })
		if i < 0 {
			return nil, fmt.Errorf("section %s is not graded", want.ID)
		}
		js := j.Sections[i]
		in = append(in, Section{Section: js.Section, Title: want.Title, Implementable: true, Dimensions: js.Dimensions, Category: js.Category, Modifiers: js.Modifiers})
		rows = append(rows, SectionRow{Section: js.Section, Title: want.Title, Claims: js.Claims, Dimensions: js.Dimensions,
			Category: js.Category, Modifiers: slices.Clone(js.Modifiers), Reason: js.Reason})
	}
	res, err := Score(in)
	if err != nil {
		return nil, err
	}
	for i, sc := range res.Sections {
		rows[i].W, rows[i].Q, rows[i].QExact = sc.W, sc.Q, sc.QExact
		if rows[i].Modifiers == nil {
			rows[i].Modifiers = []Modifier{}
		}
	}
	rep := &Report{
		Sections: rows, Computation: res.Computation(), Reason: strings.TrimSpace(j.MainReason),
		JudgeScore: j.InstanceScore, Threshold: Threshold, Gates: gates,
		QExact: json.Number(fmt.Sprintf("%.4f", res.Exact())),
	}
	if res.HasQ {
		q := res.Q
		rep.Q = &q
	}
	rep.Retained = Retained(gates.Static, gates.Semantic, res)
	if rep.Retained {
		rep.Review = ReviewAwaiting
	}
	return rep, nil
}

// gates checks the two validation gates from validate.json and audit.json.
// A missing or stale report skips (run the earlier stage first); a report
// that failed rejects.
func gates(c *pipeline.Candidate, mappingSHA string) error {
	vrep, err := validate.Load(c)
	if errors.Is(err, os.ErrNotExist) {
		return pipeline.Skip("no %s: run lolbench validate first (lolbench rank runs it)", pipeline.ValidateFile)
	}
	if err != nil {
		return err
	}
	if !vrep.Passed() {
		return pipeline.Reject("static validation did not pass: %s", validate.Summary(vrep))
	}
	arep, err := audit.Load(c)
	if errors.Is(err, os.ErrNotExist) {
		return pipeline.Skip("no %s: run lolbench audit %s first", pipeline.AuditFile, c.ID)
	}
	if err != nil {
		return err
	}
	switch {
	case arep.MappingSHA256 != mappingSHA:
		return pipeline.Skip("%s is about another %s: run lolbench audit %s again", pipeline.AuditFile, pipeline.MappingFile, c.ID)
	case !arep.Complete:
		return pipeline.Skip("%s covers only some semantic rules: run lolbench audit %s without --rules", pipeline.AuditFile, c.ID)
	case !arep.Passed:
		return pipeline.Reject("%s", arep.Summary())
	}
	return nil
}

// Run grades mapping.md, writes rank.json and rejects a candidate whose Q
// is below the threshold.
func (s *Stage) Run(ctx context.Context, env *pipeline.Env, c *pipeline.Candidate) error {
	mp, err := c.Path(pipeline.MappingFile)
	if err != nil {
		return err
	}
	raw, err := os.ReadFile(mp)
	if errors.Is(err, os.ErrNotExist) {
		return pipeline.Skip("no %s to rank; run lolbench map %s or write it by hand (docs/mapping-format.md)", pipeline.MappingFile, c.ID)
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", mp, err)
	}
	if s.LLM == nil {
		return pipeline.Skip("%s", llm.ErrNoEndpoint)
	}
	sum := sha256.Sum256(raw)
	mappingSHA := hex.EncodeToString(sum[:])
	if err := gates(c, mappingSHA); err != nil {
		return err
	}
	m, err := mapping.ParseFile(mp)
	if err != nil {
		return err
	}
	want := Implementable(m)
	var j Judgement
	var results []*llm.Result
	if len(want) > 0 {
		ev, err := evidence.Load(ctx, env.Workspace, c, s.Evidence)
		if err != nil {
			return err
		}
		p, err := Prompt(ev.Data(), want)
		if err != nil {
			return err
		}
		req := llm.Request{Stage: "rank", Messages: evidence.Messages(p), Schema: "rank.Judgement/v1"}
		results, err = evidence.Ask(ctx, s.LLM, req, &j, func() error { return coversSections(&j, want) }, s.LLM.Config().MaxTries)
		if err != nil {
			return err
		}
	}
	rep, err := BuildReport(&j, want, Gates{Static: true, Semantic: true})
	if err != nil {
		return err
	}
	rep.Candidate, rep.MappingSHA256, rep.Model = c.ID, mappingSHA, s.LLM.Config().ModelFor("rank")
	rep.Exchanges = []string{}
	for _, r := range results {
		rep.Exchanges = append(rep.Exchanges, r.Hash)
	}
	out, err := c.Path(pipeline.RankFile)
	if err != nil {
		return err
	}
	if err := workspace.WriteJSON(out, rep); err != nil {
		return err
	}
	if env != nil && env.Status != nil {
		fmt.Fprintf(env.Status, "%s: rank: %s\n", c.ID, rep.Summary())
	}
	if !rep.Retained {
		return pipeline.Reject("%s", rep.Summary())
	}
	return nil
}

// Load reads a candidate's rank.json; a missing file is an error wrapping
// os.ErrNotExist.
func Load(c *pipeline.Candidate) (*Report, error) {
	return pipeline.ReadArtifact[Report](c, pipeline.RankFile)
}
