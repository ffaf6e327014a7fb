// Package audit is the semantic-validation stage of phase 2 (paper, section
// 3.2): eight focused LLM auditors each apply one rule, S1 to S8, to a
// candidate's mapping artifact, reading the EP, the PR data (files,
// categories, patches, scopes) and the mapping. It is the second of the two
// validation gates a candidate must pass before it is ranked.
//
// S1 to S7 answer with a JSON list of issue strings and pass on an empty
// list. S8 (external-link sufficiency) enumerates the EP's links, decides
// whether each is incidental or essential, inlines essential content that is
// accessible, and answers with a verdict: complete, inlined, or
// invalid:<reason> when essential content is not accessible. Every finding
// goes to audit.json with its rule, and the candidate is rejected when any
// rule has a finding or S8 says invalid.
package audit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/prompts"
	"github.com/lolbench/lolbench/stages/evidence"
)

// LinkRule is the rule that answers with a verdict instead of a bare list.
const LinkRule = "S8"

// Stage is the audit stage, a pipeline.CandidateStage.
type Stage struct {
	// LLM asks the auditors; nil makes the stage skip with the message that
	// names the variables to set.
	LLM *llm.Client
	// Rules limits the audit to these rule ids ("S1", "S5"); empty is all
	// eight. A partial audit.json cannot open the rank stage's gate.
	Rules []string
	// Evidence sets the patch and EP byte budgets of the prompts.
	Evidence evidence.Options
}

var _ pipeline.CandidateStage = (*Stage)(nil)

// Name is the command name.
func (s *Stage) Name() string { return "audit" }

// String is the log title.
func (s *Stage) String() string { return "auditing mappings" }

// ParseRules reads a rule list such as "S1,s5" (or "1,5"), rejecting
// unknown ids; the result is in rule order without repeats.
func ParseRules(list string) ([]string, error) {
	var ids []string
	for _, part := range strings.Split(list, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		id := strings.ToUpper(part)
		if !strings.HasPrefix(id, "S") {
			id = "S" + id
		}
		r, ok := prompts.LookupAuditRule(id)
		if !ok {
			return nil, fmt.Errorf("no semantic rule %q: the rules are S1 to S%d", part, len(prompts.AuditRules))
		}
		if !slices.Contains(ids, r.ID) {
			ids = append(ids, r.ID)
		}
	}
	slices.SortFunc(ids, func(a, b string) int { return ruleIndex(a) - ruleIndex(b) })
	return ids, nil
}

func ruleIndex(id string) int {
	return slices.IndexFunc(prompts.AuditRules, func(r prompts.AuditRule) bool { return r.ID == id })
}

func (s *Stage) selected() []prompts.AuditRule {
	if len(s.Rules) == 0 {
		return prompts.AuditRules
	}
	var out []prompts.AuditRule
	for _, r := range prompts.AuditRules {
		if slices.Contains(s.Rules, r.ID) {
			out = append(out, r)
		}
	}
	return out
}

// Inputs are candidate.json, the EP, mapping.md, the model, the prompts of
// the selected rules and the budgets.
func (s *Stage) Inputs(env *pipeline.Env, c *pipeline.Candidate) (pipeline.Inputs, error) {
	info, err := c.LoadInfo()
	if err != nil {
		return pipeline.Inputs{}, err
	}
	var names []string
	for _, r := range s.selected() {
		names = append(names, prompts.AuditName(r.ID))
	}
	ps, err := evidence.PromptParams(names...)
	if err != nil {
		return pipeline.Inputs{}, err
	}
	ps = append(ps, evidence.ModelParam(s.LLM, "audit"))
	ps = append(ps, s.Evidence.Params()...)
	return pipeline.Inputs{Files: []string{pipeline.InfoFile, info.EP.File, pipeline.MappingFile}, Params: ps}, nil
}

// Issues is the answer of the auditors S1 to S7: a list of issue strings,
// [] when the rule holds.
type Issues struct {
	Issues []string `json:"issues"`
}

// Validate asks for the list to be present (even when empty) and every
// issue to say something.
func (a *Issues) Validate() error {
	if a.Issues == nil {
		return errors.New(`field "issues" is missing or null; send [] when there is no issue`)
	}
	return checkIssues(a.Issues)
}

func checkIssues(issues []string) error {
	for i, s := range issues {
		if strings.TrimSpace(s) == "" {
			return fmt.Errorf(`issue %d is empty; every issue names the section, file or scope and what is wrong`, i+1)
		}
	}
	return nil
}

// Link is one link or reference of the EP as S8 judged it.
type Link struct {
	URL        string `json:"url"`
	Essential  bool   `json:"essential"`
	Accessible bool   `json:"accessible"`
	// Content is the inlined content of an essential, accessible link.
	Content string `json:"content"`
	Note    string `json:"note"`
}

// LinkAnswer is the answer of the S8 auditor.
type LinkAnswer struct {
	Links   []Link   `json:"links"`
	Issues  []string `json:"issues"`
	Verdict string   `json:"verdict"`
}

// Verdict forms of rule S8.
const (
	VerdictComplete = "complete"
	VerdictInlined  = "inlined"
	VerdictInvalid  = "invalid"
)

// ParseVerdict splits an S8 verdict into its kind and, for invalid, the
// reason: "complete", "inlined" or "invalid:<reason>" with a non-empty
// reason.
func ParseVerdict(v string) (kind, reason string, err error) {
	switch v {
	case VerdictComplete, VerdictInlined:
		return v, "", nil
	}
	if r, ok := strings.CutPrefix(v, VerdictInvalid+":"); ok {
		if r = strings.TrimSpace(r); r != "" {
			return VerdictInvalid, r, nil
		}
		return "", "", errors.New(`verdict "invalid:" needs a reason after the colon naming the link and what is missing`)
	}
	return "", "", fmt.Errorf(`verdict %q is not one of "complete", "inlined" or "invalid:<reason>"`, v)
}

// Validate checks the verdict's form and that it agrees with the links:
// invalid exactly when an essential link is not accessible, inlined when an
// essential link carries content, complete otherwise.
func (a *LinkAnswer) Validate() error {
	if a.Links == nil {
		return errors.New(`field "links" is missing or null; send [] when the proposal has no link`)
	}
	if a.Issues == nil {
		return errors.New(`field "issues" is missing or null; send [] when there is no issue`)
	}
	if err := checkIssues(a.Issues); err != nil {
		return err
	}
	kind, _, err := ParseVerdict(a.Verdict)
	if err != nil {
		return err
	}
	missing, inlined := false, false
	for i, l := range a.Links {
		if strings.TrimSpace(l.URL) == "" {
			return fmt.Errorf("link %d has an empty url", i+1)
		}
		hasContent := strings.TrimSpace(l.Content) != ""
		switch {
		case hasContent && !(l.Essential && l.Accessible):
			return fmt.Errorf("link %d (%s) has content but is not essential and accessible; content is only for inlining an essential, accessible link", i+1, l.URL)
		case l.Essential && !l.Accessible:
			missing = true
		case hasContent:
			inlined = true
		}
	}
	want := VerdictComplete
	switch {
	case missing:
		want = VerdictInvalid
	case inlined:
		want = VerdictInlined
	}
	if kind != want {
		return fmt.Errorf("verdict %q disagrees with the links, which call for %q", a.Verdict, want)
	}
	return nil
}

// Finding is one issue an auditor reported, with its rule.
type Finding struct {
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

// RuleReport is one rule's outcome.
type RuleReport struct {
	Rule     string    `json:"rule"`
	Name     string    `json:"name"`
	Passed   bool      `json:"passed"`
	Findings []Finding `json:"findings"`
	// Verdict, VerdictReason and Links are S8's.
	Verdict       string `json:"verdict,omitempty"`
	VerdictReason string `json:"verdict_reason,omitempty"`
	Links         []Link `json:"links,omitempty"`
	// Exchanges are the keys of the LLM records under <workspace>/llm, the
	// last one first.
	Exchanges []string `json:"exchanges"`
}

// Report is audit.json.
type Report struct {
	Candidate string `json:"candidate"`
	// MappingSHA256 is the hash of the audited mapping.md, so that a later
	// stage can tell the verdict is about the current artifact.
	MappingSHA256 string `json:"mapping_sha256"`
	Model         string `json:"model"`
	// Complete says all eight rules ran; only a complete, passed audit
	// opens the rank stage's gate.
	Complete bool         `json:"complete"`
	Passed   bool         `json:"passed"`
	Rules    []RuleReport `json:"rules"`
}

// Findings counts the findings of all rules.
func (r *Report) Findings() int {
	n := 0
	for _, rr := range r.Rules {
		n += len(rr.Findings)
	}
	return n
}

// Summary is the one-line verdict: "audit passed (8 rules)" or the
// findings per rule and S8's invalid reason.
func (r *Report) Summary() string {
	if r.Passed {
		return fmt.Sprintf("semantic audit passed (%d rule%s)", len(r.Rules), plural(len(r.Rules)))
	}
	var parts []string
	var per []string
	for _, rr := range r.Rules {
		if len(rr.Findings) > 0 && rr.Rule != LinkRule {
			per = append(per, fmt.Sprintf("%s %d", rr.Rule, len(rr.Findings)))
		}
	}
	if len(per) > 0 {
		n := 0
		for _, rr := range r.Rules {
			if rr.Rule != LinkRule {
				n += len(rr.Findings)
			}
		}
		parts = append(parts, fmt.Sprintf("%d finding%s (%s)", n, plural(n), strings.Join(per, ", ")))
	}
	for _, rr := range r.Rules {
		if rr.Rule == LinkRule && !rr.Passed {
			parts = append(parts, "S8 verdict "+rr.Verdict)
		}
	}
	return "semantic audit failed: " + strings.Join(parts, "; ")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Prompt renders the auditor prompt of rule id for d.
func Prompt(d *prompts.Data, id string) (prompts.Prompt, error) {
	return prompts.Render(prompts.AuditName(id), d)
}

// Run audits mapping.md with the selected rules, all at once (the client
// bounds the requests in flight), writes audit.json and rejects the
// candidate when the audit fails.
func (s *Stage) Run(ctx context.Context, env *pipeline.Env, c *pipeline.Candidate) error {
	mp, err := c.Path(pipeline.MappingFile)
	if err != nil {
		return err
	}
	if _, err := os.Stat(mp); errors.Is(err, os.ErrNotExist) {
		return pipeline.Skip("no %s to audit; run lolbench map %s or write it by hand (docs/mapping-format.md)", pipeline.MappingFile, c.ID)
	}
	if s.LLM == nil {
		return pipeline.Skip("%s", llm.ErrNoEndpoint)
	}
	ev, err := evidence.Load(ctx, env.Workspace, c, s.Evidence)
	if err != nil {
		return err
	}
	if ev.Mapping == nil {
		return pipeline.Skip("no %s to audit", pipeline.MappingFile)
	}
	sel := s.selected()
	reports := make([]RuleReport, len(sel))
	errs := make([]error, len(sel))
	var wg sync.WaitGroup
	for i, r := range sel {
		wg.Go(func() { reports[i], errs[i] = s.audit(ctx, ev, r) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	sum := sha256.Sum256(ev.Mapping)
	rep := &Report{
		Candidate: c.ID, MappingSHA256: hex.EncodeToString(sum[:]), Model: s.LLM.Config().ModelFor("audit"),
		Complete: len(sel) == len(prompts.AuditRules), Passed: true, Rules: reports,
	}
	for _, rr := range reports {
		rep.Passed = rep.Passed && rr.Passed
	}
	out, err := c.Path(pipeline.AuditFile)
	if err != nil {
		return err
	}
	if err := workspace.WriteJSON(out, rep); err != nil {
		return err
	}
	if env != nil && env.Status != nil {
		fmt.Fprintf(env.Status, "%s: audit: %s\n", c.ID, rep.Summary())
	}
	if !rep.Passed {
		return pipeline.Reject("%s", rep.Summary())
	}
	return nil
}

// audit asks one auditor.
func (s *Stage) audit(ctx context.Context, ev *evidence.Evidence, r prompts.AuditRule) (RuleReport, error) {
	d := ev.Data()
	p, err := Prompt(d, r.ID)
	if err != nil {
		return RuleReport{}, err
	}
	req := llm.Request{Stage: "audit", Messages: evidence.Messages(p), Schema: "audit.Issues/v1"}
	rr := RuleReport{Rule: r.ID, Name: r.Name, Findings: []Finding{}}
	var issues []string
	var results []*llm.Result
	if r.ID == LinkRule {
		req.Schema = "audit.LinkAnswer/v1"
		var a LinkAnswer
		results, err = evidence.Ask(ctx, s.LLM, req, &a, func() error { return coversLinks(a.Links, d.Links) }, s.tries())
		if err == nil {
			kind, reason, _ := ParseVerdict(a.Verdict)
			rr.Verdict, rr.VerdictReason, rr.Links = a.Verdict, reason, a.Links
			rr.Passed = kind != VerdictInvalid
			issues = a.Issues
		}
	} else {
		var a Issues
		results, err = evidence.Ask(ctx, s.LLM, req, &a, nil, 1)
		if err == nil {
			issues = a.Issues
			rr.Passed = len(a.Issues) == 0
		}
	}
	for _, res := range results {
		rr.Exchanges = append(rr.Exchanges, res.Hash)
	}
	if err != nil {
		return rr, err
	}
	for _, is := range issues {
		rr.Findings = append(rr.Findings, Finding{Rule: r.ID, Message: strings.TrimSpace(is)})
	}
	return rr, nil
}

func (s *Stage) tries() int {
	if s.LLM == nil {
		return 1
	}
	return s.LLM.Config().MaxTries
}

// coversLinks checks that S8 judged every URL the scan of the EP found.
func coversLinks(judged []Link, scanned []string) error {
	var missing []string
	for _, u := range scanned {
		if !slices.ContainsFunc(judged, func(l Link) bool { return strings.Contains(l.URL, u) }) {
			missing = append(missing, u)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("the links list leaves out %s, which the proposal contains; judge every link", strings.Join(missing, ", "))
	}
	return nil
}

// Load reads a candidate's audit.json; a missing file is an error wrapping
// os.ErrNotExist.
func Load(c *pipeline.Candidate) (*Report, error) {
	return pipeline.ReadArtifact[Report](c, pipeline.AuditFile)
}
