package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/results"
	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
	"github.com/lolbench/lolbench/pipeline/sandbox/guard"
	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
)

// Plan is the test plan of one task.
type Plan struct {
	// Recipe, with defaults applied.
	Recipe recipe.Recipe
	// Selection is the test selection (testcmd.Selection).
	Selection []string
	// Language is the candidate's language; it picks the canary.
	Language string
	// TestPatch adds and changes the PR's tests (and vendored files); the
	// verifier applies it after every reset. Solution is the rest of the
	// PR, the reference solution.
	TestPatch, Solution []byte
	// Grader is the static lolbench-grade binary that runs in the sandbox
	// (BuildGrader).
	Grader string
	// Progress, when set, receives each side's progress while its tests
	// run (TestProgress).
	Progress ProgressFunc
	// Known estimates how many tests a side's first run reports, by side
	// name (the last build's runs); the after side falls back on the
	// before side's last run. 0: unknown until a run tells.
	Known map[string]int
}

// Config is the verifier configuration of the plan's runs: no lists yet.
func (p Plan) Config() *guard.Config {
	return &guard.Config{Config: grade.Config{Format: p.Recipe.Test.Format}, Language: p.Language, Recipe: p.Recipe, Selection: p.Selection}
}

// Run is one run of the tests.
type Run struct {
	N    int          `json:"n"`
	Exit results.Exit `json:"exit"`
	// Status and Reason are results.Judge's verdict.
	Status results.Status `json:"status"`
	Reason string         `json:"reason,omitempty"`
	// Counts are the judged results per status.
	Counts map[results.Status]int `json:"counts"`
	// Log is the run's output, relative to the report's folder.
	Log string `json:"log"`
	// Void says why the run does not count (tampered with, or the
	// verifier could not run it); its results are then dropped.
	Void string `json:"void,omitempty"`
	// Canaries counts the canaries planted in the run.
	Canaries int `json:"canaries"`
	// Results are the judged per-test statuses (not in the JSON report:
	// the lists carry what matters, the logs the rest).
	Results []results.Result `json:"-"`
}

// Side is one side of a plan, run Runs times in one sandbox.
type Side struct {
	Name string `json:"name"` // "before" or "after"
	// ApplyError is set when a patch did not apply; then nothing ran.
	ApplyError string        `json:"apply_error,omitempty"`
	Runs       []Run         `json:"runs"`
	Duration   time.Duration `json:"duration_ns"`
	TimedOut   bool          `json:"timed_out,omitempty"`
}

// Report is the outcome of a plan: the F2P and P2P lists and how they came
// about. Rejected is set when the task is not kept, with the reason.
type Report struct {
	Env       EnvInfo  `json:"env"`
	Runs      int      `json:"runs"`
	Command   string   `json:"command"`
	Selection []string `json:"selection"`
	Before    Side     `json:"before"`
	After     Side     `json:"after"`
	Classification
	Rejected string `json:"rejected,omitempty"`
}

// Side names.
const (
	Before = "before"
	After  = "after"
)

// Validate runs a plan in env: the before side (test patch only) and the
// after side (test patch and reference solution), each Runs times in one
// sandbox, and classifies the tests. Logs go to logDir/before and
// logDir/after. A task is kept only when the reference solution applies
// and at least one test fails before it and passes after it; F2P and P2P
// are the tests that did so (and passed on both sides) in every run.
func Validate(ctx context.Context, env Env, plan Plan, logDir string, w io.Writer) (*Report, error) {
	r := plan.Recipe
	rep := &Report{Env: env.Info(), Runs: r.Runs, Command: testcmd.TestCommand(r, plan.Selection), Selection: plan.Selection}
	if len(plan.TestPatch) == 0 {
		return nil, errors.New("validate: empty test patch")
	}
	for _, side := range []string{Before, After} {
		sol := plan.Solution
		if side == Before {
			sol = nil
		}
		status(w, "running the tests %s the reference solution (%d runs)", side, r.Runs)
		if side == After && plan.Known[After] == 0 {
			plan.Known = map[string]int{After: lastRunTests(rep.Before)}
		}
		s, err := RunSide(ctx, env, plan, side, sol, filepath.Join(logDir, side))
		if err != nil {
			return nil, err
		}
		if side == Before {
			rep.Before = *s
		} else {
			rep.After = *s
		}
		if s.ApplyError != "" {
			what := "the test patch does not apply at the base commit"
			if strings.HasPrefix(s.ApplyError, "solution:") {
				what = "the reference solution does not apply"
			}
			rep.Rejected = what + ": " + firstLine(strings.TrimSpace(s.ApplyError[strings.Index(s.ApplyError, ":")+1:]))
			rep.Classification = Classify(nil, nil)
			return rep, nil
		}
	}
	for _, sd := range []Side{rep.Before, rep.After} {
		for _, run := range sd.Runs {
			if run.Void != "" {
				// A run that does not count cannot classify tests: either
				// the reference solution tampers with the tests, or the
				// grading design does not hold for this task.
				rep.Classification = Classify(nil, nil)
				if msg, ok := strings.CutPrefix(run.Void, "error: "+guard.TestPatchFailure+": "); ok {
					rep.Rejected = "the test patch does not apply at the base commit: " + msg
				} else {
					rep.Rejected = fmt.Sprintf("run %d %s the reference solution is void: %s", run.N, sd.Name, run.Void)
				}
				return rep, nil
			}
		}
	}
	rep.Classification = Classify(sideResults(rep.Before), sideResults(rep.After))
	if len(rep.FailToPass) == 0 {
		rep.Rejected = noF2PReason(rep)
	}
	return rep, nil
}

// noF2PReason says why no test is fail-to-pass, from the runs.
func noF2PReason(rep *Report) string {
	passedAfter := 0
	for _, r := range rep.After.Runs {
		if n := r.Counts[results.Passed]; n > passedAfter {
			passedAfter = n
		}
	}
	var why string
	switch {
	case rep.After.TimedOut:
		why = "the runs after the reference solution did not finish in time"
	case passedAfter == 0 && len(rep.After.Runs) > 0:
		why = fmt.Sprintf("no test passes after the reference solution (run 1: %s)", rep.After.Runs[0].Describe())
	default:
		why = fmt.Sprintf("every test that passes after the reference solution also passes before it (%d pass-to-pass, %d fail on both sides, %d broken by the solution, %d flaky)",
			len(rep.PassToPass), len(rep.FailBoth), len(rep.Broken), len(rep.Flaky))
	}
	return "no fail-to-pass test: " + why
}

// Describe says how a run ended: "exit code 1 (2 planted canaries fail
// on purpose), 7 error; reason". The canaries are named because they make
// the exit code of a run whose own tests pass 1.
func (r Run) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "exit code %d", r.Exit.Code)
	if r.Canaries > 0 {
		what := "canaries fail"
		if r.Canaries == 1 {
			what = "canary fails"
		}
		fmt.Fprintf(&b, " (%d planted %s on purpose)", r.Canaries, what)
	}
	for _, s := range []results.Status{results.Passed, results.Failed, results.Error, results.Skipped} {
		if n := r.Counts[s]; n > 0 {
			fmt.Fprintf(&b, ", %d %s", n, s)
		}
	}
	if len(r.Counts) == 0 {
		b.WriteString(", no results")
	}
	if r.Reason != "" {
		b.WriteString("; " + r.Reason)
	}
	return b.String()
}

// lastRunTests counts the tests the last run of a side reported, and its
// canaries, which the progress counts too.
func lastRunTests(s Side) int {
	if len(s.Runs) == 0 {
		return 0
	}
	n := s.Runs[len(s.Runs)-1].Canaries
	for _, c := range s.Runs[len(s.Runs)-1].Counts {
		n += c
	}
	return n
}

func sideResults(s Side) [][]results.Result {
	out := make([][]results.Result, len(s.Runs))
	for i, r := range s.Runs {
		out[i] = r.Results
	}
	return out
}

// RunSide runs one side: the verifier (pipeline/sandbox/guard), as root in
// one sandbox, has the test user apply solution (when not empty), then runs
// the tests Runs times, resetting the test infrastructure and applying the
// test patch before each. outDir receives the job's out/ folder: run-N/
// per run, or apply-error.txt.
func RunSide(ctx context.Context, env Env, plan Plan, side string, solution []byte, outDir string) (*Side, error) {
	r := plan.Recipe
	if plan.Grader == "" {
		return nil, errors.New("no lolbench-grade binary for the sandbox")
	}
	grader, err := os.ReadFile(plan.Grader)
	if err != nil {
		return nil, fmt.Errorf("grader: %w", err)
	}
	cfg, err := json.Marshal(plan.Config())
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{guard.ConfigFile: cfg, guard.TestPatchFile: plan.TestPatch, guard.GraderFile: grader}
	args := []string{"-config", `"$LOLBENCH_DIR/` + guard.ConfigFile + `"`, "-test-patch", `"$LOLBENCH_DIR/` + guard.TestPatchFile + `"`,
		"-runs", strconv.Itoa(r.Runs), "-out", `"$LOLBENCH_DIR/out"`, "-fresh"}
	if len(solution) > 0 {
		files["solution.patch"] = solution
		args = append(args, "-solution", `"$LOLBENCH_DIR/solution.patch"`)
	}
	if err := os.RemoveAll(outDir); err != nil {
		return nil, err
	}
	if plan.Progress != nil {
		var over func(string)
		args = append(args, "-progress")
		ctx, over = FollowProgress(ctx, plan.Progress, side, r.Runs, plan.Known[side], guard.ProgressFile)
		defer func() { over(filepath.Join(outDir, guard.ProgressFile)) }()
	}
	per := time.Duration(r.Limits.TimeoutSec+30) * time.Second
	job := Job{
		Name:        side,
		Script:      GuardScript(`"$LOLBENCH_DIR/`+guard.GraderFile+`" run`, args...),
		Files:       files,
		Executables: map[string]bool{guard.GraderFile: true},
		AsRoot:      true,
		Timeout:     time.Duration(r.Runs)*per + 5*time.Minute,
		OutDir:      outDir,
	}
	res, err := env.Run(ctx, job)
	if err != nil {
		return nil, fmt.Errorf("%s side: %w", side, err)
	}
	s := &Side{Name: side, Duration: res.Duration, TimedOut: res.TimedOut}
	if msg, err := os.ReadFile(filepath.Join(outDir, guard.ApplyErrorFile)); err == nil {
		s.ApplyError = "solution: " + strings.TrimPrefix(strings.TrimSpace(string(msg)), "the solution does not apply: ")
		return s, nil
	}
	for i := 1; i <= r.Runs; i++ {
		s.Runs = append(s.Runs, readRun(r, outDir, i, res))
	}
	return s, nil
}

// readRun judges run i of a side's output folder. A run the verifier did
// not record (the job was killed) is an error, and so is a run it voided.
func readRun(r recipe.Recipe, outDir string, i int, job *JobResult) Run {
	dir := guard.RunDir(outDir, i)
	run := Run{N: i, Log: filepath.ToSlash(filepath.Join(filepath.Base(dir), grade.RunLog))}
	rec, err := grade.LoadRun(dir)
	if err != nil {
		why := "the verifier recorded no run"
		if job.TimedOut {
			why += " (the job hit its deadline)"
		}
		rec = &grade.RunRecord{N: i, Error: why}
	}
	var res []results.Result
	var perr error
	if rec.Error == "" {
		res, perr = grade.RunResults(r.Test.Format, dir, r.Test.Results != "")
	}
	j := grade.JudgeRun(rec, res, perr, nil)
	run.Exit = grade.ExitOf(rec.Exit)
	run.Exit.TimedOut = run.Exit.TimedOut || rec.TimedOut
	run.Status, run.Reason, run.Results = j.Status, j.Reason, j.Results
	run.Void, run.Canaries = j.Void, len(rec.Canaries)
	if j.Void != "" {
		run.Results = nil
	}
	run.Counts = map[results.Status]int{}
	for _, x := range run.Results {
		run.Counts[x.Status]++
	}
	return run
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Summary is a one-line account of a report for progress output.
func (rep *Report) Summary() string {
	if rep.Rejected != "" {
		return "rejected: " + rep.Rejected
	}
	return fmt.Sprintf("%d fail-to-pass, %d pass-to-pass, %d flaky excluded, %d broken by the solution", len(rep.FailToPass), len(rep.PassToPass), len(rep.Flaky), len(rep.Broken))
}
