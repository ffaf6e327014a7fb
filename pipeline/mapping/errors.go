package mapping

import (
	"fmt"
	"strings"
)

// Error is one structural problem of an artifact, at its 1-based line.
type Error struct {
	Line int    `json:"line"`
	Msg  string `json:"message"`
}

// Error implements error as "line N: message"; ErrorList adds the file.
func (e Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// ErrorList holds every parse error of one artifact, sorted by line, so a
// curator fixes a drafted mapping in one pass instead of one error a run.
type ErrorList struct {
	// File prefixes each line of Error(); ParseFile sets it to the path.
	File   string  `json:"file,omitempty"`
	Errors []Error `json:"errors"`
}

// Error implements error: one "file:line: message" line per error.
func (l *ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l.Errors {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.Format(e))
	}
	return b.String()
}

// Format writes one error as "file:line: message" ("line N: message" when
// the list has no file name).
func (l *ErrorList) Format(e Error) string {
	if l.File == "" {
		return e.Error()
	}
	return fmt.Sprintf("%s:%d: %s", l.File, e.Line, e.Msg)
}
