// Package rules holds the 28 static rules that a mapping artifact must pass
// before its candidate moves on (paper, section 3.2, "static validation").
//
// A rule is one exported value in its own file (r07_per_section_proportions.go
// holds R07), in the manner of golang.org/x/tools/go/analysis: the Doc is the
// single source of `lolbench rules explain`, and of docs/rules.md, and the
// Check reports violations through a Pass. The EP sections, the PR change,
// the syntax scopes and the parsed mapping are read once and shared by every
// rule, together with indexes derived from them (Facts).
package rules

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/lolbench/lolbench/pipeline/mapping"
)

// Rule is one static validation rule.
type Rule struct {
	// ID is the rule number, 1 to 28, as in the paper's list.
	ID int
	// Name is a short kebab-case name ("per-section-proportions").
	Name string
	// Doc is one paragraph: what the rule requires and how to fix a
	// violation.
	Doc string
	// Check inspects the pass's inputs and reports violations.
	Check func(*Pass)
}

// Title is "R07 per-section-proportions".
func (r *Rule) Title() string { return fmt.Sprintf("R%02d %s", r.ID, r.Name) }

// Violation is one finding of one rule.
type Violation struct {
	Rule int `json:"rule"`
	// Where names the place: a section id, a file, a scope or an artifact
	// part ("section 2.1", "file `a.go`", "scope a.go:T.f").
	Where string `json:"where"`
	// Line is the 1-based artifact line, or 0 when there is none (a PR
	// file missing from the artifact, say).
	Line int `json:"line"`
	// Message says what is wrong and what would fix it.
	Message string `json:"message"`
}

// Forward hands a case that a static rule cannot decide to a semantic
// audit (rule 26 forwards ambiguous external links to S8).
type Forward struct {
	Rule   int    `json:"rule"`
	To     string `json:"to"`
	Reason string `json:"reason"`
}

// RuleResult says whether one rule passed.
type RuleResult struct {
	ID     int  `json:"id"`
	Passed bool `json:"passed"`
}

// Report is the outcome of one validation. The JSON form is the contract of
// `lolbench validate --json`.
type Report struct {
	Violations []Violation  `json:"violations"`
	Rules      []RuleResult `json:"rules"`
	Forwarded  []Forward    `json:"forwarded"`
	// Unfilled are the judgement cells that still hold mapping.Marker
	// (HoldBack fills it).
	Unfilled []mapping.Unfilled `json:"unfilled"`
	// HeldBack counts the violations at lines of unfilled cells, which
	// are consequences of those cells and are not reported.
	HeldBack int `json:"held_back"`
}

// Passed reports no violation and no unfilled cell: a scaffold is not a
// mapping until every judgement is made.
func (r *Report) Passed() bool { return len(r.Violations) == 0 && len(r.Unfilled) == 0 }

// HoldBack records the unfilled cells of m and drops the violations at
// their lines (mapping.MarkerLines): while a section is undecided, the
// rules' findings about it say only that it is undecided. Violations with
// no line, and at any other line, are kept. `lolbench validate` and the
// validate stage both call it, so that they report a scaffold alike.
func (r *Report) HoldBack(m *mapping.Mapping) {
	r.Unfilled = m.Unfilled()
	if r.Unfilled == nil {
		r.Unfilled = []mapping.Unfilled{}
	}
	if len(r.Unfilled) == 0 {
		return
	}
	masked := m.MarkerLines()
	kept := []Violation{}
	failed := map[int]bool{}
	for _, v := range r.Violations {
		if v.Line > 0 && masked[v.Line] {
			r.HeldBack++
			continue
		}
		kept = append(kept, v)
		failed[v.Rule] = true
	}
	r.Violations = kept
	for i := range r.Rules {
		r.Rules[i].Passed = !failed[r.Rules[i].ID]
	}
}

// Pass carries one rule's view of the shared inputs, like analysis.Pass.
type Pass struct {
	*Input
	*Facts
	rule   *Rule
	report *Report
}

// Reportf records a violation of the running rule.
func (p *Pass) Reportf(line int, where, format string, args ...any) {
	p.report.Violations = append(p.report.Violations, Violation{
		Rule:    p.rule.ID,
		Where:   where,
		Line:    line,
		Message: fmt.Sprintf(format, args...),
	})
}

// Forward hands a case to a semantic audit rule ("S8").
func (p *Pass) Forward(to, format string, args ...any) {
	p.report.Forwarded = append(p.report.Forwarded, Forward{Rule: p.rule.ID, To: to, Reason: fmt.Sprintf(format, args...)})
}

// Run checks in against the given rules. A rule that panics on hostile
// input is a bug; Run turns the panic into an error naming the rule rather
// than crashing the caller.
func Run(in *Input, rules []*Rule) (rep *Report, err error) {
	facts := NewFacts(in)
	rep = &Report{Violations: []Violation{}, Rules: []RuleResult{}, Forwarded: []Forward{}, Unfilled: []mapping.Unfilled{}}
	for _, r := range rules {
		before := len(rep.Violations)
		if err := runOne(&Pass{Input: in, Facts: facts, rule: r, report: rep}); err != nil {
			return nil, err
		}
		rep.Rules = append(rep.Rules, RuleResult{ID: r.ID, Passed: len(rep.Violations) == before})
	}
	slices.SortStableFunc(rep.Violations, func(a, b Violation) int {
		return cmp.Or(cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Line, b.Line),
			strings.Compare(a.Where, b.Where), strings.Compare(a.Message, b.Message))
	})
	return rep, nil
}

func runOne(p *Pass) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("rule %d (%s) crashed: %v", p.rule.ID, p.rule.Name, v)
		}
	}()
	p.rule.Check(p)
	return nil
}

// Lookup returns the rule with the given id, or nil.
func Lookup(id int) *Rule {
	for _, r := range All {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// Select returns the rules with the given ids, in registry order; an empty
// list selects every rule.
func Select(ids []int) ([]*Rule, error) {
	if len(ids) == 0 {
		return All, nil
	}
	var out []*Rule
	for _, r := range All {
		if slices.Contains(ids, r.ID) {
			out = append(out, r)
		}
	}
	for _, id := range ids {
		if Lookup(id) == nil {
			return nil, fmt.Errorf("no rule %d: rules are numbered 1 to %d", id, len(All))
		}
	}
	return out, nil
}
