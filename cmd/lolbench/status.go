package main

import (
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages"
)

// NewCmdStatus prints where every candidate stands.
func NewCmdStatus(f *Factory) *cobra.Command {
	var dir string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status [--workspace DIR] [--json]",
		Short: "Show, per candidate, the last stage passed, its state and any rejection reason",
		Example: `  lolbench status --workspace work
  lolbench status --json | jq '.[] | select(.state | startswith("rejected"))'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := workspace.Open(dir, false)
			if err != nil {
				return err
			}
			ids, err := ws.Candidates()
			if err != nil {
				return err
			}
			if !asJSON {
				if len(ids) == 0 {
					fmt.Fprintf(f.IO.ErrOut, "workspace %s has no candidates; run lolbench collect or lolbench run\n", ws.Root)
					return nil
				}
				return printStatusTable(f.IO.Out, ws, ids)
			}
			rows := []statusRow{}
			for _, id := range ids {
				row, err := candidateState(ws, id)
				if err != nil {
					return err
				}
				rows = append(rows, row)
			}
			return printJSON(f.IO.Out, rows)
		},
	}
	cmd.Flags().StringVar(&dir, "workspace", "work", "the workspace folder")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON: [{id, last_passed, state, reason, stages}]")
	return cmd
}

// statusRow is one line of lolbench status.
type statusRow struct {
	ID         string                           `json:"id"`
	LastPassed string                           `json:"last_passed"`
	State      string                           `json:"state"`
	Reason     string                           `json:"reason,omitempty"`
	Stages     map[string]*pipeline.StageStatus `json:"stages"`
}

// candidateState reads a candidate's status.json. The state is the
// outcome of the furthest stage recorded: "rejected at rank", "failed at
// build", "skipped at audit", or "passed" when the furthest one passed;
// "new" when nothing ran yet.
func candidateState(ws *workspace.Workspace, id string) (statusRow, error) {
	c, err := pipeline.OpenCandidate(ws, id)
	if err != nil {
		return statusRow{}, err
	}
	st, err := c.LoadStatus()
	if err != nil {
		return statusRow{}, err
	}
	row := statusRow{ID: id, State: "new", Stages: st.Stages}
	var skipped []string
	for _, name := range stages.Names {
		s := st.Stages[name]
		if s == nil {
			continue
		}
		switch s.Result {
		case pipeline.Passed:
			row.LastPassed, row.State, row.Reason = name, "passed", ""
		case pipeline.Skipped:
			skipped = append(skipped, name)
			if row.State == "new" {
				row.State = "skipped at " + name
			}
			if row.Reason == "" {
				row.Reason = name + " skipped: " + s.Reason
			}
		default:
			row.State, row.Reason = fmt.Sprintf("%s at %s", s.Result, name), s.Reason
		}
		if s.Result == pipeline.Rejected || s.Result == pipeline.Failed {
			break
		}
	}
	if row.State == "passed" && len(skipped) > 0 && row.Reason == "" {
		row.Reason = "skipped: " + joinNames(skipped)
	}
	return row, nil
}

func joinNames(names []string) string {
	names = slices.Clone(names)
	out := ""
	for i, n := range names {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}
