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

// The semkit sample's task, as the build finds it: the test programs of
// the two files the PR leaves alone or only extends build on both sides;
// the three new programs do not build before the solution (they call what
// SKEP-2 adds), so their tests are absent, that is FAIL_TO_PASS, as are
// compare_test's new tests.
var (
	semkitF2P = []string{
		"Bump.Major", "Bump.Minor", "Bump.PatchOfAPreReleaseDropsTheTag", "Bump.PatchOfARelease",
		"Compare.PreReleaseIdentifiers", "Compare.PreReleaseIsLowerThanRelease", "Library.ReportsItsVersion",
		"Range.AllComparatorsMustHold", "Range.EveryOperator", "Range.RefusesBadRanges",
	}
	semkitP2P = []string{
		"Compare.EqualVersions", "Compare.OrdersByNumbers", "Parse.ReadsAPreRelease", "Parse.ReadsTheThreeNumbers",
		"Parse.RefusesBadText", "Parse.RoundTrips",
	}
	// The implementable sections whose section revert (or its stub
	// revert) must be killed: every one with source lines.
	semkitReverted = []string{"3.1", "3.2", "3.3", "4"}
)

// TestCxxSample runs every stage on the C++ sample in Docker, as a curator
// does with the lolbench binary (issue 23): collect and validate, build
// (one run per side), mutate (section reverts, their stub retries and one
// syntax operator, selected by per-test gcov coverage, and the
// test-to-section map), augment (skipped without an LLM), export and
// report; then verify scores the reference solution 1, with every
// implementable section completed, and the empty patch 0.
func TestCxxSample(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPING the C++ sample in -short mode")
	}
	dockertest.Image(t, baseimage.CFamily)
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
	const id = "semkit-skep-0002"
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
		F2P      []string            `json:"FAIL_TO_PASS"`
		P2P      []string            `json:"PASS_TO_PASS"`
		Sections map[string][]string `json:"f2p_sections"`
		Impl     []string            `json:"implementable_sections"`
	}
	readJSON("task/tests/config.json", &cfg)
	sort.Strings(cfg.F2P)
	sort.Strings(cfg.P2P)
	if !slices.Equal(cfg.F2P, semkitF2P) || !slices.Equal(cfg.P2P, semkitP2P) {
		t.Fatalf("build: F2P\n%s\nP2P\n%s\nwant F2P\n%s\nP2P\n%s", strings.Join(cfg.F2P, "\n"), strings.Join(cfg.P2P, "\n"),
			strings.Join(semkitF2P, "\n"), strings.Join(semkitP2P, "\n"))
	}
	// The task's sections: the Test Plan (5, evaluation) is carried out by
	// the task's own tests and is not one (mapping.TaskSections).
	if want := []string{"3.1", "3.2", "3.3", "4"}; !slices.Equal(cfg.Impl, want) {
		t.Errorf("implementable sections %q, want %q", cfg.Impl, want)
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
	}
	readJSON("coverage/coverage.json", &cov)
	if cov.Adapter != "gcov" || !cov.PerTest || len(cov.Suites) < 3 || cov.Suites[0].Covered != cov.Suites[0].Executable || cov.Suites[0].Executable == 0 {
		t.Errorf("coverage: %+v, want per-test gcov covering every executable added line with the F2P tests", cov)
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
	for _, s := range semkitReverted {
		if !killed[s] {
			t.Errorf("no F2P test kills the revert (or stub revert) of section %s", s)
		}
	}

	lolbench(0, "run", "--workspace", work, "--offline", "--include-unreviewed", "--only", id, "--from", "augment", "--json")
	if _, err := os.Stat(filepath.Join(work, "export", "harbor", id, "tests", "test.sh")); err != nil {
		t.Errorf("export: %v", err)
	}
	if data, err := os.ReadFile(filepath.Join(work, "export", "swebench.jsonl")); err != nil || !bytes.Contains(data, []byte(`"instance_id":"`+id+`"`)) {
		t.Errorf("SWE-bench export: %v", err)
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
	// Completed 100% under the map mutate wrote (issue 25).
	if gold.Reward != 1 || gold.Verdict != "passed" || gold.SectionsTotal != 4 || gold.SectionsCompleted != gold.SectionsTotal || gold.Canaries != 1 {
		t.Errorf("verify, the reference solution: reward %d, %s, %d of %d sections completed (%+v), %d canaries; want reward 1, 4 of 4 sections completed, 1 canary (one test folder)",
			gold.Reward, gold.Verdict, gold.SectionsCompleted, gold.SectionsTotal, gold.Sections, gold.Canaries)
	}
	emptyPatch := filepath.Join(t.TempDir(), "empty.patch")
	os.WriteFile(emptyPatch, nil, 0o644)
	if err := json.Unmarshal(lolbench(1, "verify", task, "--solution", emptyPatch, "--out", t.TempDir(), "--json"), &empty); err != nil {
		t.Fatal(err)
	}
	if empty.Reward != 0 || empty.Verdict != "failed" || empty.SectionsCompleted != 0 || empty.Canaries != 1 {
		t.Errorf("verify, the empty patch: %+v; want reward 0, failed, no section completed", empty)
	}
}
