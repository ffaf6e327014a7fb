package rules

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/mapping"
)

// r10r19 are the rules these tests exercise alone; the fixtures under
// testdata/r10 to testdata/r19 run them together with all the others.
var r10r19 = []*Rule{R10, R11, R12, R13, R14, R15, R16, R17, R18, R19}

// hostileR10R19 is an artifact that parses but holds what careless or
// hostile writers produce: unreadable flags and vocabularies, repeated ids,
// titles, paths and metrics, empty cells and ids, a misnumbered block, a
// block and an unmapped row for sections that exist nowhere, and files that
// are not in the fixture PR. Code spans are written with "'" here and
// turned into backticks before parsing.
const hostileR10R19 = `# Mapping: hostile

## Section Classification Summary

| # | Section | Title | Implementable | Category | Mapped |
|---|---------|-------|---------------|----------|--------|
| 1 | 1 | Intro | no | implementation | no |
| 2 | 1 | Intro | YES | knowledge | no |
| 3 |  | Setup |  | process | no |
| 3 | 2 | Design | yes | implementation | yes |
| five | 3 | Design | yes | evaluation | no |

## PR File Summary

| # | File | Category | Role | Direct sections | Associated sections |
|---|------|----------|------|-----------------|---------------------|
| 1 | 'a.go' | source | associated | 2, 2 | 9 |
| 2 | 'a.go' | source | direct | 2 | - |
|  | 'b.go' | sauce | direct, associated | 2,, 3 | - |

## Mapped Sections

### 1. Section 2: Design

> x

**Requirement:** y.

**Files:** 1 direct (50.0%), 0 associated (0.0%), 1 accounted (50.0%) of 2 PR files

#### Direct modifications

| File | Class | Function |
|------|-------|----------|
| 'a.go' | - | - |

#### Associated changes

None.

#### Modification summary

None.

### 3. Section 7: Design

> x

**Requirement:** y.

**Files:** 0 direct (0.0%), 0 associated (0.0%), 0 accounted (0.0%) of 2 PR files

#### Direct modifications

None.

#### Associated changes

None.

#### Modification summary

None.

## Unmapped Implementable Sections

| Section | Title | Reason |
|---------|-------|--------|
| 3 | design |  |
| 3 | Design | deferred |
| 8 | Nowhere | deferred |
|  | - | deferred |

## Unmapped PR Files

| File | Category | Reason |
|------|----------|--------|
| 'a.go' | source | out-of-scope |

## Global Statistics

| Metric | Value |
|--------|-------|
| Implementable sections | 2 |
| Mapped Implementable sections | 1 |
| Direct files | 1 |
| source files | 1 |
| source files | 1 |
| data files | 0 |
`

// TestR10R19Hostile pins the exact findings of rules 10 to 19 on
// hostileR10R19, without EP and PR (a partial input must not crash a rule
// nor make it guess) and with the fixture's.
func TestR10R19Hostile(t *testing.T) {
	m, err := mapping.Parse([]byte(strings.ReplaceAll(hostileR10R19, "'", "`")))
	if err != nil {
		t.Fatal(err)
	}
	change, scopes := fixtureInputs(t)
	doc, err := ep.Load("testdata/fixture/ep.md", "")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		in   *Input
		want []Violation
	}{
		{"no EP or PR", &Input{Mapping: m}, []Violation{
			{Rule: 10, Line: 7, Where: "section 1", Message: "section 1 is marked Implementable no but its category is implementation, which only implementable sections have; mark the section Implementable yes, or change the category to knowledge, contextual or process"},
			{Rule: 12, Line: 69, Where: "section 3", Message: "section 3 has an empty Reason; write why it is not mapped, one of deferred, pre-existing, out-of-scope, documentation-only, runtime-behavior, external-dependency, test-only, insufficient-context"},
			{Rule: 12, Line: 70, Where: "section 3", Message: "section 3 is listed again (first at line 69); remove this row"},
			{Rule: 12, Line: 71, Where: "section 8", Message: "section 8 has no row in the Section Classification Summary, and the EP has no such heading; remove this row, or correct the id"},
			{Rule: 12, Line: 72, Where: "Unmapped Implementable Sections row 4", Message: "row 4 has no section id; write the id of an implementable section that is not mapped, or remove the row"},
			{Rule: 16, Line: 8, Where: "section 1", Message: "section 1 already has row 1 (line 7); remove this repeated row"},
			{Rule: 16, Line: 11, Where: "section 3", Message: "title \"Design\" repeats row 4 (line 10) but the EP has no heading \"Design\"; remove this repeated row, or give it the id and title of the heading it stands for"},
			{Rule: 17, Line: 18, Where: "file `a.go`", Message: "`a.go` already has row 1 (line 17); merge this row into it, so that its one row lists every section that names the file (Direct sections 2, Associated sections -), and remove this row"},
			{Rule: 18, Line: 10, Where: "Section Classification Summary row 4", Message: "Section Classification Summary row 4 is numbered \"3\", want 4; 2 of the 5 rows are misnumbered: number them 1 to 5 in the order they appear"},
			{Rule: 18, Line: 19, Where: "PR File Summary row 3", Message: "PR File Summary row 3 is numbered \"\", want 3; 1 of the 3 rows is misnumbered: number them 1 to 3 in the order they appear"},
			{Rule: 18, Line: 45, Where: "Mapped Sections block 2", Message: "Mapped Sections block 2 is numbered \"3\", want 2; 1 of the 2 blocks is misnumbered: number them 1 to 2 in the order they appear"},
			{Rule: 19, Line: 45, Where: "section 7", Message: "block 3 maps section 7, which has no Section Classification Summary row and is no heading of the EP; correct the block's section id and title, or remove the block"},
		}},
		{"fixture EP and PR", &Input{EP: doc, Change: change, Scopes: scopes, Mapping: m}, []Violation{
			{Rule: 10, Line: 7, Where: "section 1", Message: "section 1 is marked Implementable no but its category is implementation, which only implementable sections have; mark the section Implementable yes, or change the category to knowledge, contextual or process"},
			{Rule: 12, Line: 69, Where: "section 3", Message: "section 3 has an empty Reason; write why it is not mapped, one of deferred, pre-existing, out-of-scope, documentation-only, runtime-behavior, external-dependency, test-only, insufficient-context"},
			{Rule: 12, Line: 70, Where: "section 3", Message: "section 3 is listed again (first at line 69); remove this row"},
			{Rule: 12, Line: 71, Where: "section 8", Message: "section 8 has no row in the Section Classification Summary, and the EP has no such heading; remove this row, or correct the id"},
			{Rule: 12, Line: 72, Where: "Unmapped Implementable Sections row 4", Message: "row 4 has no section id; write the id of an implementable section that is not mapped, or remove the row"},
			{Rule: 15, Line: 82, Where: "Global Statistics", Message: "the \"EP sections\" row is missing; the EP has 7 headings, so add \"| EP sections | 7 |\""},
			{Rule: 15, Line: 82, Where: "Global Statistics", Message: "the \"PR files\" row is missing; the PR changes 7 files, so add \"| PR files | 7 |\""},
			{Rule: 16, Line: 8, Where: "section 1", Message: "section 1 already has row 1 (line 7); remove this repeated row"},
			{Rule: 16, Line: 11, Where: "section 3", Message: "title \"Design\" repeats row 4 (line 10) but the EP has no heading \"Design\"; remove this repeated row, or give it the id and title of the heading it stands for"},
			{Rule: 18, Line: 10, Where: "Section Classification Summary row 4", Message: "Section Classification Summary row 4 is numbered \"3\", want 4; 2 of the 5 rows are misnumbered: number them 1 to 5 in the order they appear"},
			{Rule: 18, Line: 19, Where: "PR File Summary row 3", Message: "PR File Summary row 3 is numbered \"\", want 3; 1 of the 3 rows is misnumbered: number them 1 to 3 in the order they appear"},
			{Rule: 18, Line: 45, Where: "Mapped Sections block 2", Message: "Mapped Sections block 2 is numbered \"3\", want 2; 1 of the 2 blocks is misnumbered: number them 1 to 2 in the order they appear"},
			{Rule: 19, Line: 45, Where: "section 7", Message: "block 3 maps section 7, which has no Section Classification Summary row and is no heading of the EP; correct the block's section id and title, or remove the block"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := Run(tt.in, r10r19)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(rep.Violations, tt.want) {
				for _, v := range rep.Violations {
					t.Logf("got {%d, %q, %d, %q}", v.Rule, v.Where, v.Line, v.Message)
				}
				t.Errorf("got %d violations, want %d", len(rep.Violations), len(tt.want))
			}
		})
	}
}

// TestR10R19Mutations blanks and garbles every table cell of the
// canonical fixture and of fixtures with repeated blocks and rows, one cell
// at a time, and runs rules 10 to 19 on each artifact that still parses: no
// rule may crash, and every finding must name its place and point at a line
// of the artifact or at none.
func TestR10R19Mutations(t *testing.T) {
	change, scopes := fixtureInputs(t)
	doc, err := ep.Load("testdata/fixture/ep.md", "")
	if err != nil {
		t.Fatal(err)
	}
	cases := []string{
		"testdata/fixture/mapping.md",
		"testdata/r19/fail-duplicate-block.md",
		"testdata/r12/fail-repeated-and-missing.md",
	}
	garbage := []string{"", "x", "YES", "2.1, 2.1", "direct, unmapped"}
	runs := 0
	for _, c := range cases {
		data, err := os.ReadFile(c)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		for i, line := range lines {
			if !strings.HasPrefix(line, "|") || strings.HasPrefix(line, "|-") {
				continue
			}
			cells := strings.Split(line, "|")
			for j := 1; j < len(cells)-1; j++ {
				for _, g := range garbage {
					mutated := append([]string(nil), cells...)
					mutated[j] = " " + g + " "
					lines[i] = strings.Join(mutated, "|")
					src := strings.Join(lines, "\n")
					lines[i] = line
					m, err := mapping.Parse([]byte(src))
					if err != nil {
						continue
					}
					runs++
					rep, err := Run(&Input{EP: doc, Change: change, Scopes: scopes, Mapping: m}, r10r19)
					if err != nil {
						t.Fatalf("%s line %d cell %d = %q: %v", c, i+1, j, g, err)
					}
					for _, v := range rep.Violations {
						if v.Line < 0 || v.Line > len(lines) || v.Message == "" || v.Where == "" {
							t.Fatalf("%s line %d cell %d = %q: malformed violation %+v", c, i+1, j, g, v)
						}
					}
				}
			}
		}
	}
	if runs < 1000 {
		t.Fatalf("only %d mutated artifacts parsed", runs)
	}
}
