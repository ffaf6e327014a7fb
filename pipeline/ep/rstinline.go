package ep

import (
	"strings"
	"unicode"
)

// rstPlain strips reStructuredText inline markup from a title, following
// docutils' inline markup recognition rules (start-string after whitespace
// or an opening/delimiting punctuation mark, end-string before whitespace or
// a closing/delimiting one):
//
//	``code``              -> code (kept verbatim)
//	*emph*, **strong**    -> emph, strong
//	`text <url>`_         -> text        (also __, and `name`_ -> name)
//	:role:`text`          -> text        (:role:`title <target>` -> title)
//	`text`:role:          -> text
//	name_, name__         -> name
//	|sub|, _`target`      -> sub, target
//	[1]_, [#note]_        -> dropped
//	\*                    -> *
//
// Markup without a matching end-string stays as written, as in docutils.
// Titles longer than maxInlineTitle runes are only trimmed: the end-string
// search is quadratic and no real title is that long.
func rstPlain(s string) string {
	rs := []rune(s)
	if len(rs) > maxInlineTitle {
		return cleanTitle(s)
	}
	var b strings.Builder
	for i := 0; i < len(rs); {
		if rs[i] == '\\' {
			if i+1 < len(rs) && !unicode.IsSpace(rs[i+1]) {
				b.WriteRune(rs[i+1])
			}
			i += 2
			continue
		}
		if i == 0 || isStartPrefix(rs[i-1]) {
			if next, text, ok := rstInlineAt(rs, i); ok {
				b.WriteString(text)
				i = next
				continue
			}
		}
		b.WriteRune(rs[i])
		i++
	}
	return cleanTitle(b.String())
}

// maxInlineTitle bounds the work spent on one hostile title line.
const maxInlineTitle = 4096

// rstInlineAt recognises one inline construct starting at rs[i] and returns
// the index after it and its plain text.
func rstInlineAt(rs []rune, i int) (int, string, bool) {
	at := func(prefix string) bool { return hasRunes(rs, i, prefix) }
	switch {
	case at("**"):
		return rstDelimited(rs, i, "**", "**", true)
	case at("``"):
		return rstDelimited(rs, i, "``", "``", false)
	case at("*"):
		return rstDelimited(rs, i, "*", "*", true)
	case at("_`"):
		return rstDelimited(rs, i, "_`", "`", true)
	case at("|") && !at("||"):
		next, text, ok := rstDelimited(rs, i, "|", "|", true)
		if !ok {
			return 0, "", false
		}
		// A substitution reference may itself be a reference: |sub|_.
		k := next
		for k < next+2 && k < len(rs) && rs[k] == '_' {
			k++
		}
		if k > next && isEndSuffixAt(rs, k) {
			next = k
		}
		return next, text, true
	case at("["):
		return rstFootnoteRef(rs, i)
	case at(":"):
		// :role:`text`
		j := simpleName(rs, i+1)
		if j == i+1 || j >= len(rs) || rs[j] != ':' || !hasRunes(rs, j+1, "`") || hasRunes(rs, j+1, "``") {
			return 0, "", false
		}
		return rstInterpreted(rs, i, j+1, true)
	case at("`"):
		return rstInterpreted(rs, i, i, false)
	case isNameRune(rs[i]):
		// name_ or name__
		j := simpleName(rs, i)
		k := j
		for k < j+2 && k < len(rs) && rs[k] == '_' {
			k++
		}
		if k > j && isEndSuffixAt(rs, k) {
			return k, string(rs[i:j]), true
		}
	}
	return 0, "", false
}

// rstDelimited handles constructs of the form <open>text<close>: the
// start-string must be followed by a non-space, the end-string preceded by
// a non-space (unescaped when escapes count) and followed by an end suffix.
func rstDelimited(rs []rune, i int, open, close string, escapes bool) (int, string, bool) {
	start := i + len([]rune(open))
	if start >= len(rs) || unicode.IsSpace(rs[start]) || quotedStart(rs, i, start) {
		return 0, "", false
	}
	cl := len([]rune(close))
	for k := start + 1; k+cl <= len(rs); k++ {
		if !hasRunes(rs, k, close) || unicode.IsSpace(rs[k-1]) || !isEndSuffixAt(rs, k+cl) {
			continue
		}
		if escapes && escaped(rs, k) {
			continue
		}
		text := string(rs[start:k])
		if escapes {
			text = unescapeRST(text)
		}
		return k + cl, text, true
	}
	return 0, "", false
}

// rstInterpreted handles `text`, `text`_, `text`__, `text`:role: and
// :role:`text` (role true: the backquote is at rs[bq]).
func rstInterpreted(rs []rune, i, bq int, role bool) (int, string, bool) {
	start := bq + 1
	if start >= len(rs) || unicode.IsSpace(rs[start]) || rs[start] == '`' {
		return 0, "", false
	}
	for k := start + 1; k < len(rs); k++ {
		if rs[k] != '`' || unicode.IsSpace(rs[k-1]) || escaped(rs, k) {
			continue
		}
		end := k + 1
		ref := false
		if !role {
			switch {
			case hasRunes(rs, end, "__"):
				end, ref = end+2, true
			case hasRunes(rs, end, "_"):
				end, ref = end+1, true
			case hasRunes(rs, end, ":"):
				if j := simpleName(rs, end+1); j > end+1 && j < len(rs) && rs[j] == ':' {
					end, role = j+1, true
				}
			}
		}
		if !isEndSuffixAt(rs, end) {
			continue
		}
		text := string(rs[start:k])
		if ref || role {
			text = embeddedTitle(text)
		}
		return end, unescapeRST(text), true
	}
	return 0, "", false
}

// embeddedTitle turns "text <target>" into "text" and "<target>" into
// "target": the embedded URI or reference of a hyperlink or role.
func embeddedTitle(s string) string {
	if !strings.HasSuffix(s, ">") {
		return s
	}
	open := strings.LastIndex(s, "<")
	if open < 0 || strings.ContainsAny(s[open+1:len(s)-1], "<>") {
		return s
	}
	if open == 0 {
		return s[1 : len(s)-1]
	}
	if s[open-1] != ' ' && s[open-1] != '\n' {
		return s
	}
	return strings.TrimSpace(s[:open])
}

// rstFootnoteRef drops footnote and citation references: [1]_, [#]_,
// [#label]_, [*]_, [CIT2002]_.
func rstFootnoteRef(rs []rune, i int) (int, string, bool) {
	j := i + 1
	switch {
	case j < len(rs) && rs[j] == '*':
		j++
	case j < len(rs) && rs[j] == '#':
		j = simpleName(rs, j+1)
	default:
		j = simpleName(rs, j)
		if j == i+1 {
			return 0, "", false
		}
	}
	if !hasRunes(rs, j, "]_") || !isEndSuffixAt(rs, j+2) {
		return 0, "", false
	}
	return j + 2, "", true
}

// simpleName returns the end of docutils' simplename starting at i:
// word characters other than "_", joined by single "-._+:".
func simpleName(rs []rune, i int) int {
	j := i
	for {
		k := j
		for k < len(rs) && isNameRune(rs[k]) {
			k++
		}
		if k == j {
			if j == i {
				return i
			}
			return j - 1 // drop a dangling joiner
		}
		j = k
		if j+1 < len(rs) && strings.ContainsRune("-._+:", rs[j]) && isNameRune(rs[j+1]) {
			j++
			continue
		}
		return j
	}
}

func isNameRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// hasRunes reports whether rs[i:] starts with s.
func hasRunes(rs []rune, i int, s string) bool {
	for _, r := range s {
		if i >= len(rs) || rs[i] != r {
			return false
		}
		i++
	}
	return true
}

// escaped reports whether rs[k] is preceded by an odd number of
// backslashes.
func escaped(rs []rune, k int) bool {
	n := 0
	for j := k - 1; j >= 0 && rs[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

// isStartPrefix: inline markup may start after whitespace, an opening
// bracket or quote, or a delimiting punctuation mark.
func isStartPrefix(r rune) bool {
	if r < 128 {
		return unicode.IsSpace(r) || strings.ContainsRune("\"'(<[{\\-/:", r)
	}
	return unicode.IsSpace(r) || unicode.In(r, unicode.Ps, unicode.Pi, unicode.Pf, unicode.Pd, unicode.Po)
}

// isEndSuffixAt: inline markup may end before the end of the text,
// whitespace, a closing bracket or quote, or a delimiting punctuation mark.
func isEndSuffixAt(rs []rune, k int) bool {
	if k >= len(rs) {
		return true
	}
	r := rs[k]
	if r < 128 {
		return unicode.IsSpace(r) || strings.ContainsRune("\\.,;!?-/:\"')>]}", r)
	}
	return unicode.IsSpace(r) || unicode.In(r, unicode.Pe, unicode.Pi, unicode.Pf, unicode.Pd, unicode.Po)
}

// quotedStart reports docutils' exception for a start-string enclosed in
// matching quotes or brackets, such as "*" or (*).
func quotedStart(rs []rune, i, after int) bool {
	if i == 0 || after >= len(rs) {
		return false
	}
	pairs := map[rune]rune{'(': ')', '[': ']', '{': '}', '<': '>', '"': '"', '\'': '\''}
	c, ok := pairs[rs[i-1]]
	return ok && rs[after] == c
}

// unescapeRST removes backslash escapes; an escaped space disappears.
func unescapeRST(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		if rs[i] == '\\' && i+1 < len(rs) {
			i++
			if !unicode.IsSpace(rs[i]) {
				b.WriteRune(rs[i])
			}
			continue
		}
		b.WriteRune(rs[i])
	}
	return b.String()
}
