package guard

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
)

// rustTestFile reports whether a base name may be an integration test of
// a Cargo package; rustCanaries keeps only the tests/ folders of one.
func rustTestFile(n string) bool { return strings.HasSuffix(n, ".rs") }

// rustCanaries plants one integration test target in a Cargo package's
// tests/ folder: Cargo builds every top-level .rs file there as a test
// binary of its own (lolbench-cargo-test runs it with "." or, selected by
// file, with --test), so a target runner, a harness = false target or a
// hook that forges libtest's lines turns it into a pass or drops it.
// Unit tests have no canary: planting one would mean editing the crate's
// own modules.
func rustCanaries(top, dir string) ([]plantedCanary, error) {
	if path.Base(dir) != "tests" {
		return nil, nil
	}
	if _, err := os.Stat(filepath.Join(top, filepath.FromSlash(path.Dir(dir)), "Cargo.toml")); err != nil {
		return nil, nil
	}
	fn := word(3)
	a, b := twoNumbers()
	src := fmt.Sprintf("#[test]\nfn %s() {\n    assert_eq!(%d, %d);\n}\n", fn, a, b)
	file := path.Join(dir, word(2)+".rs")
	return []plantedCanary{{Canary: grade.Canary{Dir: dir, File: file, Name: fn}, source: []byte(src)}}, nil
}
