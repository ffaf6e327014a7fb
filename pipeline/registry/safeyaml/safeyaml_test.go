package safeyaml

import (
	"strings"
	"testing"
)

func nestedMaps(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat(" ", i) + "k:\n")
	}
	return b.String()
}

// keys is a mapping "m" of n keys.
func keys(n int) string {
	return "m:\n" + strings.Repeat("  k: v\n", n)
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n  ") + "\n"
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"registry", "projects:\n  - name: x\n    recipe:\n      test: {command: \"go test {tests}\", suite: [\"./...\"]}\n", ""},
		{"maps at the limit", nestedMaps(32), ""},
		{"maps past the limit", nestedMaps(33), "line 33: YAML nested more than 32 levels deep"},
		{"700 levels", nestedMaps(700), "line 33: YAML nested more than 32 levels deep"},
		{"size", "a: " + strings.Repeat("x", MaxSize), "262147 bytes of YAML, more than the YAML size cap of 256 KiB"},
		{"keys at the limit", keys(128), ""},
		{"keys past the limit", keys(129), "line 130: a YAML mapping with more than 128 keys"},
		{"keys of many mappings", strings.Repeat("- "+strings.TrimPrefix(keys(100), "m:\n  "), 3), ""},
		{"keys of many mappings past the limit", "- " + strings.TrimPrefix(keys(100), "m:\n  ") + "- " + strings.TrimPrefix(keys(129), "m:\n  "), "line 229: a YAML mapping with more than 128 keys"},
		{"keys of nested mappings", "a:\n" + indent(keys(100)) + "b:\n" + indent(keys(100)), ""},
		{"keys of one mapping around a nested one", strings.Repeat("k: v\n", 100) + "n:\n" + indent(keys(10)) + strings.Repeat("k: v\n", 28), "line 140: a YAML mapping with more than 128 keys"},
		{"documents", strings.Repeat("---\na: 1\n", 17), "line 33: more than 16 YAML document markers"},
		{"flow", "a: " + strings.Repeat("[", 40000), "line 1: YAML nested more than 32 levels deep"},
		{"flow maps", strings.Repeat("{a: ", 100), "line 1: YAML nested more than 32 levels deep"},
		{"flow across lines", "a:\n" + strings.Repeat("  [\n", 40), "line 32: YAML nested more than 32 levels deep"},
		{"compact sequences", strings.Repeat("- ", 40) + "x\n", "line 1: YAML nested more than 32 levels deep"},
		{"flow at the limit", "a: " + strings.Repeat("[", 31) + strings.Repeat("]", 31), ""},
		{"brackets in prose", strings.Repeat("title: see [1] and {x] of [[[\n", 100), ""},
		{"brackets in quotes", "a: \"" + strings.Repeat("[", 100) + "\"\nb: '" + strings.Repeat("{", 100) + "'\n", ""},
		{"quoted across lines", "a: \"x\n" + strings.Repeat("  [[[[\n", 50) + "\"\n", ""},
		{"block scalar", "a: |\n" + indent(nestedMaps(100)), ""},
		{"folded scalar with comment", "a: >- # note\n" + indent(nestedMaps(100)) + "b: 1\n", ""},
		{"comments", strings.Repeat("# [[[[[[\n", 100), ""},
		{"NUL", "a: 1\nb: \x00\n", "line 2: NUL byte; YAML is text"},
		{"billion laughs is shallow", "a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			if err := Check([]byte(tt.src)); err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Fatalf("Check = %q, want %q", got, tt.want)
			}
		})
	}
}

// Whatever the pre-scan lets through, the parser must then parse within
// bounds (BenchmarkParseHostile); whatever it refuses, goccy itself would
// find deeper than the registry's own depth check allows. FuzzCheck holds
// only the first half: no panic, and Parse never panics.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"projects:\n  - name: x\n",
		nestedMaps(40),
		"a: " + strings.Repeat("[", 50),
		strings.Repeat("- ", 50),
		"a: &a [x]\nb: *a\n",
		"a: |\n  b\n c\n",
		"a: \"\\\"[\n",
		"\ufeffa: 1\n",
		"a: 1\x00",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		Parse(data)
	})
}
