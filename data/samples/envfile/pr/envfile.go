// Package envfile reads .env files: one KEY=VALUE assignment a line, with
// blank lines and # comments ignored. Values may be quoted (quote.go), and
// Expand replaces ${NAME} references (expand.go).
package envfile

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// Entry is one assignment of a file.
type Entry struct {
	Key   string
	Value string
	// Line is the assignment's line number, from 1.
	Line int
}

// SyntaxError is a line that is not an assignment.
type SyntaxError struct {
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}

// Parse reads the assignments of r in order. A line may start with
// "export "; the value is the rest of the line, unquoted by value.
func Parse(r io.Reader) ([]Entry, error) {
	var out []Entry
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			return nil, &SyntaxError{Line: n, Msg: "missing ="}
		}
		key = strings.TrimSpace(key)
		if !validKey(key) {
			return nil, &SyntaxError{Line: n, Msg: fmt.Sprintf("invalid key %q", key)}
		}
		v, err := parseValue(strings.TrimSpace(value))
		if err != nil {
			return nil, &SyntaxError{Line: n, Msg: err.Error()}
		}
		out = append(out, Entry{Key: key, Value: v, Line: n})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// ParseString is Parse of a string.
func ParseString(s string) ([]Entry, error) {
	return Parse(strings.NewReader(s))
}

// Map returns the entries as a map; a later assignment of a key wins.
func Map(entries []Entry) map[string]string {
	m := make(map[string]string, len(entries))
	for _, e := range entries {
		m[e.Key] = e.Value
	}
	return m
}

// validKey reports whether s is a variable name: a letter or underscore,
// then letters, digits and underscores.
func validKey(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		switch {
		case c == '_', c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
