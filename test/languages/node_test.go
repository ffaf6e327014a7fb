package languages

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/internal/dockertest"
	"github.com/lolbench/lolbench/pipeline/sandbox/baseimage"
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

// TestNodeSample runs every stage on the TypeScript sample in Docker, as a
// curator does with the lolbench binary (issue 23): collect and validate,
// build (one run per side), mutate (section reverts, their stub retries
// and one syntax operator, selected by per-test V8 coverage, and the
// test-to-section map), augment (skipped without an LLM), export and
// report; then verify scores the reference solution 1, with every
// implementable section completed, and the empty patch 0.
func TestNodeSample(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPING the node sample in -short mode")
	}
	dockertest.Image(t, baseimage.Node)
	bin := filepath.Join(t.TempDir(), "lolbench")
	build := exec.Command("go", "build", "-o", bin, "./cmd/lolbench")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	work := t.TempDir()
	setup := exec.Command("bash", filepath.Join(root, "data/demo/demo.sh"), "--setup-only")
	setup.Env = append(os.Environ(), "WORK="+work, "BIN="+bin, "LANGS=all")
	if out, err := setup.CombinedOutput(); err != nil {
		t.Fatalf("demo.sh --setup-only: %v\n%s", err, out)
	}
	const id = "bumpkit-bkep-0002"
	lolbench := func(wantCode int, args ...string) []byte {
		t.Helper()
		cmd := exec.Command(bin, args...)
		var env []string
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "LOLBENCH_LLM_") {
				env = append(env, kv)
			}
		}
		cmd.Env = env
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != wantCode {
			t.Fatalf("lolbench %s: exit %d, want %d\n%s", strings.Join(args, " "), code, wantCode, errOut.String())
		}
		return out.Bytes()
	}
	cand := filepath.Join(work, "candidates", id)
	readJSON := func(rel string, v any) {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(cand, rel))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
	}

	lolbench(0, "run", "--workspace", work, "--projects", filepath.Join(work, "projects.yaml"), "--offline",
		"--include-unreviewed", "--only", id, "--to", "build", "--runs", "1", "--json")
	var cfg struct {
		F2P  []string `json:"FAIL_TO_PASS"`
		P2P  []string `json:"PASS_TO_PASS"`
		Impl []string `json:"implementable_sections"`
	}
	readJSON("task/tests/config.json", &cfg)
	sort.Strings(cfg.P2P)
	sort.Strings(cfg.F2P)
	if !slices.Equal(cfg.P2P, bumpkitP2P) || !slices.Equal(cfg.F2P, bumpkitF2P) {
		t.Fatalf("build: F2P\n%s\nP2P\n%s\nwant F2P\n%s\nP2P\n%s", strings.Join(cfg.F2P, "\n"), strings.Join(cfg.P2P, "\n"), strings.Join(bumpkitF2P, "\n"), strings.Join(bumpkitP2P, "\n"))
	}
	if !slices.Equal(cfg.Impl, bumpkitSections) {
		t.Errorf("implementable sections %q, want %q", cfg.Impl, bumpkitSections)
	}

	lolbench(0, "mutate", id, "--workspace", work, "--methods", "revert,ops", "--operators", "int-constant",
		"--max-per-operator", "1", "--jobs", "2", "--json")
	var cov struct {
		Adapter string `json:"adapter"`
		PerTest bool   `json:"per_test"`
		Suites  []struct {
			Suite               string `json:"suite"`
			Covered, Executable int
		} `json:"suites"`
		Tests map[string]map[string][]int `json:"tests"`
	}
	readJSON("coverage/coverage.json", &cov)
	// Every executable line the solution adds, in TypeScript (mapped back
	// through source maps) and in JavaScript, is reached by the F2P tests.
	if cov.Adapter != "v8" || !cov.PerTest || len(cov.Suites) < 3 || cov.Suites[0].Covered != cov.Suites[0].Executable || cov.Suites[0].Executable == 0 {
		t.Errorf("coverage: %+v, want per-test V8 coverage covering every executable added line with the F2P tests", cov.Suites)
	}
	// Per test: a bump test reaches bump.ts and no line of range.ts; a
	// describeChange test reaches pretty.js.
	if l := cov.Tests["test/bump.test.ts::bump › releases › drops build metadata"]; len(l["src/bump.ts"]) == 0 || len(l["src/range.ts"]) != 0 {
		t.Errorf("per-test coverage of a bump test: %v", l)
	}
	if l := cov.Tests["test/pretty.test.js::describeChange › names updates by their part"]; len(l["src/pretty.js"]) == 0 {
		t.Errorf("per-test coverage of a describeChange test: %v", l)
	}
	var matrix struct {
		Rows []struct {
			Method   string   `json:"method"`
			Section  string   `json:"section"`
			Outcomes []string `json:"outcomes"`
		} `json:"rows"`
	}
	readJSON("mutants/matrix.json", &matrix)
	killed := map[string]bool{}
	for _, m := range matrix.Rows {
		if m.Method == "mapped-revert" {
			killed[m.Section] = killed[m.Section] || slices.Contains(m.Outcomes, "killed")
		}
	}
	for _, s := range bumpkitSections {
		if !killed[s] {
			t.Errorf("no F2P test kills the revert (or stub revert) of section %s (matrix rows %+v)", s, matrix.Rows)
		}
	}

	lolbench(0, "run", "--workspace", work, "--offline", "--include-unreviewed", "--only", id, "--from", "augment", "--json")
	if _, err := os.Stat(filepath.Join(work, "export", "harbor", id, "tests", "test.sh")); err != nil {
		t.Errorf("export: %v", err)
	}
	if data, err := os.ReadFile(filepath.Join(work, "export", "swebench.jsonl")); err != nil || !bytes.Contains(data, []byte(`"instance_id":"`+id+`"`)) {
		t.Errorf("SWE-bench export: %v", err)
	}
	lolbench(0, "report", "--workspace", work)
	if _, err := os.Stat(filepath.Join(work, "reports", "index.html")); err != nil {
		t.Errorf("report: %v", err)
	}

	task := filepath.Join(cand, "task")
	var gold, empty struct {
		Reward            int    `json:"reward"`
		Verdict           string `json:"verdict"`
		SectionsCompleted int    `json:"sections_completed"`
		SectionsTotal     int    `json:"sections_total"`
		Canaries          int    `json:"canaries"`
		Sections          []struct {
			ID  string `json:"id"`
			Why string `json:"why"`
		} `json:"sections"`
	}
	if err := json.Unmarshal(lolbench(0, "verify", task, "--solution", filepath.Join(cand, "build", "solution.patch"), "--out", t.TempDir(), "--json"), &gold); err != nil {
		t.Fatal(err)
	}
	// Completed 100% under the map mutate wrote; two canaries in test/,
	// the first and the last file of the one process.
	if gold.Reward != 1 || gold.Verdict != "passed" || gold.SectionsTotal != 5 || gold.SectionsCompleted != 5 || gold.Canaries != 2 {
		t.Errorf("verify, the reference solution: reward %d, %s, %d of %d sections completed (%+v), %d canaries; want reward 1, 5 of 5 sections completed, 2 canaries",
			gold.Reward, gold.Verdict, gold.SectionsCompleted, gold.SectionsTotal, gold.Sections, gold.Canaries)
	}
	emptyPatch := filepath.Join(t.TempDir(), "empty.patch")
	os.WriteFile(emptyPatch, nil, 0o644)
	if err := json.Unmarshal(lolbench(1, "verify", task, "--solution", emptyPatch, "--out", t.TempDir(), "--json"), &empty); err != nil {
		t.Fatal(err)
	}
	if empty.Reward != 0 || empty.Verdict != "failed" || empty.SectionsCompleted != 0 || empty.SectionsTotal != 5 || empty.Canaries != 2 {
		t.Errorf("verify, the empty patch: %+v; want reward 0, failed, 0 of 5 sections completed", empty)
	}
}
