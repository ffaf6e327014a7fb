package augment

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/mutation"
)

// Section is one implementable section of the mapping.
type Section struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Requirement string `json:"requirement,omitempty"`
}

// MapInput is what the test-to-section map is computed from.
type MapInput struct {
	// Tests are the F2P tests to map, in order.
	Tests []string
	// Sections are the implementable sections.
	Sections []Section
	// Reverts maps each revert mutant (section revert, mapped-section
	// revert) to the section it reverts.
	Reverts map[string]string
	// Kills maps a test to the mutants it kills.
	Kills map[string][]string
	// Covered maps a test to the target lines it runs (per-test
	// coverage); a test absent from it has no coverage evidence.
	Covered map[string]coverage.Lines
	// Owned maps a section to the target lines it owns.
	Owned map[string]coverage.Lines
}

// SectionMap is the test-to-section map (issue 7): every F2P test with the
// implementable sections whose behaviour it asserts, and the evidence.
type SectionMap struct {
	// Tests maps an F2P test to its sections, sorted; a test mapped to no
	// section is absent (it is listed in Broad). This is the map the
	// Harbor verifier and the SWE-bench export carry.
	Tests map[string][]string `json:"f2p_sections"`
	// Evidence says, per test, why it maps where it does.
	Evidence []TestEvidence `json:"evidence"`
	// Sections lists each implementable section with the F2P tests that
	// assert it; a section is completed only when all of them pass.
	Sections []SectionTests `json:"sections"`
	// Broad are the F2P tests mapped to no section: possibly "overly
	// broad" tests (ProMax), which check no implementable section.
	Broad []string `json:"possibly_overly_broad"`
	// Untested are the implementable sections no F2P test asserts.
	Untested []string `json:"untested_sections"`
}

// TestEvidence is one test's mapping with its reasons.
type TestEvidence struct {
	Test     string   `json:"test"`
	Sections []string `json:"sections"`
	// Kills are the revert mutants the test kills ("revert-3.1 (3.1)").
	Kills []string `json:"kills,omitempty"`
	// Reaches are the sections whose owned lines the test runs, with the
	// number of lines ("3.2 (4 lines)").
	Reaches []string `json:"reaches,omitempty"`
	// CoverageOnly are the sections the test is mapped to by coverage
	// alone: they have no revert mutant to confirm that the test checks
	// their behaviour (the fallback).
	CoverageOnly []string `json:"coverage_only,omitempty"`
}

// SectionTests is one section and its tests.
type SectionTests struct {
	ID    string   `json:"id"`
	Title string   `json:"title"`
	Tests []string `json:"tests"`
}

// BuildMap computes the test-to-section map (paper §3.4: a test belongs to
// a section when it checks the section's behaviour). A test asserts a
// section when it runs lines the section owns (per-test coverage) and
// fails on the section's revert mutant; a section without a revert mutant
// is asserted by coverage alone, recorded as such (the fallback); a test
// without coverage evidence is mapped by its kills alone. Running a
// section's lines without failing on its revert is not checking it.
func BuildMap(in MapInput) *SectionMap {
	m := &SectionMap{Tests: map[string][]string{}, Evidence: []TestEvidence{}, Sections: []SectionTests{}, Broad: []string{}, Untested: []string{}}
	known := map[string]bool{}
	for _, s := range in.Sections {
		known[s.ID] = true
	}
	hasRevert := map[string]bool{}
	for _, s := range in.Reverts {
		hasRevert[s] = true
	}
	bySection := map[string][]string{}
	for _, t := range in.Tests {
		ev := TestEvidence{Test: t, Sections: []string{}}
		killed := map[string]bool{}
		kills := append([]string(nil), in.Kills[t]...)
		sort.Strings(kills)
		for _, mu := range kills {
			if s, ok := in.Reverts[mu]; ok && known[s] {
				killed[s] = true
				ev.Kills = append(ev.Kills, mu+" ("+s+")")
			}
		}
		cov, hasCov := in.Covered[t]
		reached := map[string]bool{}
		if hasCov {
			for _, s := range in.Sections {
				if n := cov.Intersect(in.Owned[s.ID]).Count(); n > 0 {
					reached[s.ID] = true
					unit := "lines"
					if n == 1 {
						unit = "line"
					}
					ev.Reaches = append(ev.Reaches, fmt.Sprintf("%s (%d %s)", s.ID, n, unit))
				}
			}
		}
		for _, s := range in.Sections {
			var mapped bool
			switch {
			case hasRevert[s.ID]:
				mapped = killed[s.ID] && (reached[s.ID] || !hasCov)
			case reached[s.ID]:
				mapped = true
				ev.CoverageOnly = append(ev.CoverageOnly, s.ID)
			}
			if mapped {
				ev.Sections = append(ev.Sections, s.ID)
				bySection[s.ID] = append(bySection[s.ID], t)
			}
		}
		if len(ev.Sections) == 0 {
			m.Broad = append(m.Broad, t)
		} else {
			m.Tests[t] = ev.Sections
		}
		m.Evidence = append(m.Evidence, ev)
	}
	for _, s := range in.Sections {
		ts := bySection[s.ID]
		if ts == nil {
			ts = []string{}
			m.Untested = append(m.Untested, s.ID)
		}
		m.Sections = append(m.Sections, SectionTests{ID: s.ID, Title: s.Title, Tests: ts})
	}
	return m
}

// ImplementableSections lists the sections whose behaviour a test can
// assert, in document order, with the requirement of their block: the
// sections the mapping marks implementable and mapped, except those of the
// evaluation category (a test plan asks for tests, not behaviour). An
// implementable section left unmapped (deferred, out of scope) owns no code
// of the reference solution, so no test could assert it.
func ImplementableSections(m *mapping.Mapping) []Section {
	req := map[string]string{}
	for _, b := range m.Blocks {
		if req[b.Section] == "" {
			req[b.Section] = strings.TrimSpace(b.Requirement.Text)
		}
	}
	var out []Section
	seen := map[string]bool{}
	for _, r := range m.SCS.Rows {
		id := strings.TrimSpace(r.Section)
		impl, ok1 := mapping.ParseYesNo(r.Implementable)
		mapped, ok2 := mapping.ParseYesNo(r.Mapped)
		if !ok1 || !ok2 || !impl || !mapped || strings.TrimSpace(r.Category) == string(mapping.Evaluation) || seen[id] {
			continue
		}
		seen[id] = true
		out = append(out, Section{ID: id, Title: strings.TrimSpace(r.Title), Requirement: req[id]})
	}
	return out
}

// Reverts maps the revert mutants of a mutation set (section revert and
// mapped-section revert, the methods that take a section's behaviour
// away) to their sections.
func Reverts(set *mutation.Set) map[string]string {
	out := map[string]string{}
	if set == nil {
		return out
	}
	for _, mu := range set.Mutants {
		if (mu.Method == mutation.SectionRevert || mu.Method == mutation.MappedRevert) && mu.Section != "" && mu.PassedP2P() {
			out[mu.ID] = mu.Section
		}
	}
	return out
}

// OwnedLines assigns the target lines to the sections that own them, by
// pipeline/mutation's owners (rules 27–28: the block whose Direct
// modifications list the line's scope, file-level lines by the file's
// one section), so that the map and the revert mutants agree on what a
// section is. Only the given sections get lines.
func OwnedLines(o *mutation.Owners, sections []Section, target *coverage.Target) map[string]coverage.Lines {
	want := map[string]bool{}
	for _, s := range sections {
		want[s.ID] = true
	}
	out := map[string]coverage.Lines{}
	if o == nil || target == nil {
		return out
	}
	for _, f := range target.Files {
		for _, l := range f.Executable {
			sec := o.Added(f.Path, l)
			if sec == "" || !want[sec] {
				continue
			}
			if out[sec] == nil {
				out[sec] = coverage.Lines{}
			}
			out[sec][f.Path] = append(out[sec][f.Path], l)
		}
	}
	for _, l := range out {
		l.Normalize()
	}
	return out
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
