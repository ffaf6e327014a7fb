package rules

import (
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/lolbench/lolbench/pipeline/ep"
)

// Helpers of rules 20 to 28. Rules 22 and 25 share the quotation matcher,
// so that the two never disagree on where a block's quote sits in the EP;
// rules 20, 24 and 27 share aggregateFiles, so that a directory, glob or
// aggregate entry is reported once, by rule 20, and the files it stands for
// are not reported again as missing.

// index returns the normalised position of the first byte at or after the
// source offset off.
func (n *quoteNorm) index(off int) int {
	return sort.SearchInts(n.offs, off)
}

// span returns the source range of the normalised bytes [i, j).
func (n *quoteNorm) span(i, j int) ep.Range {
	if i >= j || j > len(n.offs) {
		return ep.Range{}
	}
	return ep.Range{Start: n.offs[i], End: n.offs[j-1] + 1}
}

// ellipsisRE joins quoted passages that occur in order (docs/mapping-format.md).
var ellipsisRE = regexp.MustCompile(`\[?(?:\.\.\.|…)\]?`)

// quotePassages splits a block's quote text at its ellipses and normalises
// each passage; empty passages (a leading or trailing ellipsis) are dropped.
func quotePassages(quote string) []string {
	var out []string
	for _, part := range ellipsisRE.Split(quote, -1) {
		if p := strings.TrimSpace(normalizeQuoteText(part).s); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// epQuotes matches quotations against one EP document.
type epQuotes struct {
	doc  *ep.Document
	norm quoteNorm
}

func newEPQuotes(doc *ep.Document) *epQuotes {
	return &epQuotes{doc: doc, norm: normalizeQuoteText(string(doc.Source))}
}

// find locates the passages, in order, each inside one of the ranges
// (sorted, disjoint source ranges), taking the leftmost occurrence of each
// after the previous one: if any in-order placement exists, this one does.
// It returns the passages' source ranges, or nil and the index of the first
// passage that could not be placed.
func (q *epQuotes) find(passages []string, within []ep.Range) ([]ep.Range, int) {
	spans := make([]ep.Range, 0, len(passages))
	pos, ri := 0, 0
	for k, p := range passages {
		found := false
		for ; ri < len(within) && !found; ri++ {
			lo, hi := q.norm.index(within[ri].Start), q.norm.index(within[ri].End)
			lo = max(lo, pos)
			if lo >= hi {
				continue
			}
			if at := strings.Index(q.norm.s[lo:hi], p); at >= 0 {
				start := lo + at
				spans = append(spans, q.norm.span(start, start+len(p)))
				pos = start + len(p)
				found = true
				ri-- // the next passage may sit in the same range
			}
		}
		if !found {
			return nil, k
		}
	}
	return spans, -1
}

// longestPrefix returns how many leading words of passage occur within r at
// or after the normalised position from, and the normalised position just
// after that occurrence (for showing what the EP says next).
func (q *epQuotes) longestPrefix(passage string, r ep.Range) (int, int) {
	words := strings.Split(passage, " ")
	lo, hi := q.norm.index(r.Start), q.norm.index(r.End)
	if lo >= hi {
		return 0, 0
	}
	text := q.norm.s[lo:hi]
	// a prefix that occurs has every shorter prefix occurring too, so the
	// longest is found by bisection
	best, bestEnd := 0, 0
	a, b := 1, len(words)
	for a <= b {
		m := (a + b) / 2
		prefix := strings.Join(words[:m], " ")
		if at := strings.Index(text, prefix); at >= 0 {
			best, bestEnd = m, lo+at+len(prefix)
			a = m + 1
		} else {
			b = m - 1
		}
	}
	return best, bestEnd
}

// wordsAt returns up to n words of the normalised EP from position i.
func (q *epQuotes) wordsAt(i, n int) string {
	if i < 0 || i > len(q.norm.s) {
		return ""
	}
	return firstWords(strings.TrimSpace(q.norm.s[i:]), n)
}

// firstWords returns up to n leading words of s, with "…" when cut.
func firstWords(s string, n int) string {
	w := strings.Fields(s)
	if len(w) <= n {
		return strings.Join(w, " ")
	}
	return strings.Join(w[:n], " ") + " …"
}

// lastWords returns up to n trailing words of s, with "…" when cut.
func lastWords(s string, n int) string {
	w := strings.Fields(s)
	if len(w) <= n {
		return strings.Join(w, " ")
	}
	return "… " + strings.Join(w[len(w)-n:], " ")
}

// sectionLabel names a section in a message: `section 2.1 ("Greeting API")`.
func sectionLabel(s *ep.Section) string {
	return "section " + s.ID + " (\"" + s.Title + "\")"
}

// subtractRanges removes the cut ranges from the base range and returns what
// is left, in order.
func subtractRanges(base ep.Range, cuts []ep.Range) []ep.Range {
	cuts = slices.Clone(cuts)
	slices.SortFunc(cuts, func(a, b ep.Range) int { return a.Start - b.Start })
	var out []ep.Range
	cur := base.Start
	for _, c := range cuts {
		if c.End <= cur || c.Start >= base.End {
			continue
		}
		if c.Start > cur {
			out = append(out, ep.Range{Start: cur, End: c.Start})
		}
		cur = max(cur, c.End)
	}
	if cur < base.End {
		out = append(out, ep.Range{Start: cur, End: base.End})
	}
	return out
}

// overlaps reports whether two half-open ranges share a byte.
func overlaps(a, b ep.Range) bool { return a.Start < b.End && b.Start < a.End }

// fileScope is a (class, function) scope of one file (rules 27 and 28).
type fileScope struct {
	file  string
	scope ScopeKey
}

// aggregateFiles returns the PR files that a directory, glob or aggregate
// path entry stands for, sorted; none for an entry that names one file or
// nothing recognisable. Rule 20 names them in its fix; rules 24 and 27 do
// not report those files again.
func (f *Facts) aggregateFiles(entry string) []string {
	entry = strings.TrimSpace(entry)
	seen := map[string]bool{}
	var add func(e string, depth int)
	add = func(e string, depth int) {
		e = strings.TrimSpace(strings.Trim(strings.TrimSpace(e), "`"))
		if e == "" || depth > 2 {
			return
		}
		if f.PRFile[e] != nil {
			seen[e] = true
			return
		}
		switch f.AggregatePath(e) {
		case "a directory":
			prefix := strings.TrimSuffix(e, "/") + "/"
			for p := range f.PRFile {
				if strings.HasPrefix(p, prefix) {
					seen[p] = true
				}
			}
		case "a glob":
			for p := range f.PRFile {
				if ok, err := path.Match(e, p); err == nil && ok {
					seen[p] = true
				}
			}
		case "an aggregate of several files":
			if strings.Contains(strings.ToLower(e), "all files") {
				for p := range f.PRFile {
					seen[p] = true
				}
				return
			}
			if m := ellipsisRE.FindStringIndex(e); m != nil && m[0] > 0 && !strings.ContainsAny(e[:m[0]], ",;") {
				// "tools/..." stands for the files under its prefix
				prefix := e[:m[0]]
				for p := range f.PRFile {
					if strings.HasPrefix(p, prefix) {
						seen[p] = true
					}
				}
				return
			}
			for _, piece := range aggregateSplitRE.Split(e, -1) {
				add(piece, depth+1)
			}
		}
	}
	add(entry, 0)
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// aggregateSplitRE separates the pieces of an aggregate entry.
var aggregateSplitRE = regexp.MustCompile(`\s*(?:[,;]|\s\+\s|\band\b|\bplus\b|\.\.\.|…)\s*`)
