package ep

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	yast "github.com/goccy/go-yaml/ast"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/lolbench/lolbench/pipeline/registry/safeyaml"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// Markdown is read in two passes, so that the time stays linear in the
// size of the document. goldmark's inline parsing is quadratic on some
// shapes (a paragraph of "[a](" repeated: 34 s for 300 KB), and only
// heading titles need inline markup. The first pass finds the block
// structure with no inline parser at all: the document-level headings, and
// the link reference definitions a title may use. The second pass parses
// each title's text on its own with the full parser.
//
// Both parsers are shared: goldmark's parser initialises itself once under
// a sync.Once and keeps per-document state in its parse context.
var (
	// blockParser has CommonMark's block parsers and paragraph
	// transformers (link reference definitions) and GFM's table
	// transformer, the only block-level part of GFM.
	blockParser = parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
		parser.WithParagraphTransformers(util.Prioritized(extension.NewTableParagraphTransformer(), 200)),
	)
	// titleParser is CommonMark plus GFM, inline parsers included.
	titleParser = goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser()
)

// Bounds of the Markdown parse (see the package comment, "Bounds").
const (
	// maxNesting bounds the block quotes and list items one line opens:
	// goldmark's time grows with the cube of that depth ("-" repeated
	// 50,000 times takes 18 s). Prose needs a handful.
	maxNesting = 16
	// refBudget bounds, over the paragraphs that start with link reference
	// definitions, the definitions times the paragraph's lines: goldmark
	// removes each definition by copying the lines after it.
	refBudget = 1 << 26
	// workPerByte bounds the block pass's reader work (calls, plus the
	// columns goldmark counts again and again on indented lines) per byte
	// of input: prose costs about 3, containers nested by indentation
	// cost the square of their depth per line.
	workPerByte = 64
	// maxTitleSource bounds the text of one heading whose inline markup
	// is resolved; a longer heading keeps its raw text.
	maxTitleSource = 4 << 10
	// titleBudget bounds the sum of the squares of the title lengths
	// resolved with markup, the worst case of the inline parser; titles
	// past it keep their raw text. A real EP uses a millionth of it.
	titleBudget = 1 << 28
	// maxFrontMatter bounds the YAML front matter; a KEP's is a few
	// hundred bytes, and the YAML parser is the costliest per byte.
	maxFrontMatter = 64 << 10
)

// utf8BOM is skipped at the start of either format; editors on Windows
// write it and neither goldmark nor a title line should see it.
var utf8BOM = []byte("\xef\xbb\xbf")

// parseMarkdown fills d.Metadata from the front matter and returns the
// document-level headings with tree depths.
func parseMarkdown(d *Document, deadline time.Time) ([]heading, error) {
	src := d.Source
	base := 0
	if bytes.HasPrefix(src, utf8BOM) {
		base = len(utf8BOM)
	}
	if fmEnd, bodyStart, body, ok := frontMatter(src, base); ok {
		if len(body) > maxFrontMatter {
			return nil, fmt.Errorf("line %d: front matter of %d bytes, more than the %s allowed", d.LineAt(bodyStart), len(body), workspace.Bytes(maxFrontMatter))
		}
		meta, err := yamlScalars(body)
		if err != nil {
			var ye *safeyaml.Error
			if errors.As(err, &ye) {
				return nil, fmt.Errorf("line %d: front matter: %s", d.LineAt(bodyStart)+max(ye.Line, 1)-1, ye.Msg)
			}
			return nil, fmt.Errorf("front matter: %w", err)
		}
		d.Metadata = meta
		base = fmEnd
	}
	// Parsing the rest as its own slice keeps offsets exact: every segment
	// is shifted back by base.
	rest := src[base:]
	if off, depth := deepestNesting(rest); depth > maxNesting {
		return nil, fmt.Errorf("line %d: %d nested block quotes or list items on one line, more than the %d an EP may open", d.LineAt(base+off), depth, maxNesting)
	}
	if off, ok := referenceCost(rest); !ok {
		return nil, fmt.Errorf("line %d: too many link reference definitions at the head of a long paragraph; end them with a blank line", d.LineAt(base+off))
	}
	pc := parser.NewContext()
	root, err := parseBlocks(rest, pc, deadline)
	if err != nil {
		var late *lateError
		var costly *costlyError
		switch {
		case errors.As(err, &late):
			return nil, fmt.Errorf("line %d: %w", d.LineAt(base+late.offset), err)
		case errors.As(err, &costly):
			return nil, fmt.Errorf("line %d: %w", d.LineAt(base+costly.offset), err)
		}
		return nil, err
	}
	refs := map[string]parser.Reference{}
	for _, r := range pc.References() {
		refs[util.ToLinkReference(r.Label())] = r
	}

	var hs []heading
	var ranks []int // "#" counts of the open headings, for tree depths
	budget := titleBudget
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		h, ok := n.(*ast.Heading)
		if !ok {
			continue
		}
		span, line, ok := mdHeadingSpan(d, h, rest, base)
		if !ok {
			continue
		}
		if len(hs) == maxSections {
			return nil, tooManySections(line)
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("line %d: %w", line, &lateError{})
		}
		// A heading's parent is the nearest earlier heading with fewer "#":
		// "# A", "### B", "## C" makes B and C both children of A.
		for len(ranks) > 0 && ranks[len(ranks)-1] >= h.Level {
			ranks = ranks[:len(ranks)-1]
		}
		ranks = append(ranks, h.Level)
		hs = append(hs, heading{
			level: len(ranks),
			title: mdTitle(h, rest, refs, &budget),
			line:  line,
			span:  span,
		})
	}
	return hs, nil
}

// lateError reports a parse that ran past its deadline, at a byte offset.
type lateError struct{ offset int }

func (e *lateError) Error() string {
	return fmt.Sprintf("the text from here on took longer than %s to parse (the EP parse deadline); it is not a proposal's prose", parseDeadline)
}

// costlyError reports a block pass past its work budget, at a byte offset.
type costlyError struct{ offset int }

func (e *costlyError) Error() string {
	return "the text from here on nests block quotes and lists too deeply to parse within bounds"
}

// parseBlocks runs the block pass over src within its work budget and
// under the deadline. goldmark cannot be interrupted, so the reader it
// pulls every line through keeps the account and unwinds the parse with a
// panic; any other panic of the third-party parser on hostile input
// becomes an error too.
func parseBlocks(src []byte, pc parser.Context, deadline time.Time) (root ast.Node, err error) {
	r := &boundedReader{Reader: text.NewReader(src), deadline: deadline, budget: workPerByte*len(src) + 1<<16}
	defer func() {
		if v := recover(); v != nil {
			switch v := v.(type) {
			case *lateError:
				root, err = nil, v
			case *costlyError:
				root, err = nil, v
			default:
				root, err = nil, fmt.Errorf("markdown parser failed: %v", v)
			}
		}
	}()
	return blockParser.Parse(r, parser.WithContext(pc)), nil
}

// boundedReader is a text.Reader that counts the work goldmark does
// through it and looks at the clock every 1,024 calls. goldmark's
// superlinear cases are many calls, above all LineOffset, which counts the
// columns from the start of the line on each call: its result is charged.
// The budget makes the refusal the same on every machine; the deadline is
// the backstop.
type boundedReader struct {
	text.Reader
	deadline time.Time
	calls    int
	work     int
	budget   int
}

func (r *boundedReader) tick(cost int) {
	r.calls++
	r.work += cost
	if r.work > r.budget {
		_, seg := r.Reader.Position()
		panic(&costlyError{offset: seg.Start})
	}
	if r.calls&1023 == 0 && time.Now().After(r.deadline) {
		_, seg := r.Reader.Position()
		panic(&lateError{offset: seg.Start})
	}
}

func (r *boundedReader) Peek() byte                       { r.tick(1); return r.Reader.Peek() }
func (r *boundedReader) PeekLine() ([]byte, text.Segment) { r.tick(1); return r.Reader.PeekLine() }
func (r *boundedReader) Advance(n int)                    { r.tick(1); r.Reader.Advance(n) }
func (r *boundedReader) AdvanceLine()                     { r.tick(1); r.Reader.AdvanceLine() }

func (r *boundedReader) LineOffset() int {
	n := r.Reader.LineOffset()
	r.tick(1 + n)
	return n
}

func (r *boundedReader) AdvanceAndSetPadding(n, padding int) {
	r.tick(1)
	r.Reader.AdvanceAndSetPadding(n, padding)
}

func (r *boundedReader) SkipSpaces() (text.Segment, int, bool) {
	r.tick(1)
	return r.Reader.SkipSpaces()
}

func (r *boundedReader) SkipBlankLines() (text.Segment, int, bool) {
	r.tick(1)
	return r.Reader.SkipBlankLines()
}

// referenceCost adds up, over the runs of non-blank lines (paragraphs, as
// far as a line scan can tell) that start with a link reference
// definition, the lines that may start one times the run's lines, and
// reports whether the sum stays within refBudget, or the offset of the
// run that passes it.
func referenceCost(src []byte) (offset int, ok bool) {
	total := 0
	runStart, runLines, refs := -1, 0, 0
	head := false // the run starts with a line that may be a definition
	for start := 0; start <= len(src); {
		end := bytes.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		line := src[start:end]
		trimmed := bytes.TrimLeft(line, " ")
		mayDefine := len(line)-len(trimmed) <= 3 && len(trimmed) > 0 && trimmed[0] == '['
		if len(bytes.TrimSpace(line)) == 0 {
			if head {
				if total += refs * runLines; total > refBudget {
					return runStart, false
				}
			}
			runStart, runLines, refs, head = -1, 0, 0, false
		} else {
			if runStart < 0 {
				runStart, head = start, mayDefine
			}
			runLines++
			if mayDefine {
				refs++
			}
		}
		if end == len(src) {
			break
		}
		start = end + 1
	}
	if head && total+refs*runLines > refBudget {
		return runStart, false
	}
	return 0, true
}

// deepestNesting returns the line (as the offset of its start) that opens
// the most block quotes and list items, and how many; thematic breaks and
// fenced code are not containers.
func deepestNesting(src []byte) (offset, depth int) {
	for start := 0; start < len(src); {
		end := bytes.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		if n := Nesting(src[start:end]); n > depth && !thematicBreak(src[start:end]) {
			offset, depth = start, n
		}
		start = end + 1
	}
	return offset, depth
}

// Nesting counts the container markers that open a Markdown line: ">", a
// bullet "-", "*" or "+" followed by a blank, or an ordered marker "1." /
// "1)" followed by a blank (a line end, "\r" included, is a blank). It
// stops at the first other character, so a thematic break "-----" or a
// blank line counts 0. The EP reader and the mapping parser share it.
func Nesting(line []byte) int {
	blank := func(i int) bool { return i >= len(line) || line[i] == ' ' || line[i] == '\t' || line[i] == '\r' }
	depth := 0
	for i := 0; i < len(line); {
		switch c := line[i]; {
		case c == ' ' || c == '\t':
			i++
		case c == '>':
			depth++
			i++
		case (c == '-' || c == '*' || c == '+') && blank(i+1):
			depth++
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(line) && j-i < 9 && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j < len(line) && (line[j] == '.' || line[j] == ')') && blank(j+1) {
				depth++
				i = j + 1
				continue
			}
			return depth
		default:
			return depth
		}
	}
	return depth
}

// thematicBreak reports whether line is a thematic break ("- - -", "***"),
// which CommonMark reads before any list marker.
func thematicBreak(line []byte) bool {
	var mark byte
	n := 0
	for _, c := range line {
		switch {
		case c == ' ' || c == '\t' || c == '\r':
		case (c == '-' || c == '*' || c == '_') && (mark == 0 || c == mark):
			mark = c
			n++
		default:
			return false
		}
	}
	return n >= 3
}

// mdHeadingSpan finds the whole lines of a heading in the full source and
// the line of its title text. goldmark records the text segments only: an
// ATX heading starts at its Pos; a setext heading's text lines are followed
// by exactly one underline line.
func mdHeadingSpan(d *Document, h *ast.Heading, rest []byte, base int) (Range, int, bool) {
	lines := h.Lines()
	first := headingPos(h, rest)
	if first < 0 {
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

// headingPos is the offset in src where goldmark puts a heading: the
// first "#" of an ATX heading, the start of a setext heading's text; -1
// when it has none.
func headingPos(h *ast.Heading, src []byte) int {
	first := h.Pos()
	if first < 0 && h.Lines().Len() > 0 {
		first = h.Lines().At(0).Start
	}
	if first > len(src) {
		return -1
	}
	return first
}

// isATX reports whether a heading of src is an ATX heading ("# Title").
func isATX(h *ast.Heading, src []byte) bool {
	first := headingPos(h, src)
	return first >= 0 && atxOpening(src[first:lineEnd(src, first)])
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
// goldmark's HTML renderer resolves them. The heading's text is parsed
// again on its own (see blockParser), with the document's link reference
// definitions; a heading too long for the budget keeps its raw text.
func mdTitle(h *ast.Heading, src []byte, refs map[string]parser.Reference, budget *int) string {
	lines := h.Lines()
	var raw []byte
	for i := 0; i < lines.Len(); i++ {
		if i > 0 {
			raw = append(raw, '\n')
		}
		seg := lines.At(i)
		raw = append(raw, bytes.TrimRight(seg.Value(src), "\r\n")...)
	}
	cost := len(raw) * len(raw)
	if len(raw) > maxTitleSource || cost > *budget {
		return cleanTitle(string(raw))
	}
	*budget -= cost
	// An ATX heading is rebuilt as one, with an explicit closing sequence
	// so that a trailing "#" of its text stays text; a setext heading is
	// rebuilt with an underline: its lines were paragraph lines at the top
	// of the document, and stay so.
	var doc []byte
	if isATX(h, src) {
		doc = append(append([]byte("# "), raw...), " #\n"...)
	} else {
		doc = append(raw, "\n===\n"...)
	}
	pc := &refContext{Context: parser.NewContext(), refs: refs}
	root := titleParser.Parse(text.NewReader(doc), parser.WithContext(pc))
	t, ok := root.FirstChild().(*ast.Heading)
	if !ok || t.NextSibling() != nil {
		return cleanTitle(string(raw))
	}
	var b strings.Builder
	mdInlineText(&b, t, doc)
	return cleanTitle(b.String())
}

// refContext is a parse context whose link reference definitions are the
// whole document's, shared by every title without copying.
type refContext struct {
	parser.Context
	refs map[string]parser.Reference
}

func (c *refContext) Reference(label string) (parser.Reference, bool) {
	r, ok := c.refs[label]
	return r, ok
}

func mdInlineText(b *strings.Builder, n ast.Node, src []byte) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			v := c.Segment.Value(src)
			if !c.IsRaw() {
				v = unescapeText(v)
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

// unescapeText reads Markdown text as CommonMark does, in one pass: a
// backslash before punctuation makes it literal, and only the other "&"
// start entity and numeric references ("\&amp;" reads "&amp;", "&amp;"
// reads "&").
func unescapeText(v []byte) []byte {
	var out []byte
	run := 0 // start of the text not yet resolved
	for i := 0; i+1 < len(v); i++ {
		if v[i] == '\\' && util.IsPunct(v[i+1]) {
			out = append(out, resolveReferences(v[run:i])...)
			out = append(out, v[i+1])
			i++
			run = i + 1
		}
	}
	return append(out, resolveReferences(v[run:])...)
}

func resolveReferences(v []byte) []byte {
	return util.ResolveEntityNames(util.ResolveNumericReferences(v))
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
func frontMatter(src []byte, off int) (end, bodyStart int, body []byte, ok bool) {
	first := lineEnd(src, off)
	if !isDelimiter(src[off:first]) {
		return 0, 0, nil, false
	}
	if !looksLikeYAMLKey(src[first:lineEnd(src, first)]) {
		return 0, 0, nil, false
	}
	for i := first; i < len(src); {
		next := lineEnd(src, i)
		if isDelimiter(src[i:next]) {
			return next, first, src[first:i], true
		}
		i = next
	}
	return 0, 0, nil, false
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
// strings. Front matter that is not a mapping, or not valid YAML, yields
// no metadata rather than an error: the outline matters more than the
// header. Front matter past safeyaml's bounds is an error. The
// values are read from the syntax tree, so an alias is never expanded.
func yamlScalars(body []byte) (map[string]string, error) {
	meta := map[string]string{}
	f, err := safeyaml.Parse(body)
	if err != nil {
		var ye *safeyaml.Error
		if errors.As(err, &ye) {
			return nil, err
		}
		return meta, nil
	}
	if len(f.Docs) == 0 || f.Docs[0] == nil {
		return meta, nil
	}
	var values []*yast.MappingValueNode
	switch b := f.Docs[0].Body.(type) {
	case *yast.MappingNode:
		values = b.Values
	case *yast.MappingValueNode:
		values = []*yast.MappingValueNode{b}
	}
	for _, mv := range values {
		k, ok := mv.Key.(yast.ScalarNode)
		if !ok || mv.Value == nil {
			continue
		}
		key := fmt.Sprint(k.GetValue())
		if _, dup := meta[key]; dup {
			return map[string]string{}, nil // as a decoder: duplicate keys are invalid
		}
		if v, ok := yamlScalar(mv.Value); ok {
			meta[key] = v
		}
	}
	return meta, nil
}

// yamlScalar formats a scalar node as the decoder's value would print.
func yamlScalar(n yast.Node) (string, bool) {
	switch v := n.(type) {
	case *yast.NullNode:
		return "", true
	case *yast.StringNode:
		return v.Value, true
	case *yast.LiteralNode:
		return v.Value.Value, true
	case *yast.BoolNode:
		return strconv.FormatBool(v.Value), true
	case *yast.FloatNode:
		return strconv.FormatFloat(v.Value, 'g', -1, 64), true
	case *yast.IntegerNode:
		return fmt.Sprint(v.Value), true
	}
	return "", false
}
