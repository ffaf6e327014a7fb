package ep

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// DokuWiki is read line by line, as DokuWiki's own parser reads it
// (inc/Parsing/ParserMode): a line "====== Title ======" is a heading
// whose level is 7 minus the number of "=" that open it (six make level
// 1, two level 5); <code>, <file>, <html>, <php>, <nowiki> and %% hold
// literal text, in which nothing is a heading; lines indented by two
// spaces are list items ("  * " unordered, "  - " ordered, two more
// spaces per level) or, without a bullet, preformatted text; "^" and "|"
// start table rows; ">" quotes. The text is rendered to Markdown
// (render.go), with its inline markup: **bold**, //italic//, ''code'',
// [[target|text]] links, <del>, footnotes ((...)) and forced line breaks
// "\\ ".
//
// A PHP RFC opens with its metadata as bullets under the title:
//
//	====== PHP RFC: Enumerations ======
//	  * Version: 0.9
//	  * Date: 2020-12-04
//	  * Status: Implemented
//
// Those bullets, before the second heading, are the Document's Metadata,
// with the title (after "PHP RFC:") as Title.

var (
	dwHeading   = regexp.MustCompile(`^[ \t]*(={2,})(.+?)={2,}[ \t]*$`)
	dwListItem  = regexp.MustCompile(`^((?:  |\t)+)([*-])[ \t]*(.*)$`)
	dwQuote     = regexp.MustCompile(`^(>+)[ \t]?(.*)$`)
	dwRule      = regexp.MustCompile(`^[ \t]*-{4,}[ \t]*$`)
	dwMetaItem  = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9 ._/()-]{0,40}?)[ \t]*:[ \t]*(.*)$`)
	dwRFCPrefix = regexp.MustCompile(`^(?:[A-Za-z]+ )?RFC[ \t]*:[ \t]*`)
	dwMacro     = regexp.MustCompile(`~~(?:NOTOC|NOCACHE|DISCUSSION[^~]*)~~`)
)

// dwLiterals are the tags whose content is literal; code and file
// blocks render as code blocks, the others as text.
var dwLiterals = []dwLit{
	{"<code", "</code>", true},
	{"<file", "</file>", true},
	{"<html>", "</html>", true},
	{"<HTML>", "</HTML>", true},
	{"<php>", "</php>", true},
	{"<PHP>", "</PHP>", true},
	{"<nowiki>", "</nowiki>", false},
	{"%%", "%%", false},
}

// dwRenderer renders DokuWiki text.
type dwRenderer struct {
	w     *mdWriter
	meta  map[string]string
	para  strings.Builder // inline Markdown of the open paragraph, "\n" between its lines
	items int             // open list items
	quote int             // open block quotes
	table [][]string
	pre   []string // open preformatted lines
	heads int      // headings so far
}

// renderDokuWiki renders a DokuWiki page and reads its metadata.
func renderDokuWiki(src []byte) (*mdWriter, map[string]string, error) {
	r := &dwRenderer{w: &mdWriter{}, meta: map[string]string{}}
	lines := strings.Split(string(src), "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSuffix(lines[i], "\r")
		if i == 0 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		if strings.Contains(line, "~~") {
			line = dwMacro.ReplaceAllString(line, "")
		}
		if isDWHeading(line) {
			r.line(line) // a heading line is a heading, whatever it holds
			continue
		}
		// A literal block that opens on this line and does not close on
		// it runs to the line that closes it.
		if !strings.ContainsAny(line, "<%") {
			r.line(line)
			continue
		}
		if lit, before, tag, rest, ok := dwOpenBlock(line); ok {
			end := i
			var body []string
			after := ""
			for j := i; j < len(lines); j++ {
				l := strings.TrimSuffix(lines[j], "\r")
				if j == i {
					l = rest
				}
				if k := strings.Index(l, lit.close); k >= 0 {
					body = append(body, l[:k])
					after = l[k+len(lit.close):]
					end = j
					break
				}
				body = append(body, l)
				end = j
			}
			if strings.TrimSpace(before) != "" {
				r.textLine(before)
			}
			r.literal(lit.code, tag, strings.Join(body, "\n"))
			i = end
			if strings.TrimSpace(after) != "" {
				r.textLine(after)
			}
			continue
		}
		r.line(line)
	}
	r.endBlocks()
	if r.w.over {
		return nil, nil, errRenderTooLarge
	}
	return r.w, r.meta, nil
}

// isDWHeading reports whether a line is a heading; the pattern runs only
// on lines that start with "==".
func isDWHeading(line string) bool {
	return strings.HasPrefix(strings.TrimLeft(line, " \t"), "==") && dwHeading.MatchString(line)
}

// dwLit is a literal tag: where it opens and closes, and whether its
// content is code.
type dwLit struct {
	open, close string
	code        bool
}

// dwOpenBlock finds, outside inline literals, the first literal tag of
// the line that is not closed on it: the text before it and the text
// after the opening tag.
func dwOpenBlock(line string) (lit dwLit, before, tag, rest string, ok bool) {
	f := &finder{s: line}
	for pos := 0; pos < len(line); {
		best, at := -1, len(line)
		for k, l := range dwLiterals {
			if i := f.next(l.open, pos); i >= 0 && i < at {
				best, at = k, i
			}
		}
		if best < 0 {
			return lit, "", "", "", false
		}
		l := dwLiterals[best]
		open := at + len(l.open)
		if l.open == "<code" || l.open == "<file" {
			// "<code php>": the tag ends at ">".
			gt := f.next(">", open)
			if gt < 0 {
				return lit, "", "", "", false
			}
			open = gt + 1
		}
		if c := f.next(l.close, open); c >= 0 {
			pos = c + len(l.close) // closed on this line: inline
			continue
		}
		return l, line[:at], line[at:open], line[open:], true
	}
	return lit, "", "", "", false
}

// literal renders a literal block: code, or text kept as it is.
func (r *dwRenderer) literal(code bool, tag, body string) {
	r.endParagraph()
	r.endTable()
	r.endPre()
	if code {
		r.w.code(dwLang(tag), body)
		return
	}
	for _, l := range strings.Split(body, "\n") {
		if r.para.Len() > 0 {
			r.para.WriteString("\n")
		}
		r.para.WriteString(escapeText(l, false))
	}
}

// dwLang is a code block's language: "<code php>" and "<php>" are PHP,
// "<file yaml config.yml>" YAML.
func dwLang(tag string) string {
	tag = strings.ToLower(strings.Trim(tag, "<>"))
	switch tag {
	case "php", "html":
		return tag
	}
	if f := strings.Fields(tag); len(f) > 1 && f[1] != "-" {
		return f[1]
	}
	return ""
}

// line renders one line outside literal blocks.
func (r *dwRenderer) line(line string) {
	trimmed := strings.TrimSpace(line)
	switch {
	case trimmed == "":
		r.endBlocks()
	case isDWHeading(line):
		r.endBlocks()
		m := dwHeading.FindStringSubmatch(line)
		title := strings.TrimSpace(m[2])
		level := max(7-len(m[1]), 1)
		r.heads++
		if r.heads == 1 {
			r.meta[MetaTitle] = cleanTitle(dwRFCPrefix.ReplaceAllString(cleanTitle(title), ""))
		}
		r.w.heading(level, escapeText(title, true), title)
	case strings.HasPrefix(trimmed, "----") && dwRule.MatchString(line):
		r.endBlocks()
		r.w.rule()
	case strings.HasPrefix(trimmed, "^") || strings.HasPrefix(trimmed, "|"):
		r.endParagraph()
		r.endPre()
		r.endList()
		r.table = append(r.table, dwCells(trimmed))
	case (line[0] == ' ' || line[0] == '\t') && dwListItem.MatchString(line):
		r.endParagraph()
		r.endTable()
		r.endPre()
		m := dwListItem.FindStringSubmatch(line)
		r.listItem(dwIndent(m[1]), m[2] == "-", m[3])
	case strings.HasPrefix(line, "  ") || strings.HasPrefix(line, "\t"):
		r.endParagraph()
		r.endTable()
		r.endList()
		r.pre = append(r.pre, strings.TrimPrefix(strings.TrimPrefix(line, "\t"), "  "))
	case line[0] == '>':
		m := dwQuote.FindStringSubmatch(line)
		r.endTable()
		r.endPre()
		r.endList()
		if depth := min(len(m[1]), maxRenderNesting); depth != r.quote {
			r.endParagraph()
			for r.quote > depth {
				r.w.close()
				r.quote--
			}
			for r.quote < depth {
				r.w.openQuote()
				r.quote++
			}
		}
		r.textLine(m[2])
	default:
		r.endTable()
		r.endPre()
		r.endList()
		r.endQuote()
		r.textLine(line)
	}
}

// textLine adds a line of inline text to the open paragraph; "\\ " ends
// a line within it.
func (r *dwRenderer) textLine(line string) {
	md, _ := dwInline(strings.TrimSpace(line))
	if r.para.Len() > 0 {
		r.para.WriteString(" ")
	}
	r.para.WriteString(md)
}

// listItem opens an item at a depth (1 is the outermost list), closing
// the items at that depth and below.
func (r *dwRenderer) listItem(depth int, ordered bool, text string) {
	depth = min(depth, maxRenderNesting)
	for r.items >= depth {
		r.w.close()
		r.items--
	}
	for r.items < depth-1 {
		r.w.openItem("- ") // a level skipped: an item with no text of its own
		r.items++
	}
	marker := "- "
	if ordered {
		marker = "1. "
	}
	r.w.openItem(marker)
	r.items++
	md, plain := dwInline(strings.TrimSpace(text))
	r.w.paragraph(md)
	if r.heads <= 1 {
		// The bullets under the title are the proposal's metadata.
		if m := dwMetaItem.FindStringSubmatch(cleanTitle(plain)); m != nil && depth == 1 {
			if _, seen := r.meta[m[1]]; !seen && len(r.meta) < 128 {
				r.meta[m[1]] = truncateUTF8(dwMetaValue(strings.TrimSpace(text[strings.IndexByte(text, ':')+1:])), 1024)
			}
		}
	}
}

// dwMetaValue is a metadata bullet's value as plain text, a link read as
// its target.
func dwMetaValue(v string) string {
	v = dwLink.ReplaceAllStringFunc(v, func(l string) string {
		target, _, _ := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(l, "[["), "]]"), "|")
		return strings.TrimSpace(target)
	})
	_, plain := dwInline(v)
	return cleanTitle(plain)
}

var dwLink = regexp.MustCompile(`\[\[[^\]]*\]\]`)

func dwIndent(s string) int {
	n := 0
	for _, c := range s {
		if c == '\t' {
			n += 2
		} else {
			n++
		}
	}
	return max(n/2, 1)
}

// dwCells splits a table row at "^" and "|", outside links and images.
func dwCells(row string) []string {
	var cells []string
	var cur strings.Builder
	depth := 0
	for i := 0; i < len(row); i++ {
		c := row[i]
		switch {
		case strings.HasPrefix(row[i:], "[[") || strings.HasPrefix(row[i:], "{{"):
			depth++
			cur.WriteString(row[i : i+2])
			i++
			continue
		case (strings.HasPrefix(row[i:], "]]") || strings.HasPrefix(row[i:], "}}")) && depth > 0:
			depth--
			cur.WriteString(row[i : i+2])
			i++
			continue
		case (c == '^' || c == '|') && depth == 0:
			if i > 0 {
				cells = append(cells, cur.String())
			}
			cur.Reset()
			continue
		}
		cur.WriteByte(c)
	}
	if strings.TrimSpace(cur.String()) != "" {
		cells = append(cells, cur.String())
	}
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i], _ = dwInline(strings.TrimSpace(c))
	}
	return out
}

func (r *dwRenderer) endParagraph() {
	if r.para.Len() > 0 {
		r.w.paragraph(r.para.String())
	}
	r.para.Reset()
}

func (r *dwRenderer) endTable() {
	if len(r.table) > 0 {
		r.w.table(r.table)
	}
	r.table = nil
}

func (r *dwRenderer) endPre() {
	if len(r.pre) > 0 {
		r.w.code("", strings.Join(r.pre, "\n"))
	}
	r.pre = nil
}

func (r *dwRenderer) endList() {
	for ; r.items > 0; r.items-- {
		r.w.close()
	}
}

func (r *dwRenderer) endQuote() {
	if r.quote > 0 {
		r.endParagraph()
	}
	for ; r.quote > 0; r.quote-- {
		r.w.close()
	}
}

func (r *dwRenderer) endBlocks() {
	r.endParagraph()
	r.endTable()
	r.endPre()
	r.endList()
	r.endQuote()
}

// dwInline renders a line's inline markup to Markdown and to plain text.
// A "\\" followed by a blank or the end of the line is a forced line
// break ("\n" in the Markdown).
func dwInline(s string) (md, plain string) {
	var m inlineMD
	var p strings.Builder
	dwInlineInto(&m, &p, s, 0)
	return m.String(), p.String()
}

// dwPairs are the inline markers DokuWiki pairs on one line, with the
// Markdown each renders as ("" for text only).
var dwPairs = []struct{ open, close, md string }{
	{"**", "**", "**"},
	{"//", "//", "*"},
	{"__", "__", ""},
	{"<del>", "</del>", "~~"},
	{"<sup>", "</sup>", ""},
	{"<sub>", "</sub>", ""},
}

var dwURL = regexp.MustCompile(`^(?:https?|ftp)://[^\s\[\]|<>"']+`)

// finder answers "where is the next t at or after i" for one string
// with increasing i, remembering each answer, so that a line of openers
// that never close costs one scan per marker, not one per opener.
type finder struct {
	s    string
	last map[string][2]int // t -> {from, at}; at -1: none at or after from
}

func (f *finder) next(t string, i int) int {
	if f.last == nil {
		f.last = map[string][2]int{}
	}
	if c, ok := f.last[t]; ok && c[0] <= i && (c[1] < 0 || c[1] >= i) {
		return c[1]
	}
	at := strings.Index(f.s[i:], t)
	if at >= 0 {
		at += i
	}
	f.last[t] = [2]int{i, at}
	return at
}

func dwInlineInto(m *inlineMD, p *strings.Builder, s string, depth int) {
	f := &finder{s: s}
	var run strings.Builder // plain text not yet escaped, so that escapeText sees words whole
	flush := func() {
		m.WriteString(escapeText(run.String(), false))
		p.WriteString(run.String())
		run.Reset()
	}
	text := func(t string) { run.WriteString(t) }
	for i := 0; i < len(s); {
		rest := s[i:]
		if c := s[i]; c == '\\' || c == '[' || c == '{' || c == '\'' || c == '%' || c == '<' || c == '(' || c == '*' || c == '/' || c == '_' || c == 'h' || c == 'f' {
			if n := dwMarkup(m, p, f, s, i, depth, flush); n > 0 {
				i += n
				continue
			}
		}
		_, size := utf8.DecodeRuneInString(rest)
		text(rest[:size])
		i += size
	}
	flush()
}

// dwMarkup renders the markup that starts at s[i], after flushing the
// text before it, and returns its length; 0 when none starts there.
func dwMarkup(m *inlineMD, p *strings.Builder, f *finder, s string, i, depth int, flush func()) int {
	rest := s[i:]
	code := func(c string) {
		flush()
		m.code(c)
		p.WriteString(strings.Join(strings.Fields(c), " "))
	}
	literal := func(t string) {
		flush()
		m.WriteString(escapeText(t, false))
		p.WriteString(t)
	}
	switch {
	case strings.HasPrefix(rest, `\\`) && (len(rest) == 2 || rest[2] == ' ' || rest[2] == '\t'):
		flush()
		m.WriteString("\n")
		p.WriteString(" ")
		return 2
	case strings.HasPrefix(rest, "[["):
		if end := f.next("]]", i+2); end > 0 {
			target, label, hasLabel := strings.Cut(s[i+2:end], "|")
			target = strings.TrimSpace(target)
			if !hasLabel || strings.TrimSpace(label) == "" {
				label = target
			}
			var lm inlineMD
			var lp strings.Builder
			if depth < 4 {
				dwInlineInto(&lm, &lp, strings.TrimSpace(label), depth+1)
			} else {
				lm.WriteString(escapeText(label, false))
				lp.WriteString(label)
			}
			flush()
			if u := linkTarget(target); dwURL.MatchString(target) && u != "" && strings.TrimSpace(lm.String()) != "" {
				m.WriteString("[" + strings.ReplaceAll(lm.String(), "\n", " ") + "](" + u + ")")
			} else {
				m.append(&lm)
			}
			p.WriteString(lp.String())
			return end + 2 - i
		}
	case strings.HasPrefix(rest, "{{"):
		if end := f.next("}}", i+2); end > 0 {
			if _, alt, ok := strings.Cut(s[i+2:end], "|"); ok {
				literal(strings.TrimSpace(alt))
			}
			return end + 2 - i
		}
	case strings.HasPrefix(rest, "''"):
		if end := f.next("''", i+2); end >= 0 {
			code(s[i+2 : end])
			return end + 2 - i
		}
	case strings.HasPrefix(rest, "%%"):
		if end := f.next("%%", i+2); end >= 0 {
			literal(s[i+2 : end])
			return end + 2 - i
		}
	case strings.HasPrefix(rest, "<nowiki>"):
		if end := f.next("</nowiki>", i+8); end >= 0 {
			literal(s[i+8 : end])
			return end + len("</nowiki>") - i
		}
	case strings.HasPrefix(rest, "<code") || strings.HasPrefix(rest, "<file"):
		// Closed on this line (dwOpenBlock took the others).
		closeTag := "</" + rest[1:5] + ">"
		if gt := f.next(">", i+5); gt > 0 {
			if end := f.next(closeTag, gt+1); end >= 0 {
				code(s[gt+1 : end])
				return end + len(closeTag) - i
			}
		}
	case strings.HasPrefix(rest, "(("):
		if end := f.next("))", i+2); end > 0 && depth < 4 {
			flush()
			m.WriteString(" (")
			p.WriteString(" (")
			dwInlineInto(m, p, s[i+2:end], depth+1)
			m.WriteString(")")
			p.WriteString(")")
			return end + 2 - i
		}
	case rest[0] == 'h' || rest[0] == 'f':
		if u := dwURL.FindString(rest); u != "" {
			literal(u)
			return len(u)
		}
		return 0
	}
	for _, pr := range dwPairs {
		if !strings.HasPrefix(rest, pr.open) {
			continue
		}
		end := f.next(pr.close, i+len(pr.open))
		if end <= i+len(pr.open) || depth >= 4 {
			return 0
		}
		inner := s[i+len(pr.open) : end]
		var im inlineMD
		var ip strings.Builder
		dwInlineInto(&im, &ip, inner, depth+1)
		first, _ := utf8.DecodeRuneInString(inner)
		last, _ := utf8.DecodeLastRuneInString(inner)
		flush()
		if pr.md != "" && isWordRune(first) && isWordRune(last) && !strings.Contains(im.String(), "\n") {
			m.WriteString(pr.md + im.String() + pr.md)
		} else {
			m.append(&im)
		}
		p.WriteString(ip.String())
		return end + len(pr.close) - i
	}
	return 0
}
