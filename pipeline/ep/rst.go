package ep

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// rstLine is one source line as docutils sees it after string2lines:
// "\v" and "\f" become spaces and trailing whitespace is gone.
type rstLine struct {
	start, next int    // offsets of the line and of the line after it
	text        string // normalised, right-trimmed content
	blank       bool   // nothing but whitespace
	indented    bool   // starts with whitespace (docutils' "indent" transition)
}

// rstParser walks the lines once, the way docutils' Body state does for the
// constructs that decide where section titles may appear.
type rstParser struct {
	d      *Document
	lines  []rstLine
	styles map[string]int // adornment style -> level, in order of first use
	depth  int            // level of the last section
	out    []heading
}

// parseRST fills d.Metadata from a PEP header block and returns the section
// titles with their levels, or an error past maxSections or the deadline.
func parseRST(d *Document, deadline time.Time) ([]heading, error) {
	p := &rstParser{d: d, lines: splitRST(d.Source), styles: map[string]int{}}
	i := p.header()
	for n := 1; i < len(p.lines); n++ {
		if n%256 == 0 && time.Now().After(deadline) {
			return nil, fmt.Errorf("line %d: %w", i+1, &lateError{})
		}
		i = p.block(i)
		if len(p.out) > maxSections {
			return nil, tooManySections(p.out[maxSections].line)
		}
	}
	return p.out, nil
}

// splitRST cuts src into lines at "\n".
func splitRST(src []byte) []rstLine {
	var lines []rstLine
	off := 0
	if bytes.HasPrefix(src, utf8BOM) {
		off = len(utf8BOM)
	}
	for off < len(src) {
		next := lineEnd(src, off)
		raw := string(src[off:next])
		raw = strings.Map(func(r rune) rune {
			if r == '\v' || r == '\f' {
				return ' '
			}
			return r
		}, raw)
		t := strings.TrimRightFunc(raw, unicode.IsSpace)
		lines = append(lines, rstLine{
			start:    off,
			next:     next,
			text:     t,
			blank:    t == "",
			indented: t != "" && (t[0] == ' ' || t[0] == '\t'),
		})
		off = next
	}
	if len(lines) > 0 && bytes.HasPrefix(src, utf8BOM) {
		lines[0].start = 0
	}
	return lines
}

// col0 reports whether line i exists and is non-blank text at column 0.
func (p *rstParser) col0(i int) bool {
	return i < len(p.lines) && !p.lines[i].blank && !p.lines[i].indented
}

// header parses the RFC-822 header block of a PEP ("PEP: 8", "Title: ...",
// indented continuation lines) into Metadata and returns the first line
// after it. docutils' PEP reader accepts it only as the first construct; a
// "Key: value" line directly underlined is a title, not a header.
func (p *rstParser) header() int {
	// Like docutils' RFC2822Body state, skip blank and indented lines
	// before the first column-0 construct.
	i := 0
	for i < len(p.lines) && (p.lines[i].blank || p.lines[i].indented) {
		i++
	}
	if !p.col0(i) || !isRFC2822Field(p.lines[i].text) || p.marker(p.lines[i].text) ||
		(p.col0(i+1) && isAdornment(p.lines[i+1].text)) {
		return 0
	}
	// Only a block made of fields and continuation lines up to a blank
	// line (or the end) is a header; "Note: this is" starting an ordinary
	// paragraph is not.
	for j := i; j < len(p.lines) && !p.lines[j].blank; j++ {
		if !p.lines[j].indented && !isRFC2822Field(p.lines[j].text) {
			return 0
		}
	}
	for p.col0(i) && isRFC2822Field(p.lines[i].text) {
		t := p.lines[i].text
		colon := strings.IndexByte(t, ':')
		key, parts := t[:colon], []string{strings.TrimSpace(t[colon+1:])}
		i++
		for i < len(p.lines) && p.lines[i].indented {
			parts = append(parts, strings.TrimSpace(p.lines[i].text))
			i++
		}
		p.d.Metadata[key] = strings.TrimSpace(strings.Join(parts, " "))
	}
	return i
}

// isRFC2822Field matches docutils' rfc2822 pattern `[!-9;-~]+:( +|$)`.
func isRFC2822Field(t string) bool {
	i := 0
	for i < len(t) && t[i] >= '!' && t[i] <= '~' && t[i] != ':' {
		i++
	}
	return i > 0 && i < len(t) && t[i] == ':' && (i+1 == len(t) || t[i+1] == ' ')
}

// block consumes the construct starting at line i and returns the next
// line to look at. Indented lines are never titles (docutils parses them
// with match_titles off: block quotes, list item bodies, directive content,
// comments, literal blocks), so they are skipped one by one.
func (p *rstParser) block(i int) int {
	l := p.lines[i]
	if l.blank || l.indented {
		return i + 1
	}
	t := l.text
	switch {
	case p.marker(t):
		// A list item, field, line block, directive, comment or target:
		// its body is indented; the next column-0 line starts a new block.
		return i + 1
	case isEnumerator(t) && p.enumeratedItem(i):
		return i + 1
	case p.optionItem(i):
		return i + 1
	case strings.HasPrefix(t, ">>>") && (len(t) == 3 || t[3] == ' '):
		// A doctest block runs to the next blank line, indented lines
		// included (docutils' get_text_block without flush_left).
		for i++; i < len(p.lines) && !p.lines[i].blank; i++ {
		}
		return i
	case isGridTableTop(t):
		return p.gridTable(i)
	case isSimpleTableTop(t):
		return p.simpleTable(i)
	case isAdornment(t):
		return p.overline(i)
	}
	return p.text(i)
}

// marker reports the Body transitions that precede "text" and whose first
// line can never be a title: bullet, field marker, line block, explicit
// markup ("..") and anonymous target ("__").
func (p *rstParser) marker(t string) bool {
	return isBullet(t) || isFieldMarker(t) ||
		hasMarker(t, "|") || hasMarker(t, "..") || hasMarker(t, "__")
}

// hasMarker matches `m( +|$)` at the start of t.
func hasMarker(t, m string) bool {
	return strings.HasPrefix(t, m) && (len(t) == len(m) || t[len(m)] == ' ')
}

// isBullet matches docutils' `[-+*\u2022\u2023\u2043]( +|$)`.
func isBullet(t string) bool {
	r, size := utf8.DecodeRuneInString(t)
	switch r {
	case '-', '+', '*', '\u2022', '\u2023', '\u2043':
		return len(t) == size || t[size] == ' '
	}
	return false
}

// isFieldMarker matches docutils' field marker
// `:(?![: ])([^:\\]|\\.|:(?!([ `]|$)))*(?<! ):( +|$)` without lookaround.
func isFieldMarker(t string) bool {
	if len(t) < 3 || t[0] != ':' || t[1] == ':' || t[1] == ' ' {
		return false
	}
	for j := 1; j < len(t); j++ {
		switch t[j] {
		case '\\':
			j++ // an escaped character, whatever it is
			if j >= len(t) {
				return false
			}
		case ':':
			if j+1 == len(t) || t[j+1] == ' ' {
				return j > 1 && t[j-1] != ' '
			}
			if t[j+1] == '`' {
				return false
			}
		}
	}
	return false
}

// isAdornment matches docutils' "line" pattern `(nonalphanum7bit)\1* *$`
// on a right-trimmed line: one printable ASCII punctuation character,
// repeated, from column 0.
func isAdornment(t string) bool {
	if t == "" || !isPunct7(t[0]) {
		return false
	}
	for i := 1; i < len(t); i++ {
		if t[i] != t[0] {
			return false
		}
	}
	return true
}

// isPunct7 is docutils' nonalphanum7bit class `[!-/:-@[-`{-~]`.
func isPunct7(c byte) bool {
	return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') || (c >= '{' && c <= '~')
}

// isGridTableTop matches `\+-[-+]+-\+ *$`.
func isGridTableTop(t string) bool {
	if len(t) < 4 || !strings.HasPrefix(t, "+-") || !strings.HasSuffix(t, "-+") {
		return false
	}
	return strings.Trim(t, "-+") == ""
}

// isSimpleTableTop matches `=+( +=+)+ *$`: at least two columns.
func isSimpleTableTop(t string) bool {
	return t != "" && t[0] == '=' && strings.Trim(t, "= ") == "" && strings.Contains(t, " ")
}

// isSimpleTableBorder matches `=+[ =]*$`.
func isSimpleTableBorder(t string) bool {
	return t != "" && t[0] == '=' && strings.Trim(t, "= ") == ""
}

// gridTable skips a grid table the way docutils' isolate_grid_table does:
// the table is the run of lines starting with "+" or "|"; if its last line
// is not a border, it ends at the last border from the third line on.
func (p *rstParser) gridTable(i int) int {
	j := i + 1
	for p.col0(j) && (p.lines[j].text[0] == '+' || p.lines[j].text[0] == '|') {
		j++
	}
	if isGridTableTop(p.lines[j-1].text) {
		return j
	}
	for k := j - 2; k >= i+2; k-- {
		if isGridTableTop(p.lines[k].text) {
			return k + 1
		}
	}
	return j // malformed: docutils reports it and goes on after the run
}

// simpleTable skips a simple table the way docutils' isolate_simple_table
// does: it ends at the second border after the top, or at a border followed
// by a blank line or the end; a table without a bottom border swallows the
// rest of the document.
func (p *rstParser) simpleTable(i int) int {
	top := len(p.lines[i].text)
	found := -1
	for j := i + 1; j < len(p.lines); j++ {
		t := p.lines[j].text
		if !isSimpleTableBorder(t) {
			continue
		}
		if len(t) != top {
			return j + 1 // malformed: docutils stops at the odd border
		}
		if found >= 0 || j+1 == len(p.lines) || p.lines[j+1].blank {
			return j + 1
		}
		found = j
	}
	if found >= 0 {
		return found + 1
	}
	return len(p.lines)
}

// isEnumerator matches the start of an enumerated list item: "1.", "(a)",
// "iv)", "#." followed by a space or the end of the line.
func isEnumerator(t string) bool {
	_, ok := parseEnumerator(t)
	return ok
}

// enumInfo is a parsed enumerator, as docutils' parse_enumerator sees it.
type enumInfo struct {
	format  string // ".", ")" or "()"
	seq     string // arabic, loweralpha, upperalpha, lowerroman, upperroman or #
	ordinal int    // 0 when the value is invalid (a malformed roman numeral)
}

// parseEnumerator matches docutils' enumerator pattern
// `(\(enum\)|enum\)|enum\.)( +|$)` at the start of t.
func parseEnumerator(t string) (enumInfo, bool) {
	var e enumInfo
	open := strings.HasPrefix(t, "(")
	s := t
	if open {
		s = s[1:]
	}
	n := 0
	for n < len(s) && (isASCIIAlnum(s[n]) || s[n] == '#') {
		n++
	}
	if n == 0 || n >= len(s) || (n+1 < len(s) && s[n+1] != ' ') {
		return e, false
	}
	switch {
	case open && s[n] == ')':
		e.format = "()"
	case !open && (s[n] == '.' || s[n] == ')'):
		e.format = s[n : n+1]
	default:
		return e, false
	}
	v := s[:n]
	switch {
	case v == "#":
		e.seq, e.ordinal = "#", 1
	case v == "i":
		e.seq, e.ordinal = "lowerroman", 1
	case v == "I":
		e.seq, e.ordinal = "upperroman", 1
	case strings.Trim(v, "0123456789") == "":
		e.seq, e.ordinal = "arabic", 1
		if x, err := strconv.Atoi(v); err == nil && x < 1<<30 {
			e.ordinal = x
		} else {
			e.ordinal = 1 << 30 // only its successor matters, and no line starts with it
		}
	case len(v) == 1 && v[0] >= 'a' && v[0] <= 'z':
		e.seq, e.ordinal = "loweralpha", int(v[0]-'a')+1
	case len(v) == 1 && v[0] >= 'A' && v[0] <= 'Z':
		e.seq, e.ordinal = "upperalpha", int(v[0]-'A')+1
	case strings.Trim(v, "ivxlcdm") == "":
		e.seq, e.ordinal = "lowerroman", fromRoman(strings.ToUpper(v))
	case strings.Trim(v, "IVXLCDM") == "":
		e.seq, e.ordinal = "upperroman", fromRoman(v)
	default:
		return e, false
	}
	return e, true
}

// wrap puts a value in the enumerator's format.
func (e enumInfo) wrap(v string) string {
	switch e.format {
	case "()":
		return "(" + v + ")"
	default:
		return v + e.format
	}
}

// next is docutils' make_enumerator(ordinal+1): the marker the following
// item would carry, or false when out of range.
func (e enumInfo) next() (string, bool) {
	n := e.ordinal + 1
	switch e.seq {
	case "#":
		return e.wrap("#"), true
	case "arabic":
		return e.wrap(strconv.Itoa(n)), true
	case "loweralpha", "upperalpha":
		if n > 26 {
			return "", false
		}
		c := string(rune('a' + n - 1))
		if e.seq == "upperalpha" {
			c = strings.ToUpper(c)
		}
		return e.wrap(c), true
	default:
		r := toRoman(n)
		if r == "" {
			return "", false
		}
		if e.seq == "lowerroman" {
			r = strings.ToLower(r)
		}
		return e.wrap(r), true
	}
}

var romanDigits = []struct {
	v int
	s string
}{{1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"}, {100, "C"}, {90, "XC"},
	{50, "L"}, {40, "XL"}, {10, "X"}, {9, "IX"}, {5, "V"}, {4, "IV"}, {1, "I"}}

// toRoman writes 1..4999 as an upper-case roman numeral ("" outside).
func toRoman(n int) string {
	if n < 1 || n > 4999 {
		return ""
	}
	var b strings.Builder
	for _, d := range romanDigits {
		for n >= d.v {
			b.WriteString(d.s)
			n -= d.v
		}
	}
	return b.String()
}

// fromRoman reads a canonical upper-case roman numeral, 0 if malformed
// ("IIII", "VX"), as docutils' strict RomanNumeral does.
func fromRoman(s string) int {
	if len(s) > 20 {
		return 0
	}
	n, rest := 0, s
	for _, d := range romanDigits {
		for strings.HasPrefix(rest, d.s) {
			n += d.v
			rest = rest[len(d.s):]
		}
	}
	if rest != "" || toRoman(n) != s {
		return 0
	}
	return n
}

func isASCIIAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// enumeratedItem reports whether the enumerator on line i starts a list
// item (docutils' is_enumerated_list_item): its value must be valid and the
// next line blank, indented, absent, or starting with the next enumerator
// or the auto-enumerator "#". Otherwise "1. Introduction" followed by an
// underline is an ordinary title.
func (p *rstParser) enumeratedItem(i int) bool {
	e, _ := parseEnumerator(p.lines[i].text)
	if e.ordinal == 0 {
		return false
	}
	if !p.col0(i + 1) {
		return true
	}
	next := p.lines[i+1].text
	if n, ok := e.next(); ok {
		return strings.HasPrefix(next, n) || strings.HasPrefix(next, e.wrap("#"))
	}
	return false
}

// optionItem reports whether line i starts an option list item
// (docutils' option_marker, then option_list_item): an option marker such
// as "-a", "--long=ARG" or "-f FILE, --file=FILE" followed by two spaces
// and a description, or by nothing and an indented description below.
func (p *rstParser) optionItem(i int) bool {
	t := p.lines[i].text
	end, ok := optionMarker(t)
	if !ok {
		return false
	}
	if strings.TrimSpace(t[end:]) != "" {
		return true
	}
	for j := i + 1; j < len(p.lines); j++ {
		if !p.lines[j].blank {
			return p.lines[j].indented
		}
	}
	return false
}

// optionMarker matches `option(, option)*(  +| ?$)` at the start of t and
// returns where the description starts.
func optionMarker(t string) (int, bool) {
	for _, end := range optionEnds(t, 0) {
		switch {
		case end == len(t) || end+1 == len(t) && t[end] == ' ':
			return len(t), true
		case strings.HasPrefix(t[end:], "  "):
			return end + 2, true
		case strings.HasPrefix(t[end:], ", "):
			if e, ok := optionMarker(t[end+2:]); ok {
				return end + 2 + e, true
			}
		}
	}
	return 0, false
}

// optionEnds returns the possible ends of one option at t[pos:], longest
// first: "-a" or "+a" with an optional " ARG" / "ARG", "--name" or "/name"
// with an optional "=ARG" / " ARG".
func optionEnds(t string, pos int) []int {
	s := t[pos:]
	var end int
	switch {
	case len(s) >= 2 && (s[0] == '-' || s[0] == '+') && isASCIIAlnum(s[1]):
		end = 2
		if e := optionArg(s, end, true); e > 0 {
			return []int{pos + e, pos + end}
		}
		return []int{pos + end}
	case strings.HasPrefix(s, "--") || strings.HasPrefix(s, "/"):
		end = 2
		if s[0] == '/' {
			end = 1
		}
		if end >= len(s) || !isASCIIAlnum(s[end]) {
			return nil
		}
		for end < len(s) && (isASCIIAlnum(s[end]) || s[end] == '_' || s[end] == '-') {
			end++
		}
		if end < len(s) && (s[end] == '=' || s[end] == ' ') {
			if e := optionArg(s, end+1, false); e > 0 {
				return []int{pos + e, pos + end}
			}
		}
		return []int{pos + end}
	}
	return nil
}

// optionArg matches docutils' optarg `[a-zA-Z][a-zA-Z0-9_-]*|<[^<>]+>` at
// s[i:] (after an optional space when space is true) and returns its end,
// or 0.
func optionArg(s string, i int, space bool) int {
	if space && i < len(s) && s[i] == ' ' {
		if e := optionArg(s, i+1, false); e > 0 {
			return e
		}
	}
	if i >= len(s) {
		return 0
	}
	if s[i] == '<' {
		j := strings.IndexAny(s[i+1:], "<>")
		if j <= 0 || s[i+1+j] != '>' {
			return 0
		}
		return i + 1 + j + 1
	}
	c := s[i]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		return 0
	}
	j := i + 1
	for j < len(s) && (isASCIIAlnum(s[j]) || s[j] == '_' || s[j] == '-') {
		j++
	}
	return j
}

// overline handles a column-0 adornment line (docutils' Line state): an
// overlined title, a transition, or text when the adornment is too short
// to be either.
func (p *rstParser) overline(i int) int {
	ov := p.lines[i].text
	short := len(ov) < 4
	if i+1 >= len(p.lines) || p.lines[i+1].blank {
		if short {
			return p.text(i)
		}
		return i + 1 // a transition
	}
	title := p.lines[i+1]
	if !title.indented && isAdornment(title.text) {
		if short {
			return p.text(i)
		}
		return i + 2 // "invalid section title or transition marker"
	}
	if i+2 >= len(p.lines) {
		if short {
			return p.text(i)
		}
		return i + 2 // incomplete section title
	}
	ul := p.lines[i+2].text
	if !isAdornment(ul) || ul != ov {
		if short {
			return p.text(i)
		}
		return i + 3 // missing or mismatched underline: docutils skips all three
	}
	if columnWidth(title.text) > len(ov) && short {
		return p.text(i)
	}
	// An overlined title may be inset; docutils strips the indent.
	p.section("o"+ov[:1], strings.TrimLeftFunc(title.text, unicode.IsSpace), i+1, p.lines[i].start, p.lines[i+2].next)
	return i + 3
}

// text handles a column-0 text line (docutils' Text state): an
// underline-only title when the next line is an adornment at least as wide
// as the title (or at least 4 characters wide), else a paragraph.
func (p *rstParser) text(i int) int {
	if p.col0(i+1) && isAdornment(p.lines[i+1].text) {
		t, ul := p.lines[i].text, p.lines[i+1].text
		if columnWidth(t) <= len(ul) || len(ul) >= 4 {
			p.section("u"+ul[:1], t, i, p.lines[i].start, p.lines[i+1].next)
			return i + 2
		}
	}
	// A paragraph runs to the first blank or indented line.
	j := i + 1
	for p.col0(j) {
		j++
	}
	if !endsWithLiteralMarker(p.lines[j-1].text) {
		return j
	}
	// A literal block follows. An indented one is skipped as indented
	// text; an unindented one is "quoted": consecutive lines starting with
	// the same punctuation character, up to a blank line.
	k := j
	for k < len(p.lines) && (p.lines[k].blank || p.lines[k].indented) {
		if p.lines[k].indented {
			return k
		}
		k++
	}
	if !p.col0(k) || !isPunct7(p.lines[k].text[0]) {
		return k
	}
	q := p.lines[k].text[0]
	k++
	for p.col0(k) && p.lines[k].text[0] == q {
		k++
	}
	return k
}

// endsWithLiteralMarker reports whether a paragraph ends in an unescaped
// "::" (docutils: `(?<!\\)(\\\\)*::$`).
func endsWithLiteralMarker(t string) bool {
	if !strings.HasSuffix(t, "::") {
		return false
	}
	n := 0
	for k := len(t) - 3; k >= 0 && t[k] == '\\'; k-- {
		n++
	}
	return n%2 == 0
}

// section records a title. Levels follow docutils' check_subsection: each
// adornment style gets the level at which it first appears; a style seen
// before keeps its level. Where docutils would reject a title as skipping
// levels, the level is clamped to one below the current section, and the
// style keeps that level from then on, so that the next title of the same
// style is its sibling, not its child (django/deps DEP 192: two "~"
// titles under a "=" section; issue 33 §4).
func (p *rstParser) section(style, title string, titleLine, start, end int) {
	level, seen := p.styles[style]
	if !seen || level > p.depth+1 {
		level = p.depth + 1
		p.styles[style] = level
	}
	p.depth = level
	p.out = append(p.out, heading{
		level: level,
		title: rstPlain(title),
		line:  titleLine + 1,
		span:  Range{start, end},
	})
}

// columnWidth is docutils' column_width: East Asian wide and fullwidth
// characters count two columns, combining marks none, tabs expand to 8.
func columnWidth(s string) int {
	w := 0
	for _, r := range s {
		switch {
		case r == '\t':
			w += 8 - w%8
		case unicode.Is(unicode.Mn, r):
		default:
			k := width.LookupRune(r).Kind()
			if k == width.EastAsianWide || k == width.EastAsianFullwidth {
				w += 2
			} else {
				w++
			}
		}
	}
	return w
}
