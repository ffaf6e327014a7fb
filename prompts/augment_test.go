package prompts_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/prompts"
	"github.com/lolbench/lolbench/stages/evidence"
)

func augmentPlaceholder() *prompts.Augment {
	return &prompts.Augment{
		Data:     *evidence.Placeholder(),
		Language: "Go",
		Internal: "‹what the audit counts as internal›",
		Sections: []prompts.AugmentSection{{ID: "3.1", Title: "Store API", Requirement: "‹requirement›"}},
		Solution: "‹patch›\n", TestFiles: []prompts.AugmentFile{{Path: "store/store_test.go", Text: "‹test›\n"}},
		Layout: "‹layout›", MaxTests: 2, Runs: 3, Coverage: 42.5,
		Mutant: &prompts.AugmentMutant{ID: "revert-3.1", Method: "mapped-revert", Section: "3.1", Requirement: "‹clause›",
			Reference: "‹ref›", Mutated: "‹mut›", Scenario: "‹scenario›", Rationale: "‹why›",
			Changed: []prompts.AugmentFile{{Path: "store/store.go", Text: "12: ‹line›\n"}}},
		Spans:    []prompts.AugmentSpan{{ID: "span-1", File: "store/expiry.go", Start: 5, End: 9, Lines: 4, Code: "‹code›\n"}},
		Feedback: []prompts.AugmentFeedback{{Path: "store/a_test.go", Name: "TestA", Reason: "passes before the reference solution"}},
	}
}

// TestAugmentInstructions pins every constraint of issue 7's augmented
// tests to both loop prompts, so that an edit cannot drop one unnoticed.
func TestAugmentInstructions(t *testing.T) {
	common := []string{
		"fails or errors on the repository before the reference solution is applied",
		"passes once the reference solution is applied",
		"same result every time it runs: each check is repeated 3 times",
		"not a duplicate of an existing test",
		"overly narrow",
		"may not import, call, construct, read, write or assert on anything internal",
		"In Go the audit counts as internal: ‹what the audit counts as internal›",
		"unless the proposal's text spells that exact name",
		"through the public entry points",
		"Assert only outcomes the proposal states",
		"Put each test in a new file of its own; never edit or replace an existing file",
		"exactly one test function",
		`{"tests": [{"path": "<repository-relative path of the new test file>"`,
		"Give between one and 2 tests",
	}
	loops := map[string][]string{
		prompts.AugmentMutationPrompt: {"It fails on every mutant it targets", "Use that scenario to choose the inputs of your test",
			"diverging scenario: ‹scenario›", `The surviving mutant "revert-3.1" (mapped-revert)`, "requirement it violates: ‹clause›",
			`<mutated-lines file="store/store.go">`},
		prompts.AugmentCoveragePrompt: {"run only 42.5% of the executable lines", "runs at least one line of an uncovered span that no original test runs and no already kept test runs",
			`"targets": ["<span id>", ...]`, `<span id="span-1" file="store/expiry.go" lines="5-9" executable="4">`, "Reaching a span is not enough"},
	}
	for name, own := range loops {
		p, err := prompts.RenderAugment(name, augmentPlaceholder())
		if err != nil {
			t.Fatal(err)
		}
		all := p.System + "\n" + p.User
		for _, w := range append(append([]string{}, common...), own...) {
			if !strings.Contains(all, w) {
				t.Errorf("%s lacks %q", name, w)
			}
		}
		for _, w := range []string{"<proposal id=", "<solution>", `<test-file path="store/store_test.go">`, "‹layout›"} {
			if !strings.Contains(all, w) {
				t.Errorf("%s does not show %q", name, w)
			}
		}
		rw, err := prompts.RenderAugmentRewrite(name, augmentPlaceholder())
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []string{"- `store/a_test.go` (TestA): passes before the reference solution", "Rewrite each of them once", "drop any you cannot fix"} {
			if !strings.Contains(rw, w) {
				t.Errorf("%s rewrite lacks %q", name, w)
			}
		}
	}
}

func TestAugmentNamesAndDigests(t *testing.T) {
	if got := strings.Join(prompts.AugmentNames(), " "); got != "augment-mutation augment-coverage" {
		t.Fatalf("AugmentNames = %q", got)
	}
	_, err := prompts.RenderAugment("augment-x", augmentPlaceholder())
	if err == nil || err.Error() != `no augment prompt "augment-x"; they are augment-mutation, augment-coverage` {
		t.Fatalf("unknown: %v", err)
	}
	if _, err := prompts.RenderAugment(prompts.AugmentMutationPrompt, nil); err == nil || err.Error() != "prompt augment-mutation: no data" {
		t.Fatalf("nil data: %v", err)
	}
	hex := regexp.MustCompile(`^[0-9a-f]{64}$`)
	a, err1 := prompts.AugmentDigest(prompts.AugmentMutationPrompt)
	b, err2 := prompts.AugmentDigest(prompts.AugmentCoveragePrompt)
	if err1 != nil || err2 != nil || !hex.MatchString(a) || !hex.MatchString(b) || a == b {
		t.Fatalf("digests %q %q %v %v", a, b, err1, err2)
	}
}
