package guard

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
)

// rustTestFile reports whether a base name may be an integration test of
// a Cargo package; rustCanaries keeps only the tests/ folders of one.
func rustTestFile(n string) bool { return strings.HasSuffix(n, ".rs") }

// rustCanaries plants, in a Cargo package's tests/ folder, one
// integration test target of its own, and a canary test appended to each
// of the folder's test files (their content as the run found it: reset to
// the base commit plus the PR's tests). Cargo builds every top-level .rs
// file there as a test binary of its own, and libtest has no guard against
// code that ends its process: a solution that writes passing lines for
// every test of its binary and exits 0 is caught only by a canary in that
// same binary, which it reports passed. Each appended canary's unit is its
// binary (test ids "req::name"): missing, it is tampering only beside a
// passed test of that binary (a target that does not compile reports none).
// The library's unit-test binary gets its canary in src/ (rustLibCanary).
func rustCanaries(top, dir string) ([]plantedCanary, error) {
	if path.Base(dir) == "src" {
		return rustLibCanary(top, dir)
	}
	if path.Base(dir) != "tests" {
		return nil, nil
	}
	if _, err := os.Stat(filepath.Join(top, filepath.FromSlash(path.Dir(dir)), "Cargo.toml")); err != nil {
		return nil, nil
	}
	fn := word(3)
	out := []plantedCanary{{Canary: grade.Canary{Dir: dir, File: path.Join(dir, word(2)+".rs"), Name: fn}, source: []byte(rustTest(fn))}}
	ents, err := os.ReadDir(filepath.Join(top, filepath.FromSlash(dir)))
	if err != nil {
		return nil, err
	}
	for _, e := range ents {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".rs") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(top, filepath.FromSlash(dir), e.Name()))
		if err != nil || len(src) > 4<<20 {
			continue
		}
		fn := word(3)
		if len(src) > 0 && src[len(src)-1] != '\n' {
			src = append(src, '\n')
		}
		src = append(append(src, '\n'), rustTest(fn)...)
		unit := strings.TrimSuffix(e.Name(), ".rs")
		out = append(out, plantedCanary{Canary: grade.Canary{Dir: dir, File: path.Join(dir, e.Name()), Name: fn, Unit: unit}, source: src})
	}
	return out, nil
}

// rustTest is a canary test function.
func rustTest(fn string) string {
	a, b := twoNumbers()
	return fmt.Sprintf("#[test]\nfn %s() {\n    assert_eq!(%d, %d);\n}\n", fn, a, b)
}

// rustLibCanary plants the canary of a library's unit-test binary: a test
// module appended to src/lib.rs, the crate root (as the run found it, the
// solution's). Code that forges the results of that binary alone (every
// unit test passed, then an exit) reports it passed, as it does the
// integration binaries' canaries. Its unit is the crate's name, the binary
// that names its test ids ("verso::version::tests::x"). The verifier puts
// the solution's lib.rs back after the run (plantCanaries' unplant). None
// for a package whose library root is elsewhere ([lib] path), named
// otherwise than its package says, or that has no library.
func rustLibCanary(top, dir string) ([]plantedCanary, error) {
	manifest, err := os.ReadFile(filepath.Join(top, filepath.FromSlash(path.Dir(dir)), "Cargo.toml"))
	if err != nil || len(manifest) > 1<<20 {
		return nil, nil
	}
	var m struct {
		Package struct{ Name string }       `toml:"package"`
		Lib     struct{ Name, Path string } `toml:"lib"`
	}
	if toml.Unmarshal(manifest, &m) != nil || m.Package.Name == "" || m.Lib.Path != "" && path.Clean(m.Lib.Path) != "src/lib.rs" {
		return nil, nil
	}
	crate := m.Lib.Name
	if crate == "" {
		crate = strings.ReplaceAll(m.Package.Name, "-", "_")
	}
	lib := path.Join(dir, "lib.rs")
	fi, err := os.Lstat(filepath.Join(top, filepath.FromSlash(lib)))
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 4<<20 {
		return nil, nil
	}
	src, err := os.ReadFile(filepath.Join(top, filepath.FromSlash(lib)))
	if err != nil {
		return nil, err
	}
	if len(src) > 0 && src[len(src)-1] != '\n' {
		src = append(src, '\n')
	}
	mod, fn := word(2), word(3)
	test := strings.ReplaceAll(strings.TrimSuffix(rustTest(fn), "\n"), "\n", "\n    ")
	src = fmt.Appendf(src, "\n#[cfg(test)]\nmod %s {\n    %s\n}\n", mod, test)
	return []plantedCanary{{Canary: grade.Canary{Dir: dir, File: lib, Name: fn, Unit: crate}, source: src}}, nil
}
