package loc

import (
	"bytes"
	"testing"
)

// FuzzCountFile feeds hostile content to the counter in several
// languages: it must not panic, and every line of a counted file is
// exactly one of code, comment or blank.
func FuzzCountFile(f *testing.F) {
	for _, seed := range []string{
		"package a\n// c\n/* x\n*/\n",
		"s = \"\"\"doc\n\n\"\"\"\n# c\n",
		"/* /* */ */ fn main() {}\n\"/*\"\n",
		"#include \"a.h\"\n\tMOVQ $'\\'', AX // c\n",
		"\"unterminated\n'\n`\n",
		"\xef\xbb\xbfint a;\r\n\f\n",
	} {
		for _, name := range []string{"a.go", "a.py", "a.rs", "a.s", "a.c"} {
			f.Add(name, []byte(seed))
		}
	}
	f.Fuzz(func(t *testing.T, name string, content []byte) {
		lang, c, ok := CountFile(name, content)
		if !ok {
			return
		}
		lines := int64(bytes.Count(content, []byte("\n")))
		if len(content) > 0 && content[len(content)-1] != '\n' {
			lines++
		}
		if c.Code+c.Comment+c.Blank != lines || c.Files != 1 || lang == "" {
			t.Errorf("%s (%s): %+v for %d lines", name, lang, c, lines)
		}
	})
}
