package ep

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// renderedCase is a page in testdata with its exact outline and metadata.
type renderedCase struct {
	file    string
	format  Format
	profile Profile
	want    []row
	meta    map[string]string
	// noGolden skips the comparison with testdata/<file>.md, the
	// rendering with the page's own profile.
	noGolden bool
}

func runRenderedCases(t *testing.T, cases []renderedCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			d, err := parseWith(src, tc.format, tc.profile)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if fmtRows(rows(d)) != fmtRows(tc.want) {
				t.Errorf("outline:\ngot:%s\nwant:%s", fmtRows(rows(d)), fmtRows(tc.want))
			}
			if !maps.Equal(d.Metadata, tc.meta) {
				t.Errorf("metadata:\ngot  %v\nwant %v", d.Metadata, tc.meta)
			}
			checkInvariants(t, d)
			// The candidate's ep.md is the rendering: as Markdown it has
			// the same sections.
			md, err := Parse(d.Source, Markdown)
			if err != nil {
				t.Fatalf("the rendering as Markdown: %v", err)
			}
			if fmtRows(rows(md)) != fmtRows(rows(d)) {
				t.Errorf("the rendering as Markdown:%s\nwant:%s", fmtRows(rows(md)), fmtRows(rows(d)))
			}
			if tc.noGolden {
				return
			}
			want, err := os.ReadFile(filepath.Join("testdata", tc.file+".md"))
			if err != nil {
				t.Fatal(err)
			}
			if string(d.Source) != string(want) {
				t.Errorf("rendering differs from testdata/%s.md:\n%s", tc.file, d.Source)
			}
		})
	}
}

func TestHTMLPages(t *testing.T) {
	runRenderedCases(t, []renderedCase{
		{
			file: "jep-9001.html", format: HTML,
			want: []row{
				{"1", 1, "JEP 9001: Scoped Widget Pools", 1},
				{"1.1", 2, "Summary", 16},
				{"1.2", 2, "Goals", 20},
				{"1.3", 2, "Non-Goals", 25},
				{"1.4", 2, "Description", 29},
				{"1.4.1", 3, "Sizing", 40},
				{"1.4.2", 3, "Failure handling", 44},
				{"1.5", 2, "Alternatives", 49},
				{"1.6", 2, "Testing", 55},
			},
			meta: map[string]string{
				"Number": "9001", "Title": "Scoped Widget Pools",
				"Owner": "Ada Lovelace", "Type": "Feature", "Scope": "SE", "Status": "Closed / Delivered",
				"Release": "99", "Component": "core-libs / java.util", "Discussion": "widget dash dev",
				"Effort": "M", "Created": "2024/01/15 10:30", "Updated": "2024/09/02 08:05", "Issue": "8399001",
			},
		},
		{
			// A Confluence page saved from the browser: banner, navigation,
			// breadcrumbs, the table-of-contents macro, labels and comments
			// are dropped; the status lozenge, JIRA and code macros, the
			// note macro and the table are kept.
			file: "kip-9100.html", format: HTML,
			want: []row{
				{"1", 1, "KIP-9100: Tiered Offsets for Compacted Topics", 1},
				{"1.1", 2, "Status", 3},
				{"1.2", 2, "Motivation", 13},
				{"1.3", 2, "Public Interfaces", 19},
				{"1.3.1", 3, "Configuration", 21},
				{"1.3.2", 3, "Protocol", 28},
				{"1.4", 2, "Proposed Changes", 40},
				{"1.5", 2, "Compatibility, Deprecation, and Migration Plan", 49},
				{"1.6", 2, "Rejected Alternatives", 53},
			},
			meta: map[string]string{
				"Number": "9100", "Title": "Tiered Offsets for Compacted Topics",
				"Author": "Grace Hopper", "Last modified by": "Alan Turing", "Last modified": "Mar 04, 2025",
				"Current state":     "Accepted",
				"Discussion thread": "https://lists.example.org/thread/abc123",
				"JIRA":              "https://issues.example.org/jira/browse/KAFKA-99100",
			},
		},
		{
			// A Confluence space export: "Space : Title", the page
			// metadata of a page never modified (so its date is the
			// creation), a FLIP's table of threads before any heading.
			file: "flip-9200-export.html", format: HTML,
			want: []row{
				{"1", 1, "FLIP-9200: Adaptive Watermark Alignment", 1},
				{"1.1", 2, "Motivation", 9},
				{"1.2", 2, "Public Interfaces", 13},
				{"1.2.1", 3, "Options", 22},
				{"1.3", 2, "Proposed Changes", 28},
				{"1.4", 2, "Test Plan", 32},
			},
			meta: map[string]string{
				"Number": "9200", "Title": "Adaptive Watermark Alignment", "Author": "Barbara Liskov", "Created": "Jun 12, 2023",
				"Discussion thread": "https://lists.example.org/thread/flip9200",
				"Vote thread":       "https://lists.example.org/thread/flip9200-vote",
				"JIRA":              "https://issues.example.org/jira/browse/FLINK-99200",
				"Release":           "2.1",
			},
		},
		{
			// The generic profile on the same page renders the body as it
			// is, furniture dropped: the export's title heading and the
			// sections at their own levels, beside it, not under it.
			file: "flip-9200-export.html", format: HTML, profile: ProfileGeneric, noGolden: true,
			want: []row{
				{"1", 1, "Apache Flink : FLIP-9200: Adaptive Watermark Alignment", 1},
				{"2", 1, "Motivation", 9},
				{"3", 1, "Public Interfaces", 13},
				{"3.1", 2, "Options", 22},
				{"4", 1, "Proposed Changes", 28},
				{"5", 1, "Test Plan", 32},
			},
			meta: map[string]string{"Title": "Apache Flink : FLIP-9200: Adaptive Watermark Alignment"},
		},
	})
}

func TestDokuWikiPage(t *testing.T) {
	runRenderedCases(t, []renderedCase{{
		file: "php-rfc-sealed-enums.dokuwiki", format: DokuWiki,
		want: []row{
			{"1", 1, "PHP RFC: Sealed Enum Cases", 1},
			{"1.1", 2, "Introduction", 11},
			{"1.2", 2, "Proposal", 16},
			{"1.2.1", 3, "Semantics", 26},
			{"1.3", 2, "Backward Incompatible Changes", 47},
			{"1.4", 2, "Vote", 57},
		},
		meta: map[string]string{
			"Title": "Sealed Enum Cases", "Version": "0.3", "Date": "2024-02-19",
			"Author": "Edsger Dijkstra, dijkstra@example.org", "Status": "Implemented", "Target Version": "PHP 8.9",
			"Implementation":     "https://github.com/example/php-src/pull/99001",
			"First Published at": "http://wiki.example.org/rfc/sealed_enum_cases",
		},
	}})
}

// TestRenderedEscapes: text that Markdown would read as structure stays
// text in the rendering, and headings come only from heading elements.
func TestRenderedEscapes(t *testing.T) {
	tests := []struct {
		name   string
		format Format
		src    string
		want   []row
		source string
	}{
		{"markup characters in text", HTML,
			"<h1>A # b *c* _d_</h1><p># not a heading<br>===<br>- no list<br>1. no list<br>&gt; no quote<br>```<br>&lt;div&gt;<br>[x]: /y<br>snake_case a*b ~~s~~ a|b &amp;amp; \\</p><h2>C#</h2>",
			[]row{{"1", 1, "A # b *c* _d_", 1}, {"1.1", 2, "C#", 13}},
			"# A \\# b \\*c\\* \\_d\\_\n\n\\# not a heading\n\\===\n\\- no list\n1\\. no list\n\\> no quote\n\\`\\`\\`\n\\<div>\n\\[x\\]: /y\nsnake_case a\\*b \\~\\~s\\~\\~ a\\|b \\&amp; \\\\\n\n## C\\#\n"},
		{"setext underline after a line break", HTML,
			"<p>Title<br>---</p><p>x<br>=</p>",
			[]row{},
			"Title\n\\---\n\nx\n\\=\n"},
		{"front matter look-alike", HTML,
			"<p>---<br>title: x<br>---</p><h1>H</h1>",
			[]row{{"1", 1, "H", 5}},
			"\\---\ntitle: x\n\\---\n\n# H\n"},
		{"a heading in a list or a quote is not a section", HTML,
			"<ul><li><h2>In a list</h2></li></ul><blockquote><h2>Quoted</h2></blockquote><h2>Real</h2>",
			[]row{{"1", 1, "Real", 5}},
			"- In a list\n\n> Quoted\n\n## Real\n"},
		{"code with backtick fences and headings inside", HTML,
			"<pre>```\n# x\n````</pre><h3>After</h3>",
			[]row{{"1", 1, "After", 7}},
			"`````\n```\n# x\n````\n`````\n\n### After\n"},
		{"empty headings are skipped", HTML,
			"<h1> </h1><h2><img src=x></h2><h2><img src=x alt=Logo></h2>",
			[]row{{"1", 1, "Logo", 1}},
			"## Logo\n"},
		{"links, emphasis and code", HTML,
			"<p><a href=\"https://e.org/a b(c)\">link</a> <a href=\"javascript:alert(1)\">js</a> <em> spaced </em> x<b>(y)</b>z <code>a`b</code></p>",
			[]row{},
			"[link](https://e.org/a%20b%28c%29) js *spaced* x(y)z ``a`b``\n"},
		{"lists nested past the cap stay at the cap", HTML,
			strings.Repeat("<ul><li>", 12) + "deep" + strings.Repeat("</li></ul>", 12),
			[]row{},
			"- - - - - - - - deep\n"},
		{"dokuwiki heading levels and unclosed markup", DokuWiki,
			"======= Seven =======\n== Two ==\n**open //never closed\n",
			[]row{{"1", 1, "Seven", 1}, {"1.1", 2, "Two", 3}},
			"# Seven\n\n##### Two\n\n\\*\\*open //never closed\n"},
		{"dokuwiki code block closed later on a line with text", DokuWiki,
			"Text <code>\n===== in code =====\n</code> after\n===== H =====\n",
			[]row{{"1", 1, "H", 9}},
			"Text\n\n```\n===== in code =====\n```\n\nafter\n\n## H\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse([]byte(tt.src), tt.format)
			if err != nil {
				t.Fatal(err)
			}
			if fmtRows(rows(d)) != fmtRows(tt.want) {
				t.Errorf("outline:\ngot:%s\nwant:%s", fmtRows(rows(d)), fmtRows(tt.want))
			}
			if string(d.Source) != tt.source {
				t.Errorf("rendering:\n%q\nwant:\n%q", d.Source, tt.source)
			}
			checkInvariants(t, d)
		})
	}
}

func TestParseProfile(t *testing.T) {
	for in, want := range map[string]Profile{"": ProfileAuto, "auto": ProfileAuto, "jep": ProfileJEP, "confluence": ProfileConfluence, "generic": ProfileGeneric} {
		if got, err := ParseProfile(in); err != nil || got != want {
			t.Errorf("ParseProfile(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseProfile("wiki"); err == nil || err.Error() != `unknown HTML profile "wiki" (want jep, confluence, generic or auto)` {
		t.Errorf("ParseProfile(wiki) = %v", err)
	}
}

// The outlines of a DEP and a SLEP (a field list under the title, which
// is not a PEP header: no Metadata) and of a gRFC (bullets under a setext
// title), shaped like the real files.
func TestProposalFamilyOutlines(t *testing.T) {
	runOutlineCases(t, RST, []outlineCase{
		{
			name: "DEP: overlined title, field list, contents directive",
			src: "=============================\nDEP 0014: Background workers\n=============================\n\n:DEP: 0014\n:Author: A. Author\n:Status: Accepted\n:Created: 2024-02-07\n\n" +
				".. contents:: Table of Contents\n   :depth: 3\n   :local:\n\nAbstract\n========\n\nText.\n\nSpecification\n=============\n\nBackends\n--------\n\nText.\n",
			// An overlined title is its own style: the sections below it
			// are its children, as docutils nests them.
			want: []row{{"1", 1, "DEP 0014: Background workers", 2}, {"1.1", 2, "Abstract", 14}, {"1.2", 2, "Specification", 19}, {"1.2.1", 3, "Backends", 22}},
		},
		{
			name: "SLEP: a label, overlined title, continued field, # underlines",
			src: ".. _slep_006:\n\n=================\nSLEP006: Routing\n=================\n\n:Author: A. Author,\n         B. Author\n:Status: Accepted\n:Created: 2019-03-07\n\n" +
				"Abstract\n########\n\nText.\n\nDetailed description\n####################\n\nText.\n",
			want: []row{{"1", 1, "SLEP006: Routing", 4}, {"1.1", 2, "Abstract", 12}, {"1.2", 2, "Detailed description", 17}},
		},
	})
	runOutlineCases(t, Markdown, []outlineCase{
		{
			name: "gRFC: setext title, bullets, ATX sections",
			src:  "A27: xDS-Based Global Load Balancing\n----\n* Author(s): A. Author\n* Approver: b\n* Status: Implemented\n* Last updated: 2021-01-20\n\n## Abstract\n\nText.\n\n## Background\n\n### Related Proposals:\n\n* A1\n",
			// "----" makes the title a level-2 heading, as "##" are the
			// sections: they are its siblings.
			want: []row{{"1", 1, "A27: xDS-Based Global Load Balancing", 1}, {"2", 1, "Abstract", 8}, {"3", 1, "Background", 12}, {"3.1", 2, "Related Proposals:", 14}},
		},
	})
}
