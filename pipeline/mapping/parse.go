package mapping

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	gmparser "github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/lolbench/lolbench/pipeline/ep"
)

// Parse reads a mapping artifact. When the artifact is structurally
// unreadable it returns the partial model together with an *ErrorList that
// holds every error found, sorted by line; the model must then not be
// trusted. Vocabularies, column schemas and arithmetic are not checked
// here: they are rule violations (rules 4, 5, 7, 8, 18, 21, ...). A
// leading UTF-8 byte order mark is ignored; a NUL byte is an error at its
// line (the first one is reported).
func Parse(src []byte) (*Mapping, error) {
	src = bytes.TrimPrefix(src, utf8BOM)
	p := &parser{}
	m := p.parse(src)
	if len(p.errs) == 0 {
		return m, nil
	}
	slices.SortStableFunc(p.errs, func(a, b Error) int { return cmp.Compare(a.Line, b.Line) })
	return m, &ErrorList{Errors: p.errs}
}

// utf8BOM is what some editors put before the first line.
var utf8BOM = []byte("\xef\xbb\xbf")

// ParseFile reads and parses the artifact at path, a regular file within
// MaxSize (ReadFile). Parse errors come back as an *ErrorList whose lines
// read "path:line: message".
func ParseFile(path string) (*Mapping, error) {
	src, err := ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read mapping %s: %w", path, err)
	}
	m, err := Parse(src)
	if list, ok := errors.AsType[*ErrorList](err); ok {
		list.File = path
	}
	return m, err
}

const (
	titleForm   = "# Mapping: <candidate id>"
	blockForm   = "### <n>. Section <id>: <title>"
	countsForm  = "**Files:** <n> direct (<p>%), <n> associated (<p>%), <n> accounted (<p>%) of <n> PR files"
	summaryForm = "- `path`: text"
	noneText    = "None."

	requirementLabel = "**Requirement:**"
	filesLabel       = "**Files:**"
)

var (
	blockHeadingRE = regexp.MustCompile(`^([0-9]{1,9})\.\s+Section\s+([^\s:]+):\s+(\S.*)$`)
	countsRE       = regexp.MustCompile(`^([0-9]{1,9}) direct \(([^()]*)\), ([0-9]{1,9}) associated \(([^()]*)\), ([0-9]{1,9}) accounted \(([^()]*)\) of ([0-9]{1,9}) PR files?$`)
)

type parser struct {
	src    []byte // the artifact, comments, lone CRs and over-deep lines blanked
	starts []int  // byte offset of each line start
	errs   []Error
}

func (p *parser) errorf(line int, format string, args ...any) {
	p.errs = append(p.errs, Error{Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) parse(src []byte) *Mapping {
	m := &Mapping{
		PartLines:        map[string]int{},
		SCS:              Table[SCSRow]{Rows: []SCSRow{}},
		PFS:              Table[PFSRow]{Rows: []PFSRow{}},
		Blocks:           []Block{},
		UnmappedSections: Table[UnmappedSectionRow]{Rows: []UnmappedSectionRow{}},
		UnmappedFiles:    Table[UnmappedFileRow]{Rows: []UnmappedFileRow{}},
		Stats:            Table[StatRow]{Rows: []StatRow{}},
	}
	p.starts = []int{0}
	for i, c := range src {
		if c == '\n' && i+1 < len(src) {
			p.starts = append(p.starts, i+1)
		}
	}
	p.src = p.blankComments(src)
	if i := bytes.IndexByte(p.src, 0); i >= 0 {
		p.errorf(p.line(i), "NUL byte; a mapping artifact is text")
		for j := i; j < len(p.src); j++ {
			if p.src[j] == 0 {
				p.src[j] = ' '
			}
		}
	}
	loneCRs(p.src)
	p.limitNesting()
	doc, err := p.markdown()
	if err != nil {
		p.errorf(1, "%v", err)
		return m
	}
	var nodes []ast.Node
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		nodes = append(nodes, n)
	}

	i := 0
	switch {
	case len(nodes) == 0:
		p.errorf(1, "the artifact is empty; it must open with the title %q", titleForm)
	case isHeading(nodes[0], 1):
		p.title(m, nodes[0].(*ast.Heading))
		i = 1
	default:
		p.errorf(p.nodeLine(nodes[0]), "the artifact must open with the title %q, found %s", titleForm, p.describeA(nodes[0]))
		if !isHeading(nodes[0], 2) {
			i = 1
		}
	}
	for ; i < len(nodes) && !isHeading(nodes[i], 1) && !isHeading(nodes[i], 2); i++ {
		p.errorf(p.nodeLine(nodes[i]), "unexpected %s before the first part %q", p.describe(nodes[i]), "## "+PartSCS)
	}
	for i < len(nodes) {
		j := i + 1
		for j < len(nodes) && !isHeading(nodes[j], 1) && !isHeading(nodes[j], 2) {
			j++
		}
		p.part(m, nodes[i].(*ast.Heading), nodes[i+1:j])
		i = j
	}
	// A missing part is readable input, read as empty: rule 4 reports it
	// with every other violation.
	return m
}

// markdown runs goldmark's block parsers with the GFM table recogniser.
// Inline parsers are left out on purpose: every value is read from the
// source lines, and goldmark's link and code-span handling is quadratic on
// hostile lines ("[a](" repeated takes minutes), as is the table
// extension's escaped-pipe AST pass, which only concerns code spans.
// Goldmark is fuzzed upstream, but a panic on hostile input must not take
// down a whole validation run, so it becomes an error at line 1.
func (p *parser) markdown() (doc ast.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("markdown parser failed: %v", r)
		}
	}()
	md := gmparser.NewParser(
		gmparser.WithBlockParsers(gmparser.DefaultBlockParsers()...),
		gmparser.WithParagraphTransformers(gmparser.DefaultParagraphTransformers()...),
		gmparser.WithParagraphTransformers(util.Prioritized(extension.NewTableParagraphTransformer(), 200)),
	)
	return md.Parse(text.NewReader(p.src)), nil
}

// blankComments replaces every HTML comment "<!-- ... -->" by spaces,
// keeping line breaks, so that offsets and lines are unchanged. Comments
// carry curator notes and the rule fixtures' "<!-- want R07 ... -->"
// expectations at the end of the offending line; they are not content.
func (p *parser) blankComments(src []byte) []byte {
	out := bytes.Clone(src)
	for i := 0; ; {
		j := bytes.Index(out[i:], []byte("<!--"))
		if j < 0 {
			return out
		}
		start := i + j
		k := bytes.Index(out[start+4:], []byte("-->"))
		if k < 0 {
			p.errorf(p.line(start), "unterminated HTML comment: %q has no closing %q", "<!--", "-->")
			return out
		}
		end := start + 4 + k + 3
		for x := start; x < end; x++ {
			if out[x] != '\n' && out[x] != '\r' {
				out[x] = ' '
			}
		}
		i = end
	}
}

// maxNesting bounds the container markers (block quotes and list items)
// that may open a line. The format needs a handful; goldmark takes time
// quadratic in the nesting depth, so a hostile line of 100,000 ">" would
// stall a validation run for minutes.
const maxNesting = 100

// limitNesting reports each line that opens more containers than
// maxNesting and blanks it, keeping offsets, so goldmark never sees it.
func (p *parser) limitNesting() {
	for l, start := range p.starts {
		end := start
		for end < len(p.src) && p.src[end] != '\n' {
			end++
		}
		depth := ep.Nesting(p.src[start:end])
		if depth <= maxNesting {
			continue
		}
		p.errorf(l+1, "the line opens %d nested block quotes or list items; the mapping format needs a few at most", depth)
		for x := start; x < end; x++ {
			if p.src[x] != '\r' {
				p.src[x] = ' '
			}
		}
	}
}

// loneCRs replaces each carriage return that does not end a line ("\r"
// not followed by "\n") with a space. CommonMark reads a lone CR as a line
// break, but editors and our line numbers do not, and a cell value split
// by goldmark but not by splitRow would not survive a rewrite.
func loneCRs(src []byte) {
	for i, c := range src {
		if c == '\r' && (i+1 == len(src) || src[i+1] != '\n') {
			src[i] = ' '
		}
	}
}

func (p *parser) title(m *Mapping, h *ast.Heading) {
	m.TitleLine = p.nodeLine(h)
	t := p.headingText(h)
	id, ok := strings.CutPrefix(t, "Mapping:")
	id = strings.TrimSpace(id)
	if !ok || id == "" {
		p.errorf(m.TitleLine, "title %q must read %q", "# "+t, titleForm)
	}
	m.Title = id
}

func (p *parser) part(m *Mapping, h *ast.Heading, body []ast.Node) {
	line := p.nodeLine(h)
	name := p.headingText(h)
	if h.Level == 1 {
		p.errorf(line, "unexpected second title %q; parts are level-2 headings", "# "+name)
		return
	}
	if !slices.Contains(Parts, name) {
		want := make([]string, len(Parts))
		for i, n := range Parts {
			want[i] = strconv.Quote("## " + n)
		}
		p.errorf(line, "unknown part %q; the parts are %s", "## "+name, strings.Join(want, ", "))
		return
	}
	if first, dup := m.PartLines[name]; dup {
		p.errorf(line, "duplicate part %q (first at line %d)", "## "+name, first)
		return
	}
	m.PartLines[name] = line
	what := fmt.Sprintf("part %q", "## "+name)
	switch name {
	case PartSCS:
		m.SCS = tablePart(p, what, line, body, scsCols)
	case PartPFS:
		m.PFS = tablePart(p, what, line, body, pfsCols)
	case PartMappedSections:
		m.Blocks = p.blocks(what, line, body)
	case PartUnmappedSections:
		m.UnmappedSections = tablePart(p, what, line, body, unmappedSectionCols)
	case PartUnmappedFiles:
		m.UnmappedFiles = tablePart(p, what, line, body, unmappedFileCols)
	case PartStats:
		m.Stats = tablePart(p, what, line, body, statCols)
	}
}

// tablePart reads a part that holds exactly one table or "None.".
func tablePart[R any, P rowPtr[R]](p *parser, what string, line int, body []ast.Node, cols []column[R]) Table[R] {
	t := Table[R]{Line: line, Rows: []R{}}
	if len(body) == 0 {
		p.errorf(line, "%s is empty; write its table, or %q when it has no rows", what, noneText)
		return t
	}
	if tbl, ok := body[0].(*extast.Table); ok {
		t = parseTable[R, P](p, what, tbl, cols)
	} else if p.isNone(body[0]) {
		t.Line, t.None = p.nodeLine(body[0]), true
	} else {
		p.errorf(p.nodeLine(body[0]), "%s must hold a table or %q, found %s", what, noneText, p.describeA(body[0]))
	}
	for _, n := range body[1:] {
		p.errorf(p.nodeLine(n), "unexpected %s in %s, which holds one table", p.describe(n), what)
	}
	return t
}

// parseTable reads cells from the source lines of the rows goldmark found.
// Goldmark pads short rows and drops extra cells silently; counting cells
// here makes either a parse error instead of a shifted value.
func parseTable[R any, P rowPtr[R]](p *parser, what string, tbl *extast.Table, cols []column[R]) Table[R] {
	t := Table[R]{Line: p.nodeLine(tbl), Rows: []R{}}
	var rows []ast.Node
	for c := tbl.FirstChild(); c != nil; c = c.NextSibling() {
		if c.Kind() == extast.KindTableHeader {
			t.Line = p.nodeLine(c)
		} else {
			rows = append(rows, c)
		}
	}
	t.Columns = p.splitRow(t.Line)
	seen := map[string]int{}
	for i, c := range t.Columns {
		if j, dup := seen[columnKey(c)]; dup {
			p.errorf(t.Line, "%s: columns %d and %d are both named %q", what, j+1, i+1, c)
			continue
		}
		seen[columnKey(c)] = i
	}
	bound := bindColumns(t.Columns, cols)
	for _, rn := range rows {
		line := p.nodeLine(rn)
		cells := p.splitRow(line)
		if len(cells) != len(t.Columns) {
			p.errorf(line, "%s: row has %s, the header has %d", what, plural(len(cells), "cell"), len(t.Columns))
			continue
		}
		var r R
		b := P(&r).base()
		b.Line = line
		for i, v := range cells {
			if k := bound[i]; k >= 0 {
				if cols[k].code {
					v = unquoteCode(v)
				}
				*cols[k].get(&r) = v
				continue
			}
			if b.Extra == nil {
				b.Extra = map[string]string{}
			}
			b.Extra[t.Columns[i]] = v
		}
		t.Rows = append(t.Rows, r)
	}
	return t
}

// splitRow splits one table line into trimmed cells the way goldmark does:
// an outer pipe on either side is dropped and "\|" does not split (it is
// unescaped in the cell).
func (p *parser) splitRow(line int) []string {
	s := strings.TrimSpace(p.lineText(line))
	s = strings.TrimSuffix(strings.TrimPrefix(s, "|"), "|")
	if strings.TrimSpace(s) == "" {
		return []string{}
	}
	cells := []string{}
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '|' && (i == 0 || s[i-1] != '\\') {
			cells = append(cells, s[start:i])
			start = i + 1
		}
	}
	cells = append(cells, s[start:])
	for i, c := range cells {
		cells[i] = strings.ReplaceAll(strings.TrimSpace(c), `\|`, "|")
	}
	return cells
}

// blocks reads the Mapped Sections part: "None." or level-3 blocks.
func (p *parser) blocks(what string, line int, body []ast.Node) []Block {
	blocks := []Block{}
	i := 0
	for i < len(body) && !isHeading(body[i], 3) {
		i++
	}
	switch {
	case len(body) == 0:
		p.errorf(line, "%s is empty; write its blocks, or %q when no section is mapped", what, noneText)
		return blocks
	case i == len(body) && len(body) == 1 && p.isNone(body[0]):
		return blocks
	}
	for _, n := range body[:i] {
		p.errorf(p.nodeLine(n), "unexpected %s in %s; a block starts with the heading %q", p.describe(n), what, blockForm)
	}
	for ord := 1; i < len(body); ord++ {
		j := i + 1
		for j < len(body) && !isHeading(body[j], 3) {
			j++
		}
		if b, ok := p.block(ord, body[i].(*ast.Heading), body[i+1:j]); ok {
			blocks = append(blocks, b)
		}
		i = j
	}
	return blocks
}

// The parts of a block, in their required order.
const (
	slotQuote = iota
	slotRequirement
	slotCounts
	slotDirect
	slotAssociated
	slotSummary
	numSlots
	slotSkip = -2 // content of an unknown or duplicate sub-part, already reported
	slotNone = -1
)

var slotNames = [numSlots]string{
	"block quote",
	`"**Requirement:**" paragraph`,
	`"**Files:**" counts line`,
	`"#### ` + SubPartDirect + `"`,
	`"#### ` + SubPartAssociated + `"`,
	`"#### ` + SubPartSummary + `"`,
}

// blockParse is the state of reading one block: which parts were seen
// (and where), and which sub-part heading still waits for its content.
type blockParse struct {
	p        *parser
	b        *Block
	ord      int
	seen     [numSlots]int
	last     int
	open     int
	openLine int
	filled   bool
}

func (p *parser) block(ord int, h *ast.Heading, body []ast.Node) (Block, bool) {
	b := Block{
		Line:       p.nodeLine(h),
		Direct:     Table[CodeRow]{Rows: []CodeRow{}},
		Associated: Table[CodeRow]{Rows: []CodeRow{}},
		Summary:    Summary{Items: []SummaryItem{}},
	}
	ok := true
	t := p.headingText(h)
	if mm := blockHeadingRE.FindStringSubmatch(t); mm == nil {
		p.errorf(b.Line, "block heading %q must read %q", "### "+t, blockForm)
		ok = false
	} else {
		b.Number, _ = strconv.Atoi(mm[1]) // at most 9 digits: cannot fail
		b.Section, b.Title = mm[2], mm[3]
	}
	s := &blockParse{p: p, b: &b, ord: ord, last: -1, open: slotNone}
	for _, n := range body {
		s.node(n)
	}
	s.closeOpen()
	for slot, line := range s.seen {
		if line == 0 {
			p.errorf(b.Line, "block %d: missing %s", ord, slotNames[slot])
		}
	}
	return b, ok
}

func (s *blockParse) node(n ast.Node) {
	p := s.p
	line := p.nodeLine(n)
	switch n := n.(type) {
	case *ast.Blockquote:
		s.closeOpen()
		if s.place(slotQuote, line) {
			s.quote(n)
		}
		return
	case *ast.Paragraph:
		lines := p.blockLines(n)
		if len(lines) > 0 && labelOf(lines[0].text) != "" {
			s.closeOpen()
			s.labelled(lines)
			return
		}
		if s.open == slotSkip {
			return
		}
		if s.open >= 0 && !s.filled {
			s.filled = true
			if !p.isNone(n) {
				p.errorf(line, "block %d: %s must hold %s, found a paragraph", s.ord, slotNames[s.open], s.content())
				return
			}
			switch s.open {
			case slotDirect:
				s.b.Direct = Table[CodeRow]{Line: line, None: true, Rows: []CodeRow{}}
			case slotAssociated:
				s.b.Associated = Table[CodeRow]{Line: line, None: true, Rows: []CodeRow{}}
			case slotSummary:
				s.b.Summary = Summary{Line: line, None: true, Items: []SummaryItem{}}
			}
			return
		}
	case *extast.Table:
		if s.open == slotSkip {
			return
		}
		if (s.open == slotDirect || s.open == slotAssociated) && !s.filled {
			s.filled = true
			what := fmt.Sprintf("block %d %s", s.ord, slotNames[s.open])
			if s.open == slotDirect {
				s.b.Direct = parseTable(p, what, n, directCols)
			} else {
				s.b.Associated = parseTable(p, what, n, associatedCols)
			}
			return
		}
	case *ast.List:
		if s.open == slotSkip {
			return
		}
		if s.open == slotSummary && !s.filled {
			s.filled = true
			s.summary(n)
			return
		}
	case *ast.Heading:
		if n.Level == 4 {
			s.closeOpen()
			s.open = slotSkip
			name := p.headingText(n)
			var slot int
			switch name {
			case SubPartDirect:
				slot = slotDirect
			case SubPartAssociated:
				slot = slotAssociated
			case SubPartSummary:
				slot = slotSummary
			default:
				p.errorf(line, "block %d: unknown sub-part %q; the sub-parts are %s, %s and %s, in this order",
					s.ord, "#### "+name, slotNames[slotDirect], slotNames[slotAssociated], slotNames[slotSummary])
				return
			}
			if s.place(slot, line) {
				s.open, s.openLine, s.filled = slot, line, false
			}
			return
		}
	}
	if s.open == slotSkip {
		return
	}
	msg := fmt.Sprintf("block %d: unexpected %s", s.ord, p.describe(n))
	if next := s.next(); next >= 0 {
		msg += "; expected " + slotNames[next] + " next"
	}
	p.errorf(line, "%s", msg)
}

// place records part slot at line; false for a duplicate, whose content
// is then skipped. A part out of order is reported but kept, so the
// missing-part check does not report it a second time.
func (s *blockParse) place(slot, line int) bool {
	if first := s.seen[slot]; first != 0 {
		s.p.errorf(line, "block %d: duplicate %s (first at line %d)", s.ord, slotNames[slot], first)
		return false
	}
	s.seen[slot] = line
	if slot < s.last {
		s.p.errorf(line, "block %d: %s must come before %s", s.ord, slotNames[slot], slotNames[s.last])
	}
	s.last = max(s.last, slot)
	return true
}

// next is the first part not yet seen, or -1.
func (s *blockParse) next() int {
	for slot, line := range s.seen {
		if line == 0 {
			return slot
		}
	}
	return -1
}

func (s *blockParse) content() string {
	if s.open == slotSummary {
		return fmt.Sprintf("a bullet list %q or %q", summaryForm, noneText)
	}
	return fmt.Sprintf("a table or %q", noneText)
}

// closeOpen ends the current sub-part; a heading with nothing under it is
// an error at the heading.
func (s *blockParse) closeOpen() {
	if s.open >= 0 && !s.filled {
		s.p.errorf(s.openLine, "block %d: %s is empty; it must hold %s", s.ord, slotNames[s.open], s.content())
	}
	s.open = slotNone
}

func labelOf(line string) string {
	for _, l := range []string{requirementLabel, filesLabel} {
		if strings.HasPrefix(line, l) {
			return l
		}
	}
	return ""
}

// labelled reads the "**Requirement:**" and "**Files:**" lines. They may
// share one paragraph (no blank line between them): each label starts a
// new part, and unlabelled lines continue the previous one.
func (s *blockParse) labelled(lines []srcLine) {
	for i := 0; i < len(lines); {
		j := i + 1
		for j < len(lines) && labelOf(lines[j].text) == "" {
			j++
		}
		label := labelOf(lines[i].text)
		parts := []string{strings.TrimPrefix(lines[i].text, label)}
		for _, l := range lines[i+1 : j] {
			parts = append(parts, l.text)
		}
		body := strings.Join(strings.Fields(strings.Join(parts, " ")), " ")
		line := lines[i].line
		if label == requirementLabel {
			if s.place(slotRequirement, line) {
				s.b.Requirement = Requirement{Line: line, Text: body}
			}
		} else if s.place(slotCounts, line) {
			s.counts(line, body)
		}
		i = j
	}
}

func (s *blockParse) counts(line int, body string) {
	if IsMarker(body) {
		// A computed line a curator left to validate --fix, which
		// rewrites it; the rules see zero counts until then.
		s.b.Counts = Counts{Line: line}
		return
	}
	mm := countsRE.FindStringSubmatch(body)
	if mm == nil {
		s.p.errorf(line, "block %d: cannot read the counts line %q; it must read %q", s.ord, filesLabel+" "+body, countsForm)
		return
	}
	n := func(i int) int { v, _ := strconv.Atoi(mm[i]); return v } // at most 9 digits
	s.b.Counts = Counts{
		Line:              line,
		Direct:            n(1),
		DirectPercent:     strings.TrimSpace(mm[2]),
		Associated:        n(3),
		AssociatedPercent: strings.TrimSpace(mm[4]),
		Accounted:         n(5),
		AccountedPercent:  strings.TrimSpace(mm[6]),
		PRFiles:           n(7),
	}
}

// quote keeps the block quote both as written and as plain text. A lazy
// continuation line that starts with a label was meant as the next part
// (a blank line is missing): it is reported and read as that part.
func (s *blockParse) quote(n *ast.Blockquote) {
	p := s.p
	start, end := p.nodeLine(n), p.lastLine(n)
	for end < len(p.starts) && isQuoteMarked(p.lineText(end+1)) {
		end++
	}
	var raw, plain []string
	for l := start; l <= end; l++ {
		t := p.lineText(l)
		if !isQuoteMarked(t) {
			if label := labelOf(strings.TrimSpace(t)); label != "" {
				p.errorf(l, "block %d: the %q line continues the block quote; leave a blank line after the quote", s.ord, label)
				var rest []srcLine
				for k := l; k <= end; k++ {
					rest = append(rest, srcLine{k, strings.TrimSpace(p.lineText(k))})
				}
				s.labelled(rest)
				break
			}
		}
		raw = append(raw, strings.TrimRight(t, " \t"))
		plain = append(plain, unquoteLine(t))
	}
	for len(plain) > 0 && plain[len(plain)-1] == "" {
		plain = plain[:len(plain)-1]
	}
	for len(plain) > 0 && plain[0] == "" {
		plain = plain[1:]
	}
	s.b.Quote = Quote{Line: start, Raw: strings.Join(raw, "\n"), Text: strings.Join(plain, "\n")}
}

// isQuoteMarked reports a line opening with a block-quote marker (up to
// three spaces of indentation, then ">").
func isQuoteMarked(line string) bool {
	t := strings.TrimLeft(line, " ")
	return len(line)-len(t) <= 3 && strings.HasPrefix(t, ">")
}

// unquoteLine removes one level of block-quote marker and the space after
// it; a lazy continuation line loses its indentation instead.
func unquoteLine(line string) string {
	if isQuoteMarked(line) {
		t := strings.TrimLeft(line, " ")[1:]
		if strings.HasPrefix(t, " ") || strings.HasPrefix(t, "\t") {
			t = t[1:]
		}
		return strings.TrimRight(t, " \t")
	}
	return strings.TrimSpace(line)
}

func (s *blockParse) summary(l *ast.List) {
	p := s.p
	sum := Summary{Line: p.nodeLine(l), Items: []SummaryItem{}}
	defer func() { s.b.Summary = sum }()
	if l.IsOrdered() {
		p.errorf(sum.Line, "block %d: %s must be a bullet list %q, found a numbered list", s.ord, slotNames[slotSummary], summaryForm)
		return
	}
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		line := p.nodeLine(item)
		var lines []srcLine
		ok := true
		for c := item.FirstChild(); c != nil; c = c.NextSibling() {
			switch c.(type) {
			case *ast.Paragraph, *ast.TextBlock:
				lines = append(lines, p.blockLines(c)...)
			default:
				p.errorf(p.nodeLine(c), "block %d: a summary bullet holds text only, found %s", s.ord, p.describeA(c))
				ok = false
			}
		}
		if !ok {
			continue
		}
		var words []string
		for _, l := range lines {
			words = append(words, l.text)
		}
		body := strings.Join(words, " ")
		path, rest, found := splitSummary(body)
		if !found {
			p.errorf(line, "block %d: summary bullet %q must read %q", s.ord, "- "+body, summaryForm)
			continue
		}
		sum.Items = append(sum.Items, SummaryItem{Line: line, Path: path, Text: rest})
	}
}

// splitSummary splits "`path`: text" (or "path: text") into path and text.
func splitSummary(s string) (path, rest string, ok bool) {
	if n := backtickRun(s, 0); n > 0 {
		end := closingRun(s, n, n)
		if end < 0 {
			return "", "", false
		}
		path = strings.TrimSpace(s[n:end])
		rest, ok = strings.CutPrefix(s[end+n:], ":")
	} else {
		path, rest, ok = strings.Cut(s, ":")
		path = strings.TrimSpace(path)
		ok = ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t')
	}
	if !ok || path == "" {
		return "", "", false
	}
	return path, strings.TrimSpace(rest), true
}

// srcLine is one source line of a paragraph, trimmed.
type srcLine struct {
	line int
	text string
}

func (p *parser) blockLines(n ast.Node) []srcLine {
	segs := n.Lines()
	var out []srcLine
	for i := 0; i < segs.Len(); i++ {
		seg := segs.At(i)
		t := strings.TrimSpace(string(seg.Value(p.src)))
		if t == "" {
			continue
		}
		out = append(out, srcLine{p.line(seg.Start), t})
	}
	return out
}

func (p *parser) isNone(n ast.Node) bool {
	if _, ok := n.(*ast.Paragraph); !ok {
		return false
	}
	lines := p.blockLines(n)
	return len(lines) == 1 && lines[0].text == noneText
}

func isHeading(n ast.Node, level int) bool {
	h, ok := n.(*ast.Heading)
	return ok && h.Level == level
}

// headingText is the heading's source text, lines joined by spaces.
func (p *parser) headingText(h *ast.Heading) string {
	var parts []string
	for _, l := range p.blockLines(h) {
		parts = append(parts, l.text)
	}
	return strings.Join(strings.Fields(strings.Join(parts, " ")), " ")
}

// describe names a node for a message: "paragraph", `heading "### x"`.
func (p *parser) describe(n ast.Node) string {
	switch n := n.(type) {
	case *ast.Heading:
		return fmt.Sprintf("heading %q", strings.Repeat("#", n.Level)+" "+p.headingText(n))
	case *ast.Paragraph:
		if p.isNone(n) {
			return strconv.Quote(noneText)
		}
		return "paragraph"
	case *extast.Table:
		return "table"
	case *ast.Blockquote:
		return "block quote"
	case *ast.List:
		if n.IsOrdered() {
			return "numbered list"
		}
		return "bullet list"
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		return "code block"
	case *ast.HTMLBlock:
		return "HTML block"
	case *ast.ThematicBreak:
		return "thematic break"
	case *ast.LinkReferenceDefinition:
		return "link reference definition"
	}
	return strings.ToLower(n.Kind().String())
}

// describeA is describe with an indefinite article.
func (p *parser) describeA(n ast.Node) string {
	d := p.describe(n)
	switch {
	case strings.HasPrefix(d, `"`):
		return d
	case strings.HasPrefix(d, "HTML"), strings.ContainsRune("aeiou", rune(d[0])):
		return "an " + d
	}
	return "a " + d
}

// line converts a byte offset to its 1-based line.
func (p *parser) line(off int) int {
	if off < 0 {
		return 1
	}
	i, found := slices.BinarySearch(p.starts, off)
	if found {
		return i + 1
	}
	return max(i, 1)
}

// nodeLine is the first line of a block node. Nodes without a position
// (goldmark sets none on some) fall back to their first text segment or
// child.
func (p *parser) nodeLine(n ast.Node) int {
	if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
		if _, ok := n.(*ast.Heading); ok {
			return p.line(n.Lines().At(0).Start)
		}
	}
	if pos := n.Pos(); pos >= 0 {
		return p.line(pos)
	}
	if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
		return p.line(n.Lines().At(0).Start)
	}
	if c := n.FirstChild(); c != nil {
		return p.nodeLine(c)
	}
	return 1
}

// lastLine is the last line holding text of n or its descendants.
func (p *parser) lastLine(n ast.Node) int {
	last := p.nodeLine(n)
	if n.Type() == ast.TypeBlock {
		if segs := n.Lines(); segs.Len() > 0 {
			seg := segs.At(segs.Len() - 1)
			last = max(last, p.line(max(seg.Start, seg.Stop-1)))
		}
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if c.Type() == ast.TypeBlock {
				last = max(last, p.lastLine(c))
			}
		}
	}
	return last
}

// lineText is line l without its line break.
func (p *parser) lineText(l int) string {
	if l < 1 || l > len(p.starts) {
		return ""
	}
	end := len(p.src)
	if l < len(p.starts) {
		end = p.starts[l]
	}
	return strings.TrimRight(string(p.src[p.starts[l-1]:end]), "\r\n")
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
