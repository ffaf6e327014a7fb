package guard

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRustCanaries: in the tests/ folder of a Cargo package, one
// integration test target of its own and one canary appended to each test
// file, its unit the file's binary; none in src/, in a tests/ folder of no
// package, or in a subfolder of tests/ (Cargo builds only its top-level
// files as targets).
func TestRustCanaries(t *testing.T) {
	top := t.TempDir()
	for p, s := range map[string]string{
		"Cargo.toml":              "[package]\nname = \"x\"\n",
		"tests/parse.rs":          "#[test]\nfn t() {}\n",
		"tests/common/mod.rs":     "pub fn f() {}\n",
		"src/lib.rs":              "",
		"crates/y/Cargo.toml":     "[package]\nname = \"y\"\n",
		"crates/y/tests/y.rs":     "",
		"fixtures/tests/stray.rs": "",
	} {
		f := filepath.Join(top, p)
		os.MkdirAll(filepath.Dir(f), 0o755)
		os.WriteFile(f, []byte(s), 0o644)
	}
	want := regexp.MustCompile(`^#\[test\]\nfn ([a-z]+)\(\) \{\n    assert_eq!\((\d+), (\d+)\);\n\}\n$`)
	check := func(dir string, c plantedCanary, src, unit string) {
		t.Helper()
		rest, ok := strings.CutPrefix(string(c.source), src)
		m := want.FindStringSubmatch(rest)
		if !ok || m == nil || c.Name != m[1] || c.Dir != dir || c.Unit != unit || m[2] == m[3] {
			t.Errorf("%s: canary %+v, source\n%s", dir, c.Canary, c.source)
		}
	}
	cs, err := rustCanaries(top, "tests")
	if err != nil || len(cs) != 2 {
		t.Fatalf("tests: %v, %d canaries, want a target of its own and one in parse.rs", err, len(cs))
	}
	if filepath.Dir(cs[0].File) != "tests" || filepath.Ext(cs[0].File) != ".rs" || cs[0].File == "tests/parse.rs" {
		t.Errorf("the canary target %s", cs[0].File)
	}
	check("tests", cs[0], "", "")
	if cs[1].File != "tests/parse.rs" {
		t.Fatalf("appended to %s", cs[1].File)
	}
	check("tests", cs[1], "#[test]\nfn t() {}\n\n", "parse")
	cs, err = rustCanaries(top, "crates/y/tests")
	if err != nil || len(cs) != 2 || cs[1].File != "crates/y/tests/y.rs" {
		t.Fatalf("crates/y/tests: %v, %+v", err, cs)
	}
	check("crates/y/tests", cs[1], "\n", "y")
	if cs[0].Name == cs[1].Name {
		t.Errorf("two canaries named %s", cs[0].Name)
	}
	for _, dir := range []string{"src", "tests/common", "fixtures/tests"} {
		if cs, err := rustCanaries(top, dir); err != nil || len(cs) != 0 {
			t.Errorf("%s: %v, %d canaries; want none", dir, err, len(cs))
		}
	}
}
