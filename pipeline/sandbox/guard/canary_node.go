package guard

import (
	"fmt"
	"path"
	"strings"

	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
)

// JavaScript and TypeScript share one canary (issue 23): lolbench-node-test
// loads every test file of its selection in one node process, in path
// order, so two canaries per folder, one whose file sorts first and one
// whose file sorts last, run in the same process as the tests they watch,
// as Go's do in a test binary: a patched node:test or assert turns them
// into passes, and a process that ends early (forged results, then exit)
// leaves the last one missing. They are ES modules (.mjs), which node
// loads the same way in a CommonJS project, a module project and beside
// TypeScript.
func init() {
	k := canaryKind{testFile: nodeTestFile, plant: nodeCanaries, fileSelected: true}
	canaries["JavaScript"] = k
	canaries["TypeScript"] = k
}

// nodeTestExts are the extensions of the test files lolbench-node-test
// runs (pipeline/baseimage/node/lolbench-node-test).
var nodeTestExts = []string{".js", ".mjs", ".cjs", ".ts", ".cts"}

// nodeTestFile reports whether a base name is a test file lolbench-node-test
// collects from a folder: NAME.test.EXT or NAME.spec.EXT.
func nodeTestFile(n string) bool {
	for _, ext := range nodeTestExts {
		if s, ok := strings.CutSuffix(n, ext); ok {
			return strings.HasSuffix(s, ".test") || strings.HasSuffix(s, ".spec")
		}
	}
	return false
}

// nodeCanaries plants the first and the last canary of a folder.
func nodeCanaries(_, dir string) ([]plantedCanary, error) {
	var out []plantedCanary
	for i := range 2 {
		name := exported(word(3))
		a, b := twoNumbers()
		file := "0" + word(2) + ".test.mjs"
		if i == 1 {
			file = "zzzz" + word(2) + ".test.mjs"
		}
		src := fmt.Sprintf("import { test } from 'node:test';\nimport { strictEqual } from 'node:assert';\n\ntest('%s', () => {\n  strictEqual(%d, %d);\n});\n", name, a, b)
		out = append(out, plantedCanary{Canary: grade.Canary{Dir: dir, File: path.Join(dir, file), Name: name, Last: i == 1}, source: []byte(src)})
	}
	return out, nil
}
