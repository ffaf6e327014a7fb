package ep

import (
	"fmt"
	"maps"
	"strings"
	"testing"
)

// row is the part of a Section that the outline tables assert.
type row struct {
	ID    string
	Level int
	Title string
	Line  int
}

func rows(d *Document) []row {
	out := []row{}
	for _, s := range d.Sections {
		out = append(out, row{s.ID, s.Level, s.Title, s.Line})
	}
	return out
}

func fmtRows(rs []row) string {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "\n\t%s L%d %q line %d", r.ID, r.Level, r.Title, r.Line)
	}
	return b.String()
}

type outlineCase struct {
	name string
	src  string
	want []row
	meta map[string]string // nil means "expect no metadata"
}

func runOutlineCases(t *testing.T, format Format, cases []outlineCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Parse([]byte(tc.src), format)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			got := rows(d)
			want := tc.want
			if want == nil {
				want = []row{}
			}
			if fmtRows(got) != fmtRows(want) {
				t.Errorf("outline:\ngot:%s\nwant:%s", fmtRows(got), fmtRows(want))
			}
			wantMeta := tc.meta
			if wantMeta == nil {
				wantMeta = map[string]string{}
			}
			if !maps.Equal(d.Metadata, wantMeta) {
				t.Errorf("metadata = %v, want %v", d.Metadata, wantMeta)
			}
			checkInvariants(t, d)
		})
	}
}

func TestMarkdownOutline(t *testing.T) {
	runOutlineCases(t, Markdown, []outlineCase{
		{
			name: "atx with closing hashes",
			src:  "# Title #\n\n## Sub ##\n\nText ## not a heading\n",
			want: []row{{"1", 1, "Title", 1}, {"1.1", 2, "Sub", 3}},
		},
		{
			name: "atx closing sequence needs a space; escaped hash kept",
			src:  "# C#\n# A \\# b\n",
			want: []row{{"1", 1, "C#", 1}, {"2", 1, "A # b", 2}},
		},
		{
			name: "setext === and ---",
			src:  "Title\n=====\n\nSub\n---\n\nText\n",
			want: []row{{"1", 1, "Title", 1}, {"1.1", 2, "Sub", 4}},
		},
		{
			name: "setext over a multi-line paragraph",
			src:  "Line one\nline two\n===\n",
			want: []row{{"1", 1, "Line one line two", 1}},
		},
		{
			name: "--- after a blank line is a thematic break",
			src:  "Para\n\n---\n\n# Next\n",
			want: []row{{"1", 1, "Next", 5}},
		},
		{
			name: "inline markup removed, code text kept, entities decoded",
			src:  "# The `--flag` *option*, [a link](http://x) **bold** &amp; ~~gone~~ <span>x</span> Caf&eacute; &#35;1\n",
			want: []row{{"1", 1, "The --flag option, a link bold & gone x Café #1", 1}},
		},
		{
			name: "image alt text and autolink",
			src:  "## ![logo](l.png) see <https://example.com>\n",
			want: []row{{"1", 1, "logo see https://example.com", 1}},
		},
		{
			name: "fenced code holds no headings",
			src:  "```md\n# not\nNot\n===\n```\n~~~\n## not\n~~~\n# yes\n",
			want: []row{{"1", 1, "yes", 9}},
		},
		{
			name: "indented code holds no headings",
			src:  "Para\n\n    # not\n    ## not\n\n# yes\n",
			want: []row{{"1", 1, "yes", 6}},
		},
		{
			name: "html comment holds no headings",
			src:  "<!--\n# not\n## not\n-->\n<!-- inline\n# no -->\n# yes\n",
			want: []row{{"1", 1, "yes", 7}},
		},
		{
			name: "html block and raw h2 are not headings",
			src:  "<details>\n# not\n</details>\n\n<h2>Raw</h2>\n\n## yes\n",
			want: []row{{"1", 1, "yes", 7}},
		},
		{
			name: "headings in block quotes and list items do not count",
			src:  "> # quoted\n\n- # item\n\n1. Item\n   ===\n\n# real\n",
			want: []row{{"1", 1, "real", 8}},
		},
		{
			name: "front matter stripped, scalar keys kept",
			src:  "---\ntitle: KEP-1\nnumber: 42\nalpha: true\nowners:\n  - a\nlast-key: value\n---\n# Real\n",
			want: []row{{"1", 1, "Real", 9}},
			meta: map[string]string{"title": "KEP-1", "number": "42", "alpha": "true", "last-key": "value"},
		},
		{
			name: "front matter key line does not become a setext heading",
			src:  "---\ntitle: x\nkey: y\n---\nBody\n",
			want: nil,
			meta: map[string]string{"title": "x", "key": "y"},
		},
		{
			name: "leading thematic break is not front matter",
			src:  "---\n\n# Title\n\n---\n",
			want: []row{{"1", 1, "Title", 3}},
		},
		{
			name: "front matter without closing delimiter",
			src:  "---\ntitle: x\n# Title\n",
			want: []row{{"1", 1, "Title", 3}},
		},
		{
			name: "levels are tree depths, not hash counts",
			src:  "## A\n# B\n### C\n## D\n#### E\n# F\n",
			want: []row{
				{"1", 1, "A", 1}, {"2", 1, "B", 2}, {"2.1", 2, "C", 3},
				{"2.2", 2, "D", 4}, {"2.2.1", 3, "E", 5}, {"3", 1, "F", 6},
			},
		},
		{
			name: "empty atx heading",
			src:  "#\n##   ##\n",
			want: []row{{"1", 1, "", 1}, {"1.1", 2, "", 2}},
		},
		{
			name: "crlf line endings and a byte order mark",
			src:  "\ufeff# A\r\n\r\nB\r\n---\r\n",
			want: []row{{"1", 1, "A", 1}, {"1.1", 2, "B", 3}},
		},
		{
			name: "a lone CR is not a line break",
			src:  "# A\rB\n",
			want: []row{{"1", 1, "A B", 1}},
		},
		{
			name: "table then setext heading",
			src:  "| a | b |\n|---|---|\n| 1 | 2 |\n\nT\n---\n",
			want: []row{{"1", 1, "T", 5}},
		},
	})
}

func TestMarkdownRanges(t *testing.T) {
	src := "---\nk: v\n---\n# A\na text\n\nSetext B\n--------\nb text\n### C\nc text\n# D\nd\n"
	d, err := Parse([]byte(src), Markdown)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		id                   string
		heading, own, subtre string
		headingRange         Range
	}{
		{"1", "# A\n", "a text\n\n", "a text\n\nSetext B\n--------\nb text\n### C\nc text\n", Range{13, 17}},
		{"1.1", "Setext B\n--------\n", "b text\n", "b text\n### C\nc text\n", Range{25, 43}},
		{"1.1.1", "### C\n", "c text\n", "c text\n", Range{50, 56}},
		{"2", "# D\n", "d\n", "d\n", Range{63, 67}},
	}
	for _, tc := range tests {
		s := d.Section(tc.id)
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
		if got := d.Text(s.Subtree); got != tc.subtre {
			t.Errorf("%s: subtree text %q, want %q", tc.id, got, tc.subtre)
		}
	}
	if d.Section("1.1").Parent != d.Section("1") || len(d.Section("1").Children) != 1 {
		t.Errorf("tree links wrong")
	}
}

// TestNesting: the container count the EP reader and the mapping parser share.
func TestNesting(t *testing.T) {
	tests := map[string]int{
		"":                 0,
		"   ":              0,
		"> > x":            2,
		">>>":              3,
		"- > 1. x":         3,
		"-----":            0,
		"* * *":            3, // a thematic break, but the count is only a bound
		"12) x":            1,
		"1234567890. x":    0,
		"2.1 is a section": 0,
		"| 1 | x |":        0,
		"-\r":              1, // a CRLF line: the mapping parser once read 0
	}
	for line, want := range tests {
		if got := Nesting([]byte(line)); got != want {
			t.Errorf("Nesting(%q) = %d, want %d", line, got, want)
		}
	}
}
