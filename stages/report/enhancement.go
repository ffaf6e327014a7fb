package report

import (
	"errors"
	"os"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/sectiondag"
	"github.com/lolbench/lolbench/pipeline/sectionmap"
)

// The enhancement hook. Phase 4 writes the mutants with their records,
// the kill matrix and Table 8 (pipeline/mutation), the coverage of the
// reference solution (pipeline/coverage), and the test-to-section map
// (pipeline/sectionmap: the build writes it from the mapping's rows,
// mutate and augment rewrite it with their evidence). Stage.Enhancement is
// the one place the report reads them; LoadEnhancement reads each with its
// own package's loader. A section is rendered as soon as its file exists.

// Enhancement is what phase 4 learned about a candidate; each part is nil
// when its files do not exist.
type Enhancement struct {
	Mutants  *mutation.Set
	Coverage *coverage.Result
	Sections *sectionmap.Map
	// DAG is the section dependency graph (lolbench dag, dag.json).
	DAG *sectiondag.Result
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
	if exists(sectionmap.File) {
		m, err := sectionmap.Load(c)
		if err != nil {
			errs = append(errs, err)
		} else {
			e.Sections = m
		}
	}
	if exists(sectiondag.File) {
		g, err := sectiondag.Load(c)
		if err != nil {
			errs = append(errs, err)
		} else {
			e.DAG = g
		}
	}
	return e, errors.Join(errs...)
}
