package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/pipeline/harbor"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
)

// VerifyOptions are the parsed flags of `lolbench verify`.
type VerifyOptions struct {
	TaskDir  string
	Solution string
	Executor string
	Out      string
	JSON     bool
	// All lists the passing PASS_TO_PASS tests one by one too.
	All bool
}

// NewCmdVerify scores a solution on a built task.
func NewCmdVerify(f *Factory) *cobra.Command { return newCmdVerify(f, nil) }

func newCmdVerify(f *Factory, runF func(*VerifyOptions) error) *cobra.Command {
	opts := &VerifyOptions{}
	cmd := &cobra.Command{
		Use:   "verify TASKDIR --solution PATCH",
		Short: "Score a solution patch on a task: F2P/P2P results and the reward",
		Long: `Verify runs a task's verifier on a candidate solution, the way Harbor does,
and grades it on this machine: every FAIL_TO_PASS test and every failing
PASS_TO_PASS test with its status, the number of passing PASS_TO_PASS tests
(--all lists them too: a real suite has tens of thousands), the sections not
completed and why, the verdict and the reward. --json gives every test.
This is how an agent's patch is scored, and how the reference solution is
checked (candidates/<id>/build/solution.patch scores 1).

TASKDIR is a Harbor task folder written by 'lolbench build' (candidates/<id>/task
or an exported copy). PATCH is a unified diff against the PR's base commit, as
'git diff' writes it ("-" reads standard input; an empty file scores the
untouched repository). With the docker executor the environment is built from
TASKDIR/environment/Dockerfile (the engine's cache serves the layers 'lolbench
build' made), TASKDIR/tests is copied to /tests and tests/test.sh runs as
root, with no network; the verifier has the test user apply the patch, resets
the test infrastructure, plants canaries, runs the tests as that user, kills
every process they started and keeps the raw run. The grade is computed here
from that raw run (docs/architecture.md, "Grading and its threat model").

The verdict is "passed" (reward 1: every listed test passed), "failed",
"tampered: ..." (a canary passed or went missing, processes survived) or
"error: ..." (the patch does not apply, the verifier could not run). The
verifier's folder (reward.txt, reward.json and grade.json as Harbor would read
them, and run-1/, the raw run) is kept in --out/verifier, this machine's grade
in --out/grade.json. With --executor local the tests run unisolated, as you.

The run shows its progress on standard error as the build's test runs do:
tests done of tests known (what the run announced, else the task's listed
tests) and the time it has taken; on a terminal a bar, otherwise a line when
the run starts and ends and at least one every 30 seconds.

Exit status: 0 when the reward is 1, 1 when it is 0, 2 for bad input.`,
		Example: `  lolbench verify work/candidates/tinykv-tkep-0002/task --solution agent.patch
  lolbench verify work/export/harbor/unitconv-ucep-0004 --solution work/candidates/unitconv-ucep-0004/build/solution.patch
  git diff base | lolbench verify task --solution - --json | jq .reward`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.TaskDir = args[0]
			if opts.Solution == "" {
				return errors.New("verify: --solution is required (a patch file, or - for standard input)")
			}
			if runF != nil {
				return runF(opts)
			}
			return runVerify(cmd, f, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Solution, "solution", "", "the solution patch (- for standard input)")
	addExecutorFlag(fl, &opts.Executor, "where the verifier runs: docker, or local (not isolated)", false)
	fl.StringVar(&opts.Out, "out", "", "folder for the verifier's output (default: a new temporary folder)")
	fl.BoolVar(&opts.JSON, "json", false, "print the grade as JSON")
	fl.BoolVar(&opts.All, "all", false, "list the passing PASS_TO_PASS tests one by one too")
	return cmd
}

func runVerify(cmd *cobra.Command, f *Factory, opts *VerifyOptions) error {
	var patch []byte
	var err error
	if opts.Solution == "-" {
		patch, err = io.ReadAll(io.LimitReader(f.IO.In, 1<<30))
	} else {
		patch, err = os.ReadFile(opts.Solution)
	}
	if err != nil {
		return fmt.Errorf("verify: solution: %w", err)
	}
	cfg, err := harbor.LoadConfig(opts.TaskDir)
	if err != nil {
		return err
	}
	out := opts.Out
	if out == "" {
		if out, err = os.MkdirTemp("", "lolbench-verify-"); err != nil {
			return err
		}
	}
	if out, err = filepath.Abs(out); err != nil {
		return err
	}
	ex, closeEx, err := f.Executor(cmd.Context(), opts.Executor)
	if err != nil {
		return err
	}
	defer closeEx()
	tests := newCommandTestProgress(f.IO.ErrOut, f.IO.ErrTTY, nil)
	name := harbor.TaskName(opts.TaskDir, cfg)
	g, err := harbor.VerifyProgress(cmd.Context(), ex, opts.TaskDir, patch, out, tests.status(),
		func(p sandbox.TestProgress) { tests.update(name, p) })
	tests.close()
	if err != nil {
		return err
	}
	fmt.Fprintf(f.IO.ErrOut, "verifier output in %s\n", out)
	if opts.JSON {
		if err := printJSON(f.IO.Out, g); err != nil {
			return err
		}
	} else {
		printGrade(f.IO.Out, g, opts.All)
	}
	if g.Reward != 1 {
		return silentFindings
	}
	return nil
}

// printGrade writes a grade for a person: every FAIL_TO_PASS test and every
// PASS_TO_PASS test that did not pass, one a line, then the passing
// PASS_TO_PASS tests as one count unless all is set (pypa/packaging's PEP 639
// task has 26,860 of them: docs/real-projects.md), the sections not
// completed, the verdict and the reward.
func printGrade(w io.Writer, g *grade.Grade, all bool) {
	folded := 0
	for _, t := range g.Tests {
		if t.Passed && t.List == "PASS_TO_PASS" && !all {
			folded++
			continue
		}
		mark := "PASS"
		if !t.Passed {
			mark = "FAIL"
		}
		st := string(t.Status)
		if st == "" {
			st = "not run"
		}
		fmt.Fprintf(w, "%s  %-12s %s (%s)\n", mark, t.List, t.Name, st)
	}
	if folded > 0 {
		fmt.Fprintf(w, "PASS  %-12s %d more tests passed (--all lists them)\n", "PASS_TO_PASS", folded)
	}
	for _, s := range g.Sections {
		if !s.Completed {
			fmt.Fprintf(w, "section %s not completed: %s\n", s.ID, s.Why)
		}
	}
	if g.Error != "" {
		fmt.Fprintf(w, "error: %s\n", g.Error)
	}
	if g.Reason != "" {
		fmt.Fprintf(w, "run %s: %s\n", g.Run, g.Reason)
	}
	fmt.Fprintf(w, "verdict: %s\n", g.Verdict)
	fmt.Fprintf(w, "reward %d: FAIL_TO_PASS %d/%d, PASS_TO_PASS %d/%d, sections %d/%d\n",
		g.Reward, g.F2PPassed, g.F2PTotal, g.P2PPassed, g.P2PTotal, g.SectionsCompleted, g.SectionsTotal)
}
