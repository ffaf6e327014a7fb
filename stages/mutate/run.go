package mutate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/results"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
	"github.com/lolbench/lolbench/pipeline/sandbox/guard"
	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
)

// runner runs mutants in a task's environment: one job per mutant applies
// the test patch and the mutant, runs the build check, then the tests
// (all of them, or only those per-test coverage says reach the mutated
// lines) once.
type runner struct {
	env       sandbox.Env
	recipe    recipe.Recipe // its timeout is the mutant timeout
	adapter   coverage.Adapter
	cov       *coverage.Result // nil when coverage failed
	plan      *coverage.Plan   // for the adapter's Select
	selection []string         // the task's full selection
	build     string           // the build check command, "" for none
	testPatch []byte
	f2p, p2p  []string
	// progress, when set, receives each job's test progress, counted in
	// its log by grader (the task's lolbench-grade) when there is one
	// (issue 36 §5: a mutant job was silent for up to a minute).
	progress sandbox.ProgressFunc
	grader   []byte
	// f2pOnly judges the F2P tests even when P2P tests fail: the
	// restricted reference of the section graph's check (restricted.go)
	// lacks sections by design.
	f2pOnly bool
}

// outcome is what one mutant's job found.
type outcome struct {
	drop   mutation.Drop
	reason string
	// f2p are the outcomes of the F2P tests (when not dropped).
	f2p map[string]mutation.Outcome
	// full and executed count tests: the whole F2P and P2P lists, and
	// those the jobs selected.
	full, executed int
	// jobs counts the sandbox jobs: 2 when a selective run's test process
	// died and every test ran again.
	jobs int
	// uncovered: no test executes the mutated lines; only the apply and
	// build checks ran.
	uncovered bool
}

// run runs one mutant; outDir receives the job's out/ folder. A selective
// job in which a selected test left no result (its test binary or process
// died: a panic, a deadlock at the timeout, an import error) runs again
// with every test: such a death also takes down tests that never reach the
// mutation, and a full run would count them as absent (tinykv's
// op-delete-call-001 breaks three store tests that run none of its lines).
func (rn *runner) run(ctx context.Context, m *mutation.Mutant, patch []byte, outDir string) (*outcome, error) {
	selected, selection := rn.selectTests(m)
	o, lost, err := rn.runTests(ctx, m, patch, outDir, selected, selection)
	if err != nil || !lost || len(selected) == o.full {
		return o, err
	}
	again, _, err := rn.runTests(ctx, m, patch, outDir, rn.allTests(), rn.selection)
	if err != nil {
		return nil, err
	}
	again.executed += o.executed
	again.jobs += o.jobs
	return again, nil
}

// allTests are every F2P and P2P test, sorted.
func (rn *runner) allTests() []string {
	all := append(append([]string{}, rn.f2p...), rn.p2p...)
	sort.Strings(all)
	return all
}

// runTests runs one mutant's job with the given tests. lost reports
// whether the run selected only some tests and its test process died
// (processDied); the outcome is then not judged.
func (rn *runner) runTests(ctx context.Context, m *mutation.Mutant, patch []byte, outDir string, selected, selection []string) (o *outcome, lost bool, err error) {
	o = &outcome{full: len(rn.f2p) + len(rn.p2p), jobs: 1}
	if len(selected) == 0 || rn.cov != nil && rn.cov.Unexecuted(m.Lines) {
		selected, selection, o.uncovered = nil, nil, true
	}
	o.executed = len(selected)
	var b strings.Builder
	b.WriteString(coverage.ApplyScript([]string{"test.patch", "mutant.patch"}))
	b.WriteString(coverage.ProgressScript(rn.progress != nil, len(selected)))
	if rn.build != "" {
		fmt.Fprintf(&b, "sh -c %s >\"$out/build.log\" 2>&1 </dev/null\nrc=$?\necho $rc >\"$out/build.exit\"\n[ $rc -eq 0 ] || exit 0\n", testcmd.Quote(rn.build))
	}
	if len(selected) > 0 {
		b.WriteString("log=\"$out/run-1.log\"\nexitfile=\"$out/run-1.exit\"\nresdir=\"$out/run-1.results\"\n: >\"$log\"\nlolbench_count \"$log\"\n")
		b.WriteString(sandbox.RunOnceScript(rn.recipe, selection))
		b.WriteString("lolbench_count_end\n")
	}
	if err := os.RemoveAll(outDir); err != nil {
		return nil, false, err
	}
	job := sandbox.Job{
		Name:    "mutant-" + jobName(m.ID),
		Script:  b.String(),
		Files:   map[string][]byte{"test.patch": rn.testPatch, "mutant.patch": patch},
		Timeout: 2*time.Duration(rn.recipe.Limits.TimeoutSec)*time.Second + 5*time.Minute,
		OutDir:  outDir,
	}
	if rn.progress != nil {
		if rn.grader != nil {
			job.Files[guard.GraderFile] = rn.grader
			job.Executables = map[string]bool{guard.GraderFile: true}
		}
		var over func(string)
		ctx, over = sandbox.FollowProgress(ctx, rn.progress, sandbox.MutantSide(m.ID), 1, len(selected), guard.ProgressFile)
		defer func() { over(filepath.Join(outDir, guard.ProgressFile)) }()
	}
	jr, err := rn.env.Run(ctx, job)
	if err != nil {
		return nil, false, fmt.Errorf("mutant %s: %w", m.ID, err)
	}
	if msg := coverage.ApplyError(outDir); msg != "" {
		o.drop, o.reason = mutation.DropApply, "the patch does not apply: "+msg
		return o, false, nil
	}
	if rn.build != "" {
		code := readExit(filepath.Join(outDir, "build.exit"))
		if code != 0 {
			log, _ := os.ReadFile(filepath.Join(outDir, "build.log"))
			o.drop, o.reason = mutation.DropCompile, fmt.Sprintf("the build check (%s) fails: %s", rn.build, firstError(string(log), code))
			return o, false, nil
		}
	}
	if o.uncovered {
		return o, false, nil
	}
	status := map[string]results.Status{}
	var judged []results.Result
	if len(selected) > 0 {
		code := readExit(filepath.Join(outDir, "run-1.exit"))
		exit := grade.ExitOf(code)
		if code < 0 {
			exit = results.Exit{Code: 137, Killed: true, TimedOut: jr.TimedOut}
		}
		resDir := ""
		if rn.recipe.Test.Results != "" {
			resDir = filepath.Join(outDir, "run-1.results")
		}
		var res []results.Result
		var perr error
		if code >= 0 {
			res, perr = grade.ReadResults(rn.recipe.Test.Format, filepath.Join(outDir, "run-1.log"), resDir)
		}
		judged = grade.Judge(res, exit, perr).Results
		// A list built before lists named Go subtests may name their
		// parent: it rolls its subtests up (results.StatusOf).
		for _, t := range selected {
			if s := results.StatusOf(rn.recipe.Test.Format, judged, t); s != "" {
				status[t] = s
			}
		}
		if len(selected) < o.full && processDied(rn.recipe.Test.Format, code, jr.TimedOut, selected, status, filepath.Join(outDir, "run-1.log")) {
			return o, true, nil
		}
	}
	// A mutant on which a test unit fails as a whole (a Go test package
	// that does not compile, a Python test module that does not import)
	// says nothing of which section a test asserts: every test of the unit
	// fails alike (issue 31 §2: on grpc-go each section's revert was
	// "killed" by the same 14 tests). It is dropped as not building, so
	// that a section revert is retried as a stub revert.
	if units := mutation.BuildBroken(judged); len(units) > 0 {
		log, _ := os.ReadFile(filepath.Join(outDir, "run-1.log"))
		o.drop, o.reason = mutation.DropCompile, fmt.Sprintf("the tests of %s do not build on it: %s", joinCut(units, 3), firstError(buildOutput(log), 1))
		return o, false, nil
	}
	sel := map[string]bool{}
	for _, t := range selected {
		sel[t] = true
	}
	var broken []string
	for _, t := range rn.p2p {
		if sel[t] && !passes(status, t) {
			broken = append(broken, fmt.Sprintf("%s (%s)", t, orAbsent(status[t])))
		}
	}
	if len(broken) > 0 && !rn.f2pOnly {
		o.drop, o.reason = mutation.DropP2P, fmt.Sprintf("breaks %d pass-to-pass test(s): %s", len(broken), joinCut(broken, 5))
		return o, false, nil
	}
	// Every F2P test ran (selectTests).
	o.f2p = map[string]mutation.Outcome{}
	for _, t := range rn.f2p {
		if passes(status, t) {
			o.f2p[t] = mutation.OutcomePassed
		} else {
			o.f2p[t] = mutation.OutcomeKilled
		}
	}
	return o, false, nil
}

// processDied reports whether a test run shows a test process that died:
// the run was killed or ended by a signal, a selected test left no result
// or never finished (an error), or a Go test binary panicked or hit a
// fatal runtime error (which ends its package's remaining tests even when
// the test that panicked was reported as failed).
func processDied(format string, code int, timedOut bool, selected []string, status map[string]results.Status, logPath string) bool {
	if code < 0 || code >= 128 || timedOut {
		return true
	}
	for _, t := range selected {
		if s, ok := status[t]; !ok || s == results.Error {
			return true
		}
	}
	if format != "go-json" {
		return false
	}
	log, _ := os.ReadFile(logPath)
	return bytes.Contains(log, []byte(`"Output":"panic: `)) || bytes.Contains(log, []byte(`"Output":"fatal error: `))
}

// selectTests picks the tests to run for a mutant and the selection items
// that run them: every F2P test, so that its row of the kill matrix is the
// one a full run gives, and the P2P tests per-test coverage says reach the
// mutated lines; the others cannot fail because of the mutant and keep
// their verdict on the reference solution (issue 32 §2; PIT's test
// selection). Without per-test coverage, or when the adapter cannot select
// single tests, every F2P and P2P test runs with the task's selection.
func (rn *runner) selectTests(m *mutation.Mutant) ([]string, []string) {
	all := rn.allTests()
	if rn.cov == nil || rn.plan == nil {
		return all, rn.selection
	}
	reach, ok := rn.cov.Reaching(m.Lines)
	if !ok {
		return all, rn.selection
	}
	p2p := map[string]bool{}
	for _, t := range rn.p2p {
		p2p[t] = true
	}
	tests := append([]string{}, rn.f2p...)
	for _, t := range reach {
		if p2p[t] {
			tests = append(tests, t)
		}
	}
	sort.Strings(tests)
	tests = slices.Compact(tests)
	items, ok := rn.adapter.Select(rn.plan, tests)
	if !ok {
		return all, rn.selection
	}
	return tests, items
}

// selective reports whether test selection by coverage is in effect.
func (rn *runner) selective() bool {
	if rn.cov == nil || rn.plan == nil || !rn.cov.PerTest {
		return false
	}
	_, ok := rn.adapter.Select(rn.plan, nil)
	return ok
}

// jobName makes a mutant id a job name (letters, digits, - and _).
func jobName(id string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, id)
}

func passes(status map[string]results.Status, t string) bool {
	s, ok := status[t]
	return ok && (s == results.Passed || s == results.Skipped)
}

func orAbsent(s results.Status) string {
	if s == "" {
		return string(sandbox.Absent)
	}
	return string(s)
}

func readExit(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return -1
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return -1
	}
	return n
}

// firstError is the first line of a build log that names a source file
// (javac's "[ERROR] /testbed/A.java:[3,5] cannot find symbol" comes after
// Maven's "[ERROR] COMPILATION ERROR :"), else the first that reads like
// an error, else its first line.
func firstError(log string, code int) string {
	lines := strings.Split(strings.TrimSpace(log), "\n")
	for _, l := range lines {
		if strings.Contains(l, ".go:") || strings.Contains(l, ".java:") {
			return cut(strings.TrimSpace(l), 300)
		}
	}
	for _, l := range lines {
		if strings.Contains(strings.ToLower(l), "error") {
			return cut(strings.TrimSpace(l), 300)
		}
	}
	if len(lines) > 0 && lines[0] != "" {
		return cut(strings.TrimSpace(lines[0]), 300)
	}
	return fmt.Sprintf("exit status %d", code)
}

func cut(s string, n int) string {
	if len(s) > n {
		return s[:n-3] + "..."
	}
	return s
}

func joinCut(list []string, n int) string {
	if len(list) <= n {
		return strings.Join(list, ", ")
	}
	return strings.Join(list[:n], ", ") + fmt.Sprintf(" and %d more", len(list)-n)
}

// buildOutput is a test log's text with go test -json's events read back
// to the lines they carry (a build failure's compiler errors are
// "build-output" events since Go 1.24).
func buildOutput(log []byte) string {
	var b strings.Builder
	for _, line := range strings.Split(string(log), "\n") {
		if strings.HasPrefix(line, "{") {
			var ev struct{ Output string }
			if json.Unmarshal([]byte(line), &ev) == nil {
				b.WriteString(ev.Output)
				continue
			}
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}
