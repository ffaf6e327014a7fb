package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/rules"
)

// validateResult is the report of `lolbench validate`: the rules' report
// after rules.Report.HoldBack (the unfilled cells, without the violations
// held back at their lines) and, with --fix, the changes made. Its JSON is
// the --json contract.
type validateResult struct {
	*rules.Report
	// Fixed lists the changes of --fix (absent without it).
	Fixed *[]mapping.Change `json:"fixed,omitempty"`
}

// fromCandidate fills the sources from the candidate's candidate.json.
func (opts *ValidateOptions) fromCandidate() error {
	ws, c, info, err := openCandidate(opts.Workspace, opts.Candidate)
	if err != nil {
		return err
	}
	s := rules.Sources{Base: info.PR.BaseSHA, Head: info.PR.HeadSHA}
	if s.EP, err = c.Path(info.EP.File); err != nil {
		return fmt.Errorf("candidate %s: ep.file: %w", c.ID, err)
	}
	if s.Repo, err = info.RepoPath(ws); err != nil {
		return fmt.Errorf("candidate %s: repo_dir: %w", c.ID, err)
	}
	if s.Mapping, err = c.Path(pipeline.MappingFile); err != nil {
		return err
	}
	if _, err := os.Stat(s.Mapping); errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("candidate %s has no mapping.md; run lolbench mapping scaffold %s or lolbench map %s", c.ID, c.ID, c.ID)
	}
	opts.Sources = s
	return nil
}

// fixMapping rewrites the computed cells of the mapping (mapping.Fix),
// atomically and only when something changes, and returns the changes.
func fixMapping(ctx context.Context, s rules.Sources) ([]mapping.Change, error) {
	doc, err := ep.Load(s.EP, s.EPFormat)
	if err != nil {
		return nil, err
	}
	repo, err := diff.Open(s.Repo)
	if err != nil {
		return nil, err
	}
	ch, err := repo.Diff(ctx, s.Base, s.Head)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(s.Mapping)
	if err != nil {
		return nil, fmt.Errorf("read mapping %s: %w", s.Mapping, err)
	}
	src, err := mapping.ReadFile(s.Mapping)
	if err != nil {
		return nil, fmt.Errorf("read mapping %s: %w", s.Mapping, err)
	}
	out, changes, err := mapping.Fix(src, mapping.Totals{EPSections: len(doc.Sections), PRFiles: len(ch.Files)})
	if list, ok := errors.AsType[*mapping.ErrorList](err); ok {
		list.File = s.Mapping
		return nil, list
	}
	if err != nil {
		return nil, err
	}
	if changes == nil {
		changes = []mapping.Change{}
	}
	if len(changes) > 0 {
		if err := workspace.WriteFile(s.Mapping, out, st.Mode().Perm()); err != nil {
			return nil, err
		}
	}
	return changes, nil
}

// printFixed lists the changes of --fix, one "FILE:LINE: where: old -> new"
// each.
func printFixed(w io.Writer, path string, changes []mapping.Change) {
	if len(changes) == 0 {
		fmt.Fprintf(w, "--fix: no changes to %s\n", path)
		return
	}
	fmt.Fprintf(w, "--fix: %d change%s to %s\n", len(changes), plural(len(changes)), path)
	for _, c := range changes {
		fmt.Fprintf(w, "  %s\n", c.Format(path))
	}
}

// printUnfilled lists the unfilled cells.
func printUnfilled(w io.Writer, path string, res *validateResult) {
	if len(res.Unfilled) == 0 {
		return
	}
	fmt.Fprintf(w, "unfilled: %d cell%s hold%s %s\n", len(res.Unfilled), plural(len(res.Unfilled)), verbS(len(res.Unfilled)), mapping.Marker)
	for _, u := range res.Unfilled {
		fmt.Fprintf(w, "  %s:%d: %s: %s\n", path, u.Line, u.Where, u.Cell)
	}
}

func verbS(n int) string {
	if n == 1 {
		return "s"
	}
	return ""
}
