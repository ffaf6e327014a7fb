package prompts

import (
	"fmt"
	"slices"
	"strings"
)

// The mutate stage's prompts (issue 7, "Mutants"; LoLBench paper, Table 8):
// one per LLM method. Each method file defines "method" (what the method
// changes); mutate-common.tmpl holds what every method shares: the two
// steps (mutate the section, then the solution), the constraints a mutant
// must meet, the record and the answer format.
const (
	MutateSectionRevertPrompt       = "mutate-section-revert"
	MutateRequirementMismatchPrompt = "mutate-requirement-mismatch"
	MutateSemanticMutationPrompt    = "mutate-semantic-mutation"
)

// MutateNames lists the mutate prompts, in the order of the methods.
func MutateNames() []string {
	return []string{MutateSectionRevertPrompt, MutateRequirementMismatchPrompt, MutateSemanticMutationPrompt}
}

// Mutate is what the mutate templates read: the candidate's material
// (Data: the EP and its sections) and the one section to violate.
type Mutate struct {
	Data
	// Method is the method's title ("Requirement Mismatch").
	Method string
	// Language is the task's language (pipeline/lang name).
	Language string
	// Section is the section to violate; Sections are every mapped
	// section, whose behaviour must stay as it is.
	Section  MutateSection
	Sections []MutateSection
	// Files are the reference solution's files after it, the section's
	// own first (Owned), each cut at a budget (Note says so).
	Files []MutateFile
	// Solution is the reference solution's patch, cut at a budget
	// (SolutionNote says so when cut).
	Solution     string
	SolutionNote string
	// MaxEdits bounds the edits of one answer.
	MaxEdits int
}

// MutateSection is one mapped section.
type MutateSection struct {
	ID, Title, Requirement string
	// Quote is the mapping's quotation of the section; Text the section's
	// own text in the EP.
	Quote, Text string
}

// MutateFile is one file of the reference solution, after it.
type MutateFile struct {
	Path, Text, Note string
	// Owned marks a file where the section owns changed lines.
	Owned bool
}

func mutateFiles(name string) ([]string, error) {
	if !slices.Contains(MutateNames(), name) {
		return nil, fmt.Errorf("no mutate prompt %q; they are %s", name, strings.Join(MutateNames(), ", "))
	}
	return []string{"partials.tmpl", "mutate-common.tmpl", name + ".tmpl"}, nil
}

// RenderMutate renders a mutate prompt.
func RenderMutate(name string, d *Mutate) (Prompt, error) {
	if d == nil {
		return Prompt{}, fmt.Errorf("prompt %s: no data", name)
	}
	fs, err := mutateFiles(name)
	if err != nil {
		return Prompt{}, err
	}
	t, err := parseFiles(name, fs)
	if err != nil {
		return Prompt{}, err
	}
	return execute(t, name, "system", "user", d)
}

// MutateDigest is the SHA-256 of the template files of a mutate prompt,
// for the stage's input fingerprint.
func MutateDigest(name string) (string, error) {
	fs, err := mutateFiles(name)
	if err != nil {
		return "", err
	}
	return digestFiles(fs)
}

// MutateJudgePrompt is the mutant judge's prompt (issue 12 §7; paper,
// section 3.4): it confirms or rejects one LLM mutant from its record and
// its diff against the reference solution.
const MutateJudgePrompt = "mutate-judge"

// MutateJudge is what the mutant judge's template reads.
type MutateJudge struct {
	// Method is the method's title; Language the task's language.
	Method, Language string
	Section          MutateSection
	// The mutant's record.
	Requirement, Reference, Mutated, Scenario, Rationale string
	// Delta is the mutant's diff against the reference solution, cut at
	// a budget (DeltaNote says so).
	Delta, DeltaNote string
}

var mutateJudgeFiles = []string{"partials.tmpl", "mutate-judge.tmpl"}

// RenderMutateJudge renders the mutant judge's prompt.
func RenderMutateJudge(d *MutateJudge) (Prompt, error) {
	if d == nil {
		return Prompt{}, fmt.Errorf("prompt %s: no data", MutateJudgePrompt)
	}
	t, err := parseFiles(MutateJudgePrompt, mutateJudgeFiles)
	if err != nil {
		return Prompt{}, err
	}
	return execute(t, MutateJudgePrompt, "system", "user", d)
}

// MutateJudgeDigest is the SHA-256 of the mutant judge's template files.
func MutateJudgeDigest() (string, error) { return digestFiles(mutateJudgeFiles) }
