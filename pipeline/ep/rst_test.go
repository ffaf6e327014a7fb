package ep

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// rstOutlineCases were checked against docutils 0.19 (rst parser with the
// PEP reader's RFC-822 header state), except where a comment says the
// parser deliberately differs.
var rstOutlineCases = []outlineCase{
	{
		name: "underline-only titles, levels by first appearance",
		src:  "Intro\n-----\n\nBody.\n\nNext\n====\n\nMore\n----\n",
		want: []row{{"1", 1, "Intro", 1}, {"1.1", 2, "Next", 6}, {"2", 1, "More", 9}},
	},
	{
		name: "overline+underline is a different style from underline-only",
		src:  "=====\nOver\n=====\n\nUnder\n=====\n\n=====\nAgain\n=====\n",
		want: []row{{"1", 1, "Over", 2}, {"1.1", 2, "Under", 5}, {"2", 1, "Again", 9}},
	},
	{
		name: "docutils level ordering with three styles",
		src:  "A\n#\n\nB\n*\n\nC\n=\n\nD\n*\n\nE\n=\n\nF\n#\n",
		want: []row{
			{"1", 1, "A", 1}, {"1.1", 2, "B", 4}, {"1.1.1", 3, "C", 7},
			{"1.2", 2, "D", 10}, {"1.2.1", 3, "E", 13}, {"2", 1, "F", 16},
		},
	},
	{
		name: "titles may follow each other without blank lines",
		src:  "A\n===\nB\n---\nText\n",
		want: []row{{"1", 1, "A", 1}, {"1.1", 2, "B", 3}},
	},
	{
		name: "short underline: text under 4 chars, leniency from 4",
		src:  "Title\n===\n\nLong title here\n====\n\nAb\n==\n",
		want: []row{{"1", 1, "Long title here", 4}, {"2", 1, "Ab", 7}},
	},
	{
		name: "short overline matching a short title",
		src:  "===\nAbc\n===\n\n===\nLonger\n===\n",
		want: []row{{"1", 1, "Abc", 2}},
	},
	{
		name: "long overline may be shorter than its title",
		src:  "=====\nLonger title\n=====\n",
		want: []row{{"1", 1, "Longer title", 2}},
	},
	{
		name: "overline and underline must match",
		src:  "=====\nA\n-----\n\n=====\nB\n\nC\n=\n",
		want: []row{{"1", 1, "C", 8}},
	},
	{
		name: "inset title under an overline",
		src:  "=========\n  Inset\n=========\n",
		want: []row{{"1", 1, "Inset", 2}},
	},
	{
		name: "titles only at column 0",
		src:  "  Indented\n  ========\n\nPara\n\n    Quote\n    =====\n",
		want: nil,
	},
	{
		name: "a paragraph line followed by an adornment is not a title",
		src:  "Para line\nTitle\n=====\n",
		want: nil,
	},
	{
		name: "literal block after :: with underline-looking lines",
		src:  "Example::\n\n    Not a title\n    ===========\n\n::\n\n  Nor\n  ---\n\nReal\n====\n",
		want: []row{{"1", 1, "Real", 11}},
	},
	{
		name: "quoted literal block",
		src:  "Quote::\n\n> Not\n> ===\n\nReal\n====\n",
		want: []row{{"1", 1, "Real", 6}},
	},
	{
		name: "directives and comments",
		src: ".. code-block:: rst\n\n   Title\n   =====\n\n..\n   Commented\n   =========\n\n" +
			".. A comment\n   ---------\n.. _target:\n\nAfter\n=====\n",
		want: []row{{"1", 1, "After", 14}},
	},
	{
		name: "explicit markup ending without a blank line",
		src:  ".. note:: x\nTitle\n=====\n",
		want: []row{{"1", 1, "Title", 2}},
	},
	{
		name: "transitions are not titles",
		src:  "Para\n\n----------\n\nMore\n\n**********\n",
		want: nil,
	},
	{
		name: "field lists, bullets and line blocks are not titles",
		src:  ":Author: me\n:Status: x\n\n:field: value\n-------------\n\n- item\n\n| line\n\nTitle\n=====\n",
		want: []row{{"1", 1, "Title", 11}},
	},
	{
		name: "enumerated title versus enumerated list",
		src:  "1. Introduction\n===============\n\n1. item\n2. item\n\n(a) Appendix\n------------\n",
		want: []row{{"1", 1, "1. Introduction", 1}, {"1.1", 2, "(a) Appendix", 7}},
	},
	{
		name: "simple and grid tables",
		src: "=====  =====\nA      B\n=====  =====\nx      y\n-----  -----\n=====  =====\n\n" +
			"+-----+\n| a   |\n+=====+\n| b   |\n+-----+\n\nAfter\n=====\n",
		want: []row{{"1", 1, "After", 14}},
	},
	{
		name: "doctest block runs to a blank line, indented lines included",
		src:  ">>> x = 1\n    indented\nNot\n===\n\nY\n=\n",
		want: []row{{"1", 1, "Y", 6}},
	},
	{
		name: "grid table ends at the first line not starting with + or |",
		src:  "+---+\n| a |\n+---+\nTitle\n=====\n",
		want: []row{{"1", 1, "Title", 4}},
	},
	{
		name: "option lists are not titles unless the option has no description",
		src:  "-a  Option a\n---------------\n\n--long\n    Described below\n\n--solo\n======\n",
		want: []row{{"1", 1, "--solo", 7}},
	},
	{
		name: "enumerator validity follows docutils",
		src:  "1. One\n2. Two\n\nIIII. Bad roman\n===============\n\ni. First\nii. Second\n\na) Alpha\nb) Beta\n---------\n",
		want: []row{{"1", 1, "IIII. Bad roman", 4}, {"1.1", 2, "b) Beta", 11}},
	},
	{
		// docutils 0.19 keeps the footnote label ("1") and knows neither
		// Sphinx's :func: nor the <target> form of :pep:; the title here
		// is what a reader of the rendered PEP sees.
		name: "inline markup stripped from titles",
		src: "``code`` and *emph* **strong** `link <http://x>`_ :pep:`PEP 8 <8>` :func:`f` `t`:r: ref_ `phrase`__ \\*star\\* [1]_ x\n" +
			"===================================================================================================================\n",
		want: []row{{"1", 1, "code and emph strong link PEP 8 f t ref phrase *star* x", 1}},
	},
	{
		name: "markup characters that are not markup stay",
		src:  "A * b, 2*3, __init__ and snake_case\n========================================\n",
		want: []row{{"1", 1, "A * b, 2*3, __init__ and snake_case", 1}},
	},
	{
		name: "PEP header block becomes metadata",
		src: "PEP: 12\nTitle: Sample reStructuredText PEP Template\nAuthor: A <a@example.org>,\n" +
			"        B <b@example.org>\nStatus: Active\n\nAbstract\n========\n",
		want: []row{{"1", 1, "Abstract", 7}},
		meta: map[string]string{
			"PEP":    "12",
			"Title":  "Sample reStructuredText PEP Template",
			"Author": "A <a@example.org>, B <b@example.org>",
			"Status": "Active",
		},
	},
	{
		// docutils' PEP reader would take this line as a header field; a
		// generic RST document (and docutils' standard reader) has a title.
		name: "an underlined Key: value line is a title, not a header",
		src:  "Note: this\n==========\n",
		want: []row{{"1", 1, "Note: this", 1}},
	},
	{
		name: "Key: value starting a paragraph is not a header",
		src:  "Note: this is\nan ordinary paragraph.\n\nTitle\n=====\n",
		want: []row{{"1", 1, "Title", 4}},
	},
	{
		// docutils rejects D ("Inconsistent title style: skip from level 1
		// to 3"); the parser keeps it one level below its parent.
		name: "jump to a deeper known style is clamped, and the style keeps its new level",
		src:  "A\n=\n\nB\n-\n\nC\n~\n\nD\n=\n\nE\n~\n\nF\n~\n",
		want: []row{{"1", 1, "A", 1}, {"1.1", 2, "B", 4}, {"1.1.1", 3, "C", 7}, {"2", 1, "D", 10}, {"2.1", 2, "E", 13}, {"2.2", 2, "F", 16}},
	},
	{
		// docutils rejects the new style ^ below level 1 while three styles
		// exist; the parser gives it level 2 and keeps it there.
		name: "new style while not at the deepest level is clamped",
		src:  "A\n=\n\nB\n-\n\nC\n~\n\nD\n=\n\nE\n^\n\nF\n^\n",
		want: []row{
			{"1", 1, "A", 1}, {"1.1", 2, "B", 4}, {"1.1.1", 3, "C", 7},
			{"2", 1, "D", 10}, {"2.1", 2, "E", 13}, {"2.2", 2, "F", 16},
		},
	},
	{
		name: "crlf, form feeds, tabs and a byte order mark",
		src:  "\ufeffTitle\r\n=====\r\n\f\r\n\tindented\r\n\tâââ\r\nSub\t\r\n---\r\n",
		want: []row{{"1", 1, "Title", 1}, {"1.1", 2, "Sub", 6}},
	},
	{
		name: "east asian wide title needs a double-width underline",
		src:  "日本語\n======\n\nabc\n===\n\n日本語\n===\n",
		want: []row{{"1", 1, "日本語", 1}, {"2", 1, "abc", 4}},
	},
}

func TestRSTOutline(t *testing.T) {
	runOutlineCases(t, RST, rstOutlineCases)
}

func TestRSTRanges(t *testing.T) {
	src := "PEP: 1\n\n=======\nPart A\n=======\n\nIntro.\n\nSub\n---\n\nsub text\n\n=======\nPart B\n=======\nend\n"
	d, err := Parse([]byte(src), RST)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		id                    string
		heading, own, subtree string
		headingRange          Range
	}{
		{"1", "=======\nPart A\n=======\n", "\nIntro.\n\n", "\nIntro.\n\nSub\n---\n\nsub text\n\n", Range{8, 31}},
		{"1.1", "Sub\n---\n", "\nsub text\n\n", "\nsub text\n\n", Range{40, 48}},
		{"2", "=======\nPart B\n=======\n", "end\n", "end\n", Range{59, 82}},
		{"1.1.1", "", "", "", Range{}},
	}
	for _, tc := range tests {
		s := d.Section(tc.id)
		if tc.heading == "" {
			if s != nil {
				t.Errorf("Section(%q) = %+v, want nil", tc.id, s)
			}
			continue
		}
		if s == nil {
			t.Fatalf("no section %s in%s", tc.id, fmtRows(rows(d)))
		}
		if s.Heading != tc.headingRange {
			t.Errorf("%s: Heading = %+v, want %+v", tc.id, s.Heading, tc.headingRange)
		}
		if got := d.Text(s.Heading); got != tc.heading {
			t.Errorf("%s: heading text %q, want %q", tc.id, got, tc.heading)
		}
		if got := d.Text(s.Own); got != tc.own {
			t.Errorf("%s: own text %q, want %q", tc.id, got, tc.own)
		}
		if got := d.Text(s.Subtree); got != tc.subtree {
			t.Errorf("%s: subtree text %q, want %q", tc.id, got, tc.subtree)
		}
	}
	if got := fmtRows(rows(d)); got != fmtRows([]row{{"1", 1, "Part A", 4}, {"1.1", 2, "Sub", 9}, {"2", 1, "Part B", 15}}) {
		t.Errorf("outline:%s", got)
	}
}

// TestRSTClampedStyleSiblings: DEP 192 first uses "~" at level 4 (under a
// "`" title), then twice directly under a level-2 "=" title, a skip
// docutils rejects. Both are clamped to level 3 and stay siblings (issue
// 33 §4).
func TestRSTClampedStyleSiblings(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "dep-0192-headings.rst"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := Parse(src, RST)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range d.Sections {
		got = append(got, fmt.Sprintf("%s %d %s", s.ID, s.Level, s.Title))
	}
	want := []string{
		"1 1 DEP 192: Standalone Composite Fields",
		"1.1 2 Abstract",
		"1.2 2 Specification",
		"1.2.1 3 default",
		"1.2.2 3 unique and db_index",
		"1.2.2.1 4 Subfield arguments",
		"1.3 2 Managed Subfields",
		"1.3.1 3 ObservableMixin",
		"1.3.2 3 ObservableTuple",
		"1.4 2 Motivation",
	}
	if !slices.Equal(got, want) {
		t.Errorf("outline\n got %q\nwant %q", got, want)
	}
	checkInvariants(t, d)
}
