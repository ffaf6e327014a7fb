package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/sectiondag"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/dag"
)

// DagOptions are the parsed flags of `lolbench dag`.
type DagOptions struct {
	Candidates []string
	Workspace  string
	JSON       bool
	Check      bool
	Executor   string
}

// NewCmdDag computes the section dependency graph of candidates (issue 35).
func NewCmdDag(f *Factory) *cobra.Command {
	opts := &DagOptions{}
	cmd := &cobra.Command{
		Use:   "dag CANDIDATE...",
		Short: "Compute the dependency graph between a task's sections, every edge with its evidence",
		Long: `Dag recovers which of a task's sections build on which (docs/section-dag.md).
The nodes are the task's sections (the mapping's implementable, mapped
sections). An edge u -> v says that v builds on u, and is admitted only with
evidence, which it names:

  structural-reuse   v's change edits a scope that u's change introduces
  producer-consumer  v's added lines use a class or function u's change defines
  composition        a class v declares extends or implements one u declares
  test               a revert of u fails a test the test-to-section map gives
                     to v and not to u (after build and mutate)

A cycle is broken by dropping its edge with the weakest evidence, and the
dropped edge is listed with the reason. The layers (a section's layer is one
more than its deepest prerequisite's), the depth and the width follow. The
graph is a lower bound on the real prerequisites.

It reads mapping.md, the PR's repository and, when they exist, sections.json
and the kill matrix, and writes candidates/<id>/dag.json, which eval reads.

--check (a built task; Docker by default) also checks that each section's
tests discriminate it: the reference solution restricted to the section's
ancestors (every other section reverted, as mapped-section reverts do) must
still fail at least one of the section's F2P tests. A section whose tests all
pass is flagged as not discriminative in dag.json, 'lolbench status' and the
report.`,
		Example: `  lolbench dag tinykv-tkep-0002 --workspace work
  lolbench dag tinykv-tkep-0002 --json | jq '.[0].edges[] | "\(.from) -> \(.to)"'
  lolbench dag tinykv-tkep-0002 --check   # after lolbench build`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Candidates = args
			for _, id := range args {
				if err := workspace.ValidID(id); err != nil {
					return fmt.Errorf("dag: %w", err)
				}
			}
			ws, err := workspace.Open(opts.Workspace, false)
			if err != nil {
				return err
			}
			env := &pipeline.Env{Workspace: ws, Status: f.IO.ErrOut, Getenv: f.Getenv, Version: version}
			results := []*sectiondag.Result{}
			for _, id := range opts.Candidates {
				c, err := pipeline.OpenCandidate(ws, id)
				if err != nil {
					return err
				}
				r, err := dag.Compute(cmd.Context(), env, c)
				if err != nil {
					return fmt.Errorf("dag: %w", err)
				}
				if opts.Check {
					ex, closeEx, err := f.Executor(cmd.Context(), opts.Executor)
					if err != nil {
						return err
					}
					err = dag.Check(cmd.Context(), env, c, ex, r)
					closeEx()
					if err != nil {
						return fmt.Errorf("dag: %w", err)
					}
				}
				results = append(results, r)
			}
			if opts.JSON {
				return printJSON(f.IO.Out, results)
			}
			for _, r := range results {
				printDag(f.IO.Out, r)
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Workspace, "workspace", "work", "the workspace folder")
	fl.BoolVar(&opts.JSON, "json", false, "print the graphs as JSON, one object per candidate")
	fl.BoolVar(&opts.Check, "check", false, "run the discriminativeness check on the built task (each section's tests fail without its own code)")
	addExecutorFlag(fl, &opts.Executor, "where --check runs the tests: docker, or local (not isolated)", false)
	return cmd
}

// printDag prints one graph for people: the layers, then each edge with
// its evidence, then the dropped edges and what could not be read.
func printDag(w io.Writer, r *sectiondag.Result) {
	fmt.Fprintf(w, "%s: %d sections, %d edges, depth %d, width %d\n", r.Candidate, len(r.Nodes), len(r.Edges), r.Depth, r.Width)
	for i, l := range r.Layers {
		names := make([]string, len(l))
		for j, s := range l {
			names[j] = s
			if t := r.Titles[s]; t != "" {
				names[j] += " " + t
			}
		}
		fmt.Fprintf(w, "  layer %d: %s\n", i, strings.Join(names, "; "))
	}
	for _, e := range r.Edges {
		fmt.Fprintf(w, "  %s -> %s\n", e.From, e.To)
		for _, x := range e.Evidence {
			fmt.Fprintf(w, "      %s: %s\n", x.Kind, x.Detail)
		}
	}
	for _, d := range r.Dropped {
		fmt.Fprintf(w, "  dropped %s -> %s: %s\n", d.From, d.To, d.Why)
	}
	for _, m := range r.Missing {
		fmt.Fprintf(w, "  not read: %s\n", m)
	}
	for _, ck := range r.Checks {
		verdict := "discriminative"
		switch {
		case ck.Discriminative:
		case ck.Undetermined:
			verdict = "undetermined"
		case ck.Tests == 0:
			verdict = "not checked"
		default:
			verdict = "NOT DISCRIMINATIVE"
		}
		fmt.Fprintf(w, "  check %s: %s: %s\n", ck.Section, verdict, ck.Why)
	}
}
