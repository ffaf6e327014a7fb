package results

import (
	"bytes"
	"io"
	"strings"
)

// PytestRA parses the "short test summary info" section that `pytest -rA`
// prints at the end of a session:
//
//	PASSED tests/test_x.py::test_a
//	FAILED tests/test_x.py::test_b - AssertionError: one is not two
//	ERROR tests/test_x.py::test_c - RuntimeError: fixture boom
//	ERROR tests/test_broken.py                      (collection error)
//	SKIPPED [2] tests/test_x.py:16: not today
//	XFAIL tests/test_x.py::test_xfail - known bug
//	XPASS tests/test_x.py::test_xpass fixed already  (pytest 7; 8 adds " - ")
//
// Mapping: PASSED passed; FAILED failed; ERROR error; SKIPPED skipped; XPASS
// passed (the body ran and succeeded; a strict xpass is reported as FAILED by
// pytest itself); XFAIL skipped, not passed: the body failed as expected, so
// it is no evidence that the behaviour works, and a test that is xfail before
// a change and passes after it counts as fail-to-pass. pytest's junit report
// marks xfail as <skipped> too, so both formats agree.
//
// Only lines inside a summary section count (there may be several, as under
// tox), so output that a test printed ("PASSED ..." in the PASSES section)
// is not read as a result. A log without a summary section gives no results.
// Node ids may hold spaces and " - " inside their parameter brackets
// ("test_p[x - y]"); the message is split off at the first " - " outside
// brackets.
type PytestRA struct{}

// Name implements Parser.
func (PytestRA) Name() string { return "pytest-ra" }

// Parse implements Parser.
func (p PytestRA) Parse(data []byte) ([]Result, error) { return p.ParseReader(bytes.NewReader(data)) }

var pytestWords = map[string]Status{
	"PASSED":  Passed,
	"FAILED":  Failed,
	"ERROR":   Error,
	"SKIPPED": Skipped,
	"XFAIL":   Skipped,
	"XPASS":   Passed,
}

// ParseReader implements Parser.
func (PytestRA) ParseReader(r io.Reader) ([]Result, error) {
	var c collector
	in := false
	err := eachLine(r, func(raw []byte) {
		if bytes.HasPrefix(raw, []byte("==")) {
			in = bytes.Contains(raw, []byte(" short test summary info "))
			return
		}
		if !in {
			return
		}
		line := strings.TrimRight(string(raw), " \t")
		word, rest, ok := strings.Cut(line, " ")
		s, known := pytestWords[word]
		if !ok || !known {
			return
		}
		var name string
		switch word {
		case "SKIPPED":
			name = pytestSkipped(rest)
		case "XPASS":
			if id, _, found := cutOutsideBrackets(rest, " - "); found {
				name = id
			} else {
				name, _, _ = cutOutsideBrackets(rest, " ")
			}
		default:
			name, _, _ = cutOutsideBrackets(rest, " - ")
		}
		c.add(name, s)
	})
	return c.results(), err
}

// pytestSkipped names a skip: "[N] path:line: reason" is reported by
// location, so the name is "path:line"; a node id (as pytest prints with -v
// in newer versions, "path::test - reason") is used as it is.
func pytestSkipped(rest string) string {
	rest = strings.TrimSpace(rest)
	if strings.HasPrefix(rest, "[") {
		if i := strings.Index(rest, "] "); i >= 0 {
			rest = rest[i+2:]
		}
	}
	if loc, ok := pytestLocation(rest); ok {
		return loc
	}
	id, _, _ := cutOutsideBrackets(rest, " - ")
	return id
}

// pytestLocation reads "path:LINE: reason" (or "path:LINE" alone) and returns
// "path:LINE", unless the text is a node id (a "::" before the location).
func pytestLocation(s string) (string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] != ':' {
			continue
		}
		if i+1 < len(s) && s[i+1] == ':' {
			return "", false // a node id
		}
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j > i+1 && i > 0 && (j == len(s) || s[j] == ':') {
			return s[:j], true
		}
	}
	return "", false
}

// cutOutsideBrackets cuts s around the first sep that is outside square
// brackets. When the brackets never balance (a parameter id with a stray
// "["), the first sep anywhere is used instead.
func cutOutsideBrackets(s, sep string) (before, after string, found bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			if depth > 0 {
				depth--
			}
		}
		if depth == 0 && strings.HasPrefix(s[i:], sep) {
			return s[:i], s[i+len(sep):], true
		}
	}
	if depth > 0 {
		return strings.Cut(s, sep)
	}
	return s, "", false
}
