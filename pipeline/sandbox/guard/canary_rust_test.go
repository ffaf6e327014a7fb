package guard

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
)

// TestRustCanaries: in the tests/ folder of a Cargo package, one
// integration test target of its own and one canary appended to each test
// file, its unit the file's binary; none in a tests/ folder of no package,
// or in a subfolder of tests/ (Cargo builds only its top-level files as
// targets).
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
	for _, dir := range []string{"tests/common", "fixtures/tests"} {
		if cs, err := rustCanaries(top, dir); err != nil || len(cs) != 0 {
			t.Errorf("%s: %v, %d canaries; want none", dir, err, len(cs))
		}
	}
}

// TestRustLibCanary: a Cargo package's src/ gets one canary, a test module
// appended to the crate root lib.rs, its unit the crate's name (the
// package's, dashes as underscores, or [lib] name); none where the library
// root is elsewhere, or there is no library or no package.
func TestRustLibCanary(t *testing.T) {
	top := t.TempDir()
	for p, s := range map[string]string{
		"Cargo.toml":         "[package]\nname = \"my-crate\"\n",
		"src/lib.rs":         "//! Docs.\npub mod version;",
		"named/Cargo.toml":   "[package]\nname = \"a\"\n\n[lib]\nname = \"b\"\npath = \"./src/lib.rs\"\n",
		"named/src/lib.rs":   "",
		"moved/Cargo.toml":   "[package]\nname = \"m\"\n\n[lib]\npath = \"lib.rs\"\n",
		"moved/src/lib.rs":   "",
		"bin/Cargo.toml":     "[package]\nname = \"bin\"\n",
		"bin/src/main.rs":    "fn main() {}\n",
		"virtual/Cargo.toml": "[workspace]\nmembers = [\"x\"]\n",
		"virtual/src/lib.rs": "",
		"broken/Cargo.toml":  "[package\n",
		"broken/src/lib.rs":  "",
		"tests/src/lib.rs":   "",
		"src/version/mod.rs": "",
		"linked/Cargo.toml":  "[package]\nname = \"l\"\n",
	} {
		f := filepath.Join(top, p)
		os.MkdirAll(filepath.Dir(f), 0o755)
		os.WriteFile(f, []byte(s), 0o644)
	}
	os.MkdirAll(filepath.Join(top, "linked/src"), 0o755)
	os.Symlink("../../src/lib.rs", filepath.Join(top, "linked/src/lib.rs"))
	want := regexp.MustCompile(`^\n#\[cfg\(test\)\]\nmod ([a-z]+) \{\n    #\[test\]\n    fn ([a-z]+)\(\) \{\n        assert_eq!\((\d+), (\d+)\);\n    \}\n\}\n$`)
	for dir, c := range map[string]struct{ src, unit string }{
		"src":       {"//! Docs.\npub mod version;\n", "my_crate"},
		"named/src": {"", "b"},
	} {
		cs, err := rustCanaries(top, dir)
		if err != nil || len(cs) != 1 {
			t.Fatalf("%s: %v, %d canaries; want one", dir, err, len(cs))
		}
		rest, ok := strings.CutPrefix(string(cs[0].source), c.src)
		m := want.FindStringSubmatch(rest)
		if !ok || m == nil || cs[0].File != dir+"/lib.rs" || cs[0].Dir != dir || cs[0].Name != m[2] || cs[0].Unit != c.unit || m[3] == m[4] || len(cs[0].also) != 0 {
			t.Errorf("%s: canary %+v, source\n%s", dir, cs[0].Canary, cs[0].source)
		}
	}
	for _, dir := range []string{"moved/src", "bin/src", "virtual/src", "broken/src", "tests/src", "src/version", "linked/src"} {
		if cs, err := rustCanaries(top, dir); err != nil || len(cs) != 0 {
			t.Errorf("%s: %v, %d canaries; want none", dir, err, len(cs))
		}
	}
}

// TestUnplantRestores: after a run, the files the canaries were appended
// to (a Rust package's lib.rs, an integration test file) are the
// solution's again, byte for byte and mode for mode, and the files they
// added are gone.
func TestUnplantRestores(t *testing.T) {
	top := t.TempDir()
	files := map[string]string{
		"Cargo.toml":     "[package]\nname = \"x\"\n",
		"src/lib.rs":     "pub fn solution() -> u8 { 1 }\n",
		"tests/parse.rs": "#[test]\nfn t() {}\n",
	}
	for p, s := range files {
		f := filepath.Join(top, p)
		os.MkdirAll(filepath.Dir(f), 0o755)
		os.WriteFile(f, []byte(s), 0o640)
	}
	root, err := os.OpenRoot(top)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	g := &runner{opts: Options{Testbed: top, Local: true}, cfg: &Config{Language: "Rust", Selection: []string{"."}},
		uid: os.Getuid(), gid: os.Getgid(), testbed: root}
	rec := &grade.RunRecord{}
	_, unplant, err := g.plantCanaries(rec)
	if err != nil || len(rec.Canaries) != 3 {
		t.Fatalf("planted %v: %+v", err, rec.Canaries)
	}
	var added string
	for _, c := range rec.Canaries {
		data, err := os.ReadFile(filepath.Join(top, c.File))
		if err != nil || !strings.Contains(string(data), "fn "+c.Name+"()") {
			t.Errorf("canary %+v not in %s: %v", c, c.File, err)
		}
		if _, ok := files[c.File]; !ok {
			added = c.File
		}
	}
	unplant()
	for p, s := range files {
		fi, err := os.Stat(filepath.Join(top, p))
		data, _ := os.ReadFile(filepath.Join(top, p))
		if err != nil || string(data) != s || fi.Mode().Perm() != 0o640 {
			t.Errorf("%s after the run: %v, %q, %v; want %q, -rw-r-----", p, err, data, fi.Mode(), s)
		}
	}
	if _, err := os.Stat(filepath.Join(top, added)); added == "" || err == nil {
		t.Errorf("the canary target %q is still there", added)
	}
}
