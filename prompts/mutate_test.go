package prompts_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/prompts"
	"github.com/lolbench/lolbench/stages/evidence"
)

func mutatePlaceholder() *prompts.Mutate {
	return &prompts.Mutate{
		Data:     *evidence.Placeholder(),
		Method:   "‹method›",
		Language: "Go",
		Section:  prompts.MutateSection{ID: "3.3", Title: "Protocol commands", Requirement: "‹requirement›", Quote: "‹quote›", Text: "‹section text›"},
		Sections: []prompts.MutateSection{{ID: "3.1", Title: "Store API", Requirement: "‹other requirement›"}, {ID: "3.3", Title: "Protocol commands"}},
		Files:    []prompts.MutateFile{{Path: "server/server.go", Text: "‹code›\n", Owned: true}, {Path: "store/store.go", Text: "‹more›\n", Note: "cut at 10 of 20 bytes"}},
		Solution: "‹patch›\n", SolutionNote: "cut at 5 of 9 bytes", MaxEdits: 20,
	}
}

// TestMutateInstructions pins every instruction of issue 7 for the LLM
// mutants to the three method prompts, so that an edit cannot drop one
// unnoticed.
func TestMutateInstructions(t *testing.T) {
	common := []string{
		"complete alternative solutions, each of which deliberately violates one section of the proposal",
		"1. Mutate the section. Rewrite the text of the section",
		"2. Rewrite the reference solution to match your mutated section",
		"It must build and run: Go code that compiles",
		"It violates this section only",
		"the pass-to-pass tests) must still pass",
		"Keep the support code (helpers, types, imports, registrations) that other sections need",
		"It is not equivalent to the reference solution",
		"never edit or add test files",
		"a reviewer can judge it without running anything",
		`"requirement": the clause of the original section that the mutant violates, quoted word for word`,
		`"reference_behaviour"`, `"mutated_behaviour"`,
		`"scenario": one concrete diverging scenario`,
		`"rationale": why the mutant is not equivalent`,
		`{"mutated_section": "<text>", "requirement": "<quoted clause>"`,
		"Give between one and 20 edits",
		`<section id="3.3" title="Protocol commands">`, "‹section text›", "- 3.1 Store API: ‹other requirement›",
		`<file path="server/server.go" section-owned="yes">`, `<file path="store/store.go" note="cut at 10 of 20 bytes">`,
		"(cut at 5 of 9 bytes)",
	}
	methods := map[string][]string{
		prompts.MutateSectionRevertPrompt:       {"Section Revert: remove or reverse the behaviour the section requires", "while keeping the support code that the other sections need"},
		prompts.MutateRequirementMismatchPrompt: {"Requirement Mismatch: change one concrete requirement", "a required value, a default, a boundary", "an option or mode mapping, the error behaviour", "or a flag"},
		prompts.MutateSemanticMutationPrompt: {"Semantic Mutation: change the structure or the control flow", "bypass a new dispatch path", "call the old implementation",
			"drop a call the section requires", "return a default or empty value", "route a case to the wrong handler"},
	}
	if !reflect.DeepEqual(prompts.MutateNames(), []string{prompts.MutateSectionRevertPrompt, prompts.MutateRequirementMismatchPrompt, prompts.MutateSemanticMutationPrompt}) {
		t.Fatalf("names %v", prompts.MutateNames())
	}
	for name, own := range methods {
		p, err := prompts.RenderMutate(name, mutatePlaceholder())
		if err != nil {
			t.Fatal(err)
		}
		all := p.System + "\n" + p.User
		for _, w := range append(append([]string{}, common...), own...) {
			if !strings.Contains(all, w) {
				t.Errorf("%s lacks %q", name, w)
			}
		}
		if strings.Contains(p.User, "- 3.3 Protocol commands") {
			t.Errorf("%s lists the section to violate among the ones to keep", name)
		}
		if d, err := prompts.MutateDigest(name); err != nil || len(d) != 64 {
			t.Errorf("digest %q %v", d, err)
		}
	}
	if _, err := prompts.RenderMutate("mutate-other", mutatePlaceholder()); err == nil {
		t.Errorf("an unknown prompt rendered")
	}
}
