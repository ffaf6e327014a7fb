package rank

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/stages/evidence"
)

// TestRankFloorsJudgesNonImplementable: the judge labels section 3.3,
// which the artifact marks implementable and which it grades 1 throughout,
// non-implementable. The section keeps the floor weight 0.1 and Q counts
// it (issue 12 §5). Section 3.5 is graded lower (coverage 3, q 6.00) so the
// floor decides: without it Q would be 43.440 / 5.4 = 8.0444, published 8.0
// and retained.
func TestRankFloorsJudgesNonImplementable(t *testing.T) {
	ws, c := ready(t)
	answer := strings.Replace(judged,
		`"coverage": 10, "precision": 9, "scope": 9, "granularity": 8, "specificity": 9, "category": "core"`,
		`"coverage": 1, "precision": 1, "scope": 1, "granularity": 1, "specificity": 1, "category": "non-implementable"`, 1)
	answer = strings.Replace(answer,
		`"coverage": 8, "precision": 8, "scope": 8, "granularity": 8, "specificity": 8, "category": "core"`,
		`"coverage": 3, "precision": 8, "scope": 8, "granularity": 8, "specificity": 8, "category": "core"`, 1)
	if answer == judged {
		t.Fatal("the judgement was not changed")
	}
	f := newFake(t, answer)
	res, reason := pipeline.Classify((&Stage{LLM: f.client(t, ws)}).Run(context.Background(), &pipeline.Env{Workspace: ws}, c))
	if res != pipeline.Rejected || reason != "Q 7.9 < 8.0: every implemented section is mapped at function level" {
		t.Fatalf("got %s %q", res, reason)
	}
	rep, err := Load(c)
	if err != nil {
		t.Fatal(err)
	}
	const comp = "Q = Σ w·q / Σ w = (1.0×8.75 + 0.8×8.40 + 0.1×1.00 + 1.0×8.80 + 1.0×6.00 + 0.6×8.45 + 0.4×9.30 + 0.6×7.30) / (1.0 + 0.8 + 0.1 + 1.0 + 1.0 + 0.6 + 0.4 + 0.6) = 43.540 / 5.5 = 7.9164 → 7.9"
	if rep.Computation != comp || string(rep.QExact) != "7.9164" || rep.Retained {
		t.Fatalf("computation %s\nwant %s", rep.Computation, comp)
	}
	row := rep.Sections[2]
	if row.Section != "3.3" || row.Category != NonImplementable || row.W != 1 || row.Q != 10 {
		t.Fatalf("row 3.3 %+v", row)
	}
}

// judgeSteps are the judge's definitions of the five dimensions and its
// anchors, as the system prompt states them. Changing what a dimension
// means changes every Q, so it is a deliberate edit of this test.
var judgeSteps = []string{
	"2. Coverage: check which claims the mapped code covers (read the patches). A section the artifact lists as unmapped is graded on whether that decision and its reason are right: a correctly deferred section covers nothing and is right to, a section the PR does implement but the artifact leaves unmapped covers nothing and is wrong.",
	"3. Precision: check whether every mapped scope serves the section; unrelated or loosely related rows lower precision.",
	"4. Scope: check the file, class and function of each row, and whether each row is in the right table (direct for code that implements the section, associated for tests, documentation and other support) and owned by the right section (the most specific one).",
	"5. Granularity: check whether rows are as fine as the change allows (functions rather than whole files when the scopes are known) without being split into noise.",
	// Specificity grades the EP's own text (paper, section 3.2), not the
	// artifact's quotation or requirement.
	"6. Specificity: grade the proposal's own text for this section, not the artifact. Ask how exactly the EP states what the code must do: does it name the functions, types, commands, fields or options, and give the values, formats and error cases, so that a test could tell a correct implementation from a wrong one? The artifact does not move this score: a precise quotation of a vague section is still vague, and a loose requirement written for an exact section does not make it vague.",
	"7. Score the five dimensions with whole numbers from 1 to 10, using these anchors (interpolate between them):",
	"   - coverage: 10 every claim is covered by the mapped code; 7 one minor claim is missing; 4 about half of the claims are covered; 1 none of the claims is covered.",
	"   - precision: 10 every mapped row serves the section; 7 one or two marginal rows; 4 about half of the rows are unrelated; 1 the rows belong elsewhere.",
	"   - scope: 10 every file, class, function and direct/associated choice is right and owned by the most specific section; 7 one misplaced row; 4 several rows in the wrong table or section; 1 ownership is mostly wrong.",
	"   - granularity: 10 rows at function level wherever the change allows; 7 a few file-level rows where functions were known; 4 mostly file-level; 1 whole folders or one catch-all row.",
	"   - specificity: 10 the EP names the interfaces and states exact behaviour, values and error cases; 7 the main behaviour is exact but one point is left to the implementer; 4 the EP states goals with a few concrete points and leaves most behaviour open; 1 the EP describes or motivates and gives nothing a test could check.",
}

// TestJudgePromptPinsDimensions pins the judge's dimensions and anchors:
// the prompt defines and anchors exactly the five dimensions of
// Dimensions, in the order of their weights in q, asks for exactly those
// fields, and tells the judge that its non-implementable label keeps the
// floor weight.
func TestJudgePromptPinsDimensions(t *testing.T) {
	p, err := Prompt(evidence.Placeholder(), nil)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(p.System, "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "2. Coverage:") {
			start = i
		}
	}
	if start < 0 || start+len(judgeSteps) > len(lines) {
		t.Fatalf("no dimension steps in the judge prompt:\n%s", p.System)
	}
	if got := lines[start : start+len(judgeSteps)]; !reflect.DeepEqual(got, judgeSteps) {
		for i := range judgeSteps {
			if got[i] != judgeSteps[i] {
				t.Errorf("line %d:\n got %q\nwant %q", i, got[i], judgeSteps[i])
			}
		}
	}
	if next := lines[start+len(judgeSteps)]; !strings.HasPrefix(next, "8. Assign the section an importance category") {
		t.Errorf("after the anchors: %q", next)
	}

	// The dimensions are the fields of Dimensions, in q's order.
	var names []string
	ty := reflect.TypeFor[Dimensions]()
	for i := range ty.NumField() {
		names = append(names, ty.Field(i).Tag.Get("json"))
	}
	if want := []string{"coverage", "precision", "scope", "granularity", "specificity"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("Dimensions fields %v, want %v", names, want)
	}
	if w := []int{WeightCoverage, WeightPrecision, WeightScope, WeightGranularity, WeightSpecificity}; !reflect.DeepEqual(w, []int{40, 25, 15, 10, 10}) {
		t.Fatalf("dimension weights %v", w)
	}
	var schema []string
	for _, n := range names {
		schema = append(schema, `"`+n+`": <1-10>`)
	}
	if !strings.Contains(p.System, `"claims": ["<claim>", ...], `+strings.Join(schema, ", ")+`, "category": "<importance category>"`) {
		t.Errorf("the answer format does not ask for exactly %v", names)
	}

	// The floor, as the judge is told it.
	for _, w := range []string{
		"Every listed section counts towards the overall score: its weight is the base of its category plus its modifiers, kept between 0.1 and 1.0.",
		"If you believe a listed section asks for no code at all, give it `non-implementable` and say why in its reason: it then weighs the lowest 0.1",
		"- `non-implementable` (weight 0.0): the section asks for no code after all, whatever the artifact says; it still counts, at the lowest weight, and the disagreement goes to the expert\n",
	} {
		if !strings.Contains(p.System, w) {
			t.Errorf("the judge prompt lacks %q", w)
		}
	}
}
