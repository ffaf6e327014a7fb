package rules

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/syntax"
)

// r20r28 are the rules these tests exercise alone; the fixtures under
// testdata/r20 to testdata/r28 run them together with all the others.
var r20r28 = []*Rule{R20, R21, R22, R23, R24, R25, R26, R27, R28}

func TestNormalizeQuoteText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"`GreetIn(lang, name)` returns", "GreetIn(lang, name) returns"},
		{"``en``,\n   ``fr``\tand ``de``", "en, fr and de"},
		{"**bold**, *em* and _u_", "bold, em and u"},
		{"a * b", "a * b"}, // a lone star is text (rule 22)
		{"  lead\n\n\ttrail  ", "lead trail "},
		{"snake_case ünïcode", "snake_case ünïcode"}, // so is an intraword underscore
		{"", ""},
	}
	for _, tt := range tests {
		n := normalizeQuoteText(tt.in)
		if n.s != tt.want {
			t.Errorf("normalizeQuoteText(%q) = %q, want %q", tt.in, n.s, tt.want)
		}
		if len(n.offs) != len(n.s) {
			t.Errorf("normalizeQuoteText(%q): %d offsets for %d bytes", tt.in, len(n.offs), len(n.s))
		}
		for i := range n.offs {
			if n.s[i] != ' ' && tt.in[n.offs[i]] != n.s[i] {
				t.Errorf("normalizeQuoteText(%q): byte %d maps to source %q", tt.in, i, tt.in[n.offs[i]])
			}
		}
	}
}

func TestQuotePassages(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"a ... b … c [...] d [\u2026] e", []string{"a", "b", "c", "d", "e"}},
		{"... only ...", []string{"only"}},
		{"`x`\n> y", []string{"x > y"}},
		{" ... … ", nil},
	}
	for _, tt := range tests {
		if got := quotePassages(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("quotePassages(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// quoteEP is one EP in both formats; quotations must locate alike in both.
var quoteEP = map[ep.Format]string{
	ep.Markdown: "# One\n\nAlpha *beta* `gamma`\ndelta.\n\n## Two\n\nEpsilon zeta. Alpha again.\n",
	ep.RST:      "One\n===\n\nAlpha *beta* ``gamma``\ndelta.\n\nTwo\n---\n\nEpsilon zeta. Alpha again.\n",
}

func TestEPQuotesFind(t *testing.T) {
	tests := []struct {
		name     string
		quote    string
		section  string // "" = whole subtree of 1, "own" = own text of 1
		want     []string
		wantFail int
	}{
		{"inline markup ignored", "Alpha beta gamma delta.", "", []string{"Alpha *beta* `gamma`\ndelta."}, -1},
		{"ellipsis in order", "Alpha ... zeta.", "", []string{"Alpha", "zeta."}, -1},
		{"ellipsis out of order", "zeta. ... Epsilon", "", nil, 1},
		{"leftmost after previous", "delta. … Alpha", "", []string{"delta.", "Alpha"}, -1},
		{"outside the own text", "Epsilon zeta.", "own", nil, 0},
		{"misquote", "Alpha beta gamma epsilon", "", nil, 0},
	}
	for format, src := range quoteEP {
		doc, err := ep.Parse([]byte(src), format)
		if err != nil {
			t.Fatal(err)
		}
		q := newEPQuotes(doc)
		one := doc.Section("1")
		for _, tt := range tests {
			r := one.Subtree
			if tt.section == "own" {
				r = one.Own
			}
			spans, fail := q.find(quotePassages(tt.quote), []ep.Range{r})
			var got []string
			for _, s := range spans {
				text := doc.Text(s)
				if format == ep.RST {
					text = strings.ReplaceAll(text, "``", "`")
				}
				got = append(got, text)
			}
			if !reflect.DeepEqual(got, tt.want) || (spans == nil && fail != tt.wantFail) {
				t.Errorf("%s/%s: find = %q (fail %d), want %q (fail %d)", format, tt.name, got, fail, tt.want, tt.wantFail)
			}
		}
	}
}

func TestR22Sentences(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"One.", 1},
		{"One. Two! Three?", 3},
		{"Use e.g. the table.", 1},
		{"Version 1.2 is out. Next", 2},
		{"no full stop", 1},
		{"Says \"stop.\" Then goes on.", 2},
		{"Ellipsis... And more.", 2},
		{"...", 0},
	}
	for _, tt := range tests {
		if got := r22Sentences(tt.in); got != tt.want {
			t.Errorf("r22Sentences(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestSubtractRanges(t *testing.T) {
	rg := func(a, b int) ep.Range { return ep.Range{Start: a, End: b} }
	tests := []struct {
		base ep.Range
		cuts []ep.Range
		want []ep.Range
	}{
		{rg(0, 10), nil, []ep.Range{rg(0, 10)}},
		{rg(0, 10), []ep.Range{rg(6, 8), rg(2, 4)}, []ep.Range{rg(0, 2), rg(4, 6), rg(8, 10)}},
		{rg(0, 10), []ep.Range{rg(0, 10)}, nil},
		{rg(5, 10), []ep.Range{rg(0, 6), rg(9, 20)}, []ep.Range{rg(6, 9)}},
		{rg(0, 10), []ep.Range{rg(2, 6), rg(3, 5)}, []ep.Range{rg(0, 2), rg(6, 10)}},
	}
	for _, tt := range tests {
		if got := subtractRanges(tt.base, tt.cuts); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("subtractRanges(%v, %v) = %v, want %v", tt.base, tt.cuts, got, tt.want)
		}
	}
}

func TestAggregateFiles(t *testing.T) {
	f := &Facts{PRFile: map[string]*diff.File{}}
	for _, p := range []string{"a.go", "b.go", "tools/x.py", "tools/y.py", "docs/z.md"} {
		f.PRFile[p] = &diff.File{NewPath: p}
	}
	tests := []struct {
		entry string
		want  []string
	}{
		{"tools/", []string{"tools/x.py", "tools/y.py"}},
		{"tools", []string{"tools/x.py", "tools/y.py"}},
		{"*.go", []string{"a.go", "b.go"}},
		{"tools/*.py", []string{"tools/x.py", "tools/y.py"}},
		{"a.go, `b.go`", []string{"a.go", "b.go"}},
		{"a.go and 3 more", []string{"a.go"}},
		{"tools/...", []string{"tools/x.py", "tools/y.py"}},
		{"all files", []string{"a.go", "b.go", "docs/z.md", "tools/x.py", "tools/y.py"}},
		{"a.go", []string{"a.go"}},
		{"nothing/", []string{}},
	}
	for _, tt := range tests {
		if got := f.aggregateFiles(tt.entry); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("aggregateFiles(%q) = %q, want %q", tt.entry, got, tt.want)
		}
	}
}

func TestR26Measure(t *testing.T) {
	tests := []struct {
		format ep.Format
		src    string
		words  int
		links  []string
	}{
		{ep.Markdown, "One two `three four`.\n\n```sh\nnot counted here\n```\n\n    indented code too\n\n- five\n", 5, nil},
		{ep.Markdown, "See [the design](https://x.example/d) and https://y.example/e).\n", 4, []string{"https://x.example/d", "https://y.example/e"}},
		{ep.Markdown, "<!-- hidden words -->\n<div>html words</div>\n\n![alt words](i.png) six\n", 1, nil},
		{ep.RST, "One two ``three``::\n\n    literal words\n\nfour\n\n.. code-block:: python\n\n   code words\n\n.. note:: five\n\n   six\n\n.. a comment\n   more\n", 6, nil},
		{ep.RST, "See `the design <https://x.example/d>`_.\n\n.. _target: https://y.example/e\n\n>>> doctest words\n", 3, []string{"https://x.example/d", "https://y.example/e"}},
	}
	for i, tt := range tests {
		doc, err := ep.Parse([]byte(tt.src), tt.format)
		if err != nil {
			t.Fatal(err)
		}
		got := r26Measure(doc, ep.Range{Start: 0, End: len(doc.Source)})
		if got.words != tt.words || !reflect.DeepEqual(r26Sorted(got.links), tt.links) {
			t.Errorf("case %d (%s): %d words, links %q; want %d, %q", i, tt.format, got.words, got.links, tt.words, tt.links)
		}
	}
}

func r26Sorted(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// hostileR20R28 parses but holds what careless or hostile writers produce
// for rules 20 to 28: empty and odd paths, blocks of unknown sections, an
// empty quote, a quote of ellipses only, an unreadable counts table, rows
// with classes and no function, and repeated scopes. "'" stands for a
// backtick.
const hostileR20R28 = `# Mapping: hostile

## Section Classification Summary

| # | Section | Title | Implementable | Category | Mapped |
|---|---------|-------|---------------|----------|--------|
| 1 | 1 | One | maybe | knowledge | no |
| 2 |  |  | yes | implementation | yes |
| 3 | 9.9 | Nine | yes | implementation | yes |

## PR File Summary

| # | File | Category | Role | Direct sections | Associated sections |
|---|------|----------|------|-----------------|---------------------|
| 1 | 'a.go' | source | direct, associated | 9.9 | - |
| 2 |  | source | unmapped | - | - |
| 3 | 'src/' | source | primary | - | - |

## Mapped Sections

### 1. Section 9.9: Nine

> ... … ...

**Requirement:**

**Files:** 1 direct (50.0%), 0 associated (0.0%), 1 accounted (50.0%) of 2 PR files

#### Direct modifications

| File | Class | Function |
|------|-------|----------|
| 'a.go' | - | 'F' |
| 'a.go' | - | 'F' |
| 'src/*' | 'C' | - |
|  | - | 'G' |

#### Associated changes

| File | Class | Function | Reason |
|------|-------|----------|--------|
| 'a.go' | - | 'F' | again |

#### Modification summary

- 'a.go': x
- 'a.go': y
- 'b.go, c.go': z

### 2. Section 1: One

> … <!-- only an ellipsis -->

**Requirement:** Fine.

**Files:** 0 direct (0.0%), 0 associated (0.0%), 0 accounted (0.0%) of 2 PR files

#### Direct modifications

None.

#### Associated changes

None.

#### Modification summary

None.

## Unmapped Implementable Sections

None.

## Unmapped PR Files

None.

## Global Statistics

| Metric | Value |
|--------|-------|
| unmapped  FILES | -1 |
| Unmapped implementable sections | 1.5 |
`

func TestR20R28Hostile(t *testing.T) {
	m, err := mapping.Parse([]byte(strings.ReplaceAll(hostileR20R28, "'", "`")))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := ep.Parse([]byte("# One\n\nOne body.\n"), ep.Markdown)
	if err != nil {
		t.Fatal(err)
	}
	change := &diff.Change{Files: []diff.File{
		{NewPath: "a.go", OldPath: "a.go", Status: diff.Modified, Category: lang.Source},
		{NewPath: "src/b.go", Status: diff.Added, Category: lang.Source},
	}}
	scopes := &syntax.Result{Scopes: []syntax.Scope{
		{File: "a.go", Function: "F", PostLines: []int{3}},
		{File: "a.go", Class: "T", Function: "H", PostLines: []int{1}},
		{File: "src/b.go", PostLines: []int{1}},
	}}
	inputs := map[string]*Input{
		"no EP, change or scopes": {Mapping: m},
		"all inputs":              {EP: doc, Change: change, Scopes: scopes, Mapping: m},
		"empty mapping":           {EP: doc, Change: change, Scopes: scopes, Mapping: &mapping.Mapping{}},
	}
	want := map[string][]string{
		"no EP, change or scopes": {
			"R20:17 file `src/`", "R20:35 file `src/*`", "R20:48 file `b.go, c.go`",
			"R21:82 Global Statistics", "R21:83 Global Statistics",
			"R22:25 section 9.9", "R24:47 section 9.9", "R28:34 scope a.go:F", "R28:42 scope a.go:F",
		},
		"all inputs": {
			"R20:17 file `src/`", "R20:35 file `src/*`", "R20:48 file `b.go, c.go`",
			"R21:82 Global Statistics", "R21:83 Global Statistics",
			"R22:25 section 9.9", "R22:52 section 1", "R23:9 section 9.9", "R24:47 section 9.9",
			"R27:0 scope a.go:T.H", "R28:34 scope a.go:F", "R28:42 scope a.go:F",
		},
		"empty mapping": {"R27:0 scope a.go:F", "R27:0 scope a.go:T.H"},
	}
	for name, in := range inputs {
		rep, err := Run(in, r20r28)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var got []string
		for _, v := range rep.Violations {
			got = append(got, fmt.Sprintf("R%02d:%d %s", v.Rule, v.Line, v.Where))
		}
		if !reflect.DeepEqual(got, want[name]) {
			t.Errorf("%s: violations\n%s\nwant\n%s", name, strings.Join(got, "\n"), strings.Join(want[name], "\n"))
			for _, v := range rep.Violations {
				t.Logf("R%02d:%d %s: %s", v.Rule, v.Line, v.Where, v.Message)
			}
		}
	}
}

// TestR27BodyGap: what member rows leave unnamed of a changed class body,
// and the fix: a member row for each member left, or the class-body row,
// which alone names the lines outside every member (a docstring).
func TestR27BodyGap(t *testing.T) {
	body := &syntax.Scope{File: "m.py", Class: "Raw", PreLines: []int{2}, PostLines: []int{2, 14, 15, 16, 17},
		Members: []syntax.MemberLines{{Name: "license_expression", PostLines: []int{14, 15, 16}}, {Name: "license_files", PostLines: []int{17}}}}
	tests := []struct {
		body     *syntax.Scope
		listed   []string
		gap, fix string
	}{
		{body, []string{"license_expression"}, "member(s) `license_files`, and line(s) 2 and deleted line(s) 2 outside every member (the class's header, a docstring, a statement of its body)",
			"the class-body row | `m.py` | `Raw` | - | names the lines no member row can: add it to block 1"},
		{&syntax.Scope{PostLines: []int{14, 15, 16, 17}, Members: body.Members}, []string{"license_files"}, "member(s) `license_expression`",
			"add | `m.py` | `Raw` | `license_expression` | to block 1, or name the whole body with | `m.py` | `Raw` | - |"},
		{&syntax.Scope{PostLines: []int{14, 15, 16, 17}, Members: body.Members}, []string{"license_files", "license_expression"}, "", ""},
	}
	for _, tt := range tests {
		listed := map[string]bool{}
		for _, n := range tt.listed {
			listed[n] = true
		}
		if got := r27BodyGap(tt.body, listed); got != tt.gap {
			t.Errorf("gap %q\nwant %q", got, tt.gap)
		}
		if tt.gap == "" {
			continue
		}
		if got := r27BodyFix("m.py", "Raw", tt.body, listed, "block 1"); got != tt.fix {
			t.Errorf("fix %q\nwant %q", got, tt.fix)
		}
	}
}
