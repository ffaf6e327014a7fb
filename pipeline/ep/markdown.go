package ep

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/goccy/go-yaml"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// mdParser is shared: goldmark's parser initialises itself once under a
// sync.Once and keeps per-document state in its parse context.
var mdParser = goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser()

// utf8BOM is skipped at the start of either format; editors on Windows
// write it and neither goldmark nor a title line should see it.
var utf8BOM = []byte("\xef\xbb\xbf")

// parseMarkdown fills d.Metadata from the front matter and returns the
// document-level headings with tree depths.
func parseMarkdown(d *Document) []heading {
	src := d.Source
	base := 0
	if bytes.HasPrefix(src, utf8BOM) {
		base = len(utf8BOM)
	}
	if fmEnd, body, ok := frontMatter(src, base); ok {
		d.Metadata = yamlScalars(body)
		base = fmEnd
	}
	// Parsing the rest as its own slice keeps offsets exact: every segment
	// is shifted back by base.
	rest := src[base:]
	root := mdParser.Parse(text.NewReader(rest))

	var hs []heading
	var ranks []int // "#" counts of the open headings, for tree depths
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		h, ok := n.(*ast.Heading)
		if !ok {
			continue
		}
		span, line, ok := mdHeadingSpan(d, h, rest, base)
		if !ok {
			continue
		}
		// A heading's parent is the nearest earlier heading with fewer "#":
		// "# A", "### B", "## C" makes B and C both children of A.
		for len(ranks) > 0 && ranks[len(ranks)-1] >= h.Level {
			ranks = ranks[:len(ranks)-1]
		}
		ranks = append(ranks, h.Level)
		hs = append(hs, heading{
			level: len(ranks),
			title: mdTitle(h, rest),
			line:  line,
			span:  span,
		})
	}
	return hs
}

// mdHeadingSpan finds the whole lines of a heading in the full source and
// the line of its title text. goldmark records the text segments only: an
// ATX heading starts at its Pos; a setext heading's text lines are followed
// by exactly one underline line.
func mdHeadingSpan(d *Document, h *ast.Heading, rest []byte, base int) (Range, int, bool) {
	lines := h.Lines()
	first := h.Pos()
	if first < 0 && lines.Len() > 0 {
		first = lines.At(0).Start
	}
	if first < 0 || first > len(rest) {
		return Range{}, 0, false
	}
	first += base
	last := first
	if lines.Len() > 0 {
		last = max(last, base+lines.At(lines.Len()-1).Start)
	}
	start := lineStart(d.Source, first)
	end := lineEnd(d.Source, last)
	// goldmark puts an ATX heading's Pos on its first "#"; a setext
	// heading's Pos is the start of its text, which never opens like ATX.
	if !atxOpening(d.Source[first:lineEnd(d.Source, first)]) {
		end = lineEnd(d.Source, end) // the underline
	}
	return Range{start, end}, d.LineAt(first), true
}

// atxOpening reports whether line begins with 1-6 "#" followed by a space,
// a tab or the end of the line (CommonMark §4.2).
func atxOpening(line []byte) bool {
	n := 0
	for n < len(line) && line[n] == '#' {
		n++
	}
	if n == 0 || n > 6 {
		return false
	}
	return n == len(line) || line[n] == ' ' || line[n] == '\t' || line[n] == '\n' || line[n] == '\r'
}

// lineStart is the offset of the first byte of the line holding off.
func lineStart(src []byte, off int) int {
	return bytes.LastIndexByte(src[:off], '\n') + 1
}

// lineEnd is the offset just past the "\n" ending the line holding off, or
// len(src) on the last line.
func lineEnd(src []byte, off int) int {
	if off >= len(src) {
		return len(src)
	}
	i := bytes.IndexByte(src[off:], '\n')
	if i < 0 {
		return len(src)
	}
	return off + i + 1
}

// mdTitle is the plain text of a heading: emphasis, links and HTML dropped,
// code span text kept, backslash escapes and entities resolved, the way
// goldmark's HTML renderer resolves them.
func mdTitle(h *ast.Heading, src []byte) string {
	var b strings.Builder
	mdInlineText(&b, h, src)
	return cleanTitle(b.String())
}

func mdInlineText(b *strings.Builder, n ast.Node, src []byte) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			v := c.Segment.Value(src)
			if !c.IsRaw() {
				v = util.UnescapePunctuations(v)
				v = util.ResolveNumericReferences(v)
				v = util.ResolveEntityNames(v)
			}
			b.Write(v)
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.CodeSpan:
			// Code span text is literal; a line break inside is a space.
			for t := c.FirstChild(); t != nil; t = t.NextSibling() {
				if t, ok := t.(*ast.Text); ok {
					b.Write(bytes.TrimSuffix(t.Segment.Value(src), []byte("\n")))
					if bytes.HasSuffix(t.Segment.Value(src), []byte("\n")) {
						b.WriteByte(' ')
					}
				}
			}
		case *ast.AutoLink:
			b.Write(c.Label(src))
		case *ast.RawHTML:
			// Inline HTML tags are markup, not text.
		case *east.TaskCheckBox:
		default:
			mdInlineText(b, c, src)
		}
	}
}

// cleanTitle turns control characters (a stray "\r", a tab) into spaces
// and collapses runs of white space, so that one title prints as one line
// and compares equal however its source was wrapped or padded.
func cleanTitle(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// frontMatter finds a YAML front matter block starting at off: a first line
// "---", a closing "---" line, and a first inner line that looks like a
// YAML key. It returns the offset just past the closing line and the YAML
// text between the delimiters.
func frontMatter(src []byte, off int) (end int, body []byte, ok bool) {
	first := lineEnd(src, off)
	if !isDelimiter(src[off:first]) {
		return 0, nil, false
	}
	if !looksLikeYAMLKey(src[first:lineEnd(src, first)]) {
		return 0, nil, false
	}
	for i := first; i < len(src); {
		next := lineEnd(src, i)
		if isDelimiter(src[i:next]) {
			return next, src[first:i], true
		}
		i = next
	}
	return 0, nil, false
}

// isDelimiter reports whether line is "---" with optional trailing blanks.
func isDelimiter(line []byte) bool {
	return string(bytes.TrimRight(line, " \t\r\n")) == "---"
}

// looksLikeYAMLKey reports whether line starts a top-level YAML mapping
// entry: a key at column 0 followed by ":" and a space or the line end.
func looksLikeYAMLKey(line []byte) bool {
	line = bytes.TrimRight(line, " \t\r\n")
	if len(line) == 0 || strings.ContainsRune(" \t#-:[{>|!&*%@`", rune(line[0])) {
		return false
	}
	i := bytes.Index(line, []byte(":"))
	for i >= 0 {
		if i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t' {
			return i > 0
		}
		j := bytes.Index(line[i+1:], []byte(":"))
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// yamlScalars returns the top-level scalar keys of a YAML mapping as
// strings. Front matter that is not a mapping yields no metadata rather
// than an error: the outline matters more than the header.
func yamlScalars(body []byte) (meta map[string]string) {
	meta = map[string]string{}
	var m map[string]any
	func() {
		// goccy/go-yaml is third-party code fed hostile input; a panic in
		// it must cost the metadata, not the process.
		defer func() {
			if recover() != nil {
				m = nil
			}
		}()
		if yaml.Unmarshal(body, &m) != nil {
			m = nil
		}
	}()
	for k, v := range m {
		switch v := v.(type) {
		case nil:
			meta[k] = ""
		case string:
			meta[k] = v
		case bool:
			meta[k] = strconv.FormatBool(v)
		case float64:
			meta[k] = strconv.FormatFloat(v, 'g', -1, 64)
		case int64, uint64, int, uint:
			meta[k] = fmt.Sprint(v)
		}
	}
	return meta
}
