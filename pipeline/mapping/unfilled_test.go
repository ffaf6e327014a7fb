package mapping_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline/mapping"
)

// partly is a mapping under way: one section decided, one block filled
// but for its reason and summary, the other rows still unassigned.
const partly = `# Mapping: partly

## Section Classification Summary

| # | Section | Title | Implementable | Category | Mapped |
|---|---------|-------|---------------|----------|--------|
| 1 | 1 | Spec | yes | implementation | yes |
| 2 | 2 | Later | TODO | TODO later | no |

## PR File Summary

| # | File | Category | Role | Direct sections | Associated sections |
|---|------|----------|------|-----------------|---------------------|
| 1 | ` + "`a.go`" + ` | source | direct | 1, TODO | - |
| 2 | ` + "`a_test.go`" + ` | test | associated | - | 1 |

## Mapped Sections

### 1. Section 1: Spec

> TODO

**Requirement:** Do it, TODO.

**Files:** 1 direct (50.0%), 1 associated (50.0%), 2 accounted (100.0%) of 2 PR files

#### Direct modifications

| File | Class | Function |
|------|-------|----------|
| ` + "`a.go`" + ` | ` + "`T`" + ` | ` + "`Do`" + ` |

#### Associated changes

| File | Class | Function | Reason |
|------|-------|----------|--------|
| ` + "`a_test.go`" + ` | - | ` + "`TestDo`" + ` | TODO |

#### Modification summary

- ` + "`a.go`" + `: TODO

### 2. Section TODO: TODO

> TODO

**Requirement:** TODO

**Files:** 1 direct (50.0%), 0 associated (0.0%), 1 accounted (50.0%) of 2 PR files

#### Direct modifications

| File | Class | Function |
|------|-------|----------|
| ` + "`a.go`" + ` | - | - |
| ` + "`a.go`" + ` | ` + "`T`" + ` | - |

#### Associated changes

None.

#### Modification summary

- ` + "`a.go`" + `: TODO

## Unmapped Implementable Sections

None.

## Unmapped PR Files

| File | Category | Reason |
|------|----------|--------|
| ` + "`x.md`" + ` | documentation | TODO |

## Global Statistics

None.
`

func TestUnfilled(t *testing.T) {
	m, err := mapping.Parse([]byte(partly))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range m.Unfilled() {
		got = append(got, fmt.Sprintf("%d %s: %s", u.Line, u.Where, u.Cell))
	}
	want := []string{
		"8 section 2: Implementable",
		"21 block 1: quote",
		"37 block 1: reason for `a_test.go` `TestDo`",
		"41 block 1: summary of `a.go`",
		"43 block 2: section",
		"43 block 2: title",
		"45 block 2: quote",
		"47 block 2: requirement",
		"55 block 2: which section `a.go` (file level) serves",
		"56 block 2: which section `a.go` `T` serves",
		"64 block 2: summary of `a.go`",
		"74 file `x.md`: Reason",
	}
	if !slices.Equal(got, want) {
		t.Errorf("unfilled:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Held back: the unfilled lines, the file row naming the unassigned
	// block, and every line of that block (43 to 64).
	lines := slices.Sorted(maps.Keys(m.MarkerLines()))
	wantLines := []int{8, 14, 21, 37, 41}
	for l := 43; l <= 64; l++ {
		wantLines = append(wantLines, l)
	}
	wantLines = append(wantLines, 74)
	if !slices.Equal(lines, wantLines) {
		t.Errorf("marker lines %v, want %v", lines, wantLines)
	}
}
