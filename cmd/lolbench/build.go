package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/registry"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/build"
)

// BuildOptions are the parsed flags of `lolbench build`.
type BuildOptions struct {
	Candidates []string
	All        bool
	Workspace  string
	Registry   string
	Executor   string
	Force      bool
	JSON       bool
	// Check checks the recipe of one candidate fast instead of building.
	Check bool
	// Runs overrides the recipe's run count when above 0.
	Runs int
	// IncludeUnreviewed builds candidates that did not pass every gate,
	// marked unreviewed (as lolbench run and export do).
	IncludeUnreviewed bool
}

// buildRow is one candidate in the output of `lolbench build`.
type buildRow struct {
	ID       string          `json:"id"`
	Result   pipeline.Result `json:"result"`
	Reason   string          `json:"reason,omitempty"`
	UpToDate bool            `json:"up_to_date,omitempty"`
	F2P      int             `json:"f2p"`
	P2P      int             `json:"p2p"`
	Flaky    []string        `json:"flaky"`
	Task     string          `json:"task,omitempty"`
}

// NewCmdBuild builds tasks from candidates (paper §3.3).
func NewCmdBuild(f *Factory) *cobra.Command { return newCmdBuild(f, nil) }

func newCmdBuild(f *Factory, runF func(*BuildOptions) error) *cobra.Command {
	opts := &BuildOptions{}
	cmd := &cobra.Command{
		Use:   "build CANDIDATE... | --all | --check CANDIDATE",
		Short: "Build executable tasks: images, F2P/P2P validation, Harbor task",
		Long: `Build turns candidates into executable benchmark tasks (paper, section 3.3).

For each candidate, the PR is split into the test patch (its test files) and
the reference solution (every other file). The repository at the PR's base
commit becomes an offline environment from the project's recipe (see
docs/projects.md, "Recipes"; a recipe.yaml in the candidate folder wins):
with the docker executor, a base image per toolchain (layer 1), an
environment image per repository and base commit with the install commands
run (layer 2, reused by every task of that repository and commit) and a thin
task image (layer 3). Tests run with no network, CPU, memory and pids limits,
a wall-clock limit per run and, where the recipe allows, as a non-root user.

The tests run the recipe's number of times (default 3) before the reference
solution (test patch only) and after it, each side in one sandbox, one run
after the other. A test that changes status within a side is flaky and is
excluded. FAIL_TO_PASS tests fail (or are absent) in every run before and
pass in every run after; PASS_TO_PASS tests pass in every run of both sides.
A run whose log claims success while the command exited non-zero does not
pass. The task is kept only when the reference solution applies and at least
one test is FAIL_TO_PASS; otherwise the candidate is rejected and the reason
recorded in status.json and build/build.json.

A kept task is written to candidates/<id>/task/ in Harbor's format
(task.toml, instruction.md, environment/, solution/solve.sh, tests/test.sh,
README.md). Logs: candidates/<id>/build/logs/ (image builds, before/ and
after/ runs). A candidate whose inputs are unchanged since its last build is
not rebuilt unless --force is given.

Each test run shows its progress: tests done of tests known (what the run
announced, else the run before it or the last build), the time the run has
taken, and which run of how many. On a terminal these are bars; otherwise a
line when a run starts and ends, and at least one every 30 seconds.

--runs N overrides the recipe's run count, for a quick look: fewer runs
catch fewer flaky tests, and the run count enters the build's fingerprint.

--check CANDIDATE checks a recipe in minutes instead of building: it
prepares the environment (the install commands) and runs one test file of
the PR (the first, in path order) once, whatever --runs says, with the test
patch and the reference solution applied, in one sandbox. It reports each
problem in one line: no recipe, a failing install command, patches that do
not apply, a test command that reports no results (test.command,
test.format), no test passing, a run past its time limit. It writes only
logs, under candidates/<id>/build/check/, and no record, task or status.

--executor local runs the same plan in temporary git work trees on this host,
for machines without a Docker engine. It is NOT isolated (no sandbox, the
host's network and tools) and says so.

A candidate is built only once it has passed every gate (validate, audit,
rank with Q >= 8.0, review); a skipped gate is not a pass. Otherwise it is
not built, and the line says which gates it lacks. --include-unreviewed
builds it anyway, its task marked unreviewed in build/build.json and
task.toml (demos, or a look before review; a dataset passes the gates, and
export leaves such tasks out unless given --include-unreviewed too).

Exit status: 0 when every candidate was built (or the check found no
problem), 1 when any was not built (the gates), rejected or failed (or the
check found problems), 2 for bad input.`,
		Example: `  lolbench build tinykv-tkep-0002 --workspace work
  lolbench build --check tinykv-tkep-0002 --workspace work
  lolbench build tinykv-tkep-0002 --runs 1
  lolbench build tinykv-tkep-0002 --include-unreviewed
  lolbench build --all --projects data/projects.yaml
  lolbench build unitconv-ucep-0004 --executor local --json | jq '.[0].f2p'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Candidates = args
			if opts.Check && (opts.All || len(args) != 1) {
				return errors.New("build: --check takes one candidate (see 'lolbench build --help')")
			}
			if opts.All == (len(args) > 0) {
				return errors.New("build: name candidates or give --all (see 'lolbench build --help')")
			}
			if opts.Runs < 0 {
				return fmt.Errorf("build: --runs %d: want 1 or more (0: the recipe's)", opts.Runs)
			}
			if runF != nil {
				return runF(opts)
			}
			return runBuild(cmd.Context(), f, opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.All, "all", false, "build every candidate of the workspace")
	fl.StringVar(&opts.Workspace, "workspace", "work", "the workspace folder")
	fl.StringVar(&opts.Registry, "projects", "data/projects.yaml", "the projects registry, for the projects' recipes")
	addExecutorFlag(fl, &opts.Executor, "where the tests run: docker, or local (not isolated)", false)
	fl.BoolVar(&opts.Force, "force", false, "rebuild even when the inputs are unchanged")
	fl.BoolVar(&opts.JSON, "json", false, "print the results as JSON")
	fl.BoolVar(&opts.Check, "check", false, "check one candidate's recipe fast: the install commands and one test file, one run")
	fl.IntVar(&opts.Runs, "runs", 0, "runs per side instead of the recipe's (0: the recipe's)")
	fl.BoolVar(&opts.IncludeUnreviewed, "include-unreviewed", false, "build candidates that did not pass every gate (validate, audit, rank Q >= 8.0, review), marked unreviewed")
	return cmd
}

// registryRecipe finds a project's recipe in the registry, when the
// registry file exists.
func registryRecipe(path string) func(info *pipeline.Info) (*recipe.Recipe, error) {
	return func(info *pipeline.Info) (*recipe.Recipe, error) {
		if _, err := os.Stat(path); err != nil {
			return nil, nil
		}
		reg, err := registry.Load(path)
		if err != nil {
			return nil, err
		}
		p, ok := reg.Project(info.Project)
		if !ok || p.Recipe == nil {
			return nil, nil
		}
		r := *p.Recipe
		return &r, nil
	}
}

func runBuild(ctx context.Context, f *Factory, opts *BuildOptions) error {
	ws, err := workspace.Open(opts.Workspace, false)
	if err != nil {
		return err
	}
	ids := opts.Candidates
	if opts.All {
		if ids, err = ws.Candidates(); err != nil {
			return err
		}
	}
	cands := make([]*pipeline.Candidate, len(ids))
	for i, id := range ids {
		if cands[i], err = pipeline.OpenCandidate(ws, id); err != nil {
			return err
		}
		if _, err := os.Stat(cands[i].Dir); err != nil {
			return fmt.Errorf("build: no candidate %s in %s", id, ws.Root)
		}
	}
	ex, closeEx, err := f.Executor(ctx, opts.Executor)
	if err != nil {
		return err
	}
	defer closeEx()
	tests := newCommandTestProgress(f.IO.ErrOut, f.IO.ErrTTY, nil)
	defer tests.close()
	stage := &build.Stage{Executor: ex, Recipe: registryRecipe(opts.Registry), Runs: opts.Runs, IncludeUnreviewed: opts.IncludeUnreviewed, Progress: tests.update}
	env := &pipeline.Env{Workspace: ws, Status: tests.status(), Getenv: f.Getenv, Version: version, Force: opts.Force}
	if opts.Check {
		return runCheck(ctx, f, opts, stage, env, cands[0])
	}
	var rows []buildRow
	bad := 0
	for _, c := range cands {
		fmt.Fprintf(env.Status, "%s: %s\n", c.ID, stage.String())
		outs, err := pipeline.RunCandidate(ctx, env, c, []pipeline.CandidateStage{stage})
		if err != nil {
			return err
		}
		row := buildRow{ID: c.ID, Flaky: []string{}}
		if len(outs) > 0 {
			o := outs[len(outs)-1]
			row.Result, row.Reason, row.UpToDate = o.Result, o.Reason, o.UpToDate
		}
		if rec, err := build.LoadRecord(c); err == nil && rec.Report != nil {
			row.F2P, row.P2P = len(rec.Report.FailToPass), len(rec.Report.PassToPass)
			for _, fl := range rec.Report.Flaky {
				row.Flaky = append(row.Flaky, fl.Name)
			}
			if rec.Task != "" && row.Result == pipeline.Passed {
				row.Task, _ = c.Path(rec.Task)
			}
		}
		if row.Result != pipeline.Passed {
			bad++
		}
		rows = append(rows, row)
	}
	if opts.JSON {
		if err := printJSON(f.IO.Out, rows); err != nil {
			return err
		}
	} else {
		for _, r := range rows {
			line := fmt.Sprintf("%s: %s", r.ID, r.Result)
			if r.Result == pipeline.Passed {
				line += fmt.Sprintf(": %d fail-to-pass, %d pass-to-pass", r.F2P, r.P2P)
				if len(r.Flaky) > 0 {
					line += fmt.Sprintf(", %d flaky excluded (%s)", len(r.Flaky), strings.Join(r.Flaky, ", "))
				}
				line += ", task " + r.Task
			} else if r.Reason != "" {
				line += ": " + r.Reason
			}
			if r.UpToDate {
				line += " (up to date)"
			}
			fmt.Fprintln(f.IO.Out, line)
		}
	}
	if bad > 0 {
		return silentFindings
	}
	return nil
}

// runCheck is lolbench build --check: the outcome on stdout, the exit
// status 1 when the check found problems.
func runCheck(ctx context.Context, f *Factory, opts *BuildOptions, stage *build.Stage, env *pipeline.Env, c *pipeline.Candidate) error {
	fmt.Fprintf(env.Status, "%s: checking the recipe\n", c.ID)
	res, err := stage.Check(ctx, env, c)
	if err != nil {
		return err
	}
	if opts.JSON {
		if err := printJSON(f.IO.Out, res); err != nil {
			return err
		}
	} else {
		printCheck(f.IO.Out, res, c.Dir)
	}
	if !res.OK {
		return silentFindings
	}
	return nil
}

// printCheck prints a check's outcome: a verdict line, then what ran and
// each problem on a line of its own.
func printCheck(w io.Writer, res *build.CheckResult, dir string) {
	verdict := "no problem found"
	if !res.OK {
		verdict = fmt.Sprintf("%d %s", len(res.Problems), map[bool]string{true: "problem", false: "problems"}[len(res.Problems) == 1])
	}
	fmt.Fprintf(w, "%s: recipe check: %s (%s)\n", res.ID, verdict, res.Duration.Round(time.Second))
	if res.Env != nil {
		layer := "built"
		if res.Env.EnvReused {
			layer = "reused"
		}
		env := res.Env.EnvImage
		if env == "" {
			env = res.Env.Dir
		}
		fmt.Fprintf(w, "  install: ok, environment %s (%s)\n", env, layer)
	}
	if res.Run != nil {
		fmt.Fprintf(w, "  tests: %s (%s), 1 run after the reference solution: %s\n", res.TestFile, strings.Join(res.Selection, " "), res.Run.Describe())
	}
	for _, p := range res.Problems {
		fmt.Fprintf(w, "  problem: %s\n", p)
	}
	fmt.Fprintf(w, "  logs: %s\n", filepath.Join(dir, filepath.FromSlash(res.Logs)))
}
