package mutate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/harbor"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/sectionmap"
	"github.com/lolbench/lolbench/stages/build"
)

func openRepo(t *testing.T, b *builtTask) *diff.Repo {
	t.Helper()
	info, err := b.c.LoadInfo()
	if err != nil {
		t.Fatal(err)
	}
	dir, _ := info.RepoPath(b.env.Workspace)
	r, err := diff.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// runStage runs the mutate stage (forced) and loads what it wrote.
func runStage(t *testing.T, b *builtTask, st *Stage) (*mutation.Set, *coverage.Result) {
	t.Helper()
	b.env.Force = true
	var status strings.Builder
	b.env.Status = &status
	outs, err := pipeline.RunCandidate(context.Background(), b.env, b.c, []pipeline.CandidateStage{st})
	if err != nil || len(outs) != 1 || outs[0].Result != pipeline.Passed {
		t.Fatalf("mutate: %v %v\n%s", outs, err, status.String())
	}
	set, err := mutation.Load(b.c)
	if err != nil {
		t.Fatal(err)
	}
	cov, err := coverage.Load(b.c)
	if err != nil {
		t.Fatal(err)
	}
	if testing.Verbose() {
		t.Log(status.String())
	}
	return set, cov
}

// statusLines are "id status [drop: reason] [killed by ...]" per mutant.
func statusLines(set *mutation.Set) []string {
	var out []string
	for _, m := range set.Mutants {
		l := fmt.Sprintf("%s %s", m.ID, m.Status)
		switch m.Status {
		case mutation.Dropped:
			l += fmt.Sprintf(" %s: %s", m.Drop, m.Reason)
		case mutation.Killed:
			l += " by " + strings.Join(m.KilledBy, " ")
		}
		out = append(out, l)
	}
	return out
}

func matrixLines(m *mutation.Matrix) []string {
	var out []string
	for _, r := range m.Rows {
		var cells []string
		for _, o := range r.Outcomes {
			cells = append(cells, map[mutation.Outcome]string{mutation.OutcomeKilled: "K", mutation.OutcomePassed: "p", mutation.OutcomeUnreached: "."}[o])
		}
		out = append(out, r.Mutant+" "+strings.Join(cells, ""))
	}
	return out
}

// short is "id status[ drop]" per mutant.
func short(set *mutation.Set) []string {
	var out []string
	for _, m := range set.Mutants {
		l := m.ID + " " + string(m.Status)
		if m.Drop != "" {
			l += " " + string(m.Drop)
		}
		out = append(out, l)
	}
	return out
}

func check(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %#v\nwant %#v", what, got, want)
	}
}

// killedSets are the killed-by lists per mutant.
func killedSets(set *mutation.Set) map[string]string {
	out := map[string]string{}
	for _, m := range set.Mutants {
		out[m.ID] = string(m.Status) + " " + strings.Join(m.KilledBy, ",")
	}
	return out
}

// TestMutateTinykv runs the stage on the Go sample with Docker: the
// mapped-section reverts and the flip-comparison mutants, with the LLM
// methods skipped for want of an endpoint. Every filter outcome, the kill
// matrix and Table 8 are exact; the selection by per-test coverage gives
// the same kills as running every test; the coverage figures are those of
// go tool cover -func on the union profile.
func TestMutateTinykv(t *testing.T) {
	b := builtSample(t, "tinykv")
	set, cov := runStage(t, b, &Stage{Executor: needDocker(t), Families: []string{"revert", "ops", "llm"}, Operators: []string{"flip-comparison"}, Jobs: 2})
	check(t, "statuses", statusLines(set), []string{
		// The plain revert does not build, nor does its stub revert: the
		// existing functions it puts back were written for the old types.
		"revert-3.1 dropped compile: the build check (go build ./...) fails: store/store.go:41:22: cannot use make(map[string]string) (value of type map[string]string) as type map[string]value in struct literal",
		// The Go revert keeps the sweeper's declarations as stubs (issue
		// 31 §2): the store package builds, and only the sweeper's tests
		// fail.
		"revert-3.2 killed by example.com/tinykv/store.TestStartSweeperStops example.com/tinykv/store.TestSweepRemovesExpired",
		// The Go test that drives the Python client fails too: its server
		// lacks SETEX.
		"revert-3.3 killed by example.com/tinykv/server.TestPythonClientExpiry example.com/tinykv/server.TestSetexAndTTL",
		"revert-3.4 dropped compile: the build check (go build ./...) fails: store/store.go:141:11: cannot use make(map[string]string, len(items)) (value of type map[string]string) as type map[string]value in assignment",
		"revert-3.5 killed by example.com/tinykv/server.TestPythonClientExpiry",
		// Section 4's code (the version 1 load path) is all used by code
		// that other sections keep: its revert removes only comments.
		"revert-4 dropped duplicate: the revert changes only comments: every line of code section 4 owns is still used, so it is equivalent to the reference solution",
		// The Python client of a Go project: go test's coverage cannot see
		// its lines, so every test runs against its mutants. The first is
		// killed by the test that drives the client; the second, in the
		// ttl reply's "< 0" test, turns -1 into a ttl of -1 seconds instead
		// of None and no test sees it.
		"op-flip-comparison-001 killed by example.com/tinykv/server.TestPythonClientExpiry",
		"op-flip-comparison-002 survived",
		"op-flip-comparison-003 killed by example.com/tinykv/server.TestPythonClientExpiry example.com/tinykv/server.TestSetexAndTTL",
		"op-flip-comparison-004 killed by example.com/tinykv/server.TestPythonClientExpiry example.com/tinykv/server.TestSetexAndTTL",
		"op-flip-comparison-005 killed by example.com/tinykv/server.TestPythonClientExpiry example.com/tinykv/server.TestSetexAndTTL",
		// secs < 0 lets 0 through to SetWithTTL, which rejects it with the
		// same reply: an equivalent mutant.
		"op-flip-comparison-006 survived",
		// The server's test binary panics on it (a nil pointer
		// dereference), so TestHandle, which runs none of its lines, never
		// runs: the selective job sees the process die and runs every
		// test again, as a full run would (issue 32 §2).
		"op-flip-comparison-007 dropped p2p: breaks 1 pass-to-pass test(s): example.com/tinykv/server.TestHandle (absent)",
		"op-flip-comparison-008 killed by example.com/tinykv/server.TestPythonClientExpiry example.com/tinykv/server.TestSetexAndTTL",
		"op-flip-comparison-009 killed by example.com/tinykv/server.TestPythonClientExpiry example.com/tinykv/server.TestSetexAndTTL",
		// The snapshot round trip, PASS_TO_PASS since its package only
		// failed to build before the solution (issue 36), breaks: an
		// invalid mutant.
		"op-flip-comparison-010 dropped p2p: breaks 1 pass-to-pass test(s): example.com/tinykv/snapshot.TestRoundTrip (failed)",
		"op-flip-comparison-011 killed by example.com/tinykv/store.TestSetWithTTLRejectsNonPositive",
	})
	// Columns, the 11 FAIL_TO_PASS tests: server.TestPythonClientExpiry,
	// server.TestSetexAndTTL, three snapshot tests, six store tests (K
	// killed, p passed): every mutant's job runs every F2P test (issue 32
	// §2), so no cell is left unreached.
	check(t, "matrix", matrixLines(set.Matrix), []string{
		"revert-3.2 ppppppppKKp",
		"revert-3.3 KKppppppppp",
		"revert-3.5 Kpppppppppp",
		"op-flip-comparison-001 Kpppppppppp",
		"op-flip-comparison-002 ppppppppppp",
		"op-flip-comparison-003 KKppppppppp",
		"op-flip-comparison-004 KKppppppppp",
		"op-flip-comparison-005 KKppppppppp",
		"op-flip-comparison-006 ppppppppppp",
		"op-flip-comparison-008 KKppppppppp",
		"op-flip-comparison-009 KKppppppppp",
		"op-flip-comparison-011 pppppppKppp",
	})
	check(t, "survivors", set.Matrix.Survivors(), []string{"op-flip-comparison-002", "op-flip-comparison-006"})
	check(t, "table 8", set.Report.Methods, []mutation.Row{
		{Method: mutation.MappedRevert, Generated: 6, Valid: 3, SurvivedP2P: 3, Killed: 3, Score: 1, Scored: true},
		{Method: mutation.SyntaxOperator, Generated: 11, Valid: 11, SurvivedP2P: 9, Killed: 7, Score: 7.0 / 9, Scored: true},
	})
	// 16 mutants ran (revert-4 needed no job), and revert-3.1's plain
	// revert before its stub revert: one more job; op-flip-comparison-004
	// and -007 ran twice, the server's test binary having panicked.
	check(t, "runs", set.Report.Runs, mutation.Runs{Jobs: 19, Full: 289, Executed: 270, Saved: 19, Selective: true})

	// The test-to-section map, rewritten with the kill matrix: each
	// section's tests are those that fail on its revert (3.2, 3.3, 3.5)
	// or, where no revert built (3.1, 3.4) or none was left (4), those its
	// rows name or, for a test no task section's row names, its file's row.
	smap, err := sectionmap.Load(b.c)
	if err != nil {
		t.Fatal(err)
	}
	const srv, snap, st = "example.com/tinykv/server.", "example.com/tinykv/snapshot.", "example.com/tinykv/store."
	check(t, "map", smap.F2PSections(), map[string][]string{
		srv + "TestPythonClientExpiry": {"3.3", "3.5"}, srv + "TestSetexAndTTL": {"3.3"},
		snap + "TestExpiryRoundTrip": {"3.4"}, snap + "TestLoadSkipsExpired": {"3.4"}, snap + "TestLoadVersion1": {"4"},
		st + "TestSetClearsExpiry": {"3.1"}, st + "TestSetWithTTLExpires": {"3.1"}, st + "TestSetWithTTLRejectsNonPositive": {"3.1"}, st + "TestTTL": {"3.1"},
		st + "TestStartSweeperStops": {"3.2"}, st + "TestSweepRemovesExpired": {"3.2"},
	})
	for _, tt := range smap.Tests {
		if tt.Test == srv+"TestPythonClientExpiry" && !reflect.DeepEqual(tt.Evidence, []string{"killed revert-3.3", "killed revert-3.5"}) ||
			tt.Test == snap+"TestLoadVersion1" && !reflect.DeepEqual(tt.Evidence, []string{"row of block 6"}) ||
			tt.Test == st+"TestSetClearsExpiry" && !reflect.DeepEqual(tt.Evidence, []string{"file row of store/store_test.go"}) {
			t.Errorf("evidence of %s: %q", tt.Test, tt.Evidence)
		}
	}
	if smap.Stage != "mutate" || smap.Reference != (sectionmap.Figures{Completed: 6, Total: 6}) || len(smap.Untested) != 0 {
		t.Errorf("map: stage %s, reference %v, untested %v", smap.Stage, smap.Reference, smap.Untested)
	}
	// The task is graded by it.
	cfg, err := harbor.LoadConfig(filepath.Join(b.c.Dir, build.TaskDir))
	if err != nil || !reflect.DeepEqual(cfg.Sections, smap.F2PSections()) {
		t.Errorf("task config: %v, %v", err, cfg.Sections)
	}
	// revert-3.1 was retried as a stub revert; revert-3.4 kept some of
	// the section's declarations from the start (RevertCandidates), so it
	// is a stub variant without a retry.
	for id, retry := range map[string]string{
		"revert-3.1": "the plain revert was dropped (compile): the build check (go build ./...) fails: store/expiry.go:12:8: v.expired undefined (type string has no field or method expired)",
		"revert-3.4": "",
	} {
		m := set.Mutant(id)
		if m.Retry != retry || m.Variant != "stubs" {
			t.Errorf("%s: retry %q variant %q", id, m.Retry, m.Variant)
		}
	}
	dir, _ := mutation.MutantDir(b.c, "revert-3.1")
	if _, err := os.Stat(filepath.Join(dir, "logs-plain", "console.log")); err != nil {
		t.Errorf("revert-3.1: the plain revert's logs: %v", err)
	}
	check(t, "skipped", set.Report.Skipped, []string{"llm: no LLM endpoint configured; set LOLBENCH_LLM_BASE_URL (and LOLBENCH_LLM_MODEL, LOLBENCH_LLM_API_KEY if the endpoint needs one)"})
	m := set.Mutant("op-flip-comparison-011")
	if m.Section != "3.1" || m.Reference != "compares `ttl <= 0` (store/store.go:56)" || !reflect.DeepEqual(m.Lines, coverage.Lines{"store/store.go": {56}}) {
		t.Errorf("record %+v", m)
	}
	if p, err := mutation.LoadPatch(b.c, "op-flip-comparison-011"); err != nil || !strings.Contains(string(p), "+\tif ttl < 0 {\n") {
		t.Errorf("patch: %v\n%s", err, p)
	}

	var suites []string
	for _, s := range cov.Suites {
		suites = append(suites, fmt.Sprintf("%s %d/%d", s.Name, s.Covered, s.Executable))
	}
	// One line races: the sweeper goroutine's "return" after stop() runs
	// only if the goroutine is scheduled before the test binary writes
	// its profile, which on a loaded machine it may not be.
	// The Python client's lines are not in a Go task's coverage target.
	// The PASS_TO_PASS tests (the older tests of packages that did not
	// build before the solution, issue 36) run 28 of the lines.
	want := []string{"F2P 73/80", "P2P 28/80", "F2P ∪ P2P 75/80"}
	if u := cov.Suite(coverage.Union); u != nil && u.Covered == 74 && !u.Lines.Has("store/expiry.go", 32) {
		want = []string{"F2P 72/80", "P2P 28/80", "F2P ∪ P2P 74/80"}
	}
	check(t, "coverage", suites, want)
	if !cov.PerTest || cov.Adapter != "go" {
		t.Errorf("coverage %s per test %v", cov.Adapter, cov.PerTest)
	}
	// The reach run: one run per test package; one P2P test's package
	// runs no changed file, so 16 tests are measured one by one.
	if r := cov.Reach; r == nil || r.Tests != 17 || r.Reached != 16 || r.Unseen != 0 || r.Measured != 16 || cov.Partial != "" {
		t.Errorf("reach %+v partial %q", r, cov.Partial)
	}
	checkGoToolCover(t, b, cov)

	// The same mutants with every test run: the same kills.
	sel := killedSets(set)
	for id, k := range sel {
		if k == "uncovered " {
			sel[id] = "survived "
		}
	}
	// Six of them, spread over the sites, keep the test short.
	all, _ := runStage(t, b, &Stage{Executor: needDocker(t), Families: []string{"ops"}, Operators: []string{"flip-comparison"}, MaxPerOperator: 6, Jobs: 2, AllTests: true})
	for id, k := range killedSets(all) {
		if sel[id] != k {
			t.Errorf("%s: with selection %q, with every test %q", id, sel[id], k)
		}
	}
	check(t, "runs without selection", all.Report.Runs, mutation.Runs{Jobs: 6, Full: 102, Executed: 102})

	// Deleting a Lock() call makes the store's test binary die ("sync:
	// unlock of unlocked mutex"), which takes down store tests that run
	// none of the mutant's lines. The selective job sees its process die
	// and runs every test again, so the mutant is dropped as a full run
	// drops it (found by test/bench/mutate.sh).
	const broken = "breaks 3 pass-to-pass test(s): example.com/tinykv/store.TestDelete (absent), example.com/tinykv/store.TestKeysSorted (absent), example.com/tinykv/store.TestSetGet (absent)"
	for _, c := range []struct {
		allTests bool
		runs     mutation.Runs
	}{
		{false, mutation.Runs{Jobs: 2, Full: 17, Executed: 11 + 17, Saved: -11, Selective: true}},
		{true, mutation.Runs{Jobs: 1, Full: 17, Executed: 17}},
	} {
		del, _ := runStage(t, b, &Stage{Executor: needDocker(t), Families: []string{"ops"}, Operators: []string{"delete-call"}, MaxPerOperator: 1, AllTests: c.allTests})
		if m := del.Mutant("op-delete-call-001"); m == nil || m.Status != mutation.Dropped || m.Drop != mutation.DropP2P || m.Reason != broken {
			t.Errorf("all tests %v: op-delete-call-001 %+v", c.allTests, m)
		}
		check(t, fmt.Sprintf("delete-call runs, all tests %v", c.allTests), del.Report.Runs, c.runs)
	}
}

// checkGoToolCover runs go tool cover -func on the union profile in the
// task's environment and compares its lines for the changed files with the
// result's function figures.
func checkGoToolCover(t *testing.T, b *builtTask, cov *coverage.Result) {
	t.Helper()
	union, err := os.ReadFile(filepath.Join(b.c.Dir, coverage.LogDir, "union.out"))
	if err != nil {
		t.Fatal(err)
	}
	tp, _ := os.ReadFile(filepath.Join(b.c.Dir, "build", "test.patch"))
	sp, _ := os.ReadFile(filepath.Join(b.c.Dir, "build", "solution.patch"))
	senv, err := needDocker(t).Prepare(context.Background(), sandbox.Spec{Project: "tinykv", Task: b.c.ID, Base: b.rec.BaseCommit, Recipe: b.rec.Recipe,
		Tree: sandbox.GitTree{Repo: openRepo(t, b), Commit: b.rec.BaseCommit}})
	if err != nil {
		t.Fatal(err)
	}
	defer senv.Close()
	out := t.TempDir()
	script := coverage.ApplyScript([]string{"test.patch", "solution.patch"}) + "go tool cover -func=\"$LOLBENCH_DIR/union.out\" >\"$out/func.txt\" 2>&1\n"
	if _, err := senv.Run(context.Background(), sandbox.Job{Name: "cover-func", Script: script, Timeout: 5 * 60 * 1e9, OutDir: out,
		Files: map[string][]byte{"union.out": union, "test.patch": tp, "solution.patch": sp}}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(out, "func.txt"))
	if err != nil {
		t.Fatal(err)
	}
	changed := map[string]bool{}
	for _, f := range cov.Target.Files {
		changed[f.Path] = true
	}
	var tool []string
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(l)
		if len(f) != 3 || !strings.HasPrefix(f[0], "example.com/tinykv/") {
			continue
		}
		file := strings.TrimPrefix(f[0], "example.com/tinykv/")
		if path, _, ok := strings.Cut(file, ":"); ok && changed[path] {
			tool = append(tool, file+" "+f[1]+" "+f[2])
		}
	}
	var ours []string
	for _, fc := range cov.Functions {
		ours = append(ours, fmt.Sprintf("%s:%d: %s %.1f%%", fc.File, fc.Line, fc.Function, fc.Percent))
	}
	sort.Strings(tool)
	sort.Strings(ours)
	if len(tool) < 10 {
		t.Fatalf("go tool cover -func printed too little:\n%s", data)
	}
	check(t, "go tool cover -func", ours, tool)
}

// TestMutateUnitconv runs the stage on the Python sample: mutants that
// break pass-to-pass tests are dropped with the tests named; the kill
// matrix and the coverage figures are exact; selection by coverage.py's
// per-test contexts gives the same kills as running every test.
func TestMutateUnitconv(t *testing.T) {
	b := builtSample(t, "unitconv")
	set, cov := runStage(t, b, &Stage{Executor: needDocker(t), Families: []string{"revert", "ops"}, Operators: []string{"flip-comparison"}, Jobs: 2})
	check(t, "statuses", short(set), []string{
		// Section 3 owns the Unit class's body (rule 27): reverting it
		// removes the constructor's new parameters.
		"revert-3 dropped p2p",
		"revert-3.1 killed",
		// Its plain revert removes helpers every module imports; the stub
		// revert keeps their signatures, and the F2P tests kill it.
		"revert-3.2 killed",
		"revert-3.3 dropped p2p",
		"revert-3.4 dropped p2p",
		"revert-3.5 killed",
		"op-flip-comparison-001 dropped p2p",
		"op-flip-comparison-002 dropped p2p",
		"op-flip-comparison-003 dropped p2p",
		"op-flip-comparison-004 killed",
		"op-flip-comparison-005 killed",
		"op-flip-comparison-006 killed",
		"op-flip-comparison-007 killed",
		"op-flip-comparison-008 killed",
		"op-flip-comparison-009 survived",
		"op-flip-comparison-010 survived",
		"op-flip-comparison-011 killed",
		"op-flip-comparison-012 killed",
	})
	// format_quantity's signature changed: the stub revert stubs it, and
	// the P2P tests that format still fail.
	if m := set.Mutant("revert-3.4"); m.Reason != "breaks 6 pass-to-pass test(s): tests.test_cli::test_cli_convert (failed), tests.test_cli::test_cli_precision (failed), tests.test_format::test_format_bad_precision (failed), tests.test_format::test_format_large_value (failed), tests.test_format::test_format_plain (failed) and 1 more" ||
		m.Retry != "the plain revert was dropped (p2p): breaks 2 pass-to-pass test(s): tests.test_cli::test_cli_convert (failed), tests.test_cli::test_cli_precision (failed)" {
		t.Errorf("revert-3.4: %q, retry %q", m.Reason, m.Retry)
	}
	// Reverting the composition API removes names the package exports:
	// no test module imports, every test is absent. The stub revert
	// keeps them.
	if m := set.Mutant("revert-3.2"); !strings.HasPrefix(m.Retry, "the plain revert was dropped (p2p): breaks 30 pass-to-pass test(s): tests.test_cli::test_cli_convert (absent), ") ||
		m.Variant != "stubs" || len(m.KilledBy) != 23 {
		t.Errorf("revert-3.2: retry %q, variant %q, killed by %d", m.Retry, m.Variant, len(m.KilledBy))
	}
	// 40 F2P columns in test-id order: every mutant's job runs every F2P
	// test (issue 32 §2), so the rows are a full run's.
	check(t, "matrix", matrixLines(set.Matrix), []string{
		"revert-3.1 KKpppppppppKppKKKKKKKKKKKKKpKpKpKKpppppp",
		"revert-3.2 KKppKKKKKKKKppppppKKKKKKKKKpKpKpKKpppppp",
		"revert-3.5 pppKpppppppppppppppppppppppppppppppppppp",
		"op-flip-comparison-004 pppppppppppppppppKpKKKpppKpppppppppppppp",
		"op-flip-comparison-005 pppppppppppppppppppKKKpppKpppppppppppppp",
		"op-flip-comparison-006 KppppppppppKppppppKKKKKKKKKpKpKpKppppppp",
		"op-flip-comparison-007 KKppKKKKKpKKppppppKKKKKKKKKpKpKpKKpppppp",
		"op-flip-comparison-008 KpppppKKKpKKppppppKpKKKKKpKpppppKppppppp",
		"op-flip-comparison-009 pppppppppppppppppppppppppppppppppppppppp",
		"op-flip-comparison-010 pppppppppppppppppppppppppppppppppppppppp",
		"op-flip-comparison-011 KpppKpKKppKKppppppKpKKKKKpKpppppKppppppp",
		"op-flip-comparison-012 ppppppppKpppppppppppKKpppppppppppppppppp",
	})
	check(t, "table 8", set.Report.Total, mutation.Row{Method: "total", Generated: 18, Valid: 18, SurvivedP2P: 12, Killed: 10, Score: 10.0 / 12, Scored: true})
	var suites []string
	for _, s := range cov.Suites {
		suites = append(suites, fmt.Sprintf("%s %d/%d", s.Name, s.Covered, s.Executable))
	}
	check(t, "coverage", suites, []string{"F2P 94/96", "P2P 47/96", "F2P ∪ P2P 94/96"})
	if !cov.PerTest || cov.Adapter != "python" || len(cov.Tests) != 70 {
		t.Errorf("coverage %s per test %v, %d tests", cov.Adapter, cov.PerTest, len(cov.Tests))
	}
	// Every test file of the sample runs a changed file.
	if r := cov.Reach; r == nil || r.Tests != 70 || r.Reached != 70 || r.Unseen != 0 || r.Measured != 70 || cov.Partial != "" {
		t.Errorf("reach %+v partial %q", r, cov.Partial)
	}
	sel := killedSets(set)
	all, _ := runStage(t, b, &Stage{Executor: needDocker(t), Families: []string{"ops"}, Operators: []string{"flip-comparison"}, MaxPerOperator: 6, Jobs: 2, AllTests: true})
	if len(all.Mutants) != 6 {
		t.Errorf("%d mutants without selection, want 6", len(all.Mutants))
	}
	for id, k := range killedSets(all) {
		if sel[id] != k {
			t.Errorf("%s: with selection %q, with every test %q", id, sel[id], k)
		}
	}
}
