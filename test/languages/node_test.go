package languages

import (
	"testing"

	"github.com/lolbench/lolbench/pipeline/baseimage"
)

// The bumpkit sample's task, as the build finds it: the old tests of
// compare, pretty (JavaScript) and version pass on both sides; the tests of
// the two files that import modules BKEP-2 adds are missing before (each
// file a failing "[load]" case), the others fail. Ids name the .ts and .js
// files and the describe blocks.
var (
	bumpkitP2P = []string{
		"test/compare.test.ts::compare › ignores build metadata",
		"test/compare.test.ts::compare › orders by numbers",
		"test/compare.test.ts::compare › puts pre-releases first",
		"test/pretty.test.js::pretty › flags initial development",
		"test/pretty.test.js::pretty › names the parts",
		"test/version.test.ts::parse › reads pre-release and build",
		"test/version.test.ts::parse › reads the three numbers",
		"test/version.test.ts::parse › refuses what is no version",
	}
	bumpkitF2P = []string{
		"test/bump.test.ts::bump › pre-releases › counts up within the same id",
		"test/bump.test.ts::bump › pre-releases › restarts at 0 for another id",
		"test/bump.test.ts::bump › pre-releases › starts at 0 on the next patch",
		"test/bump.test.ts::bump › refuses unknown parts and ids",
		"test/bump.test.ts::bump › releases › drops build metadata",
		"test/bump.test.ts::bump › releases › raises major, minor and patch",
		"test/bump.test.ts::bump › releases › releases a pre-release of that part",
		"test/compare.test.ts::sort › sorts ascending without touching its input",
		"test/compare.test.ts::sort › sorts descending",
		"test/index.test.ts::exports the proposal from its index",
		"test/index.test.ts::is version 1.2.0 in code and in package.json",
		"test/pretty.test.js::describeChange › names downgrades and no change",
		"test/pretty.test.js::describeChange › names updates by their part",
		"test/range.test.ts::maxSatisfying › finds none",
		"test/range.test.ts::maxSatisfying › finds the highest match",
		"test/range.test.ts::satisfies › intersects words and unites alternatives",
		"test/range.test.ts::satisfies › lets pre-releases in only by name",
		"test/range.test.ts::satisfies › names a bad range",
		"test/range.test.ts::satisfies › reads caret ranges",
		"test/range.test.ts::satisfies › reads plain comparators",
		"test/range.test.ts::satisfies › reads tilde ranges",
	}
	bumpkitSections = []string{"3.1", "3.2", "3.3", "3.4", "4"}
)

// TestNodeSample runs every stage on the TypeScript sample (issue 23), with
// per-test V8 coverage: every executable line the solution adds, in
// TypeScript (mapped back through source maps) and in JavaScript, is
// reached by the F2P tests. Two canaries in test/, the first and the last
// file of the one process.
func TestNodeSample(t *testing.T) {
	testSample(t, sampleTask{
		language: "TypeScript", id: "bumpkit-bkep-0002", image: baseimage.Node,
		f2p: bumpkitF2P, p2p: bumpkitP2P, sections: bumpkitSections,
		adapter: "v8", killed: bumpkitSections, canaries: 2,
		check: func(t *testing.T, r *sampleRun) {
			var cov struct {
				Tests map[string]map[string][]int `json:"tests"`
			}
			r.readJSON("coverage/coverage.json", &cov)
			// Per test: a bump test reaches bump.ts and no line of
			// range.ts; a describeChange test reaches pretty.js.
			if l := cov.Tests["test/bump.test.ts::bump › releases › drops build metadata"]; len(l["src/bump.ts"]) == 0 || len(l["src/range.ts"]) != 0 {
				t.Errorf("per-test coverage of a bump test: %v", l)
			}
			if l := cov.Tests["test/pretty.test.js::describeChange › names updates by their part"]; len(l["src/pretty.js"]) == 0 {
				t.Errorf("per-test coverage of a describeChange test: %v", l)
			}
		},
	})
}
