package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/collect"
)

// NewCmdCandidates groups the commands that look at a workspace's
// candidates.
func NewCmdCandidates(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "candidates",
		Short: "Look at the candidate EP-PR pairs of a workspace",
		Long: `Look at the candidate EP-PR pairs that 'lolbench collect' wrote to a
workspace (candidates/<id>/candidate.json).`,
		Example: `  lolbench candidates list --workspace work`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmd.Help()
		},
	}
	cmd.AddCommand(newCmdCandidatesList(f))
	return cmd
}

// CandidatesListOptions are the parsed flags of `lolbench candidates list`.
type CandidatesListOptions struct {
	Workspace string
	JSON      bool
}

// candidateRow is one candidate in `candidates list`.
type candidateRow struct {
	ID      string `json:"id"`
	Project string `json:"project,omitempty"`
	EP      string `json:"ep,omitempty"`
	EPTitle string `json:"ep_title,omitempty"`
	PR      int    `json:"pr,omitempty"`
	PRTitle string `json:"pr_title,omitempty"`
	// Kept says every criterion passed; Failed names the ones that did
	// not, with their reasons.
	Kept    bool              `json:"kept"`
	Failed  []pipeline.Check  `json:"failed,omitempty"`
	Pending []string          `json:"pending,omitempty"`
	Stages  map[string]string `json:"stages,omitempty"`
	Error   string            `json:"error,omitempty"`
}

func newCmdCandidatesList(f *Factory) *cobra.Command {
	opts := &CandidatesListOptions{}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the candidates with their EP, PR and collection verdict",
		Long: `List every candidate of the workspace, sorted by id: its proposal, its PR,
whether it passed every selection criterion at the last collect (a candidate
that no longer passes keeps its folder, and its candidate.json says why), the
criteria still pending, and the last result of each later stage (status.json).

--json prints an array of objects with the fields id, project, ep, ep_title,
pr, pr_title, kept, failed (the failing criteria with value and reason),
pending, stages (stage -> result) and error (a candidate.json that cannot be
read). The exit status is 1 when a candidate cannot be read.`,
		Example: `  lolbench candidates list --workspace work
  lolbench candidates list --json | jq -r '.[] | select(.kept) | .id'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCandidatesList(f, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Workspace, "workspace", "work", "the workspace folder")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON instead of a table")
	return cmd
}

func runCandidatesList(f *Factory, opts *CandidatesListOptions) error {
	ws, err := workspace.Open(opts.Workspace, false)
	if err != nil {
		return err
	}
	ids, err := ws.Candidates()
	if err != nil {
		return err
	}
	rows := make([]candidateRow, 0, len(ids))
	broken := false
	for _, id := range ids {
		row := candidateRow{ID: id}
		c, err := pipeline.OpenCandidate(ws, id)
		var info *pipeline.Info
		if err == nil {
			info, err = c.LoadInfo()
		}
		if err != nil {
			row.Error = err.Error()
			broken = true
			rows = append(rows, row)
			continue
		}
		row.Project, row.EP, row.EPTitle, row.PR, row.PRTitle = info.Project, info.EP.ID, info.EP.Title, info.PR.Number, info.PR.Title
		row.Kept, row.Failed = collect.Kept(info)
		row.Pending = info.Pending
		if st, err := c.LoadStatus(); err == nil && len(st.Stages) > 0 {
			row.Stages = map[string]string{}
			for name, s := range st.Stages {
				row.Stages[name] = string(s.Result)
			}
		}
		rows = append(rows, row)
	}
	if opts.JSON {
		if err := printJSON(f.IO.Out, rows); err != nil {
			return err
		}
	} else {
		if len(rows) == 0 {
			fmt.Fprintf(f.IO.ErrOut, "no candidates in %s; run lolbench collect first\n", ws.Root)
			return nil
		}
		if err := writeCandidatesTable(f.IO.Out, rows); err != nil {
			return err
		}
	}
	if broken {
		return silentFindings
	}
	return nil
}

func writeCandidatesTable(w io.Writer, rows []candidateRow) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "id\tep\tpr\tcollected\tstages\ttitle")
	for _, r := range rows {
		if r.Error != "" {
			fmt.Fprintf(tw, "%s\t-\t-\terror\t-\t%s\n", r.ID, oneLineText(r.Error))
			continue
		}
		verdict := "kept"
		if !r.Kept {
			var parts []string
			for _, c := range r.Failed {
				parts = append(parts, c.Criterion)
			}
			verdict = "dropped (" + strings.Join(parts, ", ") + ")"
		}
		stages := "-"
		if len(r.Stages) > 0 {
			names := make([]string, 0, len(r.Stages))
			for n := range r.Stages {
				names = append(names, n)
			}
			sort.Strings(names)
			var parts []string
			for _, n := range names {
				parts = append(parts, n+": "+r.Stages[n])
			}
			stages = strings.Join(parts, ", ")
		}
		fmt.Fprintf(tw, "%s\t%s\t#%d\t%s\t%s\t%s\n", r.ID, oneLineText(r.EP), r.PR, verdict, stages, oneLineText(r.EPTitle))
	}
	return tw.Flush()
}

// oneLineText keeps a table row on one line whatever a file holds.
func oneLineText(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}
