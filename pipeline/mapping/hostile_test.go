package mapping

import (
	"errors"
	"os"
	"path/filepath"
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

// TestHostileReading: a byte order mark is ignored, a NUL byte is an error
// at its line, and ParseFile reads regular files only, within MaxSize.
func TestHostileReading(t *testing.T) {
	small := readTestdata(t, "small.md")
	plain, err := Parse([]byte(small))
	if err != nil {
		t.Fatal(err)
	}
	withBOM, err := Parse([]byte("\ufeff" + small))
	if err != nil {
		t.Fatalf("with a BOM: %v", err)
	}
	if withBOM.Title != plain.Title || withBOM.TitleLine != plain.TitleLine || len(withBOM.SCS.Rows) != len(plain.SCS.Rows) {
		t.Fatalf("with a BOM: title %q line %d, %d rows", withBOM.Title, withBOM.TitleLine, len(withBOM.SCS.Rows))
	}

	nul := strings.Replace(small, "Motivation", "Moti\x00vation", 1)
	line := strings.Count(nul[:strings.Index(nul, "\x00")], "\n") + 1
	_, err = Parse([]byte(nul))
	list, ok := errors.AsType[*ErrorList](err)
	if !ok || len(list.Errors) == 0 || list.Errors[0] != (Error{Line: line, Msg: "NUL byte; a mapping artifact is text"}) {
		t.Fatalf("NUL byte: %v", err)
	}

	dir := t.TempDir()
	big := filepath.Join(dir, "big.md")
	os.WriteFile(big, []byte(strings.Repeat("x", MaxSize+1)), 0o644)
	link := filepath.Join(dir, "link.md")
	os.Symlink("/etc/passwd", link)
	for path, want := range map[string]string{
		big:         "read mapping " + big + ": " + big + ": 16777217 bytes, more than the mapping size cap of 16 MiB",
		link:        "read mapping " + link + ": " + link + ": a symbolic link; only regular files are read",
		"/dev/zero": "read mapping /dev/zero: /dev/zero: a device; only regular files are read",
	} {
		if _, err := ParseFile(path); err == nil || err.Error() != want {
			t.Errorf("ParseFile(%s) = %v\nwant %s", path, err, want)
		}
	}
}
