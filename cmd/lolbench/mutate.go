package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/mutate"
)

// MutateOptions are the parsed flags of `lolbench mutate`.
type MutateOptions struct {
	LLMOptions
	Methods        []string
	Operators      []string
	Sections       []string
	Executor       string
	Jobs           int
	MaxPerOperator int
	AllTests       bool
	Force          bool

	// NewExecutor makes the executor; nil means Factory.Executor. Tests stub it.
	NewExecutor func(ctx context.Context, name string) (sandbox.Executor, func(), error)
}

// mutateRow is one candidate in the output of `lolbench mutate`.
type mutateRow struct {
	Candidate string                  `json:"candidate"`
	Stages    []pipeline.StageOutcome `json:"stages"`
	Error     string                  `json:"error,omitempty"`
	Report    *mutation.Report        `json:"report,omitempty"`
	Coverage  []coverage.Suite        `json:"coverage,omitempty"`
}

// mutateOutput is the JSON output: every candidate and Table 8 over them.
type mutateOutput struct {
	Candidates []mutateRow       `json:"candidates"`
	Summary    *mutation.Summary `json:"summary"`
}

// NewCmdMutate generates mutants, measures coverage and builds the kill
// matrix (issue 7).
func NewCmdMutate(f *Factory) *cobra.Command { return newCmdMutate(f, nil) }

func newCmdMutate(f *Factory, runF func(*MutateOptions) error) *cobra.Command {
	opts := &MutateOptions{LLMOptions: LLMOptions{Factory: f}}
	var ops []string
	for _, op := range mutation.Registry {
		ops = append(ops, fmt.Sprintf("  %-17s %s", op.Name, op.Doc))
	}
	cmd := &cobra.Command{
		Use:   "mutate [CANDIDATE...]",
		Short: "Make mutants of the reference solution, measure coverage and build the kill matrix",
		Long: `Mutate measures how well a built task's tests pin down the proposal (issue 7;
LoLBench, Table 8). It runs in the task's environment (lolbench build first).

Coverage: the line coverage of the reference solution's executable added lines
(statements, found with tree-sitter; blanks, comments and declarations without
code do not count) by the F2P suite, the P2P suite and their union, and per
test where the tool allows: Go with go test -cover and -coverpkg over the
changed packages, Python with coverage.py, Java with the JaCoCo report the
recipe's coverage section gives. Written to candidates/<id>/coverage/.
Per-test coverage is measured only where it can matter (issue 32): a reach
run first runs the whole suite once with file-level coverage of the changed
files (Python: one coverage.py context per test; Go: the packages whose tests
do not import a changed package are skipped, the others run once each), then
the F2P tests and the tests that ran a changed file are measured one by one.
A run stopped at the recipe's time limit keeps what it measured, lists the
rest as unmeasured (every mutant runs them) and marks the map's coverage
evidence as PARTIAL. Both runs show their progress as the build's test runs
do: tests done of tests known and the time taken, a bar on a terminal,
otherwise a line when a run starts and ends and at least one every 30 seconds.

Mutants are complete alternative solutions that violate one section of the
proposal. Methods (--methods):
  revert  mapped-section revert: undo every change of the reference solution
          that the mapping assigns to one section (rules 27-28 scopes); one
          that does not build or breaks P2P tests (other sections import
          what it removes) is retried as a stub revert: the section's new
          functions keep their signatures and fail when called
  ops     syntax operators on the reference solution's added lines of
          source files (never build files, docs or tests; Go, Python, Java):
` + strings.Join(ops, "\n") + `
  llm     the paper's Section Revert, Requirement Mismatch and Semantic
          Mutation: the model mutates one section, then the solution to
          match; an LLM judge then confirms that each mutant omits or breaks
          what it claims, and the kept ones are listed for review
Without an LLM endpoint the llm methods are skipped with a note and the
deterministic ones still run.

Every mutant must apply, pass the build check (the recipe's build command or
the language default) and pass every P2P test; a mutant that fails a filter is
dropped with the reason recorded. The original F2P tests then run on it: a
test that fails, errors or is absent kills it. A mutant whose lines no test
executes is "uncovered": reported apart, not a survivor in the score. With
per-test coverage a mutant's job runs every F2P test (its row of the kill
matrix is a full run's) and only the P2P tests that execute a line it changes
(as PIT does); the others keep their verdict on the reference solution. The
report counts the test runs saved; --all-tests runs every test on every
mutant, for comparison (test/bench/mutate.sh).
--max-per-operator samples each operator's sites across files and functions.
The table gives the score of the three EP-level (llm) methods on its own row.
Results go to candidates/<id>/mutants/: one folder per mutant (mutant.patch,
record.json), mutants.json, matrix.json (mutant x F2P test) and report.json
(Table 8).

Without a candidate it runs over every candidate of the workspace and ends
with Table 8 over all of them.

` + llmFlagsHelp + `

Exit status: 0 when every candidate was processed (a candidate without a
built task is skipped), 2 for bad input or when the stage could not run.`,
		Example: `  lolbench mutate tinykv-tkep-0002 --methods revert,ops
  lolbench mutate --methods ops --operators flip-comparison,negate-condition --max-per-operator 10
  lolbench mutate unitconv-ucep-0004 --json | jq '.summary.total.mutation_score'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Candidates = args
			for _, m := range opts.Methods {
				if !slices.Contains(mutation.Families, m) {
					return fmt.Errorf("mutate: --methods %q: want some of %s", m, strings.Join(mutation.Families, ","))
				}
			}
			for _, o := range opts.Operators {
				if mutation.LookupOperator(o) == nil {
					return fmt.Errorf("mutate: --operators %q: unknown operator (see 'lolbench mutate --help')", o)
				}
			}
			if opts.Jobs < 1 || opts.MaxPerOperator < 0 {
				return errors.New("mutate: --jobs must be at least 1 and --max-per-operator at least 0")
			}
			if runF != nil {
				return runF(opts)
			}
			return runMutate(cmd.Context(), f, opts)
		},
	}
	addLLMFlags(cmd, &opts.LLMOptions)
	fl := cmd.Flags()
	fl.StringSliceVar(&opts.Methods, "methods", mutation.Families, "method families to run: revert, ops, llm")
	fl.StringSliceVar(&opts.Operators, "operators", nil, "syntax operators to apply (default all)")
	fl.StringSliceVar(&opts.Sections, "sections", nil, "EP section ids the llm methods mutate (default every mapped section with changed lines)")
	addExecutorFlag(fl, &opts.Executor, "where jobs run: docker, or local (not isolated)", false)
	fl.IntVar(&opts.Jobs, "jobs", 1, "mutant jobs run at once")
	fl.IntVar(&opts.MaxPerOperator, "max-per-operator", 0, "at most this many mutants per operator and task, spread over its sites (0: all)")
	fl.BoolVar(&opts.AllTests, "all-tests", false, "run every test on every mutant, without selection by per-test coverage")
	fl.BoolVar(&opts.Force, "force", false, "run again even when the inputs are unchanged")
	return cmd
}

func runMutate(ctx context.Context, f *Factory, opts *MutateOptions) error {
	ws, err := workspace.Open(opts.Workspace, false)
	if err != nil {
		return err
	}
	ids, err := candidateIDs(ws, opts.Candidates)
	if err != nil {
		return err
	}
	var client *llm.Client
	if slices.Contains(opts.Methods, mutation.FamilyLLM) {
		// Without an endpoint the stage skips the llm methods.
		if client, err = optionalLLM(f, ws, opts.ConfigFile, llm.Config{Model: opts.Model, ReplayOnly: opts.ReplayOnly}); err != nil {
			return err
		}
	}
	mk := opts.NewExecutor
	if mk == nil {
		mk = func(ctx context.Context, name string) (sandbox.Executor, func(), error) {
			return f.Executor(ctx, name)
		}
	}
	ex, closeEx, err := mk(ctx, opts.Executor)
	if err != nil {
		return err
	}
	defer closeEx()
	tests := newCommandTestProgress(f.IO.ErrOut, f.IO.ErrTTY, nil)
	defer tests.close()
	stage := &mutate.Stage{Executor: ex, LLM: client, Families: opts.Methods, Operators: opts.Operators,
		MaxPerOperator: opts.MaxPerOperator, Jobs: opts.Jobs, AllTests: opts.AllTests, Sections: opts.Sections, Evidence: opts.Evidence,
		Progress: tests.update}
	env := &pipeline.Env{Workspace: ws, Status: tests.status(), Getenv: f.Getenv, Version: version, Force: opts.Force}
	out := mutateOutput{Candidates: []mutateRow{}}
	var reports []*mutation.Report
	var failed []string
	for _, id := range ids {
		row := mutateRow{Candidate: id, Stages: []pipeline.StageOutcome{}}
		c, err := pipeline.OpenCandidate(ws, id)
		if err == nil {
			fmt.Fprintf(env.Status, "%s: %s\n", id, stage.String())
			row.Stages, err = pipeline.RunCandidate(ctx, env, c, []pipeline.CandidateStage{stage})
		}
		if err != nil {
			row.Error = err.Error()
		}
		bad := row.Error != ""
		for _, s := range row.Stages {
			bad = bad || s.Result == pipeline.Failed
		}
		if bad {
			failed = append(failed, id)
		}
		if c != nil && !bad && len(row.Stages) > 0 && row.Stages[0].Result == pipeline.Passed {
			if set, err := mutation.Load(c); err == nil {
				row.Report = set.Report
				reports = append(reports, set.Report)
			}
			if cov, err := coverage.Load(c); err == nil {
				row.Coverage = cov.Suites
			}
		}
		out.Candidates = append(out.Candidates, row)
		if ctx.Err() != nil {
			break
		}
	}
	out.Summary = mutation.Summarize(reports)
	if opts.JSON {
		if err := printJSON(f.IO.Out, out); err != nil {
			return err
		}
	} else {
		printMutate(f.IO.Out, out)
	}
	if len(failed) > 0 {
		return fmt.Errorf("mutate could not run on %d of %d candidate%s: %s", len(failed), len(out.Candidates), plural(len(out.Candidates)), strings.Join(failed, ", "))
	}
	return nil
}

// printMutate writes each candidate's coverage and Table 8, then the
// dataset's Table 8 when there is more than one candidate.
func printMutate(w io.Writer, out mutateOutput) {
	for i, r := range out.Candidates {
		if i > 0 {
			fmt.Fprintln(w)
		}
		printOutcomes(w, candidateResult{Candidate: r.Candidate, Stages: r.Stages, Error: r.Error})
		for _, s := range r.Coverage {
			fmt.Fprintf(w, "  coverage %s: %d of %d executable added lines (%.1f%%)\n", s.Name, s.Covered, s.Executable, s.Percent)
		}
		if r.Report == nil {
			continue
		}
		fmt.Fprintln(w)
		var b strings.Builder
		mutation.WriteTable(&b, r.Report.Methods, r.Report.EPLevel, r.Report.Total)
		for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
			fmt.Fprintln(w, "  "+l)
		}
		fmt.Fprintf(w, "\n  %s\n", r.Report.Runs)
		for _, s := range r.Report.Skipped {
			fmt.Fprintf(w, "  skipped %s\n", s)
		}
		for _, v := range r.Report.Vetted {
			fmt.Fprintf(w, "  kept by the judge, for review: %s (section %s): %s\n", v.Mutant, v.Section, v.Judge)
		}
	}
	if s := out.Summary; s != nil && len(out.Candidates) > 1 {
		fmt.Fprintf(w, "\nTable 8 over %d task%s (mean per-task mutation score %s):\n", s.Tasks, plural(s.Tasks), meanScore(s))
		mutation.WriteTable(w, s.Methods, s.EPLevel, s.Total)
		fmt.Fprintf(w, "%s\n", s.Runs)
	}
}

func meanScore(s *mutation.Summary) string {
	if s.ScoredTasks == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%% over %d scored", 100*s.MeanTaskScore, s.ScoredTasks)
}
