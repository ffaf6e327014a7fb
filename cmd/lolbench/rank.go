package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// RankOptions are the parsed flags of `lolbench rank`.
type RankOptions struct {
	LLMOptions
}

// NewCmdRank scores mapping quality with an LLM judge.
func NewCmdRank(f *Factory, runF func(*RankOptions) error) *cobra.Command {
	opts := &RankOptions{LLMOptions: LLMOptions{Factory: f}}
	cmd := &cobra.Command{
		Use:   "rank [CANDIDATE...]",
		Short: "Score mapping quality with an LLM judge and keep candidates with Q >= 8.0",
		Long: `Rank asks an LLM judge to grade each candidate's mapping (not the PR): for every
implementable section it extracts the requirement claims and scores coverage,
precision, scope, granularity and specificity from 1 to 10, and gives an
importance category with modifiers. lolbench computes, exactly:

  q = 0.40 coverage + 0.25 precision + 0.15 scope + 0.10 granularity + 0.10 specificity
  w = 1.0 core API/syntax/protocol/runtime, 0.8 internal mechanism,
      0.6 compatibility/migration/config/rollout/errors/deprecation,
      0.4 tests/validation/benchmark/performance, 0.2 docs/build/generated/fixtures,
      0.0 non-implementable; +0.1 normative or named goal, +0.1 many dependents,
      -0.1 illustrative, -0.1 vague, -0.2 optional/deferred/exploratory;
      clipped to [0.1, 1.0] for implementable sections, 0 otherwise
  Q = Σ w·q / Σ w

Section scores and Q are rounded half up to one decimal, and the 8.0 gate
applies to the rounded Q (7.95 is 8.0 and retained). A candidate is retained
when it passed the static and the semantic validation and Q >= 8.0; it then
waits for an expert (lolbench review). rank.json holds every section's scores,
category, modifiers, w, q and reason, and Q with its computation and the
judge's main reason. Without a candidate it runs over the whole workspace.

The candidate is first brought up to date like make (map, validate, audit).

` + llmFlagsHelp + `

Exit status: 0 when every candidate is retained, 1 when one was rejected, 2 for
bad input, a missing endpoint or a stage that could not run.`,
		Example: `  lolbench rank cpython-pep-0617
  lolbench rank --json | jq '.[] | {candidate, q: .rank.q, retained: .rank.retained}'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Candidates = args
			if runF != nil {
				return runF(opts)
			}
			return rankRun(cmd, opts)
		},
	}
	addLLMFlags(cmd, &opts.LLMOptions)
	return cmd
}

func rankRun(cmd *cobra.Command, opts *RankOptions) error {
	s, err := opts.open()
	if err != nil {
		return err
	}
	results := runChain(cmd.Context(), &opts.LLMOptions, s, chain("rank", s, &opts.LLMOptions, nil, nil), false)
	return finish(&opts.LLMOptions, results, func(w io.Writer, r candidateResult) {
		printValidate(w, r)
		printAudit(w, r)
		printRank(w, r)
	})
}

// printRank shows every section's score with its reason, then Q.
func printRank(w io.Writer, r candidateResult) {
	rep := r.Rank
	if rep == nil {
		return
	}
	for _, s := range rep.Sections {
		mods := ""
		for _, m := range s.Modifiers {
			mods += ", " + string(m)
		}
		fmt.Fprintf(w, "    %s %s: q %s (%s) w %s (%s%s): %s\n", s.Section, s.Title, s.Q, s.QExact, s.W, s.Category, mods, oneLine(s.Reason))
		fmt.Fprintf(w, "      coverage %d, precision %d, scope %d, granularity %d, specificity %d; claims: %s\n",
			s.Coverage, s.Precision, s.Scope, s.Granularity, s.Specificity, oneLine(strings.Join(s.Claims, "; ")))
	}
	fmt.Fprintf(w, "    %s\n", rep.Computation)
	fmt.Fprintf(w, "    %s\n", rep.Summary())
	fmt.Fprintf(w, "    main reason: %s\n", oneLine(rep.Reason))
}
