package testid

import (
	"strings"
	"testing"
)

// TestCTest: CTest names a GoogleTest test "Suite.Name"; the file is the
// C++ test file that declares it (and its suite, when two declare it).
func TestCTest(t *testing.T) {
	src := map[string]string{
		"tests/compare_test.cpp": "TEST(Compare, EqualVersions) {}\nTEST(Compare, Orders) {}\n",
		"tests/bump_test.cpp":    "TEST(Bump, Major) {}\nTEST(Bump, EqualVersions) {}\n",
		"tests/param_test.cc":    "TEST_P(Widths, Fits) {}\nINSTANTIATE_TEST_SUITE_P(Small, Widths, testing::Values(1));\n",
		"tests/strbuf_test.c":    "static void appends_grow(void **state) {}\n",
		"tests/helper.py":        "EqualVersions = 1\n",
	}
	var files []string
	for f := range src {
		files = append(files, f)
	}
	declares := func(file, name string) bool {
		for _, w := range strings.FieldsFunc(src[file], func(r rune) bool {
			return !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
		}) {
			if w == name {
				return true
			}
		}
		return false
	}
	for _, c := range []struct {
		id   string
		want Ref
		ok   bool
	}{
		{"Compare.EqualVersions", Ref{File: "tests/compare_test.cpp", Class: "Compare", Func: "EqualVersions"}, true},
		{"Bump.EqualVersions", Ref{File: "tests/bump_test.cpp", Class: "Bump", Func: "EqualVersions"}, true},
		{"Small/Widths.Fits/0", Ref{File: "tests/param_test.cc", Class: "Widths", Func: "Fits"}, true},
		{"strbuf.appends_grow", Ref{File: "tests/strbuf_test.c", Class: "strbuf", Func: "appends_grow"}, true},
		{"Compare.Missing", Ref{}, false},
		{"NoDot", Ref{}, false},
		{"Trailing.", Ref{}, false},
	} {
		got, ok := Locate("junit", c.id, &Source{Files: files, Declares: declares})
		if ok != c.ok || got != c.want {
			t.Errorf("Locate(%q) = %+v, %v; want %+v, %v", c.id, got, ok, c.want, c.ok)
		}
	}
}
