package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/spec"
)

// SpecOptions are the parsed flags of `lolbench spec`.
type SpecOptions struct {
	Candidates []string
	Workspace  string
	JSON       bool
}

// specRow is one candidate in the output of `lolbench spec --json`.
type specRow struct {
	ID   string `json:"id"`
	Path string `json:"path"`
	*spec.Spec
}

// NewCmdSpec writes the specification variant's instruction of built
// candidates (paper §4).
func NewCmdSpec(f *Factory) *cobra.Command { return newCmdSpec(f, nil) }

func newCmdSpec(f *Factory, runF func(*SpecOptions) error) *cobra.Command {
	opts := &SpecOptions{}
	cmd := &cobra.Command{
		Use:   "spec CANDIDATE...",
		Short: "Write the specification variant's instruction (EP + file tree + public signatures and fields)",
		Long: `Spec writes candidates/<id>/task/instruction.spec.md for built candidates:
the task's instruction.md (preamble and EP), then a section derived from the
reference solution, as in the paper's "specification" setting:

  - the files the reference solution changes, as an indented tree, each
    marked new, changed, deleted or renamed; the PR's test files (the build
    stage's test patch) are left out;
  - the signatures of the public classes and functions the solution adds or
    changes, and the declarations of the public fields, constants and class
    attributes it adds, read with tree-sitter from the post-change files,
    grouped by file in one code block per file; a changed method or a new
    field comes with the classes around it, for context.

Only languages with tree-sitter scopes give signatures (see
docs/maintainers.md); other files appear in the tree only.

'lolbench build' and 'lolbench augment' rewrite task/ and drop this file;
'lolbench export --variant spec' does not read it but computes the same
text afresh, so the exported tasks are never stale.`,
		Example: `  lolbench spec tinykv-tkep-0002 --workspace work
  lolbench spec tinykv-tkep-0002 --json | jq '.[0].files[].path'`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Candidates = args
			for _, id := range args {
				if err := workspace.ValidID(id); err != nil {
					return fmt.Errorf("spec: %w", err)
				}
			}
			if runF != nil {
				return runF(opts)
			}
			ws, err := workspace.Open(opts.Workspace, false)
			if err != nil {
				return err
			}
			rows := []specRow{}
			for _, id := range opts.Candidates {
				c, err := pipeline.OpenCandidate(ws, id)
				if err != nil {
					return err
				}
				path, s, err := spec.Write(cmd.Context(), ws, c)
				if err != nil {
					return fmt.Errorf("spec: %w", err)
				}
				rows = append(rows, specRow{ID: id, Path: path, Spec: s})
				n := 0
				for _, f := range s.Files {
					n += len(f.Signatures)
				}
				fmt.Fprintf(f.IO.ErrOut, "%s: %d file(s), %d signature(s), %d file(s) without signatures read\n", id, len(s.Files), n, len(s.Skipped))
			}
			if opts.JSON {
				return printJSON(f.IO.Out, rows)
			}
			for _, r := range rows {
				fmt.Fprintln(f.IO.Out, r.Path)
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Workspace, "workspace", "work", "the workspace folder")
	fl.BoolVar(&opts.JSON, "json", false, "print the specifications as JSON")
	return cmd
}
