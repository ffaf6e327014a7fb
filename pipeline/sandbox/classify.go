package sandbox

import (
	"sort"
	"strings"

	"github.com/lolbench/lolbench/pipeline/results"
)

// Absent is the status of a test a run did not report: a test the
// PR adds whose package does not compile before the reference solution is
// absent, and absent counts as failing.
const Absent results.Status = "absent"

// Flaky is a test whose status changed between runs of one side. It is
// reported and never used as F2P or P2P.
type Flaky struct {
	Name string `json:"name"`
	// Side is "before" or "after" (the first side it flipped in).
	Side string `json:"side"`
	// Statuses are its statuses run by run on that side.
	Statuses []results.Status `json:"statuses"`
}

// Classification is the split of the tests of a test plan (paper §3.3).
type Classification struct {
	// FailToPass failed, errored or was absent in every run before the
	// reference solution and passed in every run after it.
	FailToPass []string `json:"FAIL_TO_PASS"`
	// PassToPass passed in every run on both sides.
	PassToPass []string `json:"PASS_TO_PASS"`
	// Flaky flipped within a side.
	Flaky []Flaky `json:"flaky"`
	// Broken passed before and fails after: the reference solution breaks
	// them. They are reported, and excluded.
	Broken []string `json:"broken"`
	// FailBoth fail or error on both sides; excluded.
	FailBoth []string `json:"fail_both"`
	// FailAfter were absent before the reference solution and fail or
	// error after it: a test the PR adds that the reference does not make
	// pass (issue 36: on grpc-go, tests that listen on localhost);
	// excluded. A test that fails before and is absent after (a module
	// removed) is in no list.
	FailAfter []string `json:"fail_after"`
	// NotBuiltBefore were fail-to-pass only because their unit (a Go
	// package) did not build before the solution, while their own code is
	// not changed by the test patch: no evidence of the solution's
	// behaviour, so they are graded as PASS_TO_PASS (they are in that list
	// too). The build sets it (issue 36 §2).
	NotBuiltBefore []string `json:"not_built_before,omitempty"`
	// Skipped were skipped on a side; excluded.
	Skipped []string `json:"skipped"`
}

// Classify splits the tests seen in the runs of the two sides. Each run is
// a list of judged results (results.Judge's Results) as grade.ReadResults
// reads them: a Go test with subtests is not in them, its subtests are
// (results.Leaves), so the lists name subtests and no parent, and a
// parent's own failure has become its subtests'. A test's status on a
// side is the one it had in every run of that side; if it differs between
// runs, the test is flaky.
func Classify(before, after [][]results.Result) Classification {
	names := map[string]bool{}
	for _, side := range [][][]results.Result{before, after} {
		for _, run := range side {
			for _, r := range run {
				names[r.Name] = true
			}
		}
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	bIdx, aIdx := index(before), index(after)
	c := Classification{FailToPass: []string{}, PassToPass: []string{}, Flaky: []Flaky{}, Broken: []string{}, FailBoth: []string{}, FailAfter: []string{}, Skipped: []string{}}
	for _, n := range sorted {
		bs, bok := steady(bIdx, n)
		as, aok := steady(aIdx, n)
		if !bok {
			c.Flaky = append(c.Flaky, Flaky{Name: n, Side: "before", Statuses: statuses(bIdx, n)})
			continue
		}
		if !aok {
			c.Flaky = append(c.Flaky, Flaky{Name: n, Side: "after", Statuses: statuses(aIdx, n)})
			continue
		}
		switch {
		case bs == results.Skipped || as == results.Skipped:
			c.Skipped = append(c.Skipped, n)
		case as == results.Passed && bs == results.Passed:
			c.PassToPass = append(c.PassToPass, n)
		case as == results.Passed:
			c.FailToPass = append(c.FailToPass, n)
		case bs == results.Passed:
			c.Broken = append(c.Broken, n)
		case IsMarker(n):
		case bs != Absent && as != Absent:
			c.FailBoth = append(c.FailBoth, n)
		case bs == Absent && as != Absent:
			c.FailAfter = append(c.FailAfter, n)
		}
	}
	return c
}

// IsMarker tells the error entries the parsers make for a package, suite,
// crate or binary that failed as a whole; they are not tests.
func IsMarker(name string) bool {
	for _, m := range []string{results.PackageMarker, results.SuiteMarker, results.BuildMarker, results.BinaryMarker} {
		if strings.HasSuffix(name, m) {
			return true
		}
	}
	return false
}

func index(runs [][]results.Result) []map[string]results.Status {
	out := make([]map[string]results.Status, len(runs))
	for i, run := range runs {
		out[i] = map[string]results.Status{}
		for _, r := range run {
			out[i][r.Name] = r.Status
		}
	}
	return out
}

func statuses(idx []map[string]results.Status, name string) []results.Status {
	out := make([]results.Status, len(idx))
	for i, m := range idx {
		s, ok := m[name]
		if !ok {
			s = Absent
		}
		out[i] = s
	}
	return out
}

// steady returns a test's status on a side and whether it was the same in
// every run. Failed, error and absent count as the same outcome (not
// passing), so a test that fails by assertion once and by panic the next,
// or whose package did not compile once, is not flaky; a test that passed
// once and did not pass once is.
func steady(idx []map[string]results.Status, name string) (results.Status, bool) {
	st := statuses(idx, name)
	if len(st) == 0 {
		return Absent, true
	}
	norm := func(s results.Status) results.Status {
		if s == results.Error || s == Absent {
			return results.Failed
		}
		return s
	}
	for _, s := range st[1:] {
		if norm(s) != norm(st[0]) {
			return st[0], false
		}
	}
	return st[0], true
}
