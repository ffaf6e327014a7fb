package mutation

import (
	"fmt"
	"strings"

	"github.com/lolbench/lolbench/pipeline/coverage"
)

// Method is how a mutant was made: one row of Table 8.
type Method string

// The methods. The first three are the paper's, driven by an LLM that first
// mutates one EP section and then rewrites the reference solution to match;
// the last two are deterministic and need no model.
const (
	// SectionRevert removes or reverses the behaviour of one section and
	// keeps the support code that the other sections need.
	SectionRevert Method = "section-revert"
	// RequirementMismatch changes a required value, default, boundary,
	// option mapping, error behaviour or flag.
	RequirementMismatch Method = "requirement-mismatch"
	// SemanticMutation changes structure or flow: bypasses a new dispatch
	// path, calls the old implementation, drops a required call, returns a
	// default or empty value, routes to the wrong handler.
	SemanticMutation Method = "semantic-mutation"
	// MappedRevert reverts every hunk of the reference solution that one
	// mapped section owns (rules 27–28 scopes).
	MappedRevert Method = "mapped-revert"
	// SyntaxOperator applies one syntax operator to one added line.
	SyntaxOperator Method = "syntax-operator"
)

// Methods lists every method in report order (the rows of Table 8).
var Methods = []Method{SectionRevert, RequirementMismatch, SemanticMutation, MappedRevert, SyntaxOperator}

// LLMMethods are the methods that need a model: the paper's three EP-level
// methods, whose mutation score is reported on its own (Report.EPLevel).
var LLMMethods = []Method{SectionRevert, RequirementMismatch, SemanticMutation}

// EPLevel reports whether m is one of the paper's EP-level methods.
func (m Method) EPLevel() bool {
	for _, x := range LLMMethods {
		if m == x {
			return true
		}
	}
	return false
}

// Families group the methods for `lolbench mutate --methods`: "llm" (the
// three paper methods), "revert" (mapped-section revert) and "ops" (syntax
// operators).
const (
	FamilyLLM    = "llm"
	FamilyRevert = "revert"
	FamilyOps    = "ops"
)

// Families lists the family names in run order.
var Families = []string{FamilyRevert, FamilyOps, FamilyLLM}

// Family returns the --methods family of m.
func (m Method) Family() string {
	switch m {
	case MappedRevert:
		return FamilyRevert
	case SyntaxOperator:
		return FamilyOps
	}
	return FamilyLLM
}

// Title is the method's name in reports, as the paper writes it.
func (m Method) Title() string {
	switch m {
	case SectionRevert:
		return "Section Revert"
	case RequirementMismatch:
		return "Requirement Mismatch"
	case SemanticMutation:
		return "Semantic Mutation"
	case MappedRevert:
		return "Mapped-section revert"
	case SyntaxOperator:
		return "Syntax operators"
	case "ep-level":
		return "EP-level methods"
	case "total":
		return "Total"
	}
	return string(m)
}

// ParseMethod reads a method name ("semantic-mutation").
func ParseMethod(s string) (Method, error) {
	for _, m := range Methods {
		if string(m) == s {
			return m, nil
		}
	}
	return "", fmt.Errorf("unknown mutation method %q (want one of %s)", s, methodList())
}

func methodList() string {
	names := make([]string, len(Methods))
	for i, m := range Methods {
		names[i] = string(m)
	}
	return strings.Join(names, ", ")
}

// Status is where a mutant ended.
type Status string

// The statuses of a mutant.
const (
	// Pending: generated, not yet run.
	Pending Status = "pending"
	// Dropped: it did not apply, did not build, broke a P2P test or
	// repeats another mutant (Drop and Reason say which and why).
	Dropped Status = "dropped"
	// Killed: at least one original F2P test fails on it.
	Killed Status = "killed"
	// Survived: it passed every P2P test and every F2P test; the tests do
	// not pin the requirement it violates.
	Survived Status = "survived"
	// Uncovered: it applied and built, but no test executes a line it
	// changes (per the coverage of the reference solution), so no test
	// could tell it apart. It is reported apart and is not a survivor in
	// the mutation score: the coverage loop, not the mutation loop, is
	// what answers it.
	Uncovered Status = "uncovered"
)

// Drop is the filter that dropped a mutant (the columns of Table 8 are the
// counts that got past each).
type Drop string

// The filters, in the order they apply.
const (
	// DropDuplicate: same content as the reference solution or as an
	// earlier mutant.
	DropDuplicate Drop = "duplicate"
	// DropJudge: an LLM mutant the judge did not confirm omits or breaks
	// the functionality it claims (paper, section 3.4).
	DropJudge Drop = "judge"
	// DropApply: the patch does not apply at the base commit.
	DropApply Drop = "apply"
	// DropCompile: the mutated tree does not build (the recipe's build
	// check, or the language default).
	DropCompile Drop = "compile"
	// DropP2P: a pass-to-pass test does not pass on it.
	DropP2P Drop = "p2p"
)

// Mutant is one mutant's record, mutants/<id>/record.json. The behaviour
// fields are what a reviewer reads to judge the mutant without running it
// (issue 7). JSON names match the provisional format stages/report reads.
type Mutant struct {
	// ID is stable across reruns and is the mutant's folder name:
	// "revert-3.1", "op-negate-condition-004",
	// "llm-requirement-mismatch-3.3-1".
	ID     string `json:"id"`
	Method Method `json:"method"`
	// Operator names the syntax operator (SyntaxOperator only).
	Operator string `json:"operator,omitempty"`
	// Variant distinguishes the mutants of one method and section (the
	// LLM's numbered answers).
	Variant string `json:"variant,omitempty"`
	// Section is the EP section id the mutant violates; SectionTitle its
	// title. Empty when no mapped section owns the mutated lines.
	Section      string `json:"section"`
	SectionTitle string `json:"section_title,omitempty"`
	// Requirement is the requirement clause the mutant violates.
	Requirement string `json:"requirement"`
	// Reference and Mutated are the reference behaviour and the mutated
	// behaviour.
	Reference string `json:"reference_behaviour"`
	Mutated   string `json:"mutated_behaviour"`
	// Scenario is a concrete input or sequence on which the two differ.
	Scenario string `json:"scenario"`
	// Rationale says why the mutant is not equivalent to the reference.
	Rationale string `json:"rationale"`
	// Files are the files whose content differs from the reference
	// solution's, sorted.
	Files []string `json:"files"`
	// Lines are the lines of the reference solution (post-change
	// numbering) that the mutant changes, and for a pure insertion the
	// line it follows: per-test coverage picks the tests that reach them.
	Lines coverage.Lines `json:"lines"`
	// Patch is the mutant's patch file in its folder (PatchFile), a
	// complete solution against the base commit.
	Patch  string `json:"patch,omitempty"`
	Status Status `json:"status"`
	// Drop and Reason say why a dropped mutant was dropped: the filter and
	// a one-line account (the failing P2P tests, the compiler's first
	// error line).
	Drop   Drop   `json:"drop,omitempty"`
	Reason string `json:"reason,omitempty"`
	// KilledBy are the F2P tests that fail on a killed mutant, sorted.
	KilledBy []string `json:"killed_by,omitempty"`
	// Judge is the LLM judge's account of an LLM mutant it confirmed
	// (why the edits omit or break the claimed functionality), for the
	// reviewer; a rejected one is dropped with the account in Reason.
	Judge string `json:"judge,omitempty"`
	// Retry says why a mapped-section revert became a stub revert: the
	// plain revert's drop and reason.
	Retry string `json:"retry,omitempty"`
}

// Valid reports whether the mutant applied and built (the "compiled/valid"
// column of Table 8).
func (m *Mutant) Valid() bool {
	return m.Status == Killed || m.Status == Survived || m.Status == Uncovered || (m.Status == Dropped && m.Drop == DropP2P)
}

// PassedP2P reports whether the mutant passed the P2P filter and was run
// against the F2P tests (an uncovered mutant ran no test).
func (m *Mutant) PassedP2P() bool { return m.Status == Killed || m.Status == Survived }

// CheckID reports whether id can name a mutant folder: lower-case letters,
// digits and . _ -, not starting with a dot, at most 120 bytes.
func CheckID(id string) error {
	if id == "" || len(id) > 120 || id[0] == '.' || id[0] == '-' {
		return fmt.Errorf("bad mutant id %q", id)
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return fmt.Errorf("bad mutant id %q: %q is not allowed", id, r)
		}
	}
	return nil
}

// Slug turns free text (a section id, an operator name) into the
// characters a mutant id allows.
func Slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_'
		if ok {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 40 {
			break
		}
	}
	return strings.Trim(b.String(), "-.")
}
