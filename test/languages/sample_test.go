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
	"strconv"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/internal/dockertest"
	"github.com/lolbench/lolbench/pipeline/baseimage"
)

// sampleTask is what a bundled sample's task must be once every stage has
// run on it (issues 22 and 23): its test lists, its sections, its coverage,
// its kill matrix and its verdicts.
type sampleTask struct {
	language string           // for messages
	id       string           // the demo's candidate id
	image    *baseimage.Image // the offline image it needs
	// f2p and p2p are the exact lists; f2pCount, when set, pins only the
	// number of FAIL_TO_PASS tests.
	f2p, p2p []string
	f2pCount int
	// sections are the task's sections: implementable and mapped, not
	// evaluation (mapping.TaskSections).
	sections []string
	adapter  string // the coverage adapter mutate uses
	// covered and executable pin the FAIL_TO_PASS suite's coverage of the
	// executable lines the solution adds; zero means all of them.
	covered, executable int
	// killed are the sections whose revert (or its stub retry) is in the
	// kill matrix, each killed by an F2P test; dropped are the sections
	// whose reverts mutate drops, with the filter that drops them (no row
	// of the matrix).
	killed  []string
	dropped map[string]string
	// canaries is how many canaries the verifier plants.
	canaries int
	// runs are the build's runs per side (1 when zero): with two, the
	// second runs on the install step's outputs put back as the image
	// built them.
	runs int
	// check adds the language's own checks, after mutate.
	check func(t *testing.T, r *sampleRun)
}

// sampleRun is one sample's workspace in the test.
type sampleRun struct {
	t    *testing.T
	bin  string
	work string
	cand string // the candidate's folder
}

// lolbench runs the binary with no LLM endpoint and checks its exit
// status; it returns standard output.
func (r *sampleRun) lolbench(wantCode int, args ...string) []byte {
	r.t.Helper()
	cmd := exec.Command(r.bin, args...)
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
		r.t.Fatal(err)
	}
	if code != wantCode {
		r.t.Fatalf("lolbench %s: exit %d, want %d\n%s", strings.Join(args, " "), code, wantCode, errOut.String())
	}
	return out.Bytes()
}

// readJSON reads a file of the candidate's folder.
func (r *sampleRun) readJSON(rel string, v any) {
	r.t.Helper()
	data, err := os.ReadFile(filepath.Join(r.cand, rel))
	if err != nil {
		r.t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		r.t.Fatalf("%s: %v", rel, err)
	}
}

// testSample runs every stage on a sample in Docker, as a curator does
// with the lolbench binary: collect and validate, build (one run per
// side), mutate (section reverts, their stub retries and one syntax
// operator, selected by per-test coverage, and the test-to-section map),
// augment (skipped without an LLM), export and report; then verify scores
// the reference solution 1, with every section completed, and the empty
// patch 0.
func testSample(t *testing.T, s sampleTask) {
	if testing.Short() {
		t.Skipf("SKIPPING the %s sample in -short mode", s.language)
	}
	dockertest.Image(t, s.image)
	r := &sampleRun{t: t, bin: filepath.Join(t.TempDir(), "lolbench"), work: t.TempDir()}
	build := exec.Command("go", "build", "-o", r.bin, "./cmd/lolbench")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	setup := exec.Command("bash", filepath.Join(root, "data/demo/demo.sh"), "--setup-only")
	setup.Env = append(os.Environ(), "WORK="+r.work, "BIN="+r.bin, "LANGS=all")
	if out, err := setup.CombinedOutput(); err != nil {
		t.Fatalf("demo.sh --setup-only: %v\n%s", err, out)
	}
	r.cand = filepath.Join(r.work, "candidates", s.id)

	r.lolbench(0, "run", "--workspace", r.work, "--projects", filepath.Join(r.work, "projects.yaml"), "--offline",
		"--include-unreviewed", "--only", s.id, "--to", "build", "--runs", strconv.Itoa(max(s.runs, 1)), "--json")
	var cfg struct {
		F2P  []string `json:"FAIL_TO_PASS"`
		P2P  []string `json:"PASS_TO_PASS"`
		Impl []string `json:"implementable_sections"`
	}
	r.readJSON("task/tests/config.json", &cfg)
	sort.Strings(cfg.F2P)
	sort.Strings(cfg.P2P)
	f2pOK := slices.Equal(cfg.F2P, s.f2p)
	if s.f2pCount > 0 {
		f2pOK = len(cfg.F2P) == s.f2pCount
	}
	if !f2pOK || !slices.Equal(cfg.P2P, s.p2p) {
		t.Fatalf("build: F2P (%d)\n%s\nP2P\n%s\nwant F2P (%d)\n%s\nP2P\n%s", len(cfg.F2P), strings.Join(cfg.F2P, "\n"), strings.Join(cfg.P2P, "\n"),
			max(s.f2pCount, len(s.f2p)), strings.Join(s.f2p, "\n"), strings.Join(s.p2p, "\n"))
	}
	if !slices.Equal(cfg.Impl, s.sections) {
		t.Errorf("task sections %q, want %q", cfg.Impl, s.sections)
	}

	r.lolbench(0, "mutate", s.id, "--workspace", r.work, "--methods", "revert,ops", "--operators", "int-constant",
		"--max-per-operator", "1", "--jobs", "2", "--json")
	var cov struct {
		Adapter string `json:"adapter"`
		PerTest bool   `json:"per_test"`
		Suites  []struct {
			Suite               string `json:"suite"`
			Covered, Executable int
		} `json:"suites"`
	}
	r.readJSON("coverage/coverage.json", &cov)
	covOK := cov.Adapter == s.adapter && cov.PerTest && len(cov.Suites) >= 3
	if covOK && s.executable > 0 {
		covOK = cov.Suites[0].Covered == s.covered && cov.Suites[0].Executable == s.executable
	} else if covOK {
		covOK = cov.Suites[0].Executable > 0 && cov.Suites[0].Covered == cov.Suites[0].Executable
	}
	if !covOK {
		t.Errorf("coverage: %+v; want per-test %s coverage with the F2P tests covering %d of %d executable added lines (0 of 0: all of them)",
			cov, s.adapter, s.covered, s.executable)
	}
	var matrix struct {
		Rows []struct {
			Method   string   `json:"method"`
			Section  string   `json:"section"`
			Outcomes []string `json:"outcomes"`
		} `json:"rows"`
	}
	r.readJSON("mutants/matrix.json", &matrix)
	killed := map[string]bool{}
	var reverted []string
	for _, m := range matrix.Rows {
		if m.Method == "mapped-revert" {
			killed[m.Section] = killed[m.Section] || slices.Contains(m.Outcomes, "killed")
			reverted = append(reverted, m.Section)
		}
	}
	sort.Strings(reverted)
	if reverted = slices.Compact(reverted); !slices.Equal(reverted, s.killed) {
		t.Errorf("section reverts in the kill matrix: %q, want %q", reverted, s.killed)
	}
	for _, sec := range s.killed {
		if !killed[sec] {
			t.Errorf("no F2P test kills the revert (or stub revert) of section %s (matrix rows %+v)", sec, matrix.Rows)
		}
	}
	var mutants []struct {
		Method  string `json:"method"`
		Section string `json:"section"`
		Status  string `json:"status"`
		Drop    string `json:"drop"`
	}
	r.readJSON("mutants/mutants.json", &mutants)
	for sec, drop := range s.dropped {
		var drops []string
		for _, m := range mutants {
			if m.Method == "mapped-revert" && m.Section == sec {
				drops = append(drops, m.Status+":"+m.Drop)
			}
		}
		if len(drops) == 0 || !slices.Contains(drops, "dropped:"+drop) || slices.ContainsFunc(drops, func(d string) bool { return !strings.HasPrefix(d, "dropped:") }) {
			t.Errorf("section %s's reverts ended %q; want every one dropped, one by the %s filter", sec, drops, drop)
		}
	}
	if s.check != nil {
		s.check(t, r)
	}

	r.lolbench(0, "run", "--workspace", r.work, "--offline", "--include-unreviewed", "--only", s.id, "--from", "augment", "--json")
	if _, err := os.Stat(filepath.Join(r.work, "export", "harbor", s.id, "tests", "test.sh")); err != nil {
		t.Errorf("export: %v", err)
	}
	if data, err := os.ReadFile(filepath.Join(r.work, "export", "swebench.jsonl")); err != nil || !bytes.Contains(data, []byte(`"instance_id":"`+s.id+`"`)) {
		t.Errorf("SWE-bench export: %v", err)
	}
	r.lolbench(0, "report", "--workspace", r.work)
	if _, err := os.Stat(filepath.Join(r.work, "reports", "index.html")); err != nil {
		t.Errorf("report: %v", err)
	}

	task := filepath.Join(r.cand, "task")
	type verdict struct {
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
	var gold, empty verdict
	if err := json.Unmarshal(r.lolbench(0, "verify", task, "--solution", filepath.Join(r.cand, "build", "solution.patch"), "--out", t.TempDir(), "--json"), &gold); err != nil {
		t.Fatal(err)
	}
	// Completed 100% under the map mutate wrote (issue 25).
	n := len(s.sections)
	if gold.Reward != 1 || gold.Verdict != "passed" || gold.SectionsTotal != n || gold.SectionsCompleted != n || gold.Canaries != s.canaries {
		t.Errorf("verify, the reference solution: reward %d, %s, %d of %d sections completed (%+v), %d canaries; want reward 1, passed, %d of %d, %d canaries",
			gold.Reward, gold.Verdict, gold.SectionsCompleted, gold.SectionsTotal, gold.Sections, gold.Canaries, n, n, s.canaries)
	}
	emptyPatch := filepath.Join(t.TempDir(), "empty.patch")
	if err := os.WriteFile(emptyPatch, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(r.lolbench(1, "verify", task, "--solution", emptyPatch, "--out", t.TempDir(), "--json"), &empty); err != nil {
		t.Fatal(err)
	}
	if empty.Reward != 0 || empty.Verdict != "failed" || empty.SectionsCompleted != 0 || empty.SectionsTotal != n || empty.Canaries != s.canaries {
		t.Errorf("verify, the empty patch: %+v; want reward 0, failed, 0 of %d sections completed, %d canaries", empty, n, s.canaries)
	}
}
