// Package validate is the static-validation stage of phase 2 (paper,
// section 3.2): it checks a candidate's mapping.md against the 28 static
// rules (rules/) on the candidate's EP and the PR's change between its base
// and head commits, writes the report to validate.json and rejects the
// candidate when any rule is violated. It is the first of the two
// validation gates a candidate must pass before it is ranked.
package validate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/rules"
)

// Stage is the validate stage, a pipeline.CandidateStage.
type Stage struct{}

var _ pipeline.CandidateStage = Stage{}

// Name is the command name.
func (Stage) Name() string { return "validate" }

// String is the log title.
func (Stage) String() string { return "validating mappings" }

// Inputs are candidate.json (EP file, repository, base and head SHAs), the
// EP and mapping.md. The repository is not hashed: the SHAs name its
// content.
func (Stage) Inputs(env *pipeline.Env, c *pipeline.Candidate) (pipeline.Inputs, error) {
	info, err := c.LoadInfo()
	if err != nil {
		return pipeline.Inputs{}, err
	}
	return pipeline.Inputs{
		Files:  []string{pipeline.InfoFile, info.EP.File, pipeline.MappingFile},
		Params: []string{fmt.Sprintf("static rules %d", len(rules.All))},
	}, nil
}

// Run checks mapping.md and writes validate.json, the rules.Report JSON of
// `lolbench validate --json`: like the command, it reports the cells that
// still hold the scaffold's marker as unfilled and holds back the
// violations at their lines (rules.Report.HoldBack), and a candidate with
// unfilled cells is rejected. Without a mapping.md there is nothing to
// check (skip). An artifact that cannot be parsed is rejected with its
// parse errors, and a stale validate.json is removed so that no later stage
// reads a verdict about another artifact.
func (Stage) Run(ctx context.Context, env *pipeline.Env, c *pipeline.Candidate) error {
	info, err := c.LoadInfo()
	if err != nil {
		return err
	}
	mp, err := c.Path(pipeline.MappingFile)
	if err != nil {
		return err
	}
	out, err := c.Path(pipeline.ValidateFile)
	if err != nil {
		return err
	}
	if _, err := os.Stat(mp); errors.Is(err, os.ErrNotExist) {
		return pipeline.Skip("no %s to validate; run lolbench map %s or write it by hand (docs/mapping-format.md)", pipeline.MappingFile, c.ID)
	}
	epPath, err := c.Path(info.EP.File)
	if err != nil {
		return fmt.Errorf("candidate %s: ep.file: %w", c.ID, err)
	}
	repo, err := info.RepoPath(env.Workspace)
	if err != nil {
		return fmt.Errorf("candidate %s: repo_dir: %w", c.ID, err)
	}
	in, err := rules.Load(ctx, rules.Sources{EP: epPath, Repo: repo, Base: info.PR.BaseSHA, Head: info.PR.HeadSHA, Mapping: mp})
	var perr *mapping.ErrorList
	if errors.As(err, &perr) {
		if rerr := os.Remove(out); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
			return rerr
		}
		return pipeline.Reject("%s cannot be parsed: %s", pipeline.MappingFile, ParseSummary(perr))
	}
	if err != nil {
		return err
	}
	rep, err := rules.Run(in, rules.All)
	if err != nil {
		return err
	}
	rep.HoldBack(in.Mapping)
	if err := workspace.WriteJSON(out, rep); err != nil {
		return err
	}
	if !rep.Passed() {
		return pipeline.Reject("%s", Summary(rep))
	}
	return nil
}

// Summary says how many violations a report holds and of which rules, and
// how many cells are unfilled, with the first one: "3 static-rule
// violations (R07, R11)", "101 unfilled cells, the first at line 9
// (section 1: Implementable); 49 violations at unfilled lines held back".
func Summary(rep *rules.Report) string {
	var parts []string
	if len(rep.Violations) > 0 || len(rep.Unfilled) == 0 {
		parts = append(parts, violations(rep))
	}
	if n := len(rep.Unfilled); n > 0 {
		u := rep.Unfilled[0]
		s := fmt.Sprintf("%d unfilled cell%s, the first at line %d (%s: %s)", n, plural(n), u.Line, u.Where, u.Cell)
		if n == 1 {
			s = fmt.Sprintf("1 unfilled cell at line %d (%s: %s)", u.Line, u.Where, u.Cell)
		}
		if h := rep.HeldBack; h > 0 {
			s += fmt.Sprintf("; %d violation%s at unfilled lines held back", h, plural(h))
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// violations is "3 static-rule violations (R07, R11)".
func violations(rep *rules.Report) string {
	var ids []int
	for _, v := range rep.Violations {
		if !slices.Contains(ids, v.Rule) {
			ids = append(ids, v.Rule)
		}
	}
	slices.Sort(ids)
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = fmt.Sprintf("R%02d", id)
	}
	n := len(rep.Violations)
	return fmt.Sprintf("%d static-rule violation%s (%s)", n, plural(n), strings.Join(names, ", "))
}

// ParseSummary gives the number of parse errors and the first three.
func ParseSummary(l *mapping.ErrorList) string {
	n := len(l.Errors)
	var first []string
	for _, e := range l.Errors[:min(n, 3)] {
		first = append(first, fmt.Sprintf("line %d: %s", e.Line, e.Msg))
	}
	s := fmt.Sprintf("%d parse error%s: %s", n, plural(n), strings.Join(first, "; "))
	if n > 3 {
		s += "; ..."
	}
	return s
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Load reads a candidate's validate.json; a missing file is returned as an
// error wrapping os.ErrNotExist.
func Load(c *pipeline.Candidate) (*rules.Report, error) {
	return pipeline.ReadArtifact[rules.Report](c, pipeline.ValidateFile)
}
