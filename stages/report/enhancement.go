package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/lolbench/lolbench/pipeline"
)

// The enhancement hook. Phase 4 (issue 7: mutants, kill matrix, coverage,
// test-to-section map) has not landed, so its artifacts have no Go types
// yet. Stage.Enhancement is the one place the report reads them: by default
// LoadEnhancement reads the provisional files below; when stages/mutate and
// stages/augment land, set Stage.Enhancement to a function built on their
// own Load functions (or make them write these files) and the candidate
// pages render the sections as soon as the files exist.

// Provisional phase-4 files of a candidate folder, read by LoadEnhancement.
const (
	MutantsFile      = "mutants/mutants.json"
	CoverageFile     = "augment/coverage.json"
	TestSectionsFile = "augment/test_sections.json"
)

// Enhancement is what phase 4 learned about a candidate. The Has fields
// say which parts exist; a part that exists may still be empty.
type Enhancement struct {
	HasMutants      bool
	Mutants         []Mutant
	HasCoverage     bool
	Coverage        []Coverage
	HasTestSections bool
	// TestSections maps each F2P test to the sections it asserts.
	TestSections map[string][]string
}

// Mutant is one incorrect alternative solution with its record (issue 7):
// the method, the section it violates and why it differs from the
// reference, and whether the F2P suite killed it.
type Mutant struct {
	ID          string `json:"id"`
	Method      string `json:"method"`
	Section     string `json:"section"`
	Requirement string `json:"requirement"`
	Reference   string `json:"reference_behaviour"`
	Mutated     string `json:"mutated_behaviour"`
	Scenario    string `json:"scenario"`
	Rationale   string `json:"rationale"`
	// Status is "killed", "survived" or "dropped" (Reason says why).
	Status   string   `json:"status"`
	Reason   string   `json:"reason,omitempty"`
	KilledBy []string `json:"killed_by,omitempty"`
}

// Coverage is the line coverage of the reference patch's executable added
// lines by one suite ("F2P", "P2P", "F2P ∪ P2P", or a test).
type Coverage struct {
	Suite      string `json:"suite"`
	Covered    int    `json:"covered"`
	Executable int    `json:"executable"`
}

// LoadEnhancement reads the provisional phase-4 files of a candidate.
// Unknown fields are ignored: the format belongs to issue 7 and may grow.
func LoadEnhancement(c *pipeline.Candidate) (*Enhancement, error) {
	e := &Enhancement{}
	parts := []struct {
		file string
		has  *bool
		into any
	}{
		{MutantsFile, &e.HasMutants, &e.Mutants},
		{CoverageFile, &e.HasCoverage, &e.Coverage},
		{TestSectionsFile, &e.HasTestSections, &e.TestSections},
	}
	var errs []error
	for _, p := range parts {
		path, err := c.Path(p.file)
		if err != nil {
			return nil, err
		}
		data, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err == nil {
			err = json.Unmarshal(data, p.into)
		}
		*p.has = err == nil
		if err != nil {
			errs = append(errs, fmt.Errorf("read %s: %w", path, err))
		}
	}
	return e, errors.Join(errs...)
}
