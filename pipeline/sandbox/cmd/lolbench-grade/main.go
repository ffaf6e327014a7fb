// Command lolbench-grade is the verifier inside a task's sandbox (issue 11;
// pipeline/sandbox/guard says what it guards against). It is built
// statically and shipped in every task's tests/ folder, so it needs nothing
// from the image but a POSIX shell, and is the same program in a Harbor
// task, in `lolbench verify` and in the build's validation runs.
//
//	lolbench-grade verify [-task DIR] [-solution PATCH] [-out /logs/verifier]
//	    a Harbor task's tests/test.sh: one guarded run of the task's tests,
//	    graded against its FAIL_TO_PASS and PASS_TO_PASS lists into
//	    reward.txt, reward.json and grade.json; the raw run stays in run-1/.
//	lolbench-grade run -config FILE [-test-patch FILE] [-solution PATCH] [-runs N] -out DIR [-local] [-progress]
//	    guarded runs only, into DIR/run-N/, for the host to grade; -progress
//	    keeps DIR/progress.json (tests done in the current run) up to date.
//	lolbench-grade count -log FILE -until FILE -out DIR [-known N]
//	    no grading: keeps DIR/progress.json up to date from a test log
//	    another process writes (the mutate stage's coverage run), until the
//	    -until file exists (or SIGTERM); then it reads the rest and marks
//	    the run ended.
//
// verify and run must run as root (they run the tests as the recipe's
// unprivileged user); -local runs unisolated as the caller, for the local
// executor. verify always keeps progress.json in its -out folder, as run
// -progress does: lolbench verify shows it, an older lolbench verify reads
// nothing of it, and Harbor ignores it.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
	"github.com/lolbench/lolbench/pipeline/sandbox/guard"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

const usage = `usage:
  lolbench-grade verify [-task DIR] [-solution PATCH] [-out DIR]
  lolbench-grade run -config FILE [-test-patch FILE] [-solution PATCH] [-runs N] -out DIR [-local] [-progress]
  lolbench-grade count -log FILE -until FILE -out DIR [-known N]`

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	switch args[0] {
	case "verify":
		return verify(ctx, args[1:], stdout, stderr)
	case "run":
		return runOnly(ctx, args[1:], stderr)
	case "count":
		return count(ctx, args[1:], stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "lolbench-grade: unknown command %q\n%s\n", args[0], usage)
	return 2
}

// runOnly is `lolbench-grade run`.
func runOnly(ctx context.Context, args []string, stderr io.Writer) int {
	fl := flag.NewFlagSet("lolbench-grade run", flag.ContinueOnError)
	fl.SetOutput(stderr)
	configPath := fl.String("config", "", "the verifier configuration (config.json)")
	testPatch := fl.String("test-patch", "", "the PR's test patch, applied after every reset (test.patch)")
	solution := fl.String("solution", "", "a patch the test user applies first")
	runs := fl.Int("runs", 1, "how many times to run the tests")
	out := fl.String("out", "", "where run-N/ folders go")
	testbed := fl.String("testbed", "", "the repository (default /testbed)")
	pristine := fl.String("pristine", "", "the pristine copies (default "+guard.PristineDir+")")
	local := fl.Bool("local", false, "run unisolated as the caller (local executor)")
	fresh := fl.Bool("fresh", false, "the sandbox was started for this run and nothing ran in it before")
	progress := fl.Bool("progress", false, "keep "+guard.ProgressFile+" in the -out folder up to date while the tests run")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if *configPath == "" || *out == "" || fl.NArg() > 0 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	cfg, err := guard.LoadConfig(*configPath)
	if err != nil {
		fmt.Fprintf(stderr, "lolbench-grade: %v\n", err)
		return 2
	}
	o, err := guard.Run(ctx, guard.Options{Config: cfg, TestPatch: *testPatch, Solution: *solution, Runs: *runs,
		Out: *out, Testbed: *testbed, Pristine: *pristine, Local: *local, Fresh: *fresh, Log: stderr, Progress: *progress})
	if err != nil {
		fmt.Fprintf(stderr, "lolbench-grade: %v\n", err)
		return 1
	}
	if o.ApplyError != "" {
		fmt.Fprintf(stderr, "lolbench-grade: %s\n", o.ApplyError)
	}
	return 0
}

// count is `lolbench-grade count`.
func count(ctx context.Context, args []string, stderr io.Writer) int {
	fl := flag.NewFlagSet("lolbench-grade count", flag.ContinueOnError)
	fl.SetOutput(stderr)
	log := fl.String("log", "", "the test log another process writes")
	until := fl.String("until", "", "the file whose existence says the log is complete")
	out := fl.String("out", "", "where "+guard.ProgressFile+" goes")
	known := fl.Int("known", 0, "how many tests the log is expected to report (0: unknown)")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if *log == "" || *until == "" || *out == "" || *known < 0 || fl.NArg() > 0 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	guard.FollowLog(ctx, *log, *until, *out, *known)
	return 0
}

// verify is `lolbench-grade verify`: it always writes a grade, a 0 with
// the reason when the verifier itself cannot work, so that Harbor reads a
// reward either way.
func verify(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("lolbench-grade verify", flag.ContinueOnError)
	fl.SetOutput(stderr)
	exe, _ := os.Executable()
	task := fl.String("task", filepath.Dir(exe), "the task's tests/ folder (config.json, test.patch)")
	solution := fl.String("solution", "", "a patch the test user applies first (lolbench verify)")
	out := fl.String("out", "/logs/verifier", "where reward.txt, reward.json, grade.json and run-1/ go")
	testbed := fl.String("testbed", "", "the repository (default /testbed)")
	pristine := fl.String("pristine", "", "the pristine copies (default "+guard.PristineDir+")")
	local := fl.Bool("local", false, "run unisolated as the caller (local executor)")
	fresh := fl.Bool("fresh", false, "the sandbox was started for this run and nothing ran in it before (lolbench verify)")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() > 0 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	cfg := &guard.Config{}
	g, err := func() (grade.Grade, error) {
		if err := lockDown(*task, *out, *local); err != nil {
			return grade.Grade{}, err
		}
		c, err := guard.LoadConfig(filepath.Join(*task, guard.ConfigFile))
		if err != nil {
			return grade.Grade{}, err
		}
		cfg = c
		o, err := guard.Run(ctx, guard.Options{Config: cfg, TestPatch: filepath.Join(*task, guard.TestPatchFile), Solution: *solution, Runs: 1,
			Out: *out, Testbed: *testbed, Pristine: *pristine, Local: *local, Fresh: *fresh, Log: stderr, Progress: true})
		if err != nil {
			return grade.Grade{}, err
		}
		if o.ApplyError != "" {
			return grade.Failed(cfg.Config, o.ApplyError), nil
		}
		return grade.ScoreRun(cfg.Config, guard.RunDir(*out, 1), cfg.Recipe.Test.Results != ""), nil
	}()
	if err != nil {
		g = grade.Failed(cfg.Config, "verifier: "+err.Error())
	}
	if err := grade.Write(*out, g); err != nil {
		fmt.Fprintf(stderr, "lolbench-grade: %v\n", err)
		return 1
	}
	printGrade(stdout, g)
	return 0
}

// lockDown makes the task's folder root's alone and empties the output
// folder, which an agent may have written into before the verifier ran.
func lockDown(task, out string, local bool) error {
	if local {
		return emptyDir(out)
	}
	if os.Geteuid() != 0 {
		return fmt.Errorf("the verifier runs as uid %d, not root: it cannot keep its files out of the tests' reach (a Harbor task's task.toml says [verifier] user = \"root\")", os.Geteuid())
	}
	err := filepath.WalkDir(task, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := os.Lchown(p, 0, 0); err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return nil
		}
		mode := os.FileMode(0o600)
		if d.IsDir() || filepath.Base(p) == guard.GraderFile || filepath.Base(p) == "test.sh" {
			mode = 0o700
		}
		return os.Chmod(p, mode)
	})
	if err != nil {
		return fmt.Errorf("locking the task folder %s: %w", task, err)
	}
	if err := emptyDir(out); err != nil {
		return err
	}
	if err := os.Lchown(out, 0, 0); err != nil {
		return err
	}
	return os.Chmod(out, 0o755)
}

// emptyDir makes dir an empty folder.
func emptyDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return fmt.Errorf("emptying %s: %w", dir, err)
		}
	}
	return nil
}

func printGrade(w io.Writer, g grade.Grade) {
	for _, t := range g.Tests {
		mark := "PASS"
		if !t.Passed {
			mark = "FAIL"
		}
		st := string(t.Status)
		if st == "" {
			st = "not run"
		}
		fmt.Fprintf(w, "%s %s %s (%s)\n", mark, t.List, t.Name, st)
	}
	for _, s := range g.Sections {
		if !s.Completed {
			fmt.Fprintf(w, "section %s not completed: %s\n", s.ID, s.Why)
		}
	}
	if g.Reason != "" {
		fmt.Fprintf(w, "run: %s: %s\n", g.Run, g.Reason)
	}
	fmt.Fprintf(w, "verdict: %s\n", g.Verdict)
	fmt.Fprintf(w, "reward %d: FAIL_TO_PASS %d/%d, PASS_TO_PASS %d/%d, sections %d/%d\n",
		g.Reward, g.F2PPassed, g.F2PTotal, g.P2PPassed, g.P2PTotal, g.SectionsCompleted, g.SectionsTotal)
}
