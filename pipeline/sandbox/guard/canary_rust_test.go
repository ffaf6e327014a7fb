package guard

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestRustCanaries: one integration test target in the tests/ folder of a
// Cargo package; none in src/, in a tests/ folder of no package, or in a
// subfolder of tests/ (Cargo builds only its top-level files as targets).
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
	for _, dir := range []string{"tests", "crates/y/tests"} {
		cs, err := rustCanaries(top, dir)
		if err != nil || len(cs) != 1 {
			t.Fatalf("%s: %v, %d canaries", dir, err, len(cs))
		}
		c := cs[0]
		m := want.FindStringSubmatch(string(c.source))
		if m == nil {
			t.Fatalf("%s: source\n%s", dir, c.source)
		}
		if c.Name != m[1] || c.Dir != dir || filepath.Dir(c.File) != dir || filepath.Ext(c.File) != ".rs" || m[2] == m[3] {
			t.Errorf("%s: canary %+v, source\n%s", dir, c.Canary, c.source)
		}
	}
	for _, dir := range []string{"src", "tests/common", "fixtures/tests"} {
		if cs, err := rustCanaries(top, dir); err != nil || len(cs) != 0 {
			t.Errorf("%s: %v, %d canaries; want none", dir, err, len(cs))
		}
	}
}
