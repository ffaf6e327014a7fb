package prompts

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"text/template"
)

// The augment stage's prompts (issue 7, "Augmented F2P tests"): one per
// generation loop. Each template file defines "system" and "user" (the
// first request) and "rewrite" (the one follow-up that feeds rejected
// tests back with their reasons).
const (
	AugmentMutationPrompt = "augment-mutation" // mutation-guided: one surviving mutant
	AugmentCoveragePrompt = "augment-coverage" // coverage-guided: the largest uncovered spans
)

// AugmentNames lists the augment prompts.
func AugmentNames() []string { return []string{AugmentMutationPrompt, AugmentCoveragePrompt} }

// Augment is what the augment templates read: the candidate's material
// (Data: the EP and its sections) and the loop's own.
type Augment struct {
	Data
	// Language is the task's language (pipeline/lang name).
	Language string
	// Internal says what the test audit counts as internal in Language
	// (testaudit.Language.Doc).
	Internal string
	// Sections are the implementable sections of the mapping.
	Sections []AugmentSection
	// Solution is the reference solution's patch, cut at a budget
	// (SolutionNote says so when cut).
	Solution     string
	SolutionNote string
	// TestFiles are the task's test files after the PR (the original
	// suite), cut at a budget.
	TestFiles []AugmentFile
	// Layout says where new test files may go and how they are named.
	Layout string
	// MaxTests bounds the tests of one answer.
	MaxTests int
	// Runs is how many times each retention run is repeated.
	Runs int
	// Mutant is the surviving mutant (mutation loop).
	Mutant *AugmentMutant
	// Spans are the uncovered spans to target (coverage loop), largest
	// first; Coverage is the F2P ∪ P2P coverage in percent.
	Spans    []AugmentSpan
	Coverage float64
	// Feedback are the rejected tests of the previous answer (rewrite).
	Feedback []AugmentFeedback
}

// AugmentSection is one implementable section.
type AugmentSection struct {
	ID, Title, Requirement string
}

// AugmentFile is a file shown to the model.
type AugmentFile struct {
	Path, Text, Note string
}

// AugmentMutant is the record of a surviving mutant (pipeline/mutation).
type AugmentMutant struct {
	ID, Method, Section, SectionTitle, Requirement string
	Reference, Mutated, Scenario, Rationale        string
	// Changed are the reference lines the mutant changes, with their
	// text, per file.
	Changed []AugmentFile
}

// AugmentSpan is one uncovered span of the reference solution's
// executable added lines, with its code.
type AugmentSpan struct {
	ID    string
	File  string
	Start int
	End   int
	Lines int
	Code  string
}

// AugmentFeedback is one rejected test and why.
type AugmentFeedback struct {
	Path, Name, Reason string
}

func augmentFiles(name string) ([]string, error) {
	if !slices.Contains(AugmentNames(), name) {
		return nil, fmt.Errorf("no augment prompt %q; they are %s", name, strings.Join(AugmentNames(), ", "))
	}
	return []string{"partials.tmpl", name + ".tmpl"}, nil
}

func parseAugment(name string) (*template.Template, error) {
	fs, err := augmentFiles(name)
	if err != nil {
		return nil, err
	}
	return parseFiles(name, fs)
}

// RenderAugment renders the first request of an augment prompt.
func RenderAugment(name string, d *Augment) (Prompt, error) {
	if d == nil {
		return Prompt{}, fmt.Errorf("prompt %s: no data", name)
	}
	t, err := parseAugment(name)
	if err != nil {
		return Prompt{}, err
	}
	return execute(t, name, "system", "user", d)
}

// RenderAugmentRewrite renders the follow-up that feeds d.Feedback back.
func RenderAugmentRewrite(name string, d *Augment) (string, error) {
	t, err := parseAugment(name)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "rewrite", d); err != nil {
		return "", fmt.Errorf("prompt %s: %w", name, err)
	}
	return strings.TrimSpace(buf.String()), nil
}

// AugmentDigest is the SHA-256 of the template files of an augment prompt,
// for the stage's input fingerprint.
func AugmentDigest(name string) (string, error) {
	fs, err := augmentFiles(name)
	if err != nil {
		return "", err
	}
	return digestFiles(fs)
}
