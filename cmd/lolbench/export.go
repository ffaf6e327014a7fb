package main

import (
	"fmt"
	"sort"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/export"
)

// ExportOptions are the parsed flags of `lolbench export`.
type ExportOptions struct {
	Format  string
	Variant string
	// SectionOrder appends the sections in dependency order (dag.json).
	SectionOrder bool
	Workspace    string
	Out          string
	JSON         bool
	// IncludeUnreviewed exports tasks built without passing every gate.
	IncludeUnreviewed bool
}

// NewCmdExport writes the built tasks out as Harbor folders or SWE-bench
// JSONL.
func NewCmdExport(f *Factory) *cobra.Command { return newCmdExport(f, nil) }

func newCmdExport(f *Factory, runF func(*ExportOptions) error) *cobra.Command {
	opts := &ExportOptions{}
	cmd := &cobra.Command{
		Use:   "export --format harbor|swebench [--variant plain|spec]",
		Short: "Export the built tasks as Harbor task folders or SWE-bench JSONL",
		Long: `Export writes every task that 'lolbench build' kept to --out
(<workspace>/export by default):

  harbor    <out>/harbor/<id>/, the task folders as built (task.toml,
            instruction.md, environment/, solution/, tests/, README.md)
  swebench  <out>/swebench.jsonl, one instance a line with SWE-bench's fields
            (instance_id, repo, base_commit, patch, test_patch,
            problem_statement, hints_text, FAIL_TO_PASS, PASS_TO_PASS,
            created_at, version, environment_setup_commit) and LoLBench's
            (ep_id, ep_title, pr_number, language, domain, sections,
            f2p_sections, test_command, test_format). version names the
            environment: instances with one version share an environment image.

--variant spec writes the specification variant instead (paper §4): the same
tasks with the EP followed by the reference solution's changed-file tree and
the signatures of its new and changed public classes and functions and its
new public fields and constants (see 'lolbench spec', which computes the same
text):

  harbor    <out>/harbor-spec/<id>-spec/, the plain task folder with
            instruction.md replaced by the spec instruction, task.toml named
            lolbench/<id>-spec with metadata variant = "spec", and a README
            note; environment, solution and verifier are unchanged
  swebench  <out>/swebench-spec.jsonl, the plain lines with instance_id
            <id>-spec and problem_statement = the EP, a thematic break, then
            the spec section (no Harbor preamble, as in the plain variant)

--section-order (off by default, so that the paper's tasks stay as they are)
appends, after a thematic break, the graded sections in dependency order to
every instruction and problem_statement, from the candidate's section graph
(candidates/<id>/dag.json: run 'lolbench dag' first; a candidate without one
is left out with that reason).

Candidates that were not built, or were rejected, or (spec) whose
repository cannot give the specification, are listed on stderr with the
reason and left out, and so are tasks built unreviewed (lolbench run
--include-unreviewed) unless --include-unreviewed is given here too; their
task.toml and JSONL rows then say unreviewed = true and the gates skipped.`,
		Example: `  lolbench export --format harbor --workspace work
  lolbench export --format swebench --out dist && head -c 300 dist/swebench.jsonl
  lolbench export --format harbor --variant spec   # work/export/harbor-spec/<id>-spec/`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Format != export.Harbor && opts.Format != export.SWEBench {
				return fmt.Errorf("export: --format %q: harbor or swebench", opts.Format)
			}
			if opts.Variant != "" && opts.Variant != export.Plain && opts.Variant != export.Spec {
				return fmt.Errorf("export: --variant %q: plain or spec", opts.Variant)
			}
			if runF != nil {
				return runF(opts)
			}
			ws, err := workspace.Open(opts.Workspace, false)
			if err != nil {
				return err
			}
			st := &export.Stage{Format: opts.Format, Variant: opts.Variant, Out: opts.Out, IncludeUnreviewed: opts.IncludeUnreviewed, SectionOrder: opts.SectionOrder}
			env := &pipeline.Env{Workspace: ws, Status: f.IO.ErrOut, Getenv: f.Getenv, Version: version}
			if err := st.Run(cmd.Context(), env); err != nil {
				return err
			}
			skipped := make([]string, 0, len(st.Skipped))
			for id := range st.Skipped {
				skipped = append(skipped, id)
			}
			sort.Strings(skipped)
			for _, id := range skipped {
				fmt.Fprintf(f.IO.ErrOut, "%s: not exported: %s\n", id, st.Skipped[id])
			}
			exported := st.Exported
			if exported == nil {
				exported = []string{}
			}
			if opts.JSON {
				return printJSON(f.IO.Out, map[string]any{"format": opts.Format, "path": st.Path, "exported": exported, "skipped": st.Skipped})
			}
			for _, id := range exported {
				fmt.Fprintln(f.IO.Out, id)
			}
			fmt.Fprintf(f.IO.ErrOut, "%d task(s) exported to %s\n", len(exported), st.Path)
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Format, "format", "", "harbor or swebench")
	// Empty means plain, so that the default reads as unset in --help.
	fl.StringVar(&opts.Variant, "variant", "", "plain (the EP; the default) or spec (the EP with the reference solution's file tree and public signatures)")
	fl.StringVar(&opts.Workspace, "workspace", "work", "the workspace folder")
	fl.StringVar(&opts.Out, "out", "", "output folder (default <workspace>/export)")
	fl.BoolVar(&opts.JSON, "json", false, "print what was exported as JSON")
	fl.BoolVar(&opts.IncludeUnreviewed, "include-unreviewed", false, "also export tasks built without passing every gate (marked unreviewed)")
	fl.BoolVar(&opts.SectionOrder, "section-order", false, "append the graded sections in dependency order (lolbench dag) to each instruction")
	return cmd
}
