package mutation

import (
	"fmt"
	"sort"
)

// Outcome is one cell of the kill matrix: what one original F2P test did on
// one mutant.
type Outcome string

// The outcomes.
const (
	// OutcomeKilled: the test failed, errored or was absent (its package
	// did not build) on the mutant.
	OutcomeKilled Outcome = "killed"
	// OutcomePassed: the test passed on the mutant.
	OutcomePassed Outcome = "passed"
	// OutcomeUnreached: the test was not run on the mutant because
	// per-test coverage said it executes no line the mutant changes
	// (PIT's rule); it counts as passed. Matrices written before issue 32
	// have it: since then every mutant runs every F2P test, so that each
	// row is a full run's.
	OutcomeUnreached Outcome = "unreached"
)

// Kills reports whether the outcome kills the mutant.
func (o Outcome) Kills() bool { return o == OutcomeKilled }

// Matrix is the kill matrix of a task, mutants/matrix.json: one row per
// mutant that passed the P2P filter, one column per original F2P test.
type Matrix struct {
	// Tests are the columns: the task's F2P tests, sorted.
	Tests []string `json:"tests"`
	// Rows are the mutants that passed the P2P filter, in mutant order.
	Rows []MatrixRow `json:"rows"`
}

// MatrixRow is one mutant's row.
type MatrixRow struct {
	Mutant  string `json:"mutant"`
	Method  Method `json:"method"`
	Section string `json:"section"`
	// Outcomes has one entry per column of Matrix.Tests.
	Outcomes []Outcome `json:"outcomes"`
}

// NewMatrix returns an empty matrix over the F2P tests (sorted, without
// duplicates).
func NewMatrix(f2p []string) *Matrix {
	tests := append([]string(nil), f2p...)
	sort.Strings(tests)
	out := tests[:0]
	for i, t := range tests {
		if i == 0 || t != tests[i-1] {
			out = append(out, t)
		}
	}
	return &Matrix{Tests: out, Rows: []MatrixRow{}}
}

// Add appends a mutant's row; outcomes maps tests to outcomes, and a column
// it leaves out is OutcomeUnreached.
func (m *Matrix) Add(mu *Mutant, outcomes map[string]Outcome) {
	row := MatrixRow{Mutant: mu.ID, Method: mu.Method, Section: mu.Section, Outcomes: make([]Outcome, len(m.Tests))}
	for i, t := range m.Tests {
		o, ok := outcomes[t]
		if !ok {
			o = OutcomeUnreached
		}
		row.Outcomes[i] = o
	}
	m.Rows = append(m.Rows, row)
}

// Row returns a mutant's row, or nil when the mutant is not in the matrix
// (it was dropped).
func (m *Matrix) Row(mutant string) *MatrixRow {
	for i := range m.Rows {
		if m.Rows[i].Mutant == mutant {
			return &m.Rows[i]
		}
	}
	return nil
}

// Outcome returns the cell of a mutant and a test, and false when either is
// not in the matrix.
func (m *Matrix) Outcome(mutant, test string) (Outcome, bool) {
	r := m.Row(mutant)
	if r == nil {
		return "", false
	}
	i := sort.SearchStrings(m.Tests, test)
	if i >= len(m.Tests) || m.Tests[i] != test || i >= len(r.Outcomes) {
		return "", false
	}
	return r.Outcomes[i], true
}

// KilledBy returns the tests that kill a mutant, in column order.
func (m *Matrix) KilledBy(mutant string) []string {
	var out []string
	if r := m.Row(mutant); r != nil {
		for i, o := range r.Outcomes {
			if o.Kills() && i < len(m.Tests) {
				out = append(out, m.Tests[i])
			}
		}
	}
	return out
}

// Kills returns the mutants a test kills, in row order: the test-to-section
// map reads a test that kills a section's revert mutant as asserting that
// section.
func (m *Matrix) Kills(test string) []string {
	i := sort.SearchStrings(m.Tests, test)
	if i >= len(m.Tests) || m.Tests[i] != test {
		return nil
	}
	var out []string
	for _, r := range m.Rows {
		if i < len(r.Outcomes) && r.Outcomes[i].Kills() {
			out = append(out, r.Mutant)
		}
	}
	return out
}

// Survivors returns the mutants that no F2P test kills: the targets of the
// mutation-guided augmentation loop, the EP-level methods' mutants first
// (they violate a requirement as the EP states it, the deterministic ones
// mostly a line), each group in row order.
func (m *Matrix) Survivors() []string {
	var ep, rest []string
	for _, r := range m.Rows {
		killed := false
		for _, o := range r.Outcomes {
			if o.Kills() {
				killed = true
				break
			}
		}
		switch {
		case killed:
		case r.Method.EPLevel():
			ep = append(ep, r.Mutant)
		default:
			rest = append(rest, r.Mutant)
		}
	}
	return append(ep, rest...)
}

// Check reports a malformed matrix (read from a hand-edited file): rows
// whose outcome count differs from the columns, unknown outcomes, repeated
// mutants.
func (m *Matrix) Check() error {
	if !sort.StringsAreSorted(m.Tests) {
		return fmt.Errorf("kill matrix: tests are not sorted")
	}
	seen := map[string]bool{}
	for _, r := range m.Rows {
		if seen[r.Mutant] {
			return fmt.Errorf("kill matrix: mutant %s has two rows", r.Mutant)
		}
		seen[r.Mutant] = true
		if len(r.Outcomes) != len(m.Tests) {
			return fmt.Errorf("kill matrix: mutant %s has %d outcomes for %d tests", r.Mutant, len(r.Outcomes), len(m.Tests))
		}
		for _, o := range r.Outcomes {
			if o != OutcomeKilled && o != OutcomePassed && o != OutcomeUnreached {
				return fmt.Errorf("kill matrix: mutant %s: unknown outcome %q", r.Mutant, o)
			}
		}
	}
	return nil
}
