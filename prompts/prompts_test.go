package prompts_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/prompts"
	"github.com/lolbench/lolbench/stages/evidence"
)

func TestNames(t *testing.T) {
	want := "map map-retry audit-S1 audit-S2 audit-S3 audit-S4 audit-S5 audit-S6 audit-S7 audit-S8 judge"
	if got := strings.Join(prompts.Names(), " "); got != want {
		t.Fatalf("Names = %q", got)
	}
	_, err := prompts.Render("audit-S9", evidence.Placeholder())
	if err == nil || err.Error() != `no prompt "audit-S9"; prompts are `+strings.ReplaceAll(want, " ", ", ") {
		t.Fatalf("unknown prompt: %v", err)
	}
	if _, err := prompts.Render("audit-s1", evidence.Placeholder()); err == nil {
		t.Fatal("prompt names are exact: audit-s1 is not audit-S1")
	}
	if _, err := prompts.Render(prompts.MapPrompt, nil); err == nil || err.Error() != "prompt map: no data" {
		t.Fatalf("nil data: %v", err)
	}
}

func TestDigest(t *testing.T) {
	seen := map[string]string{}
	hex := regexp.MustCompile(`^[0-9a-f]{64}$`)
	for _, n := range prompts.Names() {
		d, err := prompts.Digest(n)
		if err != nil || !hex.MatchString(d) {
			t.Fatalf("%s: %q %v", n, d, err)
		}
		if other, ok := seen[d]; ok {
			t.Errorf("%s and %s share a digest", n, other)
		}
		seen[d] = n
		again, _ := prompts.Digest(n)
		if again != d {
			t.Errorf("%s: digest is not stable", n)
		}
	}
}

// TestInstructions pins every instruction the method needs (issue 5,
// "Prompts") to the prompt that must carry it, so that an edit cannot drop
// one unnoticed.
func TestInstructions(t *testing.T) {
	wrapper := []string{
		"Read the proposal, the PR data (changed files, their categories, patches and changed scopes) and the mapping artifact",
		"apply exactly one rule to the artifact",
		"do not report anything outside rule",
		"each one actionable: name the section (by its id",
		"the file (by its path) or the scope (file, class and function)",
		"Do not report borderline or stylistic points",
	}
	list := []string{`a JSON list of issue strings`, `or [] when the artifact satisfies rule`}
	rules := map[string][]string{
		"S1": {"headings, all of them and only them, in document order", "has no row in the summary is an error", "unsupported entry", "out of order"},
		"S2": {"Implementable flag and Category must be right", "`implementation`", "`evaluation`", "`knowledge`", "`contextual`", "`process`"},
		"S3": {"finest test section that fits", "Implementable yes with category evaluation", "most specific test section"},
		"S4": {"When the path leaves room for doubt", "read the file's patch and decide from its content"},
		"S5": {"Direct scopes must implement the behaviour", "The most specific section owns a scope", "real support relation", "cross-layer mismatches", "cross-feature mismatches"},
		"S6": {"The quotation must be exact", "Truncation must be faithful", "accurate summary in one to three sentences"},
		"S7": {"Tests, generated files, dependency manifests and lock files, vendored code, build and CI configuration and documentation", "belong in Associated changes, unless the section explicitly asks", "modification summary of every direct file must describe accurately"},
		"S8": {"Enumerate every link", "incidental", "essential", "must be inlined", "`invalid:<reason>`", "`inlined`", "`complete`", `"verdict": "complete" or "inlined" or "invalid:<reason>"`, `"issues": [<a JSON list of issue strings`},
	}
	for id, phrases := range rules {
		p, err := prompts.Render(prompts.AuditName(id), evidence.Placeholder())
		if err != nil {
			t.Fatal(err)
		}
		want := append(append([]string{"rule " + id}, wrapper...), phrases...)
		if id != "S8" {
			want = append(want, list...)
		}
		for _, w := range want {
			if !strings.Contains(p.System, w) {
				t.Errorf("audit-%s lacks %q", id, w)
			}
		}
		if !strings.Contains(p.User, "<mapping>\n‹mapping.md›\n</mapping>") || !strings.Contains(p.User, "<patch file=\"‹path›\">") || !strings.Contains(p.User, "‹the EP's text›") {
			t.Errorf("audit-%s: the user message lacks the mapping, patches or EP", id)
		}
		if strings.Contains(p.User, "A scan of the proposal found these URLs") != (id == "S8") {
			t.Errorf("audit-%s: URL list misplaced", id)
		}
	}
	judge := []string{
		"You grade how good the mapping is", "You do not grade the PR",
		"Extract the requirement claims", "Coverage:", "Precision:", "Scope: check the file, class and function of each row, and whether each row is in the right table (direct",
		"Granularity:", "Specificity:", "whole numbers from 1 to 10, using these anchors",
		"independent of how many files implement it", "the instance score", "main reason",
		`"reason": "<one or two sentences`, `"instance_score"`, `"main_reason"`,
	}
	d := evidence.Placeholder()
	d.Judge.Categories = []prompts.Choice{{Key: "core", Meaning: "m", Effect: "1.0"}}
	p, err := prompts.Render(prompts.JudgePrompt, d)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range judge {
		if !strings.Contains(p.System, w) {
			t.Errorf("judge lacks %q", w)
		}
	}
	if !strings.Contains(p.System, "- `core` (weight 1.0): m\n") || !strings.Contains(p.User, "one row each:\n- ‹id› ‹title›\n") {
		t.Error("judge lacks its vocabulary or sections")
	}
	mapPhrases := []string{
		"the proposal text, its list of headings with their section ids, the PR's changed files with their categories and patches, and the changed (file, class, function) scopes",
		"## Section Classification Summary", "## PR File Summary", "## Mapped Sections", "## Unmapped Implementable Sections", "## Unmapped PR Files", "## Global Statistics",
		"#### Direct modifications", "#### Associated changes", "#### Modification summary",
		"**Files:** <d> direct (<d%>), <a> associated (<a%>), <c> accounted (<c%>) of <N> PR files",
		"floor((num*1000 + den/2) / den)", "| EP-section coverage | <value> |", "R01 pr-file-completeness: ",
		`{"mapping": "<the complete Markdown artifact>"}`, "# Mapping: ‹candidate id›",
	}
	p, err = prompts.Render(prompts.MapPrompt, evidence.Placeholder())
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range mapPhrases {
		if !strings.Contains(p.System, w) {
			t.Errorf("map lacks %q", w)
		}
	}
	if strings.Contains(p.User, "<mapping>") {
		t.Error("the drafter is shown a mapping")
	}
	p, err = prompts.Render(prompts.MapRetryPrompt, evidence.Placeholder())
	if err != nil {
		t.Fatal(err)
	}
	if p.User != "Your draft breaks the checks below (1 finding). This is round 2 of 3.\n\n- ‹rule›, artifact line 1, ‹where›: ‹message›\n\n"+
		"Fix every finding, keep everything that was right, and check the counts, percentages and statistics again after your changes. Send the complete corrected artifact in the same form, {\"mapping\": \"...\"}, and nothing else." {
		t.Errorf("map-retry user message %q", p.User)
	}
}

func TestLookupAuditRule(t *testing.T) {
	if r, ok := prompts.LookupAuditRule(" s7 "); !ok || r != (prompts.AuditRule{ID: "S7", Name: "direct vs associated"}) {
		t.Fatalf("%+v %v", r, ok)
	}
	if _, ok := prompts.LookupAuditRule("S0"); ok {
		t.Fatal("S0 found")
	}
}
