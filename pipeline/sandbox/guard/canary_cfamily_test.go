package guard

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCMakeCanaries: a C or C++ canary is a source file of its own and a
// CMakeLists.txt that declares it after the folder's own tests, linked as
// the folder's first test program of the framework is.
func TestCMakeCanaries(t *testing.T) {
	top := t.TempDir()
	const lists = "foreach(name parse_test compare_test)\n  add_executable(${name} ${name}.cpp)\nendforeach()\n"
	os.MkdirAll(filepath.Join(top, "tests"), 0o755)
	os.MkdirAll(filepath.Join(top, "other"), 0o755)
	os.WriteFile(filepath.Join(top, "tests", "CMakeLists.txt"), []byte(lists), 0o644)
	for _, c := range []struct {
		cxx                       bool
		framework, source, declRE string
	}{
		{true, "gtest|GTest", `^#include <gtest/gtest.h>\n\nTEST\(([A-Z][a-z]+), ([A-Z][a-z]+)\) \{\n  EXPECT_EQ\((\d+), (\d+)\);\n\}\n$`, `include\(GoogleTest\)\n    gtest_discover_tests\(TARGET\)`},
		{false, "cmocka", `(?s)#include <cmocka.h>.*static void ([a-z]+)\(void \*\*state\).*assert_int_equal\((\d+), (\d+)\);`, `add_test\(NAME CANARY COMMAND TARGET\)`},
	} {
		cs, err := cmakeCanary(top, "tests", c.cxx)
		if err != nil || len(cs) != 1 {
			t.Fatalf("cxx %v: %d canaries, %v", c.cxx, len(cs), err)
		}
		k := cs[0]
		if m := regexp.MustCompile(c.source).FindStringSubmatch(string(k.source)); m == nil || m[len(m)-1] == m[len(m)-2] {
			t.Errorf("cxx %v: canary source\n%s", c.cxx, k.source)
		}
		if k.Dir != "tests" || path.Dir(k.File) != "tests" || (c.cxx && !cxxTestFile(path.Base(k.File))) || (!c.cxx && !cTestFile(path.Base(k.File))) {
			t.Errorf("cxx %v: canary %+v is not a test file of tests/", c.cxx, k.Canary)
		}
		got := string(k.also["tests/CMakeLists.txt"])
		if len(k.also) != 1 || !strings.HasPrefix(got, lists) {
			t.Fatalf("cxx %v: also %v", c.cxx, k.also)
		}
		target := regexp.MustCompile(`add_executable\(([a-z]+_test) ` + regexp.QuoteMeta(path.Base(k.File)) + `\)`).FindStringSubmatch(got)
		if target == nil {
			t.Fatalf("cxx %v: no add_executable of the canary in\n%s", c.cxx, got)
		}
		decl := strings.NewReplacer("TARGET", target[1], "CANARY", regexp.QuoteMeta(k.Name)).Replace(c.declRE)
		for _, want := range []string{`get_property\(_[a-z]+_targets DIRECTORY PROPERTY BUILDSYSTEM_TARGETS\)`,
			`MATCHES "` + regexp.QuoteMeta(c.framework) + `"`, decl, `target_link_libraries\(` + target[1] + ` PRIVATE \$\{_[a-z]+_link\}\)`, `\$<LINK_LIBRARY:WHOLE_ARCHIVE,`,
			`target_link_options\(` + target[1] + ` PRIVATE "LINKER:--no-as-needed"\)`} {
			if !regexp.MustCompile(want).MatchString(got) {
				t.Errorf("cxx %v: %s not in\n%s", c.cxx, want, got)
			}
		}
		if strings.Contains(got, "lolbench") || strings.Contains(got, "@") {
			t.Errorf("cxx %v: the block names lolbench or keeps a placeholder:\n%s", c.cxx, got)
		}
	}
	if cs, err := cxxCanaries(top, "other"); err != nil || len(cs) != 0 {
		t.Errorf("a folder without CMakeLists.txt: %v, %v", cs, err)
	}
	for n, want := range map[string]bool{"x_test.cpp": true, "test_x.cc": true, "x_unittest.cxx": true, "x.cpp": false, "x_test.c": false} {
		if cxxTestFile(n) != want {
			t.Errorf("cxxTestFile(%q) = %v", n, !want)
		}
	}
	for n, want := range map[string]bool{"test_x.c": true, "x_test.c": true, "x_tests.c": true, "x.c": false, "x_test.cpp": false} {
		if cTestFile(n) != want {
			t.Errorf("cTestFile(%q) = %v", n, !want)
		}
	}
}
