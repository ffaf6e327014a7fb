package rules

import (
	"regexp"
	"strings"
)

// Helpers used by more than one rule, so that two rules never disagree on
// which of them owns a finding.

var (
	globRE      = regexp.MustCompile(`[*?]|\[[^\]]*\]`)
	aggregateRE = regexp.MustCompile(`(?i)(\.\.\.|…|\band \d+ more\b|\betc\.?$|\ball files\b|\b(and|plus) others\b|[,;]\s*\S|\s\+\s)`)
)

// AggregatePath reports why a path entry does not name one file — a
// directory, a glob or an aggregate — or "" when it looks like a file path.
// Rule 20 reports these entries; rule 2 leaves them to it.
func (f *Facts) AggregatePath(p string) string {
	switch {
	case strings.HasSuffix(p, "/"):
		return "a directory"
	case globRE.MatchString(p):
		return "a glob"
	case aggregateRE.MatchString(p):
		return "an aggregate of several files"
	}
	if f.PRFile[p] == nil {
		prefix := strings.TrimSuffix(p, "/") + "/"
		for path := range f.PRFile {
			if strings.HasPrefix(path, prefix) {
				return "a directory"
			}
		}
	}
	return ""
}

// normTitle compares titles ignoring case, repeated blanks and leading "#"
// marks.
func normTitle(s string) string {
	s = strings.TrimLeft(strings.TrimSpace(s), "# ")
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// SameTitle reports whether two section titles are equal ignoring case and
// repeated blanks.
func SameTitle(a, b string) bool { return normTitle(a) == normTitle(b) }
