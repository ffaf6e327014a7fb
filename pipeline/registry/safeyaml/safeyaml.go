// Package safeyaml hands YAML from outside input (the projects registry,
// Markdown front matter, kep.yaml) to goccy/go-yaml within bounds.
//
// The parser's time and memory grow with some shapes far faster than with
// the size: YAML nested 40,000 levels deep takes 2.4 GB and 23 s; a
// mapping of n keys costs n² (each key is parsed by a recursive call that
// copies the keys after it: 1 MiB of keys takes 90 s and allocates 43 GB);
// so do n documents. Even linear shapes allocate about 400 bytes per input
// byte. So the input is capped at MaxSize, and a linear pre-scan refuses,
// with the line, a text nested deeper than MaxDepth, a mapping with more
// than MaxKeys keys, more than MaxDocuments documents, or a NUL byte,
// before the parser sees it. A panic of the parser becomes an error.
package safeyaml

import (
	"bytes"
	"fmt"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// MaxDepth bounds the nesting the pre-scan measures: block mappings and
// sequences (by indentation and "- " markers) plus flow collections
// ("[", "{"). A registry entry is about seven levels deep.
const MaxDepth = 32

// MaxSize caps the YAML given to the parser: its worst linear shapes
// (flow collections, compact sequences) cost about 2.5 s and 600 MB of
// allocations per MiB, so 256 KiB keeps it well within a second and
// 256 MB. A registry of a hundred projects with recipes fits.
const MaxSize = 256 << 10

// MaxKeys bounds the keys of one block mapping, the parser's quadratic
// case; a registry entry has about twenty, a kep.yaml thirty.
const MaxKeys = 128

// MaxDocuments bounds the document markers ("---", "...").
const MaxDocuments = 16

// Error is a refusal of the pre-scan: the bound passed, at a 1-based
// line (0 for the size).
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}

func errorAt(line int, format string, args ...any) *Error {
	return &Error{Line: line, Msg: fmt.Sprintf(format, args...)}
}

// Check runs the pre-scans: the size, NUL bytes, then the shape.
func Check(data []byte) error {
	if len(data) > MaxSize {
		return errorAt(0, "%d bytes of YAML, more than the YAML size cap of %d KiB", len(data), MaxSize>>10)
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return errorAt(bytes.Count(data[:i], []byte{'\n'})+1, "NUL byte; YAML is text")
	}
	return scan(data, MaxDepth)
}

// Parse checks data and parses it with goccy/go-yaml's parser.
func Parse(data []byte, opts ...parser.Option) (f *ast.File, err error) {
	if err := Check(data); err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, fmt.Errorf("YAML parser failed: %v", r)
		}
	}()
	return parser.ParseBytes(data, 0, opts...)
}

// scan measures the shape of data in one pass without a parser and
// returns the first bound it passes, with its line.
//
// The measure is an upper bound of the YAML nesting, computed in one pass
// without a parser: the number of open block indentation levels, plus the
// "- " and "? " markers that open compact nested collections on the line,
// plus the flow collections open at each point. Block scalars ("|", ">")
// and quoted scalars are skipped, and a bracket inside a plain scalar
// ("see [1]") opens nothing, so prose does not count as nesting.
func scan(data []byte, max int) error {
	var indents []int     // open block indentation levels
	keys := map[int]int{} // keys of the open block mapping at a column
	docs := 0
	flow := 0         // open flow collections
	quote := byte(0)  // open quote of a scalar spanning lines
	blockScalar := -1 // indentation of the line that opened a block scalar
	line := 0
	for off := 0; off < len(data); {
		line++
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += off
		}
		l := data[off:end]
		off = end + 1
		indent := 0
		for indent < len(l) && l[indent] == ' ' {
			indent++
		}
		rest := bytes.TrimRight(l[indent:], " \t\r")
		if indent == 0 && quote == 0 && (bytes.HasPrefix(rest, []byte("---")) || bytes.HasPrefix(rest, []byte("..."))) &&
			(len(rest) == 3 || rest[3] == ' ' || rest[3] == '\t') {
			if docs++; docs > MaxDocuments {
				return errorAt(line, "more than %d YAML document markers", MaxDocuments)
			}
			clear(keys)
			indents = indents[:0]
			blockScalar = -1
			continue
		}
		if blockScalar >= 0 {
			if len(rest) == 0 || indent > blockScalar {
				continue
			}
			blockScalar = -1
		}
		if quote == 0 && flow == 0 && (len(rest) == 0 || rest[0] == '#') {
			continue
		}
		depth := 0
		i := indent
		if quote == 0 && flow == 0 {
			for len(indents) > 0 && indents[len(indents)-1] > indent {
				delete(keys, indents[len(indents)-1])
				indents = indents[:len(indents)-1]
			}
			if len(indents) == 0 || indents[len(indents)-1] < indent {
				indents = append(indents, indent)
			}
			depth = len(indents)
			// Compact collections: "- - x", "- key: v", "? x".
			for i < len(l) && (l[i] == '-' || l[i] == '?') && (i+1 == len(l) || l[i+1] == ' ' || l[i+1] == '\t' || l[i+1] == '\r') {
				depth++
				i++
				for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
					i++
				}
				delete(keys, i) // a new entry: a new mapping may start here
			}
			if isKey(l[i:]) {
				if keys[i]++; keys[i] > MaxKeys {
					return errorAt(line, "a YAML mapping with more than %d keys", MaxKeys)
				}
			}
		} else {
			depth = len(indents)
		}
		if depth+flow > max {
			return errorAt(line, "YAML nested more than %d levels deep", max)
		}
		nodeStart := true // a flow collection may open here
		for ; i < len(l); i++ {
			c := l[i]
			if quote != 0 {
				switch {
				case quote == '"' && c == '\\':
					i++
				case c == quote && quote == '\'' && i+1 < len(l) && l[i+1] == '\'':
					i++
				case c == quote:
					quote = 0
					nodeStart = false
				}
				continue
			}
			switch {
			case c == ' ' || c == '\t' || c == '\r':
				continue
			case c == '#' && (i == 0 || l[i-1] == ' ' || l[i-1] == '\t'):
				i = len(l)
				continue
			case (c == '"' || c == '\'') && nodeStart:
				quote = c
				continue
			case (c == '[' || c == '{') && (nodeStart || flow > 0):
				flow++
				if depth+flow > max {
					return errorAt(line, "YAML nested more than %d levels deep", max)
				}
				nodeStart = true
				continue
			case (c == ']' || c == '}') && flow > 0:
				flow--
				nodeStart = false
				continue
			case c == ',' && flow > 0:
				nodeStart = true
				continue
			case c == ':' && (i+1 == len(l) || l[i+1] == ' ' || l[i+1] == '\t' || l[i+1] == '\r' || flow > 0):
				nodeStart = true
				continue
			case (c == '|' || c == '>') && nodeStart && flow == 0:
				if isBlockScalarHeader(l[i:]) {
					blockScalar = indent
					i = len(l)
					continue
				}
			case c == '-' && nodeStart && flow == 0 && (i+1 == len(l) || l[i+1] == ' '):
				continue
			}
			nodeStart = false
		}
	}
	return nil
}

// isKey reports whether a block line's content is a simple key: text up to
// a ": " (or a final ":") that starts with neither a flow collection nor a
// comment. Quoted keys count too.
func isKey(s []byte) bool {
	if len(s) == 0 || s[0] == '#' || s[0] == '[' || s[0] == '{' || s[0] == '|' || s[0] == '>' {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ':':
			if i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\t' || s[i+1] == '\r' {
				return i > 0
			}
		case '#':
			if i > 0 && (s[i-1] == ' ' || s[i-1] == '\t') {
				return false
			}
		}
	}
	return false
}

// isBlockScalarHeader reports whether s starts a block scalar: "|" or ">"
// with optional indentation and chomping indicators, then a blank or a
// comment.
func isBlockScalarHeader(s []byte) bool {
	i := 1
	for i < len(s) && (s[i] == '+' || s[i] == '-' || (s[i] >= '1' && s[i] <= '9')) {
		i++
	}
	rest := bytes.TrimLeft(s[i:], " \t")
	rest = bytes.TrimRight(rest, "\r")
	return len(rest) == 0 || rest[0] == '#' || i < len(s) && (s[i] == ' ' || s[i] == '\t') && rest[0] == '#'
}
