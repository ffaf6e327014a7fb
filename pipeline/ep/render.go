package ep

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Proposals kept as web pages (HTML) or wiki text (DokuWiki) are read as
// their Markdown rendering: the text a reader of the page sees, with the
// page's headings as Markdown headings. The rendering is the Document's
// Source, so that the rules over headings, quotes and rule 22's verbatim
// evidence read it exactly as they read a Markdown proposal, and
// collection writes it as the candidate's ep.md, which parses to the same
// sections.
//
// mdWriter builds that rendering. It escapes every character of text that
// Markdown could read as markup, so that the rendering has exactly the
// block structure the writer chose: its headings are the page's headings,
// and no text becomes a heading, a setext underline, a code fence, an
// HTML block or front matter.

// maxRenderNesting bounds the block quotes and list items the rendering
// nests; deeper content stays at this depth. The Markdown parser refuses
// more than maxNesting on one line.
const maxRenderNesting = 8

// maxRenderedTitle bounds a heading's rendered text, below the length at
// which the Markdown parser stops reading a title's markup.
const maxRenderedTitle = maxTitleSource / 2

// renderedHeading is a heading as the writer emitted it: its "#" count and
// its plain text, which the Markdown parser must give back.
type renderedHeading struct {
	level int
	title string
}

// container is an open block quote or list item.
type container struct {
	quote   bool
	marker  string // a list item's marker ("- ", "1. "), until its first line
	indent  string // a list item's continuation indent
	pending bool   // the item's first line is not written yet
}

// mdWriter writes Markdown blocks into a buffer, within MaxSize.
type mdWriter struct {
	buf        []byte
	containers []container
	depth      int  // containers asked for, including those past the cap
	blockDone  bool // a block was written at the current level
	afterItem  bool // the last block closed a list item: a sibling item follows without a blank line
	over       bool // the rendering passed MaxSize; writing stopped
	headings   []renderedHeading
}

// prefix returns the container prefix of the next line, consuming pending
// list markers; blank lines keep only the quote markers.
func (w *mdWriter) prefix(blank bool) string {
	var b strings.Builder
	for i := range w.containers {
		c := &w.containers[i]
		switch {
		case c.quote:
			b.WriteString("> ")
		case c.pending && !blank:
			b.WriteString(c.marker)
			c.pending = false
		case !blank:
			b.WriteString(c.indent)
		}
	}
	if blank {
		return strings.TrimRight(b.String(), " ")
	}
	return b.String()
}

// line writes one line with the container prefix.
func (w *mdWriter) line(s string) {
	if w.over {
		return
	}
	w.buf = append(w.buf, w.prefix(s == "")...)
	w.buf = append(w.buf, s...)
	w.buf = append(w.buf, '\n')
	if len(w.buf) > MaxSize {
		w.over = true
	}
}

// startBlock separates a new block from the previous one at this level by
// a blank line. A list item whose first line is pending takes its first
// block on that line: a blank line there would end the item.
func (w *mdWriter) startBlock() {
	w.afterItem = false
	for _, c := range w.containers {
		if c.pending {
			w.blockDone = true
			return
		}
	}
	if w.blockDone {
		w.line("")
	}
	w.blockDone = true
}

// heading writes an ATX heading at the top level and records it; inside a
// quote or a list item, where Markdown has no sections, its text is a
// paragraph. It writes nothing for an empty title.
func (w *mdWriter) heading(level int, md, plain string) {
	md = strings.Join(strings.Fields(md), " ")
	plain = cleanTitle(plain)
	if plain == "" || md == "" {
		return
	}
	if len(w.containers) > 0 {
		w.paragraph(md)
		return
	}
	if len(md) > maxRenderedTitle {
		// A title this long is not a title; keep its start as plain text.
		plain = truncateUTF8(plain, maxRenderedTitle/2)
		md = escapeText(plain, true)
	}
	level = min(max(level, 1), 6)
	w.startBlock()
	w.line(strings.Repeat("#", level) + " " + md)
	w.headings = append(w.headings, renderedHeading{level, plain})
}

// paragraph writes inline Markdown; "\n" separates its lines (a hard
// break in the source). Each line starts with text, never with markup.
func (w *mdWriter) paragraph(md string) {
	var lines []string
	for _, l := range strings.Split(md, "\n") {
		l = strings.Join(strings.Fields(l), " ")
		if l != "" {
			lines = append(lines, escapeLineStart(l))
		}
	}
	if len(lines) == 0 {
		return
	}
	w.startBlock()
	for _, l := range lines {
		w.line(l)
	}
}

// code writes a fenced code block; the fence is longer than any backtick
// run of the text, so nothing in it closes the block early.
func (w *mdWriter) code(lang, text string) {
	text = strings.TrimRight(strings.ReplaceAll(text, "\r", ""), "\n")
	text = strings.TrimLeft(text, "\n")
	if strings.TrimSpace(text) == "" {
		return
	}
	fence := strings.Repeat("`", max(3, longestRun(text, '`')+1))
	w.startBlock()
	w.line(fence + codeLang(lang))
	for _, l := range strings.Split(text, "\n") {
		w.line(l)
	}
	w.line(fence)
}

// rule writes a thematic break.
func (w *mdWriter) rule() {
	w.startBlock()
	w.line("* * *")
}

// table writes a GitHub table: the first row is its header. Cells are
// inline Markdown on one line, "|" escaped.
func (w *mdWriter) table(rows [][]string) {
	cols := 0
	for _, r := range rows {
		cols = max(cols, len(r))
	}
	if cols == 0 {
		return
	}
	w.startBlock()
	for i, r := range rows {
		var b strings.Builder
		b.WriteString("|")
		for c := range cols {
			cell := ""
			if c < len(r) {
				cell = escapeCellPipes(strings.Join(strings.Fields(r[c]), " "))
			}
			b.WriteString(" " + cell + " |")
		}
		w.line(b.String())
		if i == 0 {
			w.line("|" + strings.Repeat(" --- |", cols))
		}
	}
}

// escapeCellPipes escapes the "|" that code spans keep: in a table cell
// every "|" ends the cell unless escaped.
func escapeCellPipes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			b.WriteString(s[i : i+2])
			i++
			continue
		}
		if s[i] == '|' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// openQuote opens a block quote, openItem a list item with its marker
// ("- " or "3. "); past maxRenderNesting the content stays where it is.
// Each open is matched by a close.
func (w *mdWriter) openQuote() { w.open(container{quote: true}) }

func (w *mdWriter) openItem(marker string) {
	w.open(container{marker: marker, indent: strings.Repeat(" ", len(marker)), pending: true})
}

func (w *mdWriter) open(c container) {
	w.depth++
	if len(w.containers) >= maxRenderNesting {
		return
	}
	if !c.quote && w.afterItem {
		w.afterItem = false // a tight list
	} else {
		w.startBlock()
	}
	w.containers = append(w.containers, c)
	w.blockDone = false
}

func (w *mdWriter) close() {
	w.depth--
	if w.depth >= len(w.containers) {
		return
	}
	if w.containers[len(w.containers)-1].pending && !w.over {
		// An empty item still shows its marker.
		w.buf = append(w.buf, strings.TrimRight(w.prefix(false), " ")...)
		w.buf = append(w.buf, '\n')
	}
	w.afterItem = !w.containers[len(w.containers)-1].quote
	w.containers = w.containers[:len(w.containers)-1]
	w.blockDone = true
}

// text returns the rendering.
func (w *mdWriter) text() []byte { return w.buf }

// escapeText escapes plain text for Markdown inline content. Every
// character that may open inline markup is escaped ("\*"); "_" only where
// it could be emphasis (not between two letters or digits: snake_case
// stays), "&" only before what could be an entity, and "#" only in a
// heading, where a trailing run would close it.
func escapeText(s string, inHeading bool) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '\\', '`', '*', '[', ']', '<', '|', '~':
			b.WriteByte('\\')
		case '_':
			before, _ := utf8.DecodeLastRuneInString(s[:i])
			after, _ := utf8.DecodeRuneInString(s[i+size:])
			if i == 0 || i+size == len(s) || !isWordRune(before) || !isWordRune(after) {
				b.WriteByte('\\')
			}
		case '&':
			if i+1 < len(s) && (isASCIIAlnum(s[i+1]) || s[i+1] == '#') {
				b.WriteByte('\\')
			}
		case '#':
			if inHeading {
				b.WriteByte('\\')
			}
		}
		b.WriteString(s[i : i+size])
		i += size
	}
	return b.String()
}

// escapeLineStart escapes what would make a line of text a block of its
// own: a heading "#", a quote ">", a list marker "-", "+" or "1.", a
// setext underline or thematic break "=" or "-". The other markup
// characters are escaped wherever they occur (escapeText).
func escapeLineStart(l string) string {
	switch l[0] {
	case '#', '>', '-', '+', '=':
		return "\\" + l
	}
	n := 0
	for n < len(l) && n < 10 && l[n] >= '0' && l[n] <= '9' {
		n++
	}
	if n > 0 && n < len(l) && (l[n] == '.' || l[n] == ')') {
		return l[:n] + "\\" + l[n:]
	}
	return l
}

// inlineMD is inline Markdown under construction: runs of Markdown and
// of code, rendered by String. Code side by side is one code span:
// written apart ("`a“b`") the backticks would read as one longer run
// and end neither span. Text built apart (an element's content) merges
// the same way when it is appended. Appending is linear in the text.
type inlineMD struct {
	runs []*mdRun
	n    int // bytes written
}

// mdRun is Markdown text, or the text of a code span.
type mdRun struct {
	code bool
	b    strings.Builder
}

func (m *inlineMD) run(code bool) *mdRun {
	if k := len(m.runs); k > 0 && m.runs[k-1].code == code {
		return m.runs[k-1]
	}
	r := &mdRun{code: code}
	m.runs = append(m.runs, r)
	return r
}

// WriteString appends Markdown.
func (m *inlineMD) WriteString(s string) {
	if s != "" {
		m.run(false).b.WriteString(s)
		m.n += len(s)
	}
}

// Len is the number of bytes written so far.
func (m *inlineMD) Len() int { return m.n }

// code appends text to a code span, one that ends the text so far or a
// new one.
func (m *inlineMD) code(text string) {
	if text = strings.Join(strings.Fields(text), " "); text != "" {
		m.run(true).b.WriteString(text)
		m.n += len(text)
	}
}

// append appends o's runs, merging its first run with the last one of
// the same kind.
func (m *inlineMD) append(o *inlineMD) {
	for _, r := range o.runs {
		m.run(r.code).b.WriteString(r.b.String())
	}
	m.n += o.n
}

// String renders the runs.
func (m *inlineMD) String() string {
	var b strings.Builder
	for _, r := range m.runs {
		if r.code {
			b.WriteString(codeSpan(r.b.String()))
		} else {
			b.WriteString(r.b.String())
		}
	}
	return b.String()
}

// codeSpan renders text as a code span whose backtick run is longer than
// any inside it.
func codeSpan(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	if text == "" {
		return ""
	}
	ticks := strings.Repeat("`", longestRun(text, '`')+1)
	if strings.HasPrefix(text, "`") || strings.HasSuffix(text, "`") {
		text = " " + text + " "
	}
	return ticks + text + ticks
}

// linkTarget makes a URL safe inside "(...)": no blanks, brackets or
// angle brackets that would end it, and no scheme that runs code.
func linkTarget(href string) string {
	href = strings.TrimSpace(href)
	lower := strings.ToLower(href)
	if href == "" || strings.HasPrefix(lower, "javascript:") || strings.HasPrefix(lower, "data:") || strings.HasPrefix(lower, "vbscript:") {
		return ""
	}
	var b strings.Builder
	for _, r := range href {
		switch {
		case r <= ' ' || r == 0x7f || unicode.IsSpace(r):
			b.WriteString("%20")
		case r == '(' || r == ')' || r == '<' || r == '>' || r == '\\' || r == '`':
			b.WriteString("%" + strings.ToUpper(strconv.FormatInt(int64(r), 16)))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// codeLang keeps the characters an info string may hold.
func codeLang(lang string) string {
	var b strings.Builder
	for _, r := range lang {
		if isASCIIAlnum(byte(r)) && r < utf8.RuneSelf || strings.ContainsRune("+#._-", r) {
			b.WriteRune(r)
		}
		if b.Len() >= 32 {
			break
		}
	}
	return b.String()
}

func longestRun(s string, c byte) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
