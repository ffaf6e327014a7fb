package mapping

import (
	"errors"
	"strings"
	"testing"
)

// TestHostileInputs: pathological shapes parse (with errors) without
// crashing or running away; every error line is within the input.
func TestHostileInputs(t *testing.T) {
	small := readTestdata(t, "small.md")
	block := "\n" + small[strings.Index(small, "### 1."):strings.Index(small, "## Unmapped Impl")]
	tests := map[string]string{
		"deeply nested quote in a block": strings.Replace(small, "> Make it so.", strings.Repeat(">", 100000)+" x", 1),
		"deeply nested list":             strings.Replace(small, "- `a.go`: Adds run.", strings.Repeat("- ", 50000)+"x", 1),
		"huge table row":                 strings.Replace(small, "| 1 | 1 | Motivation |", strings.Repeat("| x ", 100000)+"|", 1),
		"many comments":                  strings.Repeat("<!-- -->", 100000) + small,
		"many blocks":                    strings.Replace(small, block, strings.Repeat(block, 2000), 1),
		"emphasis delimiters":            strings.Replace(small, "Adds run.", strings.Repeat("*a _b ", 50000), 1),
		"brackets":                       strings.Replace(small, "Adds run.", strings.Repeat("[a](", 50000), 1),
		"backticks":                      strings.Replace(small, "Adds run.", strings.Repeat("`a ``b ", 50000), 1),
		"HTML tags":                      strings.Replace(small, "Adds run.", strings.Repeat("<a ", 50000), 1),
		"NUL and invalid UTF-8":          strings.Replace(small, "Motivation", "Mo\x00ti\xffvation", -1),
	}
	for name, src := range tests {
		t.Run(name, func(t *testing.T) {
			m, err := Parse([]byte(src))
			if m == nil {
				t.Fatal("nil model")
			}
			if list, ok := errors.AsType[*ErrorList](err); ok {
				lines := strings.Count(src, "\n") + 1
				for _, e := range list.Errors {
					if e.Line < 1 || e.Line > lines {
						t.Errorf("error line %d outside 1..%d: %s", e.Line, lines, e.Msg)
					}
				}
			} else if err != nil {
				t.Fatalf("error %v is not an *ErrorList", err)
			}
		})
	}
}
