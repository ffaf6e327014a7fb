package rules

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// R26 checks self contained ep.
var R26 = &Rule{
	ID:    26,
	Name:  "self-contained-ep",
	Doc:   `The EP carries its requirements itself rather than pointing to an external design document: it has at least 150 words of prose outside headings, code and link targets. A shorter EP that links elsewhere is a violation, since the task would rest on text the agent cannot read. An EP that is long enough but has an implementable section whose own prose is under 40 words besides an external link is ambiguous: it is forwarded to the semantic rule S8, which decides whether the linked content is essential, and the report says so. A word is a blank-separated token with a letter or digit (inline code counts, list markers do not); a link is an absolute URL (scheme://) outside code; a section is implementable when its summary row says Implementable yes.`,
	Check: checkR26,
}

// Thresholds of rule 26.
const (
	r26MinWords        = 150 // of the whole EP
	r26MinSectionWords = 40  // of an implementable section's own text
)

// r26Prose is what rule 26 measures of a stretch of EP text.
type r26Prose struct {
	words int
	links []string
}

func checkR26(p *Pass) {
	doc := p.EP
	if doc == nil {
		return
	}
	// The preamble (before the first heading, past any front matter or
	// PEP header) and each section's own text add up to the whole EP.
	pre := ep.Range{Start: 0, End: len(doc.Source)}
	if len(doc.Sections) > 0 {
		pre.End = doc.Sections[0].Heading.Start
	}
	pre.Start = r26BodyStart(doc, pre.End)
	total := r26Measure(doc, pre)
	own := make([]r26Prose, len(doc.Sections))
	for i, s := range doc.Sections {
		own[i] = r26Measure(doc, s.Own)
		total.words += own[i].words
		total.links = append(total.links, own[i].links...)
	}
	if total.words < r26MinWords {
		if len(total.links) > 0 {
			p.Reportf(0, "EP", "the EP has %d words of prose outside headings, code and link targets (%d needed) and links to %s, so the task would rest on text the agent cannot read; bring the linked requirements into the EP's own text, or choose a self-contained EP",
				total.words, r26MinWords, r26Links(total.links))
		}
		return
	}
	for i, s := range doc.Sections {
		if own[i].words >= r26MinSectionWords || len(own[i].links) == 0 || !r26Implementable(p, s.ID) {
			continue
		}
		p.Forward("S8", "implementable %s has %d words of its own (under %d) besides a link to %s; S8 decides whether the linked content is essential to the task",
			sectionLabel(s), own[i].words, r26MinSectionWords, r26Links(own[i].links))
	}
}

// r26Implementable reports whether a summary row marks the section
// Implementable yes.
func r26Implementable(p *Pass, id string) bool {
	for _, r := range p.SCS[id] {
		if v, ok := mapping.ParseYesNo(strings.TrimSpace(r.Implementable)); ok && v {
			return true
		}
	}
	return false
}

// r26Links writes the first link and how many more there are.
func r26Links(links []string) string {
	if len(links) == 1 {
		return links[0]
	}
	return fmt.Sprintf("%s (and %d more)", links[0], len(links)-1)
}

// r26BodyStart skips the metadata that opens an EP, which is not prose: a
// Markdown file's YAML front matter, a PEP's RFC-822 header block.
func r26BodyStart(doc *ep.Document, limit int) int {
	if len(doc.Metadata) == 0 {
		return 0
	}
	src := doc.Source[:limit]
	if doc.Format == ep.Markdown {
		base := 0
		if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
			base = 3 // a byte-order mark before the front matter
		}
		if !bytes.HasPrefix(src[base:], []byte("---")) {
			return 0
		}
		first := bytes.IndexByte(src, '\n')
		if first < 0 {
			return 0
		}
		for off := first + 1; off < len(src); {
			end := bytes.IndexByte(src[off:], '\n')
			line := src[off:]
			next := len(src)
			if end >= 0 {
				line, next = src[off:off+end], off+end+1
			}
			if t := bytes.TrimSpace(line); bytes.Equal(t, []byte("---")) || bytes.Equal(t, []byte("...")) {
				return next
			}
			off = next
		}
		return 0
	}
	// RST: the header block runs to the first blank line.
	for off := 0; off < len(src); {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			return len(src)
		}
		if len(bytes.TrimSpace(src[off:off+end])) == 0 {
			return off + end + 1
		}
		off += end + 1
	}
	return len(src)
}

// r26Measure counts the prose words and external links of r.
func r26Measure(doc *ep.Document, r ep.Range) r26Prose {
	if r.Start < 0 || r.End > len(doc.Source) || r.Start >= r.End {
		return r26Prose{}
	}
	src := doc.Source[r.Start:r.End]
	var prose string
	var links []string
	if doc.Format == ep.RST {
		prose, links = r26RSTProse(string(src))
	} else {
		prose, links = r26MarkdownProse(src)
	}
	// Link targets written out in the text are not prose either.
	links = append(links, r26URLRE.FindAllString(prose, -1)...)
	prose = r26URLRE.ReplaceAllString(prose, " ")
	for i, u := range links {
		links[i] = r26TrimURL(u)
	}
	out := r26Prose{links: links}
	for _, w := range strings.Fields(prose) {
		if strings.IndexFunc(w, func(c rune) bool { return unicode.IsLetter(c) || unicode.IsDigit(c) }) >= 0 {
			out.words++
		}
	}
	return out
}

// r26TrimURL drops the punctuation that ends the sentence around a URL
// ("see https://x/y)." gives https://x/y), as readers do.
func r26TrimURL(u string) string {
	for {
		t := strings.TrimRight(u, ".,;:!?'\"*_~")
		if strings.HasSuffix(t, ")") && strings.Count(t, ")") > strings.Count(t, "(") {
			t = t[:len(t)-1]
		}
		if t == u {
			return u
		}
		u = t
	}
}

var r26URLRE = regexp.MustCompile("(?i)\\b[a-z][a-z0-9+.-]*://[^\\s<>()\\[\\]\"'`]+")

// r26Markdown parses with the same flavour as pipeline/ep (CommonMark and
// GFM, whose linkify turns bare URLs into links).
var r26Markdown = goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser()

// r26MarkdownProse returns the prose of a Markdown fragment (a section's
// own text, which starts and ends at block boundaries) and its link
// targets: code blocks, HTML, headings and images are left out, link and
// code span texts kept.
func r26MarkdownProse(src []byte) (string, []string) {
	root := r26Markdown.Parse(text.NewReader(src))
	var b strings.Builder
	var links []string
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			if n.Type() == ast.TypeBlock {
				b.WriteByte('\n')
			}
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading, *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock, *ast.RawHTML, *ast.Image:
			return ast.WalkSkipChildren, nil
		case *ast.AutoLink:
			if n.AutoLinkType == ast.AutoLinkURL {
				links = append(links, string(n.URL(src)))
			}
			return ast.WalkSkipChildren, nil
		case *ast.Link:
			if r26URLRE.Match(n.Destination) {
				links = append(links, string(n.Destination))
			}
		case *ast.Text:
			b.Write(n.Segment.Value(src))
			if n.SoftLineBreak() || n.HardLineBreak() {
				b.WriteByte('\n')
			}
		case *ast.String:
			b.Write(n.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String(), links
}

var (
	r26DirectiveRE = regexp.MustCompile(`^\.\.\s+([A-Za-z0-9][A-Za-z0-9_.:+-]*)\s*::(.*)$`)
	r26TargetRE    = regexp.MustCompile(`^\.\.\s+_[^:]*:\s*(\S.*)?$`)
	r26FootnoteRE  = regexp.MustCompile(`^\.\.\s+\[[^\]]+\](.*)$`)
)

// r26ProseDirectives hold prose in their argument and body (admonitions
// and the like); every other directive (code-block, literalinclude, math,
// raw, image, ...) and every comment is left out with its body.
var r26ProseDirectives = map[string]bool{
	"note": true, "warning": true, "tip": true, "important": true, "caution": true, "attention": true,
	"danger": true, "error": true, "hint": true, "admonition": true, "seealso": true, "topic": true,
	"sidebar": true, "rubric": true, "epigraph": true, "highlights": true, "pull-quote": true,
	"deprecated": true, "versionadded": true, "versionchanged": true, "container": true,
}

// r26RSTProse returns the prose of a reStructuredText fragment and its
// explicit link targets: literal blocks (after "::"), doctest blocks,
// comments, code directives and their indented bodies are left out.
func r26RSTProse(src string) (string, []string) {
	lines := strings.Split(src, "\n")
	var b strings.Builder
	var links []string
	indent := func(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }
	// skipBlock returns the index after the lines indented deeper than ind
	// (blank lines included) that follow line i.
	skipBlock := func(i, ind int) int {
		j := i + 1
		for j < len(lines) && (strings.TrimSpace(lines[j]) == "" || indent(lines[j]) > ind) {
			j++
		}
		return j
	}
	literal, litIndent := false, 0
	for i := 0; i < len(lines); {
		line := strings.TrimRight(lines[i], " \t\r")
		t := strings.TrimSpace(line)
		if t == "" {
			i++
			continue
		}
		ind := indent(line)
		if literal {
			literal = false
			if ind > litIndent {
				i = skipBlock(i-1, litIndent)
				continue
			}
		}
		switch {
		case t == ".." || strings.HasPrefix(t, ".. "):
			if m := r26DirectiveRE.FindStringSubmatch(t); m != nil {
				if r26ProseDirectives[strings.ToLower(m[1])] {
					b.WriteString(m[2])
					b.WriteByte('\n')
					i++
					continue
				}
			} else if m := r26TargetRE.FindStringSubmatch(t); m != nil {
				if u := r26URLRE.FindString(m[1]); u != "" {
					links = append(links, u)
				}
			} else if m := r26FootnoteRE.FindStringSubmatch(t); m != nil {
				b.WriteString(m[1])
				b.WriteByte('\n')
				i++
				continue
			}
			i = skipBlock(i, ind)
			continue
		case strings.HasPrefix(t, ">>>"):
			for i < len(lines) && strings.TrimSpace(lines[i]) != "" {
				i++
			}
			continue
		}
		b.WriteString(t)
		b.WriteByte('\n')
		if strings.HasSuffix(t, "::") {
			literal, litIndent = true, ind
		}
		i++
	}
	return b.String(), links
}
