package rules

import (
	"regexp"
	"strings"

	"github.com/lolbench/lolbench/pipeline/ep"
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

var commentLineRE = regexp.MustCompile(`^\s*#+\s+(.+?)\s*#*\s*$`)

// CodeFragment reports whether title is the text of a "#"-comment line of
// the EP that is not a heading: a shell or Python comment in a code block
// that a careless reader took for a Markdown heading. Rule 16 reports such
// SCS rows; rule 23 leaves them to it.
func CodeFragment(doc *ep.Document, title string) bool {
	if doc == nil {
		return false
	}
	want := normTitle(title)
	if want == "" {
		return false
	}
	for _, s := range doc.Sections {
		if normTitle(s.Title) == want {
			return false
		}
	}
	for _, line := range strings.Split(string(doc.Source), "\n") {
		if m := commentLineRE.FindStringSubmatch(line); m != nil && normTitle(m[1]) == want {
			return true
		}
	}
	return false
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
