package collect

import (
	"fmt"
	"strings"
	"time"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/registry"
)

// The selection criteria (paper, section 3.1), by the names candidate.json
// and the funnel use.
const (
	CritLoC           = "source-loc"            // 1: >= 50k source LoC at the base commit
	CritSize          = "pr-size"               // 2: >= 1,000 lines, >= 10 files, source share > 0.5
	CritPredates      = "ep-predates-pr"        // 3: the EP is older than the PR
	CritOnePR         = "one-merged-pr"         // 4: exactly one merged PR, no competing open PR
	CritTests         = "has-tests"             // 5: at least one changed test file
	CritImplementable = "implementable-section" // 6: pending; the mapping stage enforces it
)

// Criterion describes one selection criterion.
type Criterion struct {
	Number int
	Name   string
	Title  string
}

// Criteria lists the criteria in the paper's order.
var Criteria = []Criterion{
	{1, CritLoC, "the software has at least 50k source LoC at the PR's base commit"},
	{2, CritSize, "the PR changes at least 1,000 lines across at least 10 files, over half of them in source files"},
	{3, CritPredates, "the EP was created before the PR's first commit and its creation"},
	{4, CritOnePR, "the EP corresponds to exactly one merged PR and no competing open PR references it"},
	{5, CritTests, "the PR changes at least one test file"},
	{6, CritImplementable, "the EP has at least one implementable section (pending: enforced by the mapping stage)"},
}

// criterionNumber returns the paper's number of a criterion name, 0 for
// the funnel steps that are not criteria.
func criterionNumber(name string) int {
	for _, c := range Criteria {
		if c.Name == name {
			return c.Number
		}
	}
	return 0
}

// CheckLoC is criterion 1: the software's source LoC (loc.Result.SourceCode)
// at the PR's base commit against t.MinLoC.
func CheckLoC(sourceLoC int64, t registry.Thresholds) pipeline.Check {
	c := pipeline.Check{Criterion: CritLoC, Value: fmt.Sprintf("%d source LoC", sourceLoC),
		Threshold: fmt.Sprintf(">= %d", t.MinLoC), Passed: sourceLoC >= t.MinLoC}
	if !c.Passed {
		c.Reason = fmt.Sprintf("%d source LoC at the base commit, fewer than %d", sourceLoC, t.MinLoC)
	}
	return c
}

// CheckSize is criterion 2: changed lines (inserted plus deleted) and
// files, and the share of changed lines in source files, which must be
// strictly greater than t.MinSourceShare ("over half").
func CheckSize(s diff.Stats, t registry.Thresholds) pipeline.Check {
	lines := s.Inserted + s.Deleted
	c := pipeline.Check{Criterion: CritSize,
		Value:     fmt.Sprintf("%d changed lines in %d files, source share %.3f", lines, s.Files, s.SourceShare),
		Threshold: fmt.Sprintf(">= %d lines, >= %d files, source share > %g", t.MinChangedLines, t.MinFiles, t.MinSourceShare)}
	var why []string
	if lines < t.MinChangedLines {
		why = append(why, fmt.Sprintf("%d changed lines, fewer than %d", lines, t.MinChangedLines))
	}
	if s.Files < t.MinFiles {
		why = append(why, fmt.Sprintf("%d files changed, fewer than %d", s.Files, t.MinFiles))
	}
	if !(s.SourceShare > t.MinSourceShare) {
		why = append(why, fmt.Sprintf("source share %.3f, not above %g", s.SourceShare, t.MinSourceShare))
	}
	c.Passed = len(why) == 0
	c.Reason = strings.Join(why, "; ")
	return c
}

// CheckTests is criterion 5: changed files of category test
// (lang.Classify) against t.MinTestFiles.
func CheckTests(s diff.Stats, t registry.Thresholds) pipeline.Check {
	n := 0
	if cs := s.Categories[lang.Test]; cs != nil {
		n = cs.Files
	}
	c := pipeline.Check{Criterion: CritTests, Value: fmt.Sprintf("%d test files", n),
		Threshold: fmt.Sprintf(">= %d", t.MinTestFiles), Passed: n >= t.MinTestFiles}
	if !c.Passed {
		c.Reason = fmt.Sprintf("%d changed test files, fewer than %d", n, t.MinTestFiles)
	}
	return c
}

// CheckPredates is criterion 3: the EP's created date must be before the
// PR's start, the earlier of its first commit (when known) and its
// creation. A date without a time is midnight UTC, so an EP created on the
// day the PR started passes.
func CheckPredates(epCreated, prCreated, firstCommit time.Time) pipeline.Check {
	start := prCreated
	if !firstCommit.IsZero() && (start.IsZero() || firstCommit.Before(start)) {
		start = firstCommit
	}
	c := pipeline.Check{Criterion: CritPredates,
		Threshold: "EP created before the PR's first commit and its creation"}
	c.Value = fmt.Sprintf("EP created %s; PR opened %s, first commit %s", day(epCreated), stamp(prCreated), stamp(firstCommit))
	switch {
	case epCreated.IsZero():
		c.Reason = "the EP has no created date"
	case start.IsZero():
		c.Reason = "the PR's creation and first commit are unknown"
	case !epCreated.Before(start):
		c.Reason = fmt.Sprintf("the EP (created %s) does not predate the PR (started %s)", day(epCreated), stamp(start))
	default:
		c.Passed = true
	}
	return c
}

// CheckOnePR is criterion 4: the EP has exactly one merged PR and no open
// PR references it.
func CheckOnePR(epID string, merged, open []int) pipeline.Check {
	c := pipeline.Check{Criterion: CritOnePR,
		Value:     fmt.Sprintf("merged: %s; open: %s", prList(merged), prList(open)),
		Threshold: "exactly 1 merged PR, 0 open PRs"}
	switch {
	case len(merged) != 1:
		c.Reason = fmt.Sprintf("%d merged PRs reference %s (%s)", len(merged), epID, prList(merged))
	case len(open) > 0:
		c.Reason = fmt.Sprintf("open PRs also reference %s (%s)", epID, prList(open))
	default:
		c.Passed = true
	}
	return c
}

func prList(ns []int) string {
	if len(ns) == 0 {
		return "none"
	}
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprintf("#%d", n)
	}
	return strings.Join(parts, ", ")
}

func day(t time.Time) string {
	if t.IsZero() {
		return "unknown"
	}
	return t.UTC().Format("2006-01-02")
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "unknown"
	}
	return t.UTC().Format(time.RFC3339)
}
