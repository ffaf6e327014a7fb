package mapping

import (
	"reflect"
	"strings"
	"testing"
)

func mustJSON(t testing.TB, m *Mapping) string {
	t.Helper()
	b, err := JSON(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// withoutLines is a deep copy of m with every line zeroed, for comparing
// models of different sources.
func withoutLines(t testing.TB, m *Mapping) *Mapping {
	t.Helper()
	c, err := Parse(Render(m))
	if err != nil {
		t.Fatalf("Parse(Render(m)): %v\n%s", err, Render(m))
	}
	walkLines(reflect.ValueOf(c), func(l *int) { *l = 0 })
	return c
}

// TestRenderCanonical: canonical documents render back byte for byte.
func TestRenderCanonical(t *testing.T) {
	for _, name := range []string{"small.md", "valid.md"} {
		t.Run(name, func(t *testing.T) {
			src := readTestdata(t, name)
			m, err := Parse([]byte(src))
			if err != nil {
				t.Fatal(err)
			}
			if got := string(Render(m)); got != src {
				t.Errorf("Render differs from %s:\n%s", name, got)
			}
		})
	}
}

// TestRoundTrip: for a non-canonical document, Parse(Render(m)) is m
// again, line numbers aside.
func TestRoundTrip(t *testing.T) {
	sloppy := strings.NewReplacer(
		"| `a.go` | - | `run` |", "|a.go||``run``|",
		"| Metric | Value |\n|--------|-------|\n| PR files | 1 |", "| metric | Amount | Note |\n|:-|-:|:-:|\n| PR files | 1 | a \\| b |",
		"> Make it so.", "> Make it\nso.\n>\n>     code",
		"Make it so.\n\n**Files:**", "Make it\n  so.\n**Files:**",
		"- `a.go`: Adds run.", "* a.go:   Adds `x`.\n\n* ``b`c.go``: Two\n  lines.",
		"# Mapping: demo", "Mapping: demo\n===",
	).Replace(readTestdata(t, "small.md"))
	m, err := Parse([]byte(sloppy))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	want := withoutLines(t, m)
	walkLines(reflect.ValueOf(m), func(l *int) { *l = 0 })
	m.Blocks[0].Quote.Raw = want.Blocks[0].Quote.Raw // Render writes the canonical quote
	if !reflect.DeepEqual(want, m) {
		t.Errorf("round trip:\n got %s\nwant %s", mustJSON(t, want), mustJSON(t, m))
	}
	if got, wantRaw := want.Blocks[0].Quote.Raw, "> Make it\n> so.\n>\n>     code"; got != wantRaw {
		t.Errorf("canonical quote = %q, want %q", got, wantRaw)
	}
	if got, want := m.Blocks[0].Summary.Items[1].Path, "b`c.go"; got != want {
		t.Errorf("code span path = %q, want %q", got, want)
	}
}

// TestRenderBuilt: a model built in code (no columns, no lines) renders
// with the canonical columns and "None." for empty tables.
func TestRenderBuilt(t *testing.T) {
	m := &Mapping{
		Title: "x",
		SCS:   Table[SCSRow]{Rows: []SCSRow{{Index: "1", Section: "1", Title: "A | B", Implementable: "yes", Category: "process", Mapped: "no"}}},
		Blocks: []Block{{
			Number: 1, Section: "1", Title: "A",
			Quote:       Quote{Text: "line one\n\nline two"},
			Requirement: Requirement{Text: "Do\nit."},
			Counts:      Counts{Direct: 1, DirectPercent: FormatPercent(1, 3), PRFiles: 3},
			Direct:      Table[CodeRow]{Rows: []CodeRow{{Path: "p.go", Class: "Outer.Inner", Function: "-"}}},
			Summary:     Summary{Items: []SummaryItem{{Path: "p.go", Text: "Adds it."}}},
		}},
	}
	want := `# Mapping: x

## Section Classification Summary

| # | Section | Title | Implementable | Category | Mapped |
|---|---------|-------|---------------|----------|--------|
| 1 | 1 | A \| B | yes | process | no |

## PR File Summary

None.

## Mapped Sections

### 1. Section 1: A

> line one
>
> line two

**Requirement:** Do it.

**Files:** 1 direct (33.3%), 0 associated (), 0 accounted () of 3 PR files

#### Direct modifications

| File | Class | Function |
|------|-------|----------|
| ` + "`p.go` | `Outer.Inner`" + ` | - |

#### Associated changes

None.

#### Modification summary

- ` + "`p.go`" + `: Adds it.

## Unmapped Implementable Sections

None.

## Unmapped PR Files

None.

## Global Statistics

None.
`
	got := string(Render(m))
	if got != want {
		t.Fatalf("Render:\n%s\nwant\n%s", got, want)
	}
	back, err := Parse([]byte(got))
	if err != nil {
		t.Fatal(err)
	}
	if again := string(Render(back)); again != want {
		t.Errorf("Render(Parse(Render(m))) differs:\n%s", again)
	}
	if back.SCS.Rows[0].Title != "A | B" || back.Blocks[0].Quote.Text != "line one\n\nline two" || back.Blocks[0].Requirement.Text != "Do it." {
		t.Errorf("values changed in the round trip: %s", mustJSON(t, back))
	}
}

func TestCodeSpan(t *testing.T) {
	tests := []struct{ value, span string }{
		{"a.go", "`a.go`"},
		{"-", "-"},
		{"", ""},
		{"a`b", "`` a`b ``"},
		{"``x", "``` ``x ```"},
	}
	for _, tt := range tests {
		if got := codeSpan(tt.value); got != tt.span {
			t.Errorf("codeSpan(%q) = %q, want %q", tt.value, got, tt.span)
		}
		if got := unquoteCode(tt.span); got != tt.value {
			t.Errorf("unquoteCode(%q) = %q, want %q", tt.span, got, tt.value)
		}
	}
	for _, s := range []string{"`a` and `b`", "`open", "plain", "``a`"} {
		if got := unquoteCode(s); got != s {
			t.Errorf("unquoteCode(%q) = %q, want it unchanged", s, got)
		}
	}
}
