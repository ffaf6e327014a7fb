package guard

import (
	"crypto/rand"
	"fmt"
	"go/build"
	"math/big"
	"os"
	"path"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
)

// A canary is a test that must fail, planted beside the real tests at
// grading time under a random name (issue 11). Code that rewrites results
// in-process (an init function, a sitecustomize, a monkey-patched
// reporter) turns it into a pass, or drops it, unless it was written to
// spare exactly this canary; a run where that happens is void.
//
// A language has a canary when it has an entry here; a language without
// one is graded without, and its run record says so (CanaryGap). Each
// canary is planted in every folder that holds test files of its language
// and that the test selection runs.
type canaryKind struct {
	// testFile reports whether a base name is a test file the runner
	// collects from a folder.
	testFile func(name string) bool
	// plant writes the canaries of folder dir (relative to the repository
	// root at top) and returns them.
	plant func(top, dir string) ([]plantedCanary, error)
	// fileSelected says whether a canary file must be added to the
	// selection itself (pytest given files runs only those).
	fileSelected bool
}

type plantedCanary struct {
	grade.Canary
	source []byte
	// also are other files the canary needs, by repository path (a
	// CMakeLists.txt that declares it), written over what is there.
	also map[string][]byte
}

var canaries = map[string]canaryKind{
	"Go":     {testFile: func(n string) bool { return strings.HasSuffix(n, "_test.go") }, plant: goCanaries},
	"Python": {testFile: pythonTestFile, plant: pythonCanary, fileSelected: true},
	// Selected by file, a Java test class is run by its name
	// (lolbench-maven-test turns the canary's file into -Dtest).
	"Java": {testFile: javaTestFile, plant: javaCanaries, fileSelected: true},
	// Selected by file, an integration test file is run as its target
	// (lolbench-cargo-test turns it into --test).
	"Rust": {testFile: rustTestFile, plant: rustCanaries, fileSelected: true},
	// A CMake project's canary is a test program of its own
	// (canary_cfamily.go).
	"C":   {testFile: cTestFile, plant: cCanaries},
	"C++": {testFile: cxxTestFile, plant: cxxCanaries},
}

// HasCanary reports whether a language has a canary.
func HasCanary(language string) bool { _, ok := canaries[language]; return ok }

func pythonTestFile(n string) bool {
	return strings.HasSuffix(n, ".py") && (strings.HasPrefix(n, "test_") || strings.HasSuffix(n, "_test.py"))
}

// word is a random identifier made of syllables, so that a canary's name
// reads like any other test's ("Velomarisk").
func word(syllables int) string {
	const cons, vows = "bcdfghklmnprstvz", "aeiou"
	var b strings.Builder
	for i := 0; i < syllables; i++ {
		b.WriteByte(cons[randInt(len(cons))])
		b.WriteByte(vows[randInt(len(vows))])
	}
	b.WriteByte(cons[randInt(len(cons))])
	return b.String()
}

func randInt(n int) int {
	v, err := rand.Int(rand.Reader, big.NewInt(int64(n)))
	if err != nil {
		panic(err) // crypto/rand does not fail on Linux
	}
	return int(v.Int64())
}

// twoNumbers are different random numbers for a failing comparison.
func twoNumbers() (int, int) {
	a := 1000 + randInt(9000)
	return a, a + 1 + randInt(97)
}

func exported(w string) string { return strings.ToUpper(w[:1]) + w[1:] }

// goCanaries plants two canaries in a Go package folder, in the package's
// own tests: one in a file that sorts first, so that it runs before the
// real tests, one in a file that sorts last, so that it runs after them
// (but for tests of the external test package, which go test runs after
// the package's own). A crash of the test binary can stop only the second;
// a hook that exits early without reporting it is caught by the first, and
// one that lets the first test run and then forges the rest by the second.
// Both in the package's own tests, they cost one recompilation of it.
func goCanaries(top, dir string) ([]plantedCanary, error) {
	name, err := goPackageName(filepath.Join(top, filepath.FromSlash(dir)))
	if err != nil {
		return nil, err
	}
	unit, _ := goImportPath(top, dir)
	var out []plantedCanary
	for i := range 2 {
		fn := "Test" + exported(word(3))
		a, b := twoNumbers()
		file := "0" + word(2) + "_test.go"
		if i == 1 {
			file = "zzzz" + word(2) + "_test.go"
		}
		src := fmt.Sprintf("package %s\n\nimport \"testing\"\n\nfunc %s(t *testing.T) {\n\tif got, want := %d, %d; got != want {\n\t\tt.Fatalf(\"got %%d, want %%d\", got, want)\n\t}\n}\n", name, fn, a, b)
		out = append(out, plantedCanary{Canary: grade.Canary{Dir: dir, File: path.Join(dir, file), Name: fn, Unit: unit, Last: i == 1}, source: []byte(src)})
	}
	return out, nil
}

// goPackageName is the name of the package in folder d, as go build would
// see it on this platform; from the test files when it has no other.
func goPackageName(d string) (string, error) {
	p, err := build.Default.ImportDir(d, build.ImportComment)
	if p != nil && p.Name != "" {
		return strings.TrimSuffix(p.Name, "_test"), nil
	}
	if err == nil {
		err = fmt.Errorf("no package name")
	}
	return "", fmt.Errorf("go package in %s: %w", d, err)
}

// goImportPath is the import path of folder dir: the nearest go.mod's
// module path and the rest of the folder's path.
func goImportPath(top, dir string) (string, error) {
	for d := dir; ; d = path.Dir(d) {
		data, err := os.ReadFile(filepath.Join(top, filepath.FromSlash(d), "go.mod"))
		if err == nil {
			mod := modfile.ModulePath(data)
			if mod == "" {
				return "", fmt.Errorf("%s/go.mod has no module line", d)
			}
			rel := strings.TrimPrefix(strings.TrimPrefix(dir, d), "/")
			if d == "." {
				rel = dir
			}
			if rel == "." || rel == "" {
				return mod, nil
			}
			return mod + "/" + rel, nil
		}
		if d == "." || d == "/" {
			return "", fmt.Errorf("no go.mod above %s", dir)
		}
	}
}

// pythonCanary plants one unittest-style canary, which pytest and
// unittest both collect.
func pythonCanary(top, dir string) ([]plantedCanary, error) {
	w := word(3)
	fn := "test_" + w
	a, b := twoNumbers()
	src := fmt.Sprintf("import unittest\n\n\nclass Test%s(unittest.TestCase):\n    def %s(self):\n        self.assertEqual(%d, %d)\n", exported(word(2)), fn, a, b)
	return []plantedCanary{{Canary: grade.Canary{Dir: dir, File: path.Join(dir, "test_"+w+".py"), Name: fn}, source: []byte(src)}}, nil
}
