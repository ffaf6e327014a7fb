package ep

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// checkInvariants asserts what every consumer of a Document relies on:
// ranges inside the source and well nested, headings in order on whole
// lines, number paths consistent with levels and parents.
func checkInvariants(t *testing.T, d *Document) {
	t.Helper()
	n := len(d.Source)
	if d.Metadata == nil {
		t.Errorf("Metadata is nil")
	}
	top := 0
	for i, s := range d.Sections {
		h := s.Heading
		if h.Start < 0 || h.Start > h.End || h.End > n {
			t.Fatalf("%s: heading %+v outside [0,%d]", s.ID, h, n)
		}
		if h.Start > 0 && d.Source[h.Start-1] != '\n' {
			t.Errorf("%s: heading %+v does not start a line", s.ID, h)
		}
		if h.End < n && d.Source[h.End-1] != '\n' {
			t.Errorf("%s: heading %+v does not end a line", s.ID, h)
		}
		if s.Own.Start != h.End || s.Subtree.Start != h.End {
			t.Errorf("%s: own %+v / subtree %+v do not start at heading end %d", s.ID, s.Own, s.Subtree, h.End)
		}
		if s.Own.End < s.Own.Start || s.Subtree.End < s.Own.End || s.Subtree.End > n {
			t.Fatalf("%s: own %+v not within subtree %+v within [0,%d]", s.ID, s.Own, s.Subtree, n)
		}
		wantOwnEnd := n
		if i+1 < len(d.Sections) {
			wantOwnEnd = d.Sections[i+1].Heading.Start
		}
		if s.Own.End != wantOwnEnd {
			t.Errorf("%s: own ends at %d, want %d (next heading)", s.ID, s.Own.End, wantOwnEnd)
		}
		if first, last := d.LineAt(h.Start), d.LineAt(max(h.End-1, h.Start)); s.Line < first || s.Line > last {
			t.Errorf("%s: line %d outside heading lines %d-%d", s.ID, s.Line, first, last)
		}
		if !utf8.ValidString(s.Title) || strings.IndexFunc(s.Title, unicode.IsControl) >= 0 {
			t.Errorf("%s: title %q has control characters or bad UTF-8", s.ID, s.Title)
		}
		if s.Title != strings.TrimSpace(s.Title) {
			t.Errorf("%s: title %q not trimmed", s.ID, s.Title)
		}
		if got := strings.Count(s.ID, ".") + 1; got != s.Level {
			t.Errorf("%s: id has %d parts, level %d", s.ID, got, s.Level)
		}
		if d.Section(s.ID) != s {
			t.Errorf("%s: Section(id) does not return the section", s.ID)
		}
		if s.Parent == nil {
			top++
			if s.Level != 1 || s.ID != strconv.Itoa(top) {
				t.Errorf("%s: top-level section has level %d, want id %d", s.ID, s.Level, top)
			}
			continue
		}
		p := s.Parent
		idx := -1
		for k, c := range p.Children {
			if c == s {
				idx = k
			}
		}
		if idx < 0 || s.ID != p.ID+"."+strconv.Itoa(idx+1) || s.Level != p.Level+1 {
			t.Errorf("%s: inconsistent with parent %s (level %d, child %d)", s.ID, p.ID, p.Level, idx+1)
		}
		if !p.Subtree.Contains(s.Subtree) || !p.Subtree.Contains(s.Heading) {
			t.Errorf("%s: subtree %+v not within parent %s subtree %+v", s.ID, s.Subtree, p.ID, p.Subtree)
		}
	}
}

// refusals are the only reasons Parse may refuse valid UTF-8 (see
// TestHostileRefused); each is one line.
var refusals = []string{
	"NUL byte", "nested block quotes or list items", "link reference definitions",
	"too deeply to parse", "headings; an EP", "front matter", "EP parse deadline",
	"open stack of elements exceeds 512 nodes", "the Markdown rendering is larger",
}

func fuzzParse(t *testing.T, src []byte, format Format) {
	if d := parseOrRefuse(t, src, format); d != nil {
		checkInvariants(t, d)
	}
}

// parseOrRefuse parses src, or returns nil when Parse refused it as it
// may: invalid UTF-8, or one of the refusals in one line.
func parseOrRefuse(t *testing.T, src []byte, format Format) *Document {
	t.Helper()
	d, err := Parse(src, format)
	if !utf8.Valid(src) {
		if err == nil {
			t.Fatalf("invalid UTF-8 accepted")
		}
		return nil
	}
	if err != nil {
		if strings.Contains(err.Error(), "\n") || !slices.ContainsFunc(refusals, func(r string) bool { return strings.Contains(err.Error(), r) }) {
			t.Fatalf("Parse: %q", err)
		}
		return nil
	}
	return d
}

// pathological are the shapes that once took minutes or gigabytes
// (issue 14), kept small enough for the fuzzer to mutate.
var pathological = []string{
	strings.Repeat("[a](", 20000),
	strings.Repeat(">", 20000),
	strings.Repeat("> ", 10000),
	strings.Repeat("- ", 10000) + "x",
	strings.Repeat("1. ", 5000) + "x",
	strings.Repeat("[", 20000),
	strings.Repeat("*a _b ", 5000),
	strings.Repeat("`a ``b ", 5000),
	strings.Repeat("<a ", 5000),
	strings.Repeat("[a]: /u\n", 5000),
	"---\nk:\n" + strings.Repeat(" ", 1) + strings.Repeat("[", 5000) + "\n---\n# A\n",
	"---\n" + nestYAML(100) + "---\n# A\n",
	"---\na: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\n---\n# A\n",
	"# " + strings.Repeat("[a](", 5000) + "\n",
	func() string {
		var b strings.Builder
		for i := range 300 {
			b.WriteString(strings.Repeat(" ", 2*i) + "- x\n")
		}
		return b.String()
	}(),
	strings.Repeat("#\n", 200),
	"# A\x00\n",
	"\ufeff---\ntitle: x\n---\n# A\n",
}

func FuzzParseMarkdown(f *testing.F) {
	for _, s := range []string{
		"# A\n## B\ntext\n",
		"Title\n=====\n\nSub\n---\n",
		"---\ntitle: x\n---\n# A\n",
		"```\n# no\n```\n<!--\n# no\n-->\n",
		"> # q\n- # l\n    # code\n",
		"# `code` *em* [l](u) &amp;\n",
		"\ufeff# bom\r\n",
		"#\n##\n###### six\n####### seven\n",
	} {
		f.Add([]byte(s))
	}
	for _, s := range pathological {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { fuzzParse(t, src, Markdown) })
}

func FuzzParseRST(f *testing.F) {
	for _, s := range []string{
		"PEP: 1\nTitle: T\n\nA\n=\n\nB\n-\n",
		"=====\nOver\n=====\n\nUnder\n=====\n",
		"Ex::\n\n    X\n    =\n\nY\n=\n",
		".. note::\n\n   N\n   =\n\n..\n  c\n",
		"----\n\n:f: v\n\n- b\n\n1. e\n===\n",
		"=== ===\na   b\n=== ===\n\n+--+\n|a |\n+--+\n",
		"``c`` *e* `t <u>`_ :r:`x` y_ [1]_\n==================================\n",
		"A\n=\nB\n-\nC\n~\nD\n=\nE\n~\n",
		"Title\n===\n  Inset\n\f\n",
		"-a  opt\n----\n--solo\n======\n>>> x\n    y\nNot\n===\n",
		"+--+\n|a |\n+--+\nT\n=\n\nIIII. r\n=======\na) x\nb) y\n----\n",
		"*a `b :r:`c |d [e _`f \\*g h__\n=====\n",
		strings.Repeat("*a `b :r:`c ", 2000) + "\n=====\n",
		strings.Repeat("+--+\n", 2000),
		strings.Repeat("=== ===\n", 2000),
		strings.Repeat("T\n=\n\n", 200),
		"A\n=\n\x00\n",
	} {
		f.Add([]byte(s))
	}
	for _, s := range pathological {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { fuzzParse(t, src, RST) })
}

// fuzzRendered checks an HTML or DokuWiki parse: the Document's
// invariants; its sections are exactly the headings the renderer wrote,
// so that no text of the page turned into a heading and no heading was
// lost; and the rendering read as Markdown (the candidate's ep.md) gives
// the same sections.
func fuzzRendered(t *testing.T, src []byte, format Format) {
	d := parseOrRefuse(t, src, format)
	if d == nil {
		return
	}
	checkInvariants(t, d)
	var w *mdWriter
	var err error
	if format == HTML {
		w, _, err = renderHTML(src, ProfileAuto)
	} else {
		w, _, err = renderDokuWiki(src)
	}
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	if len(w.headings) != len(d.Sections) {
		t.Fatalf("%d headings written, %d sections read:\n%s", len(w.headings), len(d.Sections), d.Source)
	}
	var ranks []int
	for i, h := range w.headings {
		for len(ranks) > 0 && ranks[len(ranks)-1] >= h.level {
			ranks = ranks[:len(ranks)-1]
		}
		ranks = append(ranks, h.level)
		if s := d.Sections[i]; s.Title != h.title || s.Level != len(ranks) {
			t.Fatalf("section %s: level %d %q, written level %d %q:\n%s", s.ID, s.Level, s.Title, len(ranks), h.title, d.Source)
		}
	}
	md, err := Parse(d.Source, Markdown)
	if err != nil {
		t.Fatalf("the rendering as Markdown: %v", err)
	}
	if fmtRows(rows(md)) != fmtRows(rows(d)) {
		t.Fatalf("the rendering as Markdown:%s\nwant:%s", fmtRows(rows(md)), fmtRows(rows(d)))
	}
}

// seedFiles adds the testdata pages with an extension to a corpus.
func seedFiles(f *testing.F, ext string) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*"+ext))
	for _, p := range paths {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
}

func FuzzParseHTML(f *testing.F) {
	seedFiles(f, ".html")
	for _, s := range []string{
		"<h1>A</h1><h3>B</h3><h2>C</h2>",
		"<h1>A # b *c* _d_ `e`</h1><p># x<br>===<br>- y<br>1. z<br>&gt; q<br>```</p>",
		"<ul><li><h2>x</h2><ol start=9><li>a<pre>b\n# c</pre></li></ol></li></ul>",
		"<table><tr><th>a|b</th><td><code>c|d</code></td></tr></table>",
		"<blockquote><blockquote><p>x<br>---</p></blockquote></blockquote>",
		"<p><a href='https://x/(y)'>l</a><b> s </b><em>(e)</em>x<i>i</i>y</p>",
		"<div id=main-content><p><strong>Status</strong>: Draft</p><h1>T</h1></div>",
		"<nav><h1>n</h1></nav><script>#</script><h1 hidden>h</h1><h2>x</h2>",
		strings.Repeat("<div>", 600),
		strings.Repeat("<ul><li>", 20) + "x",
		strings.Repeat("<b><i>", 100) + "x",
		"<h1>\x00</h1>",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { fuzzRendered(t, src, HTML) })
}

func FuzzParseDokuWiki(f *testing.F) {
	seedFiles(f, ".dokuwiki")
	for _, s := range []string{
		"====== A ======\n  * Status: Draft\n==== B ====\n===== C =====\n",
		"x <code>\n== no ==\n</code> y\n<nowiki>\n== no ==\n</nowiki>\n%%\n== no ==\n%%\n",
		"  * a\n      * b\n  - c\n> q\n>> r\n----\n^ h ^ i ^\n| [[a|b]] | ''c|d'' |\n",
		"**a //b __c__ d// e** [[https://x|y]] {{img|alt}} ((f)) \\\\ g\n",
		"  pre\n  # pre\n=== === ===\n== <code> ==\n",
		strings.Repeat("<del>", 200) + "\n" + strings.Repeat("**", 200),
		strings.Repeat("  ", 40) + "* deep\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { fuzzRendered(t, src, DokuWiki) })
}
