package augment

import (
	"bytes"
	"context"
	"fmt"
	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/sectionmap"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/harbor"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/stages/build"
)

// The scripted tests of the generation-loop test, one per retention rule.
const (
	srcPassesBefore = `package calc

import "testing"

func TestAddStillWorks(t *testing.T) {
	if Add(1, 1) != 2 {
		t.Fatal("Add(1, 1) != 2")
	}
}
`
	srcInternal = `package calc

import "testing"

func TestClampHelperUpper(t *testing.T) {
	if clampHelper(11, 0, 10) != 10 {
		t.Fatal("not clamped")
	}
}
`
	srcKillsBoundary = `package calc

import "testing"

func TestClampOneAboveHi(t *testing.T) {
	got, err := Clamp(11, 0, 10)
	if err != nil || got != 10 {
		t.Fatalf("Clamp(11, 0, 10) = %d, %v; want 10", got, err)
	}
}
`
	// The body of the original TestClamp under another name.
	srcDuplicate = `package calc

import "testing"

// TestClampAgain checks clamping from above.
func TestClampAgain(t *testing.T) {
	got, err := Clamp(15, 0, 10)
	if err != nil || got != 10 {
		t.Fatalf("Clamp(15, 0, 10) = %d, %v", got, err)
	}
}
`
	// Passes on odd runs only: the counter file survives between the
	// runs of one side.
	srcUnstable = `package calc

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

func TestClampReversedFlaky(t *testing.T) {
	p := filepath.Join(os.TempDir(), "clamp-flaky-count")
	b, _ := os.ReadFile(p)
	n, _ := strconv.Atoi(string(b))
	n++
	os.WriteFile(p, []byte(strconv.Itoa(n)), 0o644)
	if _, err := Clamp(1, 5, 0); err != ErrRange {
		t.Fatal("no ErrRange")
	}
	if n%2 == 0 {
		t.Fatal("even run")
	}
}
`
	srcKillsRevert = `package calc

import (
	"errors"
	"testing"
)

func TestClampRejectsReversedBounds(t *testing.T) {
	if _, err := Clamp(1, 5, 0); !errors.Is(err, ErrRange) {
		t.Fatalf("Clamp(1, 5, 0) error = %v; want ErrRange", err)
	}
}
`
	srcUndocumented = `package calc

import (
	"errors"
	"testing"
)

func TestClampAllReversedBounds(t *testing.T) {
	if _, err := ClampAll([]int{1}, 5, 0); !errors.Is(err, ErrRange) {
		t.Fatal("no ErrRange")
	}
}
`
	srcDescribeSmall = `package calc

import "testing"

func TestDescribeSmall(t *testing.T) {
	for _, tc := range []struct {
		name string
		x    int
		want string
	}{{"zero", 0, "zero"}, {"small", 5, "small positive"}} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Describe(tc.x); got != tc.want {
				t.Fatalf("Describe(%d) = %q; want %q", tc.x, got, tc.want)
			}
		})
	}
}
`
	srcNothingNew = `package calc

import "testing"

func TestClampTwentyDown(t *testing.T) {
	if v, _ := Clamp(20, 0, 10); v != 10 {
		t.Fatalf("Clamp(20, 0, 10) = %d", v)
	}
}
`
	srcDescribeNegative = `package calc

import "testing"

func TestDescribeNegativeHuge(t *testing.T) {
	if got := Describe(-2000000); got != "huge negative" {
		t.Fatalf("Describe(-2000000) = %q", got)
	}
	if got := Describe(-150); got != "large negative" {
		t.Fatalf("Describe(-150) = %q", got)
	}
}
`
)

const calcPkg = "example.com/calc/calc."

// TestGenerationLoop runs both loops against the fake model and the local
// executor on the calc fixture, with one scripted test per retention
// rule: each is kept or rejected for exactly its reason, the rejected
// ones are fed back once, and what fails again is dropped.
func TestGenerationLoop(t *testing.T) {
	ws, c := calcCopy(t)
	script := map[string]map[int]string{
		`The surviving mutant "op-boundary-hi"`: {
			1: answer(t, Proposal{Path: "calc/add_again_test.go", Name: "TestAddStillWorks", Requirement: "hi when x is above hi", Source: srcPassesBefore},
				Proposal{Path: "calc/clamp_helper_test.go", Name: "TestClampHelperUpper", Source: srcInternal}),
			2: answer(t, Proposal{Path: "calc/clamp_upper_test.go", Name: "TestClampOneAboveHi", Requirement: "hi when x is above hi", Source: srcKillsBoundary},
				Proposal{Path: "calc/clamp_again_test.go", Name: "TestClampAgain", Source: srcDuplicate}),
		},
		`The surviving mutant "revert-1.2.2"`: {
			1: answer(t, Proposal{Path: "calc/clamp_flaky_test.go", Name: "TestClampReversedFlaky", Source: srcUnstable},
				Proposal{Path: "calc/clamp_range_test.go", Name: "TestClampRejectsReversedBounds", Requirement: "When lo is greater than hi, Clamp returns the error ErrRange.", Source: srcKillsRevert}),
			2: answer(t, Proposal{Path: "calc/clamp_all_test.go", Name: "TestClampAllReversedBounds", Source: srcUndocumented}),
		},
		"The uncovered spans": {
			1: answer(t, Proposal{Path: "calc/describe_small_test.go", Name: "TestDescribeSmall", Targets: []string{"span-1", "span-99"}, Source: srcDescribeSmall},
				Proposal{Path: "calc/clamp_twenty_test.go", Name: "TestClampTwentyDown", Targets: []string{"span-2"}, Source: srcNothingNew}),
			2: answer(t, Proposal{Path: "calc/describe_negative_test.go", Name: "TestDescribeNegativeHuge", Targets: []string{"span-1"}, Source: srcDescribeNegative}),
		},
	}
	model := newFakeModel(t, script)
	env := &pipeline.Env{Workspace: ws, Status: io.Discard, Getenv: os.Getenv, Version: "test"}
	var ends []string // one per coverage run that ended: candidate, side, tests done
	st := &Stage{LLM: model.client(t, ws), Executor: sandbox.NewLocal(io.Discard),
		Progress: func(id string, p sandbox.TestProgress) {
			if p.Over {
				ends = append(ends, fmt.Sprintf("%s %s %d", id, p.Side, p.Done))
			}
		}}
	if err := st.Run(context.Background(), env, c); err != nil {
		t.Fatal(err)
	}
	// Every coverage run talks (issue 25 §2): the coverage loop's two
	// prompts' candidates (TestDescribeSmall's two subtests, each run
	// alone since tests are graded at subtest level (issue 36 §3), and
	// TestClampTwentyDown; then 1) and the final measurement: its reach run
	// over the whole suite, then the per-test run of the tests it must
	// measure one by one (issue 32 §1).
	if want := []string{"calc-cep-0001 coverage 3", "calc-cep-0001 coverage 1", "calc-cep-0001 reach 7", "calc-cep-0001 coverage 7"}; !reflect.DeepEqual(ends, want) {
		t.Errorf("coverage runs ended %q, want %q", ends, want)
	}
	rep, err := LoadReport(c)
	if err != nil {
		t.Fatal(err)
	}
	type verdict struct{ id, status, rule, reason string }
	var got []verdict
	for _, cd := range rep.Candidates {
		got = append(got, verdict{cd.ID, cd.Status, cd.Rule, cd.Reason})
	}
	// The build's map leaves 1.2.2 untested, so its revert is prompted
	// first, before the operator mutant of the tested 1.2.1 (issue 25).
	want := []verdict{
		{"m-revert-1.2.2.1.1", Rejected, "unstable", "unstable with the reference solution: passed, failed over 2 runs"},
		{"m-revert-1.2.2.1.2", Retained, "", ""},
		{"m-op-boundary-hi.1.1", Rejected, "before", "passes before the reference solution (passed, passed): it checks behaviour that exists already, not what the proposal adds"},
		{"m-op-boundary-hi.1.2", Rejected, "audit", "overly narrow test: line 6: calls the unexported `clampHelper`"},
		{"cov.1.1", Retained, "", ""},
		{"cov.1.2", Rejected, "coverage", "runs no target line that the original tests or an earlier kept test do not run (it runs 5 target lines, all covered already)"},
		{"m-revert-1.2.2.2.1", Dropped, "audit", "overly narrow test: line 9: calls `ClampAll`, which the PR introduces and the EP never names"},
		{"m-op-boundary-hi.2.1", Retained, "", ""},
		{"m-op-boundary-hi.2.2", Dropped, "duplicate", "duplicate of TestClamp in calc/calc_test.go: the same assertions on the same inputs"},
		{"cov.2.1", Retained, "", ""},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("verdicts:\n got %q\nwant %q", got, want)
	}

	// The rewrite request carries each rejected test's reason.
	reqs := model.requests()
	if len(reqs) != 6 {
		t.Fatalf("%d model requests, want 6 (three first requests, three rewrites)", len(reqs))
	}
	var rewrites []string
	for _, r := range reqs {
		if len(r) == 4 {
			rewrites = append(rewrites, r[3].Content)
		}
	}
	if len(rewrites) != 3 || !strings.Contains(rewrites[0], "- `calc/clamp_flaky_test.go` (TestClampReversedFlaky): unstable") ||
		!strings.Contains(rewrites[1], "- `calc/add_again_test.go` (TestAddStillWorks): passes before the reference solution (passed, passed)") ||
		!strings.Contains(rewrites[1], "- `calc/clamp_helper_test.go` (TestClampHelperUpper): overly narrow test: line 6: calls the unexported `clampHelper`") {
		t.Errorf("rewrite requests: %q", rewrites)
	}

	// Lists, patch and figures.
	// TestDescribeSmall is listed by its subtests, not as their parent.
	wantAdded := []string{calcPkg + "TestClampOneAboveHi", calcPkg + "TestClampRejectsReversedBounds", calcPkg + "TestDescribeNegativeHuge",
		calcPkg + "TestDescribeSmall/small", calcPkg + "TestDescribeSmall/zero"}
	// TestAdd is PASS_TO_PASS: its package only failed to build before the
	// solution, and its code did not change.
	wantF2P := append([]string{calcPkg + "TestClamp"}, wantAdded...)
	sortStrings(wantF2P)
	sortStrings(rep.Added)
	if !reflect.DeepEqual(rep.Added, wantAdded) || !reflect.DeepEqual(rep.FailToPass, wantF2P) {
		t.Errorf("added %q\nF2P %q", rep.Added, rep.FailToPass)
	}
	if rep.AddedBy[LoopMutation] != 2 || rep.AddedBy[LoopCoverage] != 2 {
		t.Errorf("added by loop: %v", rep.AddedBy)
	}
	if m := rep.Mutants; m.SurvivedP2P != 3 || m.KilledOriginal != 1 || m.KilledOverall != 3 || len(m.Survivors) != 0 {
		t.Errorf("mutants: %+v", m)
	}
	if cv := rep.Coverage; !cv.Available || cv.Executable != 27 || fmtPct(cv.F2POriginal) != "18.5" || fmtPct(cv.F2POverall) != "66.7" {
		t.Errorf("coverage: %+v", cv)
	}
	if got := rep.Loops; got[0].Prompts != 2 || got[0].Generated != 7 || got[0].Retained != 2 || got[0].Rejected != 3 || got[0].Dropped != 2 || got[1].Prompts != 1 ||
		got[1].Generated != 3 || got[1].Retained != 2 || got[1].Rejected != 1 || got[1].Dropped != 0 {
		t.Errorf("loops: %+v", got)
	}
	patch, err := os.ReadFile(filepath.Join(c.Dir, TestPatchFile))
	if err != nil {
		t.Fatal(err)
	}
	if files := patchedFiles(patch); !reflect.DeepEqual(files, []string{"calc/clamp_range_test.go", "calc/describe_small_test.go", "calc/clamp_upper_test.go", "calc/describe_negative_test.go"}) {
		t.Errorf("added files %q", files)
	}

	// The map: a test is under a section when it runs the section's lines
	// and fails on its revert.
	wantMap := map[string][]string{
		calcPkg + "TestClamp":                      {"1.2.1"},
		calcPkg + "TestClampOneAboveHi":            {"1.2.1"},
		calcPkg + "TestClampRejectsReversedBounds": {"1.2.2"},
		calcPkg + "TestDescribeNegativeHuge":       {"1.2.3"},
		calcPkg + "TestDescribeSmall/small":        {"1.2.3"},
		calcPkg + "TestDescribeSmall/zero":         {"1.2.3"},
	}
	if !reflect.DeepEqual(rep.Map.F2PSections(), wantMap) || len(rep.Map.Broad) != 0 || len(rep.Map.Untested) != 0 {
		t.Errorf("map %v broad %v untested %v", rep.Map.F2PSections(), rep.Map.Broad, rep.Map.Untested)
	}
	// The map is the candidate's, and replaced the build's (3 of 3
	// sections now, 1 of 3 then).
	if m, err := sectionmap.Load(c); err != nil || m.Stage != "augment" || m.Reference != (sectionmap.Figures{Completed: 3, Total: 3}) ||
		!reflect.DeepEqual(m.Previous, &sectionmap.Previous{Stage: "build", Reference: sectionmap.Figures{Completed: 1, Total: 3}}) {
		t.Errorf("sections.json: %+v %v", m, err)
	}

	// The Harbor task carries the added tests, the longer list and the map.
	cfg, err := harbor.LoadConfig(filepath.Join(c.Dir, build.TaskDir))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cfg.FailToPass, wantF2P) || !reflect.DeepEqual(cfg.Sections, wantMap) {
		t.Errorf("task config: F2P %q sections %v", cfg.FailToPass, cfg.Sections)
	}
	for _, f := range []string{"calc/clamp_upper_test.go", "calc/describe_negative_test.go"} {
		if !contains(cfg.TestPaths, f) {
			t.Errorf("task test paths lack %s: %q", f, cfg.TestPaths)
		}
	}
	// The reference solution scores 1 on the rewritten task, every section
	// completed; an empty solution scores 0.
	g, err := harbor.Verify(context.Background(), sandbox.NewLocal(io.Discard), filepath.Join(c.Dir, build.TaskDir), nil, filepath.Join(t.TempDir(), "v0"), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if g.Reward != 0 || g.SectionsCompleted != 0 || g.SectionsTotal != 3 {
		t.Errorf("empty solution: reward %d, sections %d/%d", g.Reward, g.SectionsCompleted, g.SectionsTotal)
	}
	solution, err := os.ReadFile(filepath.Join(c.Dir, build.SolutionFile))
	if err != nil {
		t.Fatal(err)
	}
	g, err = harbor.Verify(context.Background(), sandbox.NewLocal(io.Discard), filepath.Join(c.Dir, build.TaskDir), solution, filepath.Join(t.TempDir(), "v1"), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if g.Reward != 1 || g.F2PPassed != len(wantF2P) || g.SectionsCompleted != 3 || g.SectionsTotal != 3 {
		t.Errorf("reference solution: reward %d, F2P %d/%d, sections %d/%d", g.Reward, g.F2PPassed, g.F2PTotal, g.SectionsCompleted, g.SectionsTotal)
	}

	// A later run without an endpoint keeps what this one added: it
	// rewrites the task with them (a rebuild may have dropped them) and
	// recomputes the map from their recorded kills and lines, and says so.
	var status bytes.Buffer
	env.Status = &status
	if err := (&Stage{}).Run(context.Background(), env, c); err != nil {
		t.Errorf("rerun without a model: %v", err)
	}
	if want := "calc-cep-0001: the loops did not run (" + llm.ErrNoEndpoint.Error() + "); kept the 4 tests an earlier run added and rewrote the task with them; " +
		"6 tests mapped to sections, 0 possibly overly broad; 3 task sections, the reference solution completes 3/3 (1/3 under build's map)\n"; status.String() != want {
		t.Errorf("status %q", status.String())
	}
	if again, err := LoadReport(c); err != nil || !reflect.DeepEqual(again.FailToPass, wantF2P) || !reflect.DeepEqual(again.Map.F2PSections(), wantMap) {
		t.Errorf("rerun without a model changed the report: %v", err)
	}
	if cfg, err := harbor.LoadConfig(filepath.Join(c.Dir, build.TaskDir)); err != nil || !reflect.DeepEqual(cfg.FailToPass, wantF2P) || !reflect.DeepEqual(cfg.Sections, wantMap) {
		t.Errorf("task after the rerun: %v", err)
	}
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func fmtPct(v float64) string { return fmt.Sprintf("%.1f", v) }
