// Package sectionmap is a task's F2P-test-to-section map (paper §3.4,
// issue 25): every FAIL_TO_PASS test with the implementable sections whose
// behaviour it asserts, and the evidence for each pair. A section is
// completed only when every F2P test mapped to it passes (paper §4.1), so
// this map is what Completed grades: one map, computed here and nowhere
// else, written to the candidate's sections.json and into the task's
// grading configuration, and read by verify, the Harbor task, the
// SWE-bench rows, eval and the report.
//
// The evidence that test T asserts section S, in order:
//
//  1. kill: T fails on a revert of S (the mapped-section revert, its stub
//     retry, or an LLM section revert) while it passes on the reference
//     solution, as every F2P test does, and some other F2P test passes on
//     that revert. Surviving a revert that takes all of S away is
//     decisive the other way; surviving a stub revert is not, since a
//     stub keeps S's module- and class-level lines (tables, fields,
//     constants). A revert that every F2P test fails shows that every test
//     depends on S, not which tests assert it (issue 31 §2: on grpc-go,
//     each section of a load balancer), and counts only for a test nothing
//     else maps (Dependencies lists such reverts).
//  2. rows: the blocks whose rows name T by file, class and function (a
//     Go subtest by its parent's or its suite method's name): the
//     reviewer's reading of which section T asserts (paper §3.4, the
//     relationships confirmed in the semantic review).
//  3. reach, for a test no row names: T runs lines S owns that some other
//     F2P test does not run, where per-test coverage can see them. Lines
//     that run at import or class-definition time (coverage's setup
//     lines, a TypedDict body, module tables) are run by no test, so they
//     are left out.
//  4. the file row, for a test no row names and no kill maps: the sections
//     of T's file in the PR File Summary, less those coverage sees and T
//     does not reach.
//
// A test may belong to several sections. A section no F2P test asserts is
// untested: a defect of the task, which the build, status, the report and
// the export list; so is a section whose tests are exactly another's
// (SameTestsAs): no solution completes one without the other.
package sectionmap

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/mapping"
)

// Evidence sources, as Map.Sources names them.
const (
	SourceRows     = "mapping rows"
	SourceKills    = "kill matrix"
	SourceCoverage = "per-test coverage"
)

// Rows is what the mapping's rows say of one test.
type Rows struct {
	// Named maps each section whose block rows name the test (file, class
	// and function) to that block's number.
	Named map[string]int
	// File are the sections of the test file's PR File Summary row, used
	// when no block row names the test; FilePath is that file.
	File     []string
	FilePath string
}

// Input is the evidence a map is computed from. Every field but Tests and
// Sections may be empty: the map then rests on what there is.
type Input struct {
	// Tests are the F2P tests, in order.
	Tests []string
	// Sections are the task's sections (mapping.TaskSections).
	Sections []mapping.TaskSection
	// Rows says what the mapping's rows name, per test.
	Rows map[string]Rows
	// Reverts maps each revert mutant that passed the P2P tests to the
	// section it reverts; Partial marks those that leave part of the
	// section in place (stub reverts), whose survival proves nothing.
	Reverts map[string]string
	Partial map[string]bool
	// Judged are the tests whose outcome on every revert mutant is known
	// (the kill matrix's columns, the added tests run on every mutant);
	// Kills maps a test to the mutants it kills.
	Judged map[string]bool
	Kills  map[string][]string
	// Covered maps a test to the lines it runs (per-test coverage); a test
	// absent from it has no coverage evidence.
	Covered map[string]coverage.Lines
	// Owned maps a section to the lines it owns that a test can be seen to
	// run: executable added lines, setup lines left out.
	Owned map[string]coverage.Lines
	// CoveragePartial says why the per-test coverage is incomplete (some
	// tests unmeasured: they have no coverage evidence); "" when whole.
	CoveragePartial string
}

// Test is one F2P test's sections and the evidence for each.
type Test struct {
	Test     string   `json:"test"`
	Sections []string `json:"sections"`
	// Evidence has one line per section, in the order of Sections:
	// "killed revert-7.2", "killed revert-7.1 (stub revert)", "reached
	// 7.2.1's lines (4 lines)", "row of block 3", "file row of
	// tests/test_x.py".
	Evidence []string `json:"evidence"`
}

// Section is one task section and the F2P tests that assert it.
type Section struct {
	ID    string   `json:"id"`
	Title string   `json:"title"`
	Tests []string `json:"tests"`
	// Untested says why no test asserts the section; empty when one does.
	Untested string `json:"untested,omitempty"`
	// SameTestsAs names the first earlier section with exactly the same
	// tests: no solution can complete one and not the other, so the map
	// cannot tell them apart (issue 31: on grpc-go every section had the
	// same 14 tests and Completed became all-or-nothing).
	SameTestsAs string `json:"same_tests_as,omitempty"`
}

// Figures are the reference solution's Completed under a map: the task
// sections that have at least one F2P test (the reference passes every F2P
// test) over all task sections.
type Figures struct {
	Completed int `json:"completed"`
	Total     int `json:"total"`
}

func (f Figures) String() string { return fmt.Sprintf("%d/%d", f.Completed, f.Total) }

// Previous is the map a newer one replaced, when the newer one changed the
// task's grading: which stage wrote it, and the reference solution's
// figures under it.
type Previous struct {
	Stage     string  `json:"stage"`
	Reference Figures `json:"reference"`
}

// Map is the test-to-section map of a task: sections.json.
type Map struct {
	// Stage is the stage that wrote it: build, mutate or augment.
	Stage string `json:"stage"`
	// Sources are the kinds of evidence it had.
	Sources []string `json:"sources"`
	// Tests has every F2P test, in order, mapped or not.
	Tests []Test `json:"tests"`
	// Sections are the task's sections, in mapping order.
	Sections []Section `json:"sections"`
	// Untested are the sections no F2P test asserts.
	Untested []string `json:"untested_sections"`
	// Broad are the F2P tests mapped to no section: possibly overly broad
	// (SWE-Bench ProMax), checking no implementable section.
	Broad []string `json:"possibly_overly_broad"`
	// Dependencies are the revert mutants every judged F2P test fails:
	// each test depends on their section, and none of their kills says
	// which section a test asserts, so they are no evidence here.
	Dependencies []string `json:"dependency_only_reverts,omitempty"`
	// CoveragePartial says why its per-test coverage evidence is partial
	// (issue 32 §1: a coverage run that cannot finish says so).
	CoveragePartial string `json:"coverage_partial,omitempty"`
	// Reference is the reference solution's Completed under this map.
	Reference Figures `json:"reference"`
	// Previous is set when this map changed the grading of the map before
	// it.
	Previous *Previous `json:"previous,omitempty"`
}

// Compute maps the tests (see the package documentation for the order of
// evidence). stage names the caller.
func Compute(stage string, in Input) *Map {
	m := &Map{Stage: stage, Sources: []string{}, Tests: []Test{}, Sections: []Section{}, Untested: []string{}, Broad: []string{}}
	if len(in.Rows) > 0 {
		m.Sources = append(m.Sources, SourceRows)
	}
	if len(in.Judged) > 0 {
		m.Sources = append(m.Sources, SourceKills)
	}
	if len(in.Covered) > 0 {
		m.Sources = append(m.Sources, SourceCoverage)
		m.CoveragePartial = in.CoveragePartial
	}
	reverts := map[string][]string{} // section -> its revert mutants
	whole := map[string]bool{}       // sections with a revert that takes all of them away
	for mu, s := range in.Reverts {
		reverts[s] = append(reverts[s], mu)
		if !in.Partial[mu] {
			whole[s] = true
		}
	}
	for _, list := range reverts {
		sort.Strings(list)
	}
	// Evidence tells sections apart only when it does not hold for every
	// test (issue 31 §2): a revert that every judged F2P test fails (the
	// sections everything runs through, a balancer's resolver handling)
	// shows that each test depends on the section, not which section each
	// test asserts; so do lines every covered F2P test runs.
	discriminates := map[string]bool{} // revert -> some judged test survives it
	for mu := range in.Reverts {
		for _, t := range in.Tests {
			if in.Judged[t] && !slices.Contains(in.Kills[t], mu) {
				discriminates[mu] = true
				break
			}
		}
		if !discriminates[mu] && anyJudged(in) {
			m.Dependencies = append(m.Dependencies, mu)
		}
	}
	sort.Strings(m.Dependencies)
	missedBySome := map[string]bool{} // section -> some covered test runs none of its lines
	for _, s := range in.Sections {
		for _, t := range in.Tests {
			if cov, ok := in.Covered[t]; ok && cov.Intersect(in.Owned[s.ID]).Count() == 0 {
				missedBySome[s.ID] = true
				break
			}
		}
	}
	bySection := map[string][]string{}
	for _, t := range in.Tests {
		mt := Test{Test: t, Sections: []string{}, Evidence: []string{}}
		killed := map[string]bool{}
		for _, mu := range in.Kills[t] {
			killed[mu] = true
		}
		rows := in.Rows[t]
		cov, hasCov := in.Covered[t]
		killsAny := false
		for mu := range in.Reverts {
			killsAny = killsAny || (in.Judged[t] && killed[mu] && discriminates[mu])
		}
		// Rows of blocks that are no task section (a test plan's) name
		// nothing here (RowsOf).
		unnamed := true
		for _, s := range in.Sections {
			if _, ok := rows.Named[s.ID]; ok {
				unnamed = false
			}
		}
		reachesAny := false
		for _, s := range in.Sections {
			reachesAny = reachesAny || hasCov && missedBySome[s.ID] && cov.Intersect(in.Owned[s.ID]).Count() > 0
		}
		for _, s := range in.Sections {
			ev := ""
			visible := hasCov && in.Owned[s.ID].Count() > 0
			reached := visible && cov.Intersect(in.Owned[s.ID]).Count() > 0
			block, named := rows.Named[s.ID]
			// A kill by a revert every test fails counts only for a test
			// that nothing else maps: it is all there is to say of it.
			lastResort := unnamed && !killsAny && !reachesAny
			for _, mu := range reverts[s.ID] {
				if in.Judged[t] && killed[mu] && (discriminates[mu] || lastResort) {
					ev = "killed " + mu
					if in.Partial[mu] {
						ev += " (stub revert)"
					}
					if !discriminates[mu] {
						ev += " (every test fails it)"
					}
					break
				}
			}
			switch {
			case ev != "":
			case in.Judged[t] && whole[s.ID]:
				// It survives the whole section's removal.
			case named:
				// A row that names the test is the reviewer's reading
				// (paper §3.4: pairs confirmed in the semantic review).
				ev = fmt.Sprintf("row of block %d", block)
			case unnamed && reached && missedBySome[s.ID]:
				n := cov.Intersect(in.Owned[s.ID]).Count()
				ev = fmt.Sprintf("reached %s's lines (%d %s)", s.ID, n, plural(n, "line"))
			case unnamed && !killsAny && (!visible || reached) && slices.Contains(rows.File, s.ID):
				ev = "file row of " + rows.FilePath
			}
			if ev != "" {
				mt.Sections = append(mt.Sections, s.ID)
				mt.Evidence = append(mt.Evidence, ev)
				bySection[s.ID] = append(bySection[s.ID], t)
			}
		}
		if len(mt.Sections) == 0 {
			m.Broad = append(m.Broad, t)
		}
		m.Tests = append(m.Tests, mt)
	}
	firstWith := map[string]string{} // a test set -> the first section with it
	for _, s := range in.Sections {
		sec := Section{ID: s.ID, Title: s.Title, Tests: bySection[s.ID]}
		if sec.Tests == nil {
			sec.Tests = []string{}
			sec.Untested = untestedWhy(in, s.ID, reverts[s.ID])
			m.Untested = append(m.Untested, s.ID)
		} else {
			m.Reference.Completed++
			key := strings.Join(sec.Tests, "\x00")
			if first, ok := firstWith[key]; ok {
				sec.SameTestsAs = first
			} else {
				firstWith[key] = s.ID
			}
		}
		m.Sections = append(m.Sections, sec)
	}
	m.Reference.Total = len(in.Sections)
	return m
}

// untestedWhy says why no test asserts a section: the evidence that was
// looked for and not found.
func anyJudged(in Input) bool {
	for _, t := range in.Tests {
		if in.Judged[t] {
			return true
		}
	}
	return false
}

func untestedWhy(in Input, id string, reverts []string) string {
	var why []string
	if len(reverts) > 0 && len(in.Judged) > 0 {
		why = append(why, fmt.Sprintf("no FAIL_TO_PASS test fails on its revert (%s)", strings.Join(reverts, ", ")))
	}
	if len(in.Covered) > 0 && in.Owned[id].Count() > 0 {
		why = append(why, "no FAIL_TO_PASS test runs the lines it owns")
	}
	if len(why) == 0 {
		return "no mapping row names a FAIL_TO_PASS test for it, nor its test file's PR File Summary row"
	}
	why = append(why, "no mapping row names a FAIL_TO_PASS test for it")
	return strings.Join(why[:len(why)-1], ", ") + " and " + why[len(why)-1]
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// F2PSections is the map as the verifier's configuration carries it: each
// mapped test with its sections.
func (m *Map) F2PSections() map[string][]string {
	out := map[string][]string{}
	for _, t := range m.Tests {
		if len(t.Sections) > 0 {
			out[t.Test] = t.Sections
		}
	}
	return out
}

// SectionIDs are the task's section ids, Completed's denominator.
func (m *Map) SectionIDs() []string {
	out := []string{}
	for _, s := range m.Sections {
		out = append(out, s.ID)
	}
	return out
}

// Ready reports whether the reference solution completes every task
// section: a task that is not ready has untested sections, or none at all.
func (m *Map) Ready() bool {
	return m.Reference.Total > 0 && m.Reference.Completed == m.Reference.Total
}

// NotReady says in one line why a task is not ready, or "" when it is.
func (m *Map) NotReady() string {
	switch {
	case m.Ready():
		return ""
	case m.Reference.Total == 0:
		return "the mapping marks no implementable section mapped: Completed has nothing to count"
	}
	return fmt.Sprintf("the reference solution completes %s sections: untested %s", m.Reference, strings.Join(m.Untested, ", "))
}

// SameGrading reports whether two maps grade alike: the same sections,
// each with the same tests.
func SameGrading(a, b *Map) bool {
	if a == nil || b == nil {
		return a == b
	}
	if len(a.Sections) != len(b.Sections) {
		return false
	}
	for i := range a.Sections {
		if a.Sections[i].ID != b.Sections[i].ID || !slices.Equal(a.Sections[i].Tests, b.Sections[i].Tests) {
			return false
		}
	}
	return true
}

// Summary is the map in one line: "6 task sections, the reference
// solution completes 4/6; untested: 3.2 (why), 4 (why)".
func (m *Map) Summary() string {
	s := fmt.Sprintf("%d task %s, the reference solution completes %s", m.Reference.Total, plural(m.Reference.Total, "section"), m.Reference)
	if m.Previous != nil {
		s += fmt.Sprintf(" (%s under %s's map)", m.Previous.Reference, m.Previous.Stage)
	}
	var un []string
	for _, sec := range m.Sections {
		if sec.Untested != "" {
			un = append(un, sec.ID+" ("+sec.Untested+")")
		}
	}
	if len(un) > 0 {
		s += "; untested: " + strings.Join(un, "; ")
	}
	if m.CoveragePartial != "" {
		s += "; PARTIAL coverage evidence: " + m.CoveragePartial
	}
	return s
}

// PerSection says how many F2P tests map to each task section, and which
// sections have exactly the same tests as an earlier one (issue 31 §2):
// "tests per section: 4.1 14, 4.2 3; 4.3 has the same tests as 4.2, so no
// solution completes one without the other".
func (m *Map) PerSection() string {
	var per, same []string
	for _, sec := range m.Sections {
		per = append(per, fmt.Sprintf("%s %d", sec.ID, len(sec.Tests)))
		if sec.SameTestsAs != "" {
			same = append(same, sec.ID+" has the same tests as "+sec.SameTestsAs)
		}
	}
	if len(per) == 0 {
		return ""
	}
	s := "tests per section: " + strings.Join(per, ", ")
	if len(same) > 0 {
		s += "; " + strings.Join(same, ", ") + ", so no solution completes one without the other"
	}
	return s
}
