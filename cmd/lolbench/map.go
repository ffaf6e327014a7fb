package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/stages/mapdraft"
)

// MapOptions are the parsed flags of `lolbench map`.
type MapOptions struct {
	LLMOptions
	Rounds int
	Force  bool
}

// NewCmdMap drafts mapping artifacts with an LLM.
func NewCmdMap(f *Factory, runF func(*MapOptions) error) *cobra.Command {
	opts := &MapOptions{LLMOptions: LLMOptions{Factory: f}}
	cmd := &cobra.Command{
		Use:   "map [CANDIDATE...]",
		Short: "Draft the mapping artifact of candidates with an LLM",
		Long: `Map drafts each candidate's mapping artifact (mapping.md, the format of
docs/mapping-format.md) with an LLM, from the EP, the PR's files with their
categories and patches, and the changed (file, class, function) scopes.
Without a candidate it runs over every candidate of the workspace.

Each draft is checked at once against the 28 static rules. A draft that
breaks any is sent back to the model with every violation, up to --rounds
drafts in all; the tool never edits a draft itself. When the last round still
fails the candidate is rejected, the last draft is kept in mapping.draft.md
and every round's findings in mapping.draft.json.

A mapping.md that the tool did not draft (written or edited by a curator) is
left alone, and the command says so; --force drafts over it. A candidate whose
inputs have not changed since its last draft is not drafted again.

` + llmFlagsHelp + `

Exit status: 0 when every candidate has a mapping, 1 when one was rejected,
2 for bad input, a missing endpoint or a stage that could not run.`,
		Example: `  export LOLBENCH_LLM_BASE_URL=http://localhost:11434/v1 LOLBENCH_LLM_MODEL=qwen2.5-coder:32b
  lolbench map cpython-pep-0617
  lolbench map --workspace work --rounds 5 --json | jq '.[].draft.rounds | length'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Candidates = args
			if opts.Rounds < 1 {
				return fmt.Errorf("--rounds must be at least 1, got %d", opts.Rounds)
			}
			if runF != nil {
				return runF(opts)
			}
			return mapRun(cmd, opts)
		},
	}
	addLLMFlags(cmd, &opts.LLMOptions)
	cmd.Flags().IntVar(&opts.Rounds, "rounds", mapdraft.DefaultRounds, "drafts per candidate before giving up")
	cmd.Flags().BoolVar(&opts.Force, "force", false, "draft over a mapping.md written by hand")
	return cmd
}

func mapRun(cmd *cobra.Command, opts *MapOptions) error {
	s, err := opts.open()
	if err != nil {
		return err
	}
	stages := chain("map", s, &opts.LLMOptions, &mapdraft.Stage{Rounds: opts.Rounds, Overwrite: opts.Force}, nil)
	results := runChain(cmd.Context(), &opts.LLMOptions, s, stages, opts.Force)
	return finish(&opts.LLMOptions, results, printDraft)
}

// printDraft shows each drafting round with its findings and their rules.
func printDraft(w io.Writer, r candidateResult) {
	if r.Draft == nil {
		return
	}
	d := r.Draft
	for _, rd := range d.Rounds {
		if len(rd.Findings) == 0 {
			fmt.Fprintf(w, "    round %d: passes all static rules\n", rd.Round)
			continue
		}
		fmt.Fprintf(w, "    round %d: %s\n", rd.Round, mapdraft.Summary(rd.Findings))
		for _, f := range rd.Findings {
			loc := ""
			if f.Line > 0 {
				loc = fmt.Sprintf(" line %d", f.Line)
			}
			if f.Where != "" {
				loc += " " + f.Where
			}
			fmt.Fprintf(w, "      %s:%s: %s\n", f.Rule, loc, f.Message)
		}
	}
}
