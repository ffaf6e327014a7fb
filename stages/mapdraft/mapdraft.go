// Package mapdraft is the map stage of phase 2 (paper, section 3.2): an LLM
// drafts the candidate's mapping artifact (mapping.md, docs/mapping-format.md)
// from the EP, the PR's files with their categories and patches, and the
// changed (file, class, function) scopes.
//
// A draft is checked at once: it must parse and pass all 28 static rules.
// A draft that does not is sent back to the model with every finding, up to
// Rounds drafts in all (3 by default); the tool never patches an artifact
// itself, so what lands in mapping.md is exactly what the model wrote. When
// the last round still fails, the candidate is rejected, the last draft is
// kept in mapping.draft.md for a curator and the findings of every round in
// mapping.draft.json.
//
// Curators may write mapping.md by hand instead. mapping.draft.json records
// the SHA-256 of the artifact the tool wrote, so a mapping.md the tool did
// not write (or that was edited since) is left alone, with a skip that says
// so, unless the stage is told to overwrite it.
package mapdraft

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/prompts"
	"github.com/lolbench/lolbench/rules"
	"github.com/lolbench/lolbench/stages/evidence"
)

// Files the stage writes beside mapping.md.
const (
	RecordFile    = "mapping.draft.json" // what was drafted, round by round
	LastDraftFile = "mapping.draft.md"   // the last draft after a give-up
)

// DefaultRounds bounds the drafts per candidate (paper: regenerate with the
// violations fed back, a bounded number of times).
const DefaultRounds = 3

// maxDraftBytes bounds one drafted artifact; anything larger is not an
// artifact but a runaway answer.
const maxDraftBytes = 4 << 20

// Stage is the map stage, a pipeline.CandidateStage.
type Stage struct {
	// LLM drafts; nil makes the stage skip with the message that names the
	// variables to set.
	LLM *llm.Client
	// Rounds bounds the drafts; 0 means DefaultRounds.
	Rounds int
	// Overwrite drafts over a mapping.md the tool did not write.
	Overwrite bool
	// Evidence sets the patch and EP byte budgets of the prompt.
	Evidence evidence.Options
}

var _ pipeline.CandidateStage = (*Stage)(nil)

// Name is the command name.
func (s *Stage) Name() string { return "map" }

// String is the log title.
func (s *Stage) String() string { return "drafting mappings" }

func (s *Stage) rounds() int {
	if s.Rounds > 0 {
		return s.Rounds
	}
	return DefaultRounds
}

func (s *Stage) params() ([]string, error) {
	ps, err := evidence.PromptParams(prompts.MapPrompt, prompts.MapRetryPrompt)
	if err != nil {
		return nil, err
	}
	ps = append(ps, evidence.ModelParam(s.LLM, "map"), fmt.Sprintf("rounds %d", s.rounds()), fmt.Sprintf("static rules %d", len(rules.All)))
	return append(ps, s.Evidence.Params()...), nil
}

// Inputs are candidate.json, the EP, mapping.md and the draft record (so a
// hand-written or hand-edited mapping.md reruns the stage, which then steps
// aside), the model, the prompts and the budgets.
func (s *Stage) Inputs(env *pipeline.Env, c *pipeline.Candidate) (pipeline.Inputs, error) {
	info, err := c.LoadInfo()
	if err != nil {
		return pipeline.Inputs{}, err
	}
	ps, err := s.params()
	if err != nil {
		return pipeline.Inputs{}, err
	}
	// mapping.md is this stage's output, not its input: a hand edit reruns
	// validate and what follows, never the drafter (issue 8). Drafting
	// over a curator's artifact takes --force.
	return pipeline.Inputs{Files: []string{pipeline.InfoFile, info.EP.File, RecordFile}, Params: ps}, nil
}

// Draft is the drafter's answer: the whole artifact as one JSON string.
type Draft struct {
	Mapping string `json:"mapping"`
}

// Validate rejects an empty or oversized answer; everything else about the
// artifact is the parser's and the static rules' business.
func (d *Draft) Validate() error {
	switch {
	case strings.TrimSpace(d.Mapping) == "":
		return errors.New(`field "mapping" is missing or empty; put the complete Markdown artifact in it`)
	case len(d.Mapping) > maxDraftBytes:
		return fmt.Errorf(`field "mapping" holds %d bytes; an artifact is far shorter`, len(d.Mapping))
	}
	return nil
}

// Finding is one problem of a draft: a static-rule violation, or a parse
// error (Rule "parse").
type Finding struct {
	Rule    string `json:"rule"` // "R07 per-section-proportions" or "parse"
	Line    int    `json:"line,omitempty"`
	Where   string `json:"where,omitempty"`
	Message string `json:"message"`
}

// Round is one draft.
type Round struct {
	Round int `json:"round"`
	// Exchange is the key of the LLM record under <workspace>/llm.
	Exchange string `json:"exchange"`
	// SHA256 is the hash of the drafted artifact.
	SHA256   string    `json:"sha256"`
	Findings []Finding `json:"findings"`
}

// Record is mapping.draft.json.
type Record struct {
	Candidate string `json:"candidate"`
	Model     string `json:"model"`
	// Inputs digests what the draft was made from (candidate.json, the EP,
	// the model, prompts and budgets), so an unchanged candidate is not
	// drafted again.
	Inputs string `json:"inputs"`
	// MappingSHA256 is the hash of the mapping.md the tool wrote; empty
	// when the last attempt gave up.
	MappingSHA256 string    `json:"mapping_sha256,omitempty"`
	Passed        bool      `json:"passed"`
	MaxRounds     int       `json:"max_rounds"`
	Rounds        []Round   `json:"rounds"`
	DraftedAt     time.Time `json:"drafted_at"`
}

// LoadRecord reads mapping.draft.json; it returns nil and no error when
// there is none.
func LoadRecord(c *pipeline.Candidate) (*Record, error) {
	p, err := c.Path(RecordFile)
	if err != nil {
		return nil, err
	}
	var rec Record
	err = workspace.ReadJSON(p, &rec)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &rec, nil
}

func sha(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// Prompt renders the drafter's first request.
func Prompt(d *prompts.Data) (prompts.Prompt, error) {
	return prompts.Render(prompts.MapPrompt, d)
}

// RetryPrompt renders the follow-up that asks for round of rounds after
// a draft with findings.
func RetryPrompt(d *prompts.Data, round, rounds int, findings []Finding) (prompts.Prompt, error) {
	d.Round, d.Rounds = round, rounds
	d.Violations = nil
	for _, f := range findings {
		d.Violations = append(d.Violations, prompts.Violation{Rule: f.Rule, Line: f.Line, Where: f.Where, Message: f.Message})
	}
	return prompts.Render(prompts.MapRetryPrompt, d)
}

// Check parses a draft and runs every static rule on it over the
// candidate's EP, change and scopes.
func Check(ev *evidence.Evidence, draft []byte) ([]Finding, error) {
	m, err := mapping.Parse(draft)
	var perr *mapping.ErrorList
	if errors.As(err, &perr) {
		out := make([]Finding, 0, len(perr.Errors))
		for _, e := range perr.Errors {
			out = append(out, Finding{Rule: "parse", Line: e.Line, Message: e.Msg})
		}
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	rep, err := rules.Run(ev.RulesInput(m), rules.All)
	if err != nil {
		return nil, err
	}
	out := make([]Finding, 0, len(rep.Violations))
	for _, v := range rep.Violations {
		name := fmt.Sprintf("R%02d", v.Rule)
		if r := rules.Lookup(v.Rule); r != nil {
			name += " " + r.Name
		}
		out = append(out, Finding{Rule: name, Line: v.Line, Where: v.Where, Message: v.Message})
	}
	return out, nil
}

// Summary names the number of findings and their rules: "4 findings
// (R07, R21, parse)".
func Summary(fs []Finding) string {
	var ids []string
	for _, f := range fs {
		id, _, _ := strings.Cut(f.Rule, " ")
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	s := "s"
	if len(fs) == 1 {
		s = ""
	}
	return fmt.Sprintf("%d finding%s (%s)", len(fs), s, strings.Join(ids, ", "))
}

func (s *Stage) logf(env *pipeline.Env, c *pipeline.Candidate, format string, args ...any) {
	if env != nil && env.Status != nil {
		fmt.Fprintf(env.Status, "%s: map: %s\n", c.ID, fmt.Sprintf(format, args...))
	}
}

// inputsDigest hashes what a draft depends on, read from disk before any
// expensive work, so that an unchanged candidate returns at once.
func (s *Stage) inputsDigest(c *pipeline.Candidate, info *pipeline.Info) (string, error) {
	ps, err := s.params()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, rel := range []string{pipeline.InfoFile, info.EP.File} {
		p, err := c.Path(rel)
		if err != nil {
			return "", err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return "", fmt.Errorf("read %s: %w", p, err)
		}
		fmt.Fprintf(h, "file %s %s\x00", rel, sha(b))
	}
	for _, p := range ps {
		fmt.Fprintf(h, "param %s\x00", p)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Run drafts mapping.md. See the package documentation for the rounds,
// the give-up and hand-written artifacts.
func (s *Stage) Run(ctx context.Context, env *pipeline.Env, c *pipeline.Candidate) error {
	info, err := c.LoadInfo()
	if err != nil {
		return err
	}
	mp, err := c.Path(pipeline.MappingFile)
	if err != nil {
		return err
	}
	existing, err := os.ReadFile(mp)
	exists := err == nil
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("read %s: %w", mp, err)
	}
	rec, err := LoadRecord(c)
	if err != nil {
		return err
	}
	ours := exists && rec != nil && rec.MappingSHA256 == sha(existing)
	if exists && !ours && !s.Overwrite {
		return pipeline.Skip("%s was not drafted by lolbench (written or edited by hand), so it is left as it is; run lolbench map %s --force to draft over it", pipeline.MappingFile, c.ID)
	}
	if s.LLM == nil {
		return pipeline.Skip("%s", llm.ErrNoEndpoint)
	}
	inputs, err := s.inputsDigest(c, info)
	if err != nil {
		return err
	}
	switch {
	case ours && rec.Passed && rec.Inputs == inputs:
		s.logf(env, c, "%s is already the draft of these inputs", pipeline.MappingFile)
		return nil
	case !exists && rec != nil && !rec.Passed && rec.Inputs == inputs && len(rec.Rounds) > 0:
		// These inputs already ran out of rounds; drafting again would
		// replay the same answers (and rewrite the record, which would
		// rerun the stage on every run).
		return giveUpReason(rec)
	}
	ev, err := evidence.Load(ctx, env.Workspace, c, s.Evidence)
	if err != nil {
		return err
	}
	d := ev.Data()
	d.Mapping = ""
	first, err := Prompt(d)
	if err != nil {
		return err
	}
	out := &Record{
		Candidate: c.ID, Model: s.LLM.Config().ModelFor("map"), Inputs: inputs, MaxRounds: s.rounds(),
		DraftedAt: time.Now().UTC(),
	}
	if ours {
		out.MappingSHA256 = rec.MappingSHA256
	}
	msgs := evidence.Messages(first)
	var draft Draft
	for r := 1; r <= s.rounds(); r++ {
		res, err := s.LLM.JSON(ctx, llm.Request{Stage: "map", Messages: msgs, Schema: "mapdraft.Draft/v1"}, &draft)
		if err != nil {
			return err
		}
		findings, err := Check(ev, []byte(draft.Mapping))
		if err != nil {
			return err
		}
		out.Rounds = append(out.Rounds, Round{Round: r, Exchange: res.Hash, SHA256: sha([]byte(draft.Mapping)), Findings: findings})
		if len(findings) == 0 {
			s.logf(env, c, "round %d: the draft passes all %d static rules", r, len(rules.All))
			return s.accept(c, mp, []byte(draft.Mapping), out)
		}
		s.logf(env, c, "round %d of %d: %s", r, s.rounds(), Summary(findings))
		if r == s.rounds() {
			break
		}
		retry, err := RetryPrompt(d, r+1, s.rounds(), findings)
		if err != nil {
			return err
		}
		// The conversation keeps the first request and the latest draft
		// only, so that it stays the same size from round to round.
		msgs = append(evidence.Messages(first),
			llm.Message{Role: llm.RoleAssistant, Content: res.Answer},
			llm.Message{Role: llm.RoleUser, Content: retry.User})
	}
	return s.giveUp(c, mp, ours, []byte(draft.Mapping), out)
}

// accept writes the passing draft as mapping.md, exactly as drafted, and
// then the record that marks it as the tool's.
func (s *Stage) accept(c *pipeline.Candidate, mp string, draft []byte, rec *Record) error {
	if err := workspace.WriteFile(mp, draft, 0o644); err != nil {
		return err
	}
	rec.Passed = true
	rec.MappingSHA256 = sha(draft)
	if p, err := c.Path(LastDraftFile); err == nil {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return s.writeRecord(c, rec)
}

// giveUp keeps the last draft for a curator and rejects the candidate. A
// mapping.md the tool drafted from earlier inputs is stale and removed; a
// hand-written one is never touched.
func (s *Stage) giveUp(c *pipeline.Candidate, mp string, ours bool, draft []byte, rec *Record) error {
	p, err := c.Path(LastDraftFile)
	if err != nil {
		return err
	}
	if err := workspace.WriteFile(p, draft, 0o644); err != nil {
		return err
	}
	if ours {
		if err := os.Remove(mp); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	rec.Passed = false
	rec.MappingSHA256 = ""
	if err := s.writeRecord(c, rec); err != nil {
		return err
	}
	return giveUpReason(rec)
}

func giveUpReason(rec *Record) error {
	last := rec.Rounds[len(rec.Rounds)-1].Findings
	rounds := fmt.Sprintf("%d rounds", len(rec.Rounds))
	if len(rec.Rounds) == 1 {
		rounds = "1 round"
	}
	return pipeline.Reject("the drafted mapping still breaks the static rules after %s: %s; the last draft is in %s, every round's findings in %s",
		rounds, Summary(last), LastDraftFile, RecordFile)
}

func (s *Stage) writeRecord(c *pipeline.Candidate, rec *Record) error {
	p, err := c.Path(RecordFile)
	if err != nil {
		return err
	}
	return workspace.WriteJSON(p, rec)
}
