package ep

import (
	"sort"
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
// The work is O(n log n) in the title length: end-strings and names are
// indexed once, since a title line is as hostile as any other input.
func rstPlain(s string) string {
	in := newInliner([]rune(s))
	rs := in.rs
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
			if next, text, ok := in.at(i); ok {
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

// inliner holds one title and its indexes.
type inliner struct {
	rs      []rune
	nameEnd []int // nameEnd[i] is the end of the simplename starting at i
	ends    map[string][]interpEnd
}

// interpEnd is a valid end-string position k and, for interpreted text,
// the end of its suffix and what the suffix made of it.
type interpEnd struct {
	k, end    int
	ref, role bool
}

func newInliner(rs []rune) *inliner {
	in := &inliner{rs: rs, nameEnd: make([]int, len(rs)+1), ends: map[string][]interpEnd{}}
	// docutils' simplename: word characters other than "_", joined by
	// single "-._+:". Computed right to left so every start is O(1).
	runEnd := make([]int, len(rs)+1)
	runEnd[len(rs)] = len(rs)
	in.nameEnd[len(rs)] = len(rs)
	for i := len(rs) - 1; i >= 0; i-- {
		if !isNameRune(rs[i]) {
			runEnd[i], in.nameEnd[i] = i, i
			continue
		}
		k := runEnd[i+1]
		runEnd[i] = k
		if k+1 < len(rs) && strings.ContainsRune("-._+:", rs[k]) && isNameRune(rs[k+1]) {
			in.nameEnd[i] = in.nameEnd[k+1]
		} else {
			in.nameEnd[i] = k
		}
	}
	return in
}

// simpleName returns the end of the simplename starting at i (i if none).
func (in *inliner) simpleName(i int) int {
	if i >= len(in.rs) {
		return len(in.rs)
	}
	return in.nameEnd[i]
}

// firstEnd returns the first valid end-string of the given kind at or
// after from. The valid positions do not depend on the start-string, so
// each kind is indexed once.
func (in *inliner) firstEnd(kind string, from int, valid func(k int) (interpEnd, bool)) (interpEnd, bool) {
	list, ok := in.ends[kind]
	if !ok {
		list = []interpEnd{}
		for k := 1; k < len(in.rs); k++ {
			if e, ok := valid(k); ok {
				list = append(list, e)
			}
		}
		in.ends[kind] = list
	}
	j := sort.Search(len(list), func(j int) bool { return list[j].k >= from })
	if j == len(list) {
		return interpEnd{}, false
	}
	return list[j], true
}

// at recognises one inline construct starting at rs[i] and returns the
// index after it and its plain text.
func (in *inliner) at(i int) (int, string, bool) {
	rs := in.rs
	at := func(prefix string) bool { return hasRunes(rs, i, prefix) }
	switch {
	case at("**"):
		return in.delimited(i, "**", "**", true)
	case at("``"):
		return in.delimited(i, "``", "``", false)
	case at("*"):
		return in.delimited(i, "*", "*", true)
	case at("_`"):
		return in.delimited(i, "_`", "`", true)
	case at("|") && !at("||"):
		next, text, ok := in.delimited(i, "|", "|", true)
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
		return in.footnoteRef(i)
	case at(":"):
		// :role:`text`
		j := in.simpleName(i + 1)
		if j == i+1 || j >= len(rs) || rs[j] != ':' || !hasRunes(rs, j+1, "`") || hasRunes(rs, j+1, "``") {
			return 0, "", false
		}
		return in.interpreted(j+1, true)
	case at("`"):
		return in.interpreted(i, false)
	case isNameRune(rs[i]):
		// name_ or name__
		j := in.simpleName(i)
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

// delimited handles constructs of the form <open>text<close>: the
// start-string must be followed by a non-space, the end-string preceded by
// a non-space (unescaped when escapes count) and followed by an end suffix.
func (in *inliner) delimited(i int, open, close string, escapes bool) (int, string, bool) {
	rs := in.rs
	start := i + len([]rune(open))
	if start >= len(rs) || unicode.IsSpace(rs[start]) || quotedStart(rs, i, start) {
		return 0, "", false
	}
	cl := len([]rune(close))
	kind := close
	if escapes {
		kind += "\\"
	}
	e, ok := in.firstEnd(kind, start+1, func(k int) (interpEnd, bool) {
		ok := hasRunes(rs, k, close) && !unicode.IsSpace(rs[k-1]) && isEndSuffixAt(rs, k+cl) &&
			!(escapes && escaped(rs, k))
		return interpEnd{k: k, end: k + cl}, ok
	})
	if !ok {
		return 0, "", false
	}
	text := string(rs[start:e.k])
	if escapes {
		text = unescapeRST(text)
	}
	return e.end, text, true
}

// interpreted handles `text`, `text`_, `text`__, `text`:role: and
// :role:`text` (role true: the role came first and rs[bq] is the
// backquote).
func (in *inliner) interpreted(bq int, role bool) (int, string, bool) {
	rs := in.rs
	start := bq + 1
	if start >= len(rs) || unicode.IsSpace(rs[start]) || rs[start] == '`' {
		return 0, "", false
	}
	kind := "`"
	if role {
		kind = ":`"
	}
	e, ok := in.firstEnd(kind, start+1, func(k int) (interpEnd, bool) {
		if rs[k] != '`' || unicode.IsSpace(rs[k-1]) || escaped(rs, k) {
			return interpEnd{}, false
		}
		e := interpEnd{k: k, end: k + 1, role: role}
		if !role {
			switch {
			case hasRunes(rs, e.end, "__"):
				e.end, e.ref = e.end+2, true
			case hasRunes(rs, e.end, "_"):
				e.end, e.ref = e.end+1, true
			case hasRunes(rs, e.end, ":"):
				if j := in.simpleName(e.end + 1); j > e.end+1 && j < len(rs) && rs[j] == ':' {
					e.end, e.role = j+1, true
				}
			}
		}
		return e, isEndSuffixAt(rs, e.end)
	})
	if !ok {
		return 0, "", false
	}
	text := string(rs[start:e.k])
	if e.ref || e.role {
		text = embeddedTitle(text)
	}
	return e.end, unescapeRST(text), true
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

// footnoteRef drops footnote and citation references: [1]_, [#]_,
// [#label]_, [*]_, [CIT2002]_.
func (in *inliner) footnoteRef(i int) (int, string, bool) {
	rs := in.rs
	j := i + 1
	switch {
	case j < len(rs) && rs[j] == '*':
		j++
	case j < len(rs) && rs[j] == '#':
		j = in.simpleName(j + 1)
	default:
		j = in.simpleName(j)
		if j == i+1 {
			return 0, "", false
		}
	}
	if !hasRunes(rs, j, "]_") || !isEndSuffixAt(rs, j+2) {
		return 0, "", false
	}
	return j + 2, "", true
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
	switch rs[i-1] {
	case '(':
		return rs[after] == ')'
	case '[':
		return rs[after] == ']'
	case '{':
		return rs[after] == '}'
	case '<':
		return rs[after] == '>'
	case '"', '\'':
		return rs[after] == rs[i-1]
	}
	return false
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
