package rules

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Rule 22's reading of inline markup. A mapping quotes an EP in one of
// three ways: copied from the Markdown source, from the reStructuredText
// source, or from the rendered page. Normalising the EP and the quote to
// the text a reader sees makes the three agree, while every character the
// reader sees is kept: "SET_EX" stays "SET_EX", "a * b" stays "a * b".
//
// What is markup (the rest is text):
//   - code spans and interpreted text, `x` and ``x``: the backticks; what is
//     inside is kept verbatim, markup included;
//   - reStructuredText roles and references around interpreted text:
//     :term:`Core Metadata`, `Core Metadata`:term:, `text <target>`_,
//     `text`__ and _`target` read as the text; :func:`~a.b.f` as "f";
//     :pep:`639` and :rfc:`822` as "PEP 639" and "RFC 822";
//   - reStructuredText references name_ and name__ (the trailing "_" of a
//     word that ends there), and the "_" of footnote references [1]_;
//   - Markdown links and images, [text](url), [text][ref], ![alt](src), and
//     autolinks <https://...>: the text, the url of an autolink;
//   - emphasis: a run of "*" or "_" that opens at the start of a word and is
//     closed by a run of the same character at the end of a word in the
//     same paragraph; an intraword or lone run is text, and so is a Python
//     name such as __init__;
//   - a backslash before punctuation (the punctuation is then text);
//   - a list bullet ("*", "-" or "+" and a blank) at the start of a line;
//   - the "::" that ends a reStructuredText paragraph before a literal block
//     (rendered ":", or nothing after a blank).
//
// Unmatched backticks are dropped too, so that a passage cut inside a code
// span by an ellipsis still reads as its words. Every step is linear or
// n log n in the text: an EP is as hostile as any other input.

// quoteNorm is a text normalised for quotation matching, with the source
// offset of every byte it keeps. Normalising the EP and the quote the same
// way lets one mapping quote the Markdown and the reStructuredText version
// of an EP, or its rendered text, alike (rule 22): white space runs
// collapse to one blank and inline markup is read as the text it renders.
type quoteNorm struct {
	s    string
	offs []int // offs[i] is the source offset of s[i]
}

// quoteMarkup is the markup analysis of one text.
type quoteMarkup struct {
	src       string
	drop      []bool         // byte is markup
	literal   []bool         // byte is text whatever it looks like (code, escaped)
	insert    map[int]string // text a role renders before this offset
	blanks    []int          // offsets of the line feeds that end a paragraph
	runsByLen map[int][]int  // starts of backtick runs, by run length
}

// normalizeQuoteText normalises src for quotation matching.
func normalizeQuoteText(src string) quoteNorm {
	m := &quoteMarkup{
		src:     src,
		drop:    make([]bool, len(src)),
		literal: make([]bool, len(src)),
	}
	m.index()
	m.codeSpans()
	m.links()
	m.lineMarkup()
	m.emphasis()
	return m.render()
}

// index finds the paragraph breaks and the backtick runs.
func (m *quoteMarkup) index() {
	src := m.src
	m.runsByLen = map[int][]int{}
	lastLF := -1
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			if lastLF >= 0 && strings.TrimSpace(src[lastLF+1:i]) == "" {
				m.blanks = append(m.blanks, i)
			}
			lastLF = i
		case '`':
			j := i
			for j < len(src) && src[j] == '`' {
				j++
			}
			m.runsByLen[j-i] = append(m.runsByLen[j-i], i)
			i = j - 1
		}
	}
}

// paraEnd is the offset of the blank line that ends the paragraph holding
// off, or len(src).
func (m *quoteMarkup) paraEnd(off int) int {
	k := sort.SearchInts(m.blanks, off)
	if k < len(m.blanks) {
		return m.blanks[k]
	}
	return len(m.src)
}

// free reports whether the byte at i is neither markup nor protected text.
func (m *quoteMarkup) free(i int) bool { return !m.drop[i] && !m.literal[i] }

func (m *quoteMarkup) dropRange(i, j int) {
	for ; i < j; i++ {
		m.drop[i] = true
	}
}

// codeSpans reads backslash escapes and backtick spans, with the roles and
// reference suffixes of reStructuredText interpreted text.
func (m *quoteMarkup) codeSpans() {
	src := m.src
	for i := 0; i < len(src); {
		switch {
		case src[i] == '\\' && i+1 < len(src) && isASCIIPunct(src[i+1]):
			m.drop[i], m.literal[i+1] = true, true
			i += 2
		case src[i] == '`':
			n := 1
			for i+n < len(src) && src[i+n] == '`' {
				n++
			}
			i = m.codeSpan(i, n)
		default:
			i++
		}
	}
}

// codeSpan handles the backtick run [i, i+n) and returns where scanning
// goes on.
func (m *quoteMarkup) codeSpan(i, n int) int {
	src := m.src
	runs := m.runsByLen[n]
	k := sort.SearchInts(runs, i+n)
	if k == len(runs) || runs[k] >= m.paraEnd(i) {
		m.dropRange(i, i+n) // unmatched: dropped, the words stay
		return i + n
	}
	c := runs[k] // the closing run
	m.dropRange(i, i+n)
	m.dropRange(c, c+n)
	for p := i + n; p < c; p++ {
		m.literal[p] = true
	}
	end := c + n
	if n != 1 {
		return end // ``literal``: no role, no reference
	}
	// A role before the span (":term:`x`"), or after it ("`x`:term:").
	role, roleStart := "", -1
	if i > 0 && src[i-1] == ':' {
		s := i - 2
		for s >= 0 && isRoleByte(src[s]) {
			s--
		}
		// s+1 is the first name byte; the role opens with ":" there
		if s+1 < i-1 && src[s+1] == ':' && (s < 0 || !isWordByte(src[s])) && i-1-(s+2) > 0 {
			roleStart, role = s+1, src[s+2:i-1]
		}
	}
	ref := false
	switch {
	case roleStart >= 0:
		m.dropRange(roleStart, i)
	case strings.HasPrefix(src[end:], "__") && !startsWord(src[end+2:]):
		m.dropRange(end, end+2)
		end, ref = end+2, true
	case strings.HasPrefix(src[end:], "_") && !startsWord(src[end+1:]):
		m.dropRange(end, end+1)
		end, ref = end+1, true
	case strings.HasPrefix(src[end:], ":"):
		e := end + 1
		for e < len(src) && isRoleByte(src[e]) && src[e] != ':' {
			e++
		}
		if e > end+1 && e < len(src) && src[e] == ':' && !startsWord(src[e+1:]) {
			role = src[end+1 : e]
			m.dropRange(end, e+1)
			end = e + 1
		}
	}
	if roleStart < 0 && !ref && i > 0 && src[i-1] == '_' && (i == 1 || !isWordByte(src[i-2])) {
		m.drop[i-1] = true // _`inline target`
	}
	if role == "" && !ref {
		return end
	}
	m.embedded(i+1, c, role)
	return end
}

// embedded reads the text of a reference or role in [a, b): "text <target>"
// is the text, "<target>" the target; a role's "~a.b.f" is "f" and "!x" is
// "x"; :pep: and :rfc: numbers read as "PEP n" and "RFC n".
func (m *quoteMarkup) embedded(a, b int, role string) {
	src := m.src
	if b > a && src[b-1] == '>' {
		if lt := strings.LastIndexByte(src[a:b-1], '<'); lt >= 0 {
			lt += a
			switch {
			case lt == a:
				m.drop[a], m.drop[b-1] = true, true
			case src[lt-1] == ' ' || src[lt-1] == '\n':
				t := lt
				for t > a && (src[t-1] == ' ' || src[t-1] == '\n') {
					t--
				}
				m.dropRange(t, b)
				b = t
			}
		}
	}
	if role == "" || a >= b {
		return
	}
	switch src[a] {
	case '!':
		m.drop[a] = true
	case '~':
		cut := a + 1
		if d := strings.LastIndexByte(src[a:b], '.'); d >= 0 {
			cut = a + d + 1
		}
		m.dropRange(a, cut)
	}
	lower := strings.ToLower(role)
	if (lower == "pep" || lower == "rfc") && a < b && src[a] >= '0' && src[a] <= '9' {
		if m.insert == nil {
			m.insert = map[int]string{}
		}
		m.insert[a] = strings.ToUpper(lower) + " "
	}
}

// links reads Markdown links, images and autolinks, and reStructuredText
// footnote references (rendered "[1]"), outside code.
func (m *quoteMarkup) links() {
	src := m.src
	closeOf := m.matchBrackets('[', ']')
	parenOf := m.matchBrackets('(', ')')
	for i := 0; i < len(src); i++ {
		if !m.free(i) {
			continue
		}
		switch src[i] {
		case '[':
			c, ok := closeOf[i]
			if !ok {
				continue
			}
			after := c + 1
			switch {
			case after < len(src) && src[after] == '(' && m.free(after):
				if e, ok := parenOf[after]; ok {
					m.drop[i] = true
					m.dropRange(c, e+1)
					if i > 0 && src[i-1] == '!' && m.free(i-1) {
						m.drop[i-1] = true
					}
				}
			case after < len(src) && src[after] == '[' && m.free(after):
				if e, ok := closeOf[after]; ok {
					m.drop[i] = true
					m.dropRange(c, e+1)
				}
			case after < len(src) && src[after] == '_' && !startsWord(src[after+1:]) && footnoteLabel(src[i+1:c]):
				m.drop[after] = true // rendered "[1]"
			}
		case '<':
			if e := autolinkEnd(src, i); e > 0 {
				m.drop[i], m.drop[e] = true, true
				i = e
			}
		}
	}
}

// matchBrackets pairs open and close bytes that are free, within one
// paragraph, innermost first.
func (m *quoteMarkup) matchBrackets(open, close byte) map[int]int {
	src := m.src
	out := map[int]int{}
	var stack []int
	b := 0 // next paragraph break
	for i := 0; i < len(src); i++ {
		for b < len(m.blanks) && m.blanks[b] < i {
			b++
			stack = stack[:0]
		}
		if !m.free(i) {
			continue
		}
		switch src[i] {
		case open:
			stack = append(stack, i)
		case close:
			if n := len(stack); n > 0 {
				out[stack[n-1]] = i
				stack = stack[:n-1]
			}
		}
	}
	return out
}

// footnoteLabel reports a reStructuredText footnote or citation label:
// "1", "#", "#name", "*" or a simple name.
func footnoteLabel(s string) bool {
	s = strings.TrimPrefix(s, "#")
	if s == "*" || s == "" {
		return true
	}
	for i := 0; i < len(s); i++ {
		if !isWordByte(s[i]) && !strings.ContainsRune("-.", rune(s[i])) {
			return false
		}
	}
	return true
}

// autolinkEnd returns the offset of the ">" closing an autolink
// <scheme:...> opened at i, or 0.
func autolinkEnd(src string, i int) int {
	j := i + 1
	for j < len(src) && (isAlnumByte(src[j]) || strings.IndexByte("+.-", src[j]) >= 0) {
		j++
	}
	if j == i+1 || j >= len(src) || src[j] != ':' || !isLetterByte(src[i+1]) {
		return 0
	}
	for j++; j < len(src); j++ {
		switch {
		case src[j] == '>':
			return j
		case src[j] == '<' || src[j] == ' ' || src[j] == '\t' || src[j] == '\n':
			return 0
		}
	}
	return 0
}

// lineMarkup drops list bullets at the start of a line and the "::" that
// introduces a reStructuredText literal block.
func (m *quoteMarkup) lineMarkup() {
	src := m.src
	for start := 0; start < len(src); {
		end := strings.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		i := start
		for i < end && (src[i] == ' ' || src[i] == '\t') {
			i++
		}
		if i+1 < end && strings.IndexByte("*-+", src[i]) >= 0 && (src[i+1] == ' ' || src[i+1] == '\t') && m.free(i) {
			m.drop[i] = true
		}
		t := end
		for t > start && (src[t-1] == ' ' || src[t-1] == '\t' || src[t-1] == '\r') {
			t--
		}
		if t-2 >= start && src[t-2:t] == "::" && m.free(t-1) && m.free(t-2) && (t-3 < start || src[t-3] != ':') && blankAfter(src, end) {
			if t-3 < start || src[t-3] == ' ' || src[t-3] == '\t' {
				m.dropRange(t-2, t)
			} else {
				m.drop[t-1] = true
			}
		}
		start = end + 1
	}
}

// blankAfter reports whether the line after the line feed at end is blank,
// or there is none: a literal block follows "::" after a blank line.
func blankAfter(src string, end int) bool {
	if end >= len(src) {
		return true
	}
	next := strings.IndexByte(src[end+1:], '\n')
	if next < 0 {
		next = len(src) - end - 1
	}
	return strings.TrimSpace(src[end+1:end+1+next]) == ""
}

// delim is a run of "*" or "_" that may be emphasis markup.
type delim struct {
	at, n           int
	canOpen, canClo bool
}

// emphasis drops the "*" and "_" runs that open and close emphasis: an
// opening run starts a word, a closing run ends one, and the two are in
// the same paragraph (docutils' rule, and CommonMark's for "_").
func (m *quoteMarkup) emphasis() {
	src := m.src
	// One stack of openers per character: a closer matches the nearest
	// opener of its own character, so each run is pushed and popped once.
	stacks := map[byte][]delim{}
	b := 0
	for i := 0; i < len(src); {
		for b < len(m.blanks) && m.blanks[b] < i {
			b++
			stacks['*'], stacks['_'] = stacks['*'][:0], stacks['_'][:0]
		}
		c := src[i]
		if (c != '*' && c != '_') || !m.free(i) {
			i++
			continue
		}
		j := i
		for j < len(src) && src[j] == c && m.free(j) {
			j++
		}
		d := delim{at: i, n: j - i}
		prev, next := m.around(i, j)
		left := !isSpaceRune(next) && (!isPunctRune(next) || isSpaceRune(prev) || isPunctRune(prev))
		right := !isSpaceRune(prev) && (!isPunctRune(prev) || isSpaceRune(next) || isPunctRune(next))
		d.canOpen = left && (!right || isPunctRune(prev))
		d.canClo = right && (!left || isPunctRune(next))
		if c == '_' && d.n == 2 && d.canOpen {
			if e := dunderEnd(src, j); e > 0 {
				i = e // a Python name such as __init__ is text
				continue
			}
		}
		matched := false
		if st := stacks[c]; d.canClo && len(st) > 0 {
			o := st[len(st)-1]
			m.dropRange(o.at, o.at+o.n)
			m.dropRange(d.at, d.at+d.n)
			stacks[c] = st[:len(st)-1]
			matched = true
		}
		switch {
		case matched:
		case d.canOpen:
			stacks[c] = append(stacks[c], d)
		case c == '_' && d.n <= 2 && i > 0 && isWordByte(src[i-1]) && !startsWord(src[j:]):
			m.dropRange(i, j) // reStructuredText reference: name_, name__
		}
		i = j
	}
}

// around returns the runes before i and at j, blank at the ends.
func (m *quoteMarkup) around(i, j int) (prev, next rune) {
	prev, next = ' ', ' '
	if i > 0 {
		prev, _ = utf8.DecodeLastRuneInString(m.src[:i])
	}
	if j < len(m.src) {
		next, _ = utf8.DecodeRuneInString(m.src[j:])
	}
	return prev, next
}

// dunderEnd returns the end of a Python name "__x__" whose opening "__"
// ends at j, or 0.
func dunderEnd(src string, j int) int {
	e := j
	for e < len(src) && isWordByte(src[e]) {
		e++
	}
	if e-j >= 3 && strings.HasSuffix(src[j:e], "__") && isAlnumByte(src[e-3]) {
		return e
	}
	return 0
}

// render writes the text that is not markup, with white space runs
// collapsed to one blank, and the source offset of every byte.
func (m *quoteMarkup) render() quoteNorm {
	src := m.src
	var b strings.Builder
	b.Grow(len(src))
	offs := make([]int, 0, len(src))
	space := false // a blank is pending
	emit := func(s string, off int) {
		for k := 0; k < len(s); {
			r, size := utf8.DecodeRuneInString(s[k:])
			if unicode.IsSpace(r) {
				if !space {
					space = true
					if b.Len() > 0 {
						b.WriteByte(' ')
						offs = append(offs, off+k)
					}
				}
			} else {
				space = false
				b.WriteString(s[k : k+size])
				for x := 0; x < size; x++ {
					offs = append(offs, off+k+x)
				}
			}
			k += size
		}
	}
	for i := 0; i < len(src); {
		if ins, ok := m.insert[i]; ok {
			// the rendered prefix sits at the role's own offset
			at := i
			for at > 0 && m.drop[at-1] {
				at--
			}
			n := len(offs)
			emit(ins, at)
			for x := n; x < len(offs); x++ {
				offs[x] = at
			}
		}
		if m.drop[i] {
			i++
			continue
		}
		j := i + 1
		for j < len(src) && !m.drop[j] && m.insert[j] == "" {
			j++
		}
		emit(src[i:j], i)
		i = j
	}
	return quoteNorm{s: b.String(), offs: offs}
}

func isASCIIPunct(c byte) bool {
	return c < utf8.RuneSelf && unicode.IsPunct(rune(c)) || strings.IndexByte("$+<=>^`|~", c) >= 0
}

func isLetterByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isAlnumByte(c byte) bool  { return isLetterByte(c) || c >= '0' && c <= '9' }

// isWordByte is an ASCII letter, digit or "_", or any byte of a non-ASCII
// rune (a letter, as far as markup goes).
func isWordByte(c byte) bool { return isAlnumByte(c) || c == '_' || c >= utf8.RuneSelf }

// isRoleByte may appear in a role name (":py:func:").
func isRoleByte(c byte) bool { return isAlnumByte(c) || strings.IndexByte("-_.+:", c) >= 0 }

// startsWord reports whether s begins with a letter or digit.
func startsWord(s string) bool {
	if s == "" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isSpaceRune(r rune) bool { return unicode.IsSpace(r) }
func isPunctRune(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) }
