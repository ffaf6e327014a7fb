package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/eval"
)

// EvalOptions are the parsed flags of `lolbench eval`.
type EvalOptions struct {
	Workspace    string
	Jobs         []string
	Predictions  []string
	Trajectories string
	Agent        string
	Executor     string
	JSON         bool
}

// NewCmdEval scores agents' solutions.
func NewCmdEval(f *Factory) *cobra.Command { return newCmdEval(f, nil) }

func newCmdEval(f *Factory, runF func(*EvalOptions) error) *cobra.Command {
	opts := &EvalOptions{}
	cmd := &cobra.Command{
		Use:   "eval --workspace W (--jobs DIR... | --predictions FILE...)",
		Short: "Score agents' solutions on the benchmark's tasks: Table 2, localization and efficiency",
		Long: `Eval scores every solution in Harbor job folders (--jobs) or SWE-bench
predictions files (--predictions) on the workspace's built tasks, and prints one
row per agent: resolved, completed (micro over sections), FAIL_TO_PASS and
PASS_TO_PASS pass rates (micro over tests), and localization precision and
recall of the files and functions the agent inspected and of those it modified
(paper section 4.1 and 4.5, Table 2 and Figure 4). An attempt that crashed
before verification counts as failed with none of its task's tests passed.

A trial folder is hostile input: no file is read through a symbolic link,
only regular files are opened (a named pipe cannot block), and the counts a
trial claims are checked against the task's own test lists; a trial that
breaks a rule stops eval with one line naming the file. A Harbor trial is
graded from its verifier's raw run (verifier/run-1) on this host, against the
task configuration in the workspace: a reward the container wrote is not
taken at its word. Without a raw run the trial's reward.json, then
the reward in result.json, are used, and each row says how it was graded. A
prediction is graded by running lolbench's verifier on it, the path 'lolbench
verify' takes (--executor); its output is kept, and a rerun with the same patch
reuses it.

Localization compares the source files, classes and functions the solution
touched (artifacts/*.patch or artifacts/testbed/ of a trial, model_patch of a
prediction) with the reference solution's, using rule 27's tree-sitter scopes.
Turns, wall time, tokens and cost come from the trajectory (agent/trajectory.json
in ATIF with its continuations and subagents' files, or agent/events.jsonl in
lolbench's event format), else from the trial; ATIF's final_metrics are the
authority for the totals.

An agent is its scaffold and model (from result.json's agent_info, or
predictions' model_name_or_path), or --agent. It writes
<workspace>/eval/<agent>/results.jsonl (one row per agent, task and attempt),
the trajectories as lolbench events, and eval/metrics.json, whose figures are
exact (the table rounds them). docs/evaluation.md says how each figure is
computed.

Exit status: 0 when every solution was scored, 2 for bad input.`,
		Example: `  lolbench eval --workspace work --jobs jobs/2026-03-01__10-00-00
  lolbench eval --workspace work --predictions preds.jsonl --executor docker
  lolbench eval --jobs jobs/run-a --agent my-agent --json | jq '.agents[0].resolved'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if (len(opts.Jobs) == 0) == (len(opts.Predictions) == 0) {
				return errors.New("eval: give --jobs or --predictions (not both)")
			}
			if opts.Agent != "" {
				if err := eval.CheckAgent(opts.Agent); err != nil {
					return err
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return runEval(cmd, f, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Workspace, "workspace", "work", "the workspace folder")
	fl.StringSliceVar(&opts.Jobs, "jobs", nil, "Harbor job folders (repeatable; a folder of jobs or a single trial works too)")
	fl.StringSliceVar(&opts.Predictions, "predictions", nil, "SWE-bench predictions JSONL files (repeatable)")
	fl.StringVar(&opts.Trajectories, "trajectories", "", "folder of the predictions' trajectories, <instance_id>.json (ATIF) or .jsonl")
	fl.StringVar(&opts.Agent, "agent", "", "name every solution's agent (default: scaffold__model)")
	addExecutorFlag(fl, &opts.Executor, "where predictions are verified: docker, or local (not isolated)", false)
	fl.BoolVar(&opts.JSON, "json", false, "print eval/metrics.json (exact figures)")
	return cmd
}

func runEval(cmd *cobra.Command, f *Factory, opts *EvalOptions) error {
	ws, err := workspace.Open(opts.Workspace, false)
	if err != nil {
		return err
	}
	st := &eval.Stage{Jobs: opts.Jobs, Predictions: opts.Predictions, Trajectories: opts.Trajectories, Agent: opts.Agent}
	if len(opts.Predictions) > 0 {
		ex, closeEx, err := f.Executor(cmd.Context(), opts.Executor)
		if err != nil {
			return err
		}
		defer closeEx()
		st.Executor = ex
	}
	tests := newCommandTestProgress(f.IO.ErrOut, f.IO.ErrTTY, nil)
	st.Progress = tests.update
	env := &pipeline.Env{Workspace: ws, Status: tests.status(), Getenv: f.Getenv, Version: version}
	err = st.Run(cmd.Context(), env)
	tests.close()
	if err != nil {
		return err
	}
	fmt.Fprintf(f.IO.ErrOut, "eval: %d row(s) for %s in %s\n", st.Rows, strings.Join(st.Agents, ", "), ws.Root+"/"+eval.Dir)
	if opts.JSON {
		return printJSON(f.IO.Out, st.Metrics)
	}
	return printMetrics(f.IO.Out, st.Metrics)
}

// printMetrics writes Table 2 with localization, one agent a line.
func printMetrics(w io.Writer, m *eval.Metrics) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "AGENT\tTASKS\tATTEMPTS\tRESOLVED\tCOMPLETED\tF2P\tP2P\tINSPECTED FILES P/R\tINSPECTED FUNCTIONS P/R\tMODIFIED FILES P/R\tMODIFIED FUNCTIONS P/R")
	pr := func(m eval.PRMetric) string { return pct(m.Precision) + "/" + pct(m.Recall) }
	for _, a := range m.Agents {
		l := a.Localization
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", a.Agent, a.Tasks, a.Attempts,
			pct(a.Resolved), pct(a.Completed), pct(a.F2P), pct(a.P2P),
			pr(l.Inspected.Files), pr(l.Inspected.Functions), pr(l.Modified.Files), pr(l.Modified.Functions))
	}
	return tw.Flush()
}

// pct shows a percentage with one decimal, "-" when there is none.
func pct(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.1f", *v)
}
