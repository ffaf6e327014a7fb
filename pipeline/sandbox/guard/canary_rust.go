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
// The library's unit tests have no canary: planting one would mean editing
// the crate's own modules.
func rustCanaries(top, dir string) ([]plantedCanary, error) {
	if path.Base(dir) != "tests" {
		return nil, nil
	}
	if _, err := os.Stat(filepath.Join(top, filepath.FromSlash(path.Dir(dir)), "Cargo.toml")); err != nil {
		return nil, nil
	}
	test := func(fn string) string {
		a, b := twoNumbers()
		return fmt.Sprintf("#[test]\nfn %s() {\n    assert_eq!(%d, %d);\n}\n", fn, a, b)
	}
	fn := word(3)
	out := []plantedCanary{{Canary: grade.Canary{Dir: dir, File: path.Join(dir, word(2)+".rs"), Name: fn}, source: []byte(test(fn))}}
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
		src = append(append(src, '\n'), test(fn)...)
		unit := strings.TrimSuffix(e.Name(), ".rs")
		out = append(out, plantedCanary{Canary: grade.Canary{Dir: dir, File: path.Join(dir, e.Name()), Name: fn, Unit: unit}, source: src})
	}
	return out, nil
}
