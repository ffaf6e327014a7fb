package ep

import (
	"bytes"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// referenceMarkdown is the one-pass reading of a Markdown document that
// the two-pass parser replaced (the full parser over the whole document,
// titles from its inline nodes): on documents it parses in time, both
// must find the same headings with the same titles.
func referenceMarkdown(src []byte) []heading {
	full := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser()
	d := &Document{Source: src, Metadata: map[string]string{}}
	d.lineStarts = lineStarts(src)
	base := 0
	if bytes.HasPrefix(src, utf8BOM) {
		base = len(utf8BOM)
	}
	if fmEnd, _, _, ok := frontMatter(src, base); ok {
		base = fmEnd
	}
	rest := src[base:]
	root := full.Parse(text.NewReader(rest))
	var hs []heading
	var ranks []int
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		h, ok := n.(*ast.Heading)
		if !ok {
			continue
		}
		span, line, ok := mdHeadingSpan(d, h, rest, base)
		if !ok {
			continue
		}
		for len(ranks) > 0 && ranks[len(ranks)-1] >= h.Level {
			ranks = ranks[:len(ranks)-1]
		}
		ranks = append(ranks, h.Level)
		var b strings.Builder
		mdInlineText(&b, h, rest)
		hs = append(hs, heading{level: len(ranks), title: cleanTitle(b.String()), line: line, span: span})
	}
	return hs
}

func compareReference(t *testing.T, src []byte) {
	t.Helper()
	d, err := Parse(src, Markdown)
	if err != nil {
		return
	}
	want := referenceMarkdown(src)
	if len(d.Sections) != len(want) {
		t.Fatalf("%d sections, the one-pass parser finds %d", len(d.Sections), len(want))
	}
	for i, s := range d.Sections {
		w := want[i]
		if s.Title != w.title || s.Line != w.line || s.Heading != w.span {
			t.Errorf("section %d: %q line %d %+v, the one-pass parser: %q line %d %+v", i, s.Title, s.Line, s.Heading, w.title, w.line, w.span)
		}
	}
}

func TestTwoPassMatchesOnePass(t *testing.T) {
	for _, s := range []string{
		"# A\n## B\ntext\n",
		"Title\n=====\n\nSub\n---\n",
		"# `code` *em* [l](u) &amp; \\# x\n",
		"# [ref] and [other][ref] and ![img][ref]\n\n[ref]: /url \"t\"\n",
		"# foo #\n# foo # #\n# foo \\#\n#\n# #\n",
		"Multi *line\nsetext* title  \nwith break\n===\n",
		"[a]: /u\nTitle\n===\n",
		"a | b\n--- | ---\n\nT\n-\n",
		"# <span>html</span> <http://auto.link> www.example.com ~~del~~\n",
		"# - not a list\n# 1. not a list\n# > not a quote\n",
		"# ``` not a fence\n",
		genMarkdownString(20),
	} {
		t.Run("", func(t *testing.T) { compareReference(t, []byte(s)) })
	}
}

func genMarkdownString(n int) string { return string(genMarkdown(n)) }

// FuzzTwoPassMatchesOnePass: on small documents, the two-pass parser
// finds what the one-pass parser finds.
func FuzzTwoPassMatchesOnePass(f *testing.F) {
	for _, s := range []string{
		"# A\n## B\ntext\n",
		"Title\n=====\n\nSub\n---\n",
		"# [ref]\n\n[ref]: /u\n",
		"# foo # #\n",
		"a\nb\n===\n",
		"> x\ny\n===\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 4096 {
			return
		}
		compareReference(t, src)
	})
}
