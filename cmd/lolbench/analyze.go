package main

import (
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/data/taxonomy"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/eval"
)

// AnalyzeOptions are the parsed flags of `lolbench analyze`.
type AnalyzeOptions struct {
	Workspace  string
	Modes      bool
	JSON       bool
	NoJudge    bool
	ConfigFile string
	Model      string
	ReplayOnly bool
}

// NewCmdAnalyze attributes failed attempts to failure modes.
func NewCmdAnalyze(f *Factory) *cobra.Command { return newCmdAnalyze(f, nil) }

func newCmdAnalyze(f *Factory, runF func(*AnalyzeOptions) error) *cobra.Command {
	opts := &AnalyzeOptions{}
	cmd := &cobra.Command{
		Use:   "analyze --workspace W",
		Short: "Attribute each failed attempt to failure modes: Table 3 and the per-phase tables",
		Long: `Analyze reads what 'lolbench eval' wrote and attributes every failed attempt
with a trajectory to the failure modes of the paper's taxonomy (Appendix F,
Table 10: 7 phases, 24 modes; data/taxonomy/modes.tsv). Eighteen modes are
predicates over the trajectory's events and the reference solution, each
setting its own confidence; six are judged by an LLM that sees the task and
the agent's process, never the reference solution or the outcome, and must
cite steps. Judgments with low confidence, unparseable answers and citations
of steps the judge was not shown are dropped. lolbench's own diagnostics
(signals: data/taxonomy/signals.tsv) are counted beside the attribution,
never in it.

The tables are in attribution units, as the paper's: each evaluable failed
attempt carries one unit, split over its candidate modes by weight (high
confidence 1.0, medium 0.6), so an agent's phases add up to its number of
evaluable failed attempts (N) and a phase's modes to the phase. Units are
rounded to one decimal by largest remainder, first across the phases, then
across each phase's modes. Failed attempts without a trajectory, and those
with no candidate, are counted apart.

It writes eval/<agent>/attributions.jsonl (the modes of each failed attempt
with the steps that show them) and eval/analysis.json, and prints Table 3.
--modes prints the taxonomy instead (--json: [{"phase","mode","detection","doc"}]).

The judge uses the LLM configuration of the other LLM stages
(LOLBENCH_LLM_BASE_URL, LOLBENCH_LLM_API_KEY, LOLBENCH_LLM_MODEL, or
--llm-config); every exchange is recorded under <workspace>/llm and replayed.
Without an endpoint, or with --no-judge, only the rule-based modes are used
and analysis.json says so.`,
		Example: `  lolbench analyze --workspace work
  lolbench analyze --modes --json | jq -r '.[] | select(.detection == "llm") | .mode'
  lolbench analyze --replay-only --json | jq '.agents[] | {agent, evaluable, phases: [.table.phases[] | {name, units}]}'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			if opts.Modes {
				return printModes(f.IO.Out, opts.JSON)
			}
			return runAnalyze(cmd, f, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Workspace, "workspace", "work", "the workspace folder")
	fl.BoolVar(&opts.Modes, "modes", false, "print the failure-mode taxonomy")
	fl.BoolVar(&opts.JSON, "json", false, "print JSON (eval/analysis.json, or the taxonomy with --modes)")
	fl.BoolVar(&opts.NoJudge, "no-judge", false, "use the rule-based modes only, even with an LLM endpoint")
	fl.StringVar(&opts.ConfigFile, "llm-config", "", "YAML file with the LLM configuration")
	fl.StringVar(&opts.Model, "model", "", "the judge's model (overrides LOLBENCH_LLM_MODEL)")
	fl.BoolVar(&opts.ReplayOnly, "replay-only", false, "serve every judgment from <workspace>/llm records; fail when one is missing")
	return cmd
}

// printModes prints the taxonomy.
func printModes(w io.Writer, asJSON bool) error {
	tx := taxonomy.Default()
	if asJSON {
		return printJSON(w, tx.Modes)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PHASE\tMODE\tDETECTION\tDOC")
	for _, m := range tx.Modes {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", m.Phase, m.Mode, m.Detection, m.Doc)
	}
	return tw.Flush()
}

func runAnalyze(cmd *cobra.Command, f *Factory, opts *AnalyzeOptions) error {
	ws, err := workspace.Open(opts.Workspace, false)
	if err != nil {
		return err
	}
	st := &eval.Analyze{}
	if opts.NoJudge {
		st.NoJudge = "--no-judge"
	} else {
		client, err := f.LLM(ws, opts.ConfigFile, llm.Config{Model: opts.Model, ReplayOnly: opts.ReplayOnly})
		switch {
		case errors.Is(err, llm.ErrNoEndpoint):
			st.NoJudge = err.Error()
			fmt.Fprintf(f.IO.ErrOut, "analyze: the semantic modes are left out: %v\n", err)
		case err != nil:
			return err
		default:
			st.Judge = &eval.Judge{Client: client, Modes: taxonomy.Default().ByDetection(taxonomy.LLM)}
		}
	}
	env := &pipeline.Env{Workspace: ws, Status: f.IO.ErrOut, Getenv: f.Getenv, Version: version}
	if err := st.Run(cmd.Context(), env); err != nil {
		return err
	}
	if opts.JSON {
		return printJSON(f.IO.Out, st.Analysis)
	}
	return printTable3(f.IO.Out, st.Analysis)
}

// printTable3 writes the agents × phases table, in units: each row's
// phases add up to its N.
func printTable3(w io.Writer, an *eval.Analysis) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "AGENT\tFAILED\tNO TRAJECTORY\tANALYZED\tUNATTRIBUTED\tN")
	for _, p := range an.Phases {
		fmt.Fprintf(tw, "\t%s", p)
	}
	fmt.Fprintln(tw)
	for _, a := range an.Agents {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d", a.Agent, a.Failed, a.NoTrajectory, a.Analyzed, a.Unattributed, a.Evaluable)
		for _, s := range a.Table.Phases {
			fmt.Fprintf(tw, "\t%.1f", s.Units)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}
