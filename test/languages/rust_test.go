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

// The verso sample's task, as the build finds it: the unit tests of the
// version module and the integration tests of tests/parse.rs, which the
// PR leaves alone, pass on both sides (lolbench-cargo-test runs each
// target apart, so the targets that do not compile before the solution
// stop no other); every other test is FAIL_TO_PASS. Ids name the test
// binary (the crate for unit tests, the file for integration tests).
var (
	versoP2P = []string{
		"parse::orders_numerically",
		"parse::parses_and_prints",
		"parse::refuses_bad_versions",
		"verso::version::tests::bumps_reset_lower_parts",
		"verso::version::tests::numbers_refuse_leading_zeros",
		"verso::version::tests::splits_at_dots",
	}
	versoF2P = []string{
		"prerelease::build_metadata_is_ignored_in_precedence",
		"prerelease::parses_pre_release_and_build",
		"prerelease::pre_releases_bump_to_their_release",
		"prerelease::precedence_follows_the_specification",
		"prerelease::refuses_bad_pre_releases",
		"req::caret_keeps_the_leftmost_non_zero",
		"req::comparison_operators",
		"req::parses_comparators",
		"req::pre_releases_need_an_opt_in",
		"req::refuses_bad_requirements",
		"req::tilde_allows_patch_updates",
		"select::none_when_nothing_matches",
		"select::picks_the_highest_match",
		"select::skips_pre_releases_unless_asked",
		"verso::identifier::tests::numbers_sort_before_words",
		"verso::identifier::tests::numeric_identifiers_compare_as_numbers",
		"verso::identifier::tests::refuses_bad_identifiers",
		"verso::req::tests::caret_and_tilde_upper_bounds",
		"verso::req::tests::longest_operator_wins",
	}
	// The sections whose stub revert an F2P test must kill. 4.1's stub
	// revert does not compile (Version::new goes back to its base body,
	// without the new fields) and 4.2's breaks PASS_TO_PASS ordering tests
	// (its cmp panics): mutate drops both, as it drops every such mutant.
	versoKilled  = []string{"4.3", "4.4", "4.5"}
	versoDropped = map[string]string{"4.1": "compile", "4.2": "p2p"}
)

// TestRustSample runs every stage on the Rust sample in Docker, as a
// curator does with the lolbench binary (issue 23): collect and validate,
// build (one run per side), mutate (section reverts, their stub retries
// and one syntax operator, with per-test llvm-cov coverage, and the
// test-to-section map), augment (skipped without an LLM), export and
// report; then verify scores the reference solution 1, with every
// implementable section completed, and the empty patch 0.
func TestRustSample(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPING the Rust sample in -short mode")
	}
	dockertest.Image(t, baseimage.Rust)
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
	const id = "verso-vrfc-0002"
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
	sort.Strings(cfg.P2P)
	sort.Strings(cfg.F2P)
	if !slices.Equal(cfg.P2P, versoP2P) || !slices.Equal(cfg.F2P, versoF2P) {
		t.Fatalf("build: F2P\n%s\nP2P\n%s\nwant F2P\n%s\nP2P\n%s", strings.Join(cfg.F2P, "\n"), strings.Join(cfg.P2P, "\n"), strings.Join(versoF2P, "\n"), strings.Join(versoP2P, "\n"))
	}
	if want := []string{"4.1", "4.2", "4.3", "4.4", "4.5"}; !slices.Equal(cfg.Impl, want) {
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
	// The F2P tests leave a few executable added lines unrun (error paths
	// no test takes); the exact count pins the executable-line rules and
	// the lcov reading together.
	if cov.Adapter != "llvm-cov" || !cov.PerTest || len(cov.Suites) < 3 || cov.Suites[0].Covered != 94 || cov.Suites[0].Executable != 101 {
		t.Errorf("coverage: %+v, want per-test llvm-cov covering 94 of 101 executable added lines with the F2P tests", cov)
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
	var reverted []string
	for _, m := range matrix.Rows {
		if m.Method == "mapped-revert" {
			killed[m.Section] = killed[m.Section] || slices.Contains(m.Outcomes, "killed")
			reverted = append(reverted, m.Section)
		}
	}
	// The dropped reverts (4.1, 4.2) are no row of the matrix.
	sort.Strings(reverted)
	if !slices.Equal(reverted, versoKilled) {
		t.Errorf("section reverts in the kill matrix: %q, want %q", reverted, versoKilled)
	}
	for _, s := range versoKilled {
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
	if gold.Reward != 1 || gold.Verdict != "passed" || gold.SectionsTotal != 5 || gold.SectionsCompleted != gold.SectionsTotal || gold.Canaries != 5 {
		t.Errorf("verify, the reference solution: reward %d, %s, %d of %d sections completed (%+v), %d canaries; want reward 1, 5 of 5 sections completed, 5 canaries (a target in tests/ and one in each of its four files)",
			gold.Reward, gold.Verdict, gold.SectionsCompleted, gold.SectionsTotal, gold.Sections, gold.Canaries)
	}
	emptyPatch := filepath.Join(t.TempDir(), "empty.patch")
	os.WriteFile(emptyPatch, nil, 0o644)
	if err := json.Unmarshal(lolbench(1, "verify", task, "--solution", emptyPatch, "--out", t.TempDir(), "--json"), &empty); err != nil {
		t.Fatal(err)
	}
	if empty.Reward != 0 || empty.Verdict != "failed" || empty.SectionsCompleted != 0 || empty.Canaries != 5 {
		t.Errorf("verify, the empty patch: %+v; want reward 0, failed, no section completed", empty)
	}
}
