package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/augment"
)

// AugmentOptions are the parsed flags of `lolbench augment`.
type AugmentOptions struct {
	*Factory // IO, Getenv and the executor

	Workspace  string
	Candidates []string // empty: every candidate of the workspace
	ConfigFile string
	Model      string
	ReplayOnly bool
	JSON       bool
	Loops      []string
	Executor   string
	Force      bool
	PerPrompt  int
	MaxMutants int
	MaxSpans   int
	Threshold  float64
}

// augmentRow is one candidate in the output of `lolbench augment`.
type augmentRow struct {
	Candidate string                  `json:"candidate"`
	Stages    []pipeline.StageOutcome `json:"stages"`
	Error     string                  `json:"error,omitempty"`
	Report    *augment.Report         `json:"report,omitempty"`
}

// augmentOutput is the --json form: the candidates and the dataset
// summary (Table 9).
type augmentOutput struct {
	Candidates []augmentRow     `json:"candidates"`
	Summary    *augment.Summary `json:"summary"`
}

// NewCmdAugment strengthens built tasks with generated F2P tests.
func NewCmdAugment(f *Factory) *cobra.Command { return newCmdAugment(f, nil) }

func newCmdAugment(f *Factory, runF func(*AugmentOptions) error) *cobra.Command {
	opts := &AugmentOptions{Factory: f}
	var loops string
	cmd := &cobra.Command{
		Use:   "augment [CANDIDATE...] [--loops mutation,coverage]",
		Short: "Add generated F2P tests where the PR's tests miss the proposal, and map tests to sections",
		Long: `Augment strengthens built tasks (lolbench build) whose original tests miss
what the proposal requires (issue 7; paper, Table 9), using the mutants, the
kill matrix and the coverage of lolbench mutate. Without a candidate it runs
over every candidate of the workspace.

Two loops ask the model for tests:
  mutation  for each mutant no original F2P test kills, tests that assert
            the outcome the EP requires through public entry points, the
            mutant's diverging scenario guiding the input;
  coverage  when F2P ∪ P2P runs less than --threshold percent (50) of the
            reference solution's executable added lines, tests aimed at the
            largest uncovered spans.

A generated test is kept only when it is a new test file with one test
function; it passes the test audit (no internal symbol: unexported in Go,
underscore or private module in Python, private or package-private in
Java; no symbol the PR adds whose name the EP never writes); it duplicates
no existing test; run alone at the base commit it fails in every run; with
the original tests and the reference solution it passes in every run; and
it fails on every mutant it targets, or runs target lines no other test
runs. A rejected test goes back to the model once with its reason; a
rewrite that fails again is dropped with its reason.

Kept tests stay apart from the PR's: augment/tests.patch. The Harbor task
(task/) is rewritten with both test patches, the longer FAIL_TO_PASS list
and the test-to-section map (augment/test_sections.json): a test asserts a
section when it kills the section's revert mutant or runs lines the section
owns; a test mapped to none is reported as possibly overly broad. The map
drives reward.json's sections_completed: a section is completed only when
all its F2P tests pass. lolbench export writes the same lists.

Without an LLM endpoint the loops skip with one line naming the variables
to set, and the test-to-section map of the original tests is still written.
The endpoint is configured by LOLBENCH_LLM_BASE_URL, LOLBENCH_LLM_API_KEY
and LOLBENCH_LLM_MODEL (or LOLBENCH_LLM_MODEL_AUGMENT), by --llm-config or by
flags. Retention runs use --executor (docker, or local: NOT isolated).

The output ends with the dataset summary in the layout of Table 9: original
and overall F2P tests, tests added by each loop, mutants killed and the
mutation score, mean F2P coverage.

Exit status: 0 when every candidate was augmented or skipped, 2 for bad
input or a candidate the stage could not process.`,
		Example: `  lolbench augment tinykv-tkep-0002
  lolbench augment tinykv-tkep-0002 --loops coverage --executor local
  lolbench augment --workspace work --json | jq '.summary'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Candidates = args
			ls, err := augment.ParseLoops(loops)
			if err != nil {
				return fmt.Errorf("--loops: %w", err)
			}
			opts.Loops = ls
			if opts.Threshold <= 0 || opts.Threshold > 100 {
				return fmt.Errorf("augment: --threshold %g: a percentage above 0 and at most 100", opts.Threshold)
			}
			if runF != nil {
				return runF(opts)
			}
			return augmentRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Workspace, "workspace", "work", "the workspace folder")
	fl.StringVar(&opts.ConfigFile, "llm-config", "", "YAML file with the LLM configuration (base_url, model, models, ...)")
	fl.StringVar(&opts.Model, "model", "", "model for every LLM stage (overrides LOLBENCH_LLM_MODEL)")
	fl.BoolVar(&opts.ReplayOnly, "replay-only", false, "serve every answer from <workspace>/llm records; fail when one is missing")
	fl.BoolVar(&opts.JSON, "json", false, "print the reports and the summary as JSON")
	fl.StringVar(&loops, "loops", strings.Join(augment.Loops, ","), "the generation loops to run: mutation, coverage")
	addExecutorFlag(fl, &opts.Executor, "where the retention runs happen: docker, or local (not isolated)", false)
	fl.BoolVar(&opts.Force, "force", false, "augment again even when the inputs are unchanged")
	fl.IntVar(&opts.PerPrompt, "per-prompt", augment.DefaultPerPrompt, "tests asked for per prompt")
	fl.IntVar(&opts.MaxMutants, "max-mutants", augment.DefaultMaxMutants, "surviving mutants prompted per task")
	fl.IntVar(&opts.MaxSpans, "max-spans", augment.DefaultMaxSpans, "uncovered spans shown per task")
	fl.Float64Var(&opts.Threshold, "threshold", augment.DefaultThreshold, "F2P ∪ P2P coverage (percent) below which the coverage loop runs")
	return cmd
}

func augmentRun(ctx context.Context, opts *AugmentOptions) error {
	ws, err := workspace.Open(opts.Workspace, false)
	if err != nil {
		return err
	}
	ids, err := candidateIDs(ws, opts.Candidates)
	if err != nil {
		return err
	}
	// Without an endpoint the stage skips its loops with the one-line message.
	client, err := optionalLLM(opts.Factory, ws, opts.ConfigFile, llm.Config{Model: opts.Model, ReplayOnly: opts.ReplayOnly})
	if err != nil {
		return err
	}
	st := &augment.Stage{LLM: client, Loops: opts.Loops, PerPrompt: opts.PerPrompt, MaxMutants: opts.MaxMutants,
		MaxSpans: opts.MaxSpans, Threshold: opts.Threshold}
	if client != nil {
		// Retention runs need an environment only when a model writes
		// tests; the map alone runs nothing.
		ex, closeEx, err := opts.Factory.Executor(ctx, opts.Executor)
		if err != nil {
			return err
		}
		defer closeEx()
		st.Executor = ex
	}
	tests := newCommandTestProgress(opts.IO.ErrOut, opts.IO.ErrTTY, nil)
	defer tests.close()
	st.Progress = tests.update
	env := &pipeline.Env{Workspace: ws, Status: tests.status(), Getenv: opts.Getenv, Version: version, Force: opts.Force}
	var rows []augmentRow
	var reps []*augment.Report
	var failed []string
	for _, id := range ids {
		row := augmentRow{Candidate: id, Stages: []pipeline.StageOutcome{}}
		c, err := pipeline.OpenCandidate(ws, id)
		if err == nil {
			fmt.Fprintf(env.Status, "%s: %s\n", id, st.String())
			row.Stages, err = pipeline.RunCandidate(ctx, env, c, []pipeline.CandidateStage{st})
		}
		if err != nil {
			row.Error = err.Error()
		}
		for _, o := range row.Stages {
			if o.Result == pipeline.Failed {
				row.Error = o.Reason
			}
		}
		if row.Error != "" {
			failed = append(failed, id)
		} else if c != nil {
			if rep, err := augment.LoadReport(c); err == nil {
				row.Report = rep
				reps = append(reps, rep)
			}
		}
		rows = append(rows, row)
		if ctx.Err() != nil {
			break
		}
	}
	sum := augment.Summarize(reps)
	if opts.JSON {
		if err := printJSON(opts.IO.Out, augmentOutput{Candidates: rows, Summary: sum}); err != nil {
			return err
		}
	} else {
		for _, r := range rows {
			printAugment(opts.IO.Out, r)
		}
		fmt.Fprintf(opts.IO.Out, "\nTable 9 over %d augmented task%s:\n", len(reps), plural(len(reps)))
		if err := augment.WriteTable(opts.IO.Out, sum); err != nil {
			return err
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d candidate%s could not be augmented: %s", len(failed), len(rows), plural(len(rows)), strings.Join(failed, ", "))
	}
	return nil
}

// printAugment writes one candidate's outcome: the stage result, the
// figures, each loop and every test that was not kept, with its reason.
func printAugment(w io.Writer, r augmentRow) {
	line := r.Candidate
	for _, s := range r.Stages {
		line += ": " + string(s.Result)
		if s.Reason != "" {
			line += ": " + s.Reason
		}
		if s.UpToDate {
			line += " (up to date)"
		}
	}
	if r.Error != "" && len(r.Stages) == 0 {
		line += ": error: " + r.Error
	}
	fmt.Fprintln(w, line)
	rep := r.Report
	if rep == nil {
		return
	}
	fmt.Fprintf(w, "  F2P tests: %d original, %d overall (%d added by the mutation loop, %d by the coverage loop)\n",
		len(rep.OriginalF2P), len(rep.FailToPass), rep.AddedBy[augment.LoopMutation], rep.AddedBy[augment.LoopCoverage])
	if m := rep.Mutants; m.Available {
		fmt.Fprintf(w, "  mutants killed: %d -> %d of %d (score %.1f%% -> %.1f%%)\n", m.KilledOriginal, m.KilledOverall, m.SurvivedP2P, m.ScoreOriginal, m.ScoreOverall)
	}
	if c := rep.Coverage; c.Available {
		fmt.Fprintf(w, "  F2P coverage: %.1f%% -> %.1f%% of %d executable added lines\n", c.F2POriginal, c.F2POverall, c.Executable)
	}
	for _, l := range rep.Loops {
		if !l.Ran {
			fmt.Fprintf(w, "  %s loop: skipped: %s\n", l.Loop, l.Skipped)
			continue
		}
		fmt.Fprintf(w, "  %s loop: %d prompt%s, %d test%s written, %d retained, %d rejected and rewritten, %d dropped\n",
			l.Loop, l.Prompts, plural(l.Prompts), l.Generated, plural(l.Generated), l.Retained, l.Rejected, l.Dropped)
	}
	for _, c := range rep.Candidates {
		if c.Status != augment.Retained {
			fmt.Fprintf(w, "    %s %s (%s): %s: %s\n", c.Status, c.ID, c.Path, c.Rule, oneLine(c.Reason))
		}
	}
	if m := rep.Map; m != nil {
		fmt.Fprintf(w, "  sections: %d of %d F2P tests mapped (%s); %s", len(m.Tests)-len(m.Broad), len(m.Tests), strings.Join(m.Sources, ", "), m.Summary())
		if len(m.Broad) > 0 {
			fmt.Fprintf(w, "; possibly overly broad: %s", strings.Join(m.Broad, ", "))
		}
		fmt.Fprintln(w)
	} else {
		fmt.Fprintf(w, "  sections: no test-to-section map (no mapping.md)\n")
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
}
