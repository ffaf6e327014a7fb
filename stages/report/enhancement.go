package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/mutation"
)

// The enhancement hook. Phase 4 (issue 7) writes the mutants with their
// records, the kill matrix and Table 8 (pipeline/mutation), the coverage of
// the reference solution (pipeline/coverage), and the test-to-section map
// (stages/augment). Stage.Enhancement is the one place the report reads
// them: by default LoadEnhancement reads the files of pipeline/mutation and
// pipeline/coverage with their own loaders, and the test-to-section map
// from TestSectionsFile, a provisional file in the JSON form of
// stages/augment's SectionMap until that stage names its own file. A
// section is rendered as soon as its file exists.

// TestSectionsFile is the provisional test-to-section map of a candidate.
const TestSectionsFile = "augment/test_sections.json"

// Enhancement is what phase 4 learned about a candidate; each part is nil
// when its files do not exist.
type Enhancement struct {
	Mutants  *mutation.Set
	Coverage *coverage.Result
	Sections *TestSectionMap
}

// TestSectionMap is the test-to-section map in the JSON form of
// stages/augment's SectionMap: every F2P test with the implementable
// sections it asserts, the tests mapped to none ("possibly overly broad",
// ProMax) and the sections no test asserts.
type TestSectionMap struct {
	Tests    map[string][]string `json:"f2p_sections"`
	Broad    []string            `json:"possibly_overly_broad"`
	Untested []string            `json:"untested_sections"`
}

// LoadEnhancement reads a candidate's phase-4 files. Each part that exists
// but cannot be read is left nil and its error returned with the others.
func LoadEnhancement(c *pipeline.Candidate) (*Enhancement, error) {
	e := &Enhancement{}
	var errs []error
	exists := func(rel string) bool {
		p, err := c.Path(rel)
		if err != nil {
			errs = append(errs, err)
			return false
		}
		_, err = os.Stat(p)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
		return err == nil
	}
	if exists(mutation.IndexFile) {
		s, err := mutation.Load(c)
		if err != nil {
			errs = append(errs, err)
		} else {
			e.Mutants = s
		}
	}
	if exists(coverage.ResultFile) {
		r, err := coverage.Load(c)
		if err != nil {
			errs = append(errs, err)
		} else {
			e.Coverage = r
		}
	}
	if exists(TestSectionsFile) {
		p, _ := c.Path(TestSectionsFile)
		data, err := os.ReadFile(p)
		var m TestSectionMap
		if err == nil {
			// Unknown fields (the evidence) are allowed: the format is
			// stages/augment's and may grow.
			err = json.Unmarshal(data, &m)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("read %s: %w", p, err))
		} else {
			e.Sections = &m
		}
	}
	return e, errors.Join(errs...)
}
