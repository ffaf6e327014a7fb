package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/report"
)

// ReportOptions are the parsed flags of `lolbench report`.
type ReportOptions struct {
	Workspace string
	Out       string
	JSON      bool
}

// reportResult is the --json output of `lolbench report`.
type reportResult struct {
	Index string `json:"index"`
	Dir   string `json:"dir"`
	// Candidates maps each candidate id to its page.
	Candidates map[string]string `json:"candidates"`
}

// NewCmdReport writes the reviewer report, a static HTML site.
func NewCmdReport(f *Factory) *cobra.Command { return newCmdReport(f, nil) }

func newCmdReport(f *Factory, runF func(*ReportOptions) error) *cobra.Command {
	opts := &ReportOptions{}
	cmd := &cobra.Command{
		Use:   "report",
		Short: "Write the reviewer report, a static HTML site, and print the path of its index",
		Long: `Report writes a static HTML site to --out (<workspace>/reports by default),
with no scripts, and prints the path of its index.html (with --json, the
folder, the index and every candidate page).

The index shows the funnel (candidates per stage and result from each
status.json, rejections per reason, and collect/funnel.json when collection
ran), the dataset statistics laid out like Table 1 of the LoLBench paper
(tasks and languages; repository size in kLoC and solution size in LoC, mean
(median); modified files, classes and functions; the share of modified class
names that the EP names) and their distributions as charts.

Each candidate page shows the EP outline with each section's classification,
the mapping rendered, every static violation with its rule's doc and its
artifact line highlighted (every line of mapping.md has an anchor, #L42), the
semantic audit, the judge's section scores and the Q computation, the expert
review, the F2P and P2P tests, and the mutants, coverage and test-to-section
map when phase 4 wrote them. A section whose stage has not run, or skipped,
says so with the reason from status.json, so the report can be written at
any point of a run.

Repository and solution sizes are measured from the candidate's repository
(LoC at the base commit, the PR's diff, tree-sitter scopes) and cached in
<out>/stats, so a rerun is fast. Pages of removed candidates are deleted.`,
		Example: `  lolbench report --workspace work
  xdg-open "$(lolbench report --workspace work)"
  lolbench report --json | jq -r '.candidates["cpython-pep-0617"]'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			ws, err := workspace.Open(opts.Workspace, false)
			if err != nil {
				return err
			}
			st := &report.Stage{Out: opts.Out}
			env := &pipeline.Env{Workspace: ws, Status: f.IO.ErrOut, Getenv: f.Getenv, Version: version}
			if err := st.Run(cmd.Context(), env); err != nil {
				return err
			}
			if opts.JSON {
				return printJSON(f.IO.Out, reportResult{Index: st.Index, Dir: st.Dir, Candidates: st.Pages})
			}
			_, err = fmt.Fprintln(f.IO.Out, st.Index)
			return err
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Workspace, "workspace", "work", "the workspace folder")
	fl.StringVar(&opts.Out, "out", "", "output folder (default <workspace>/reports)")
	fl.BoolVar(&opts.JSON, "json", false, "print the paths of the site as JSON")
	return cmd
}
