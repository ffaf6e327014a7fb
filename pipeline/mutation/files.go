package mutation

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// Files and folders of the mutate stage in a candidate folder:
//
//	mutants/<id>/record.json   one mutant's record (Mutant)
//	mutants/<id>/mutant.patch  the mutant: a complete solution against the base commit
//	mutants/<id>/logs/         its job's output (apply errors, build check, test log)
//	mutants/mutants.json       every record, in mutant order
//	mutants/matrix.json        the kill matrix (Matrix)
//	mutants/report.json        Table 8 for the task (Report)
const (
	Dir        = "mutants"
	RecordFile = "record.json"
	PatchFile  = "mutant.patch"
	LogDir     = "logs"
	IndexFile  = "mutants/mutants.json"
	MatrixFile = "mutants/matrix.json"
	ReportFile = "mutants/report.json"
)

// Set is what the mutate stage left in a candidate folder.
type Set struct {
	Mutants []*Mutant
	Matrix  *Matrix
	Report  *Report
}

// Mutant returns the record with the id, or nil.
func (s *Set) Mutant(id string) *Mutant {
	for _, m := range s.Mutants {
		if m.ID == id {
			return m
		}
	}
	return nil
}

// Load reads a candidate's mutants.json, matrix.json and report.json.
// A candidate the mutate stage has not run on gives an error wrapping
// fs.ErrNotExist.
func Load(c *pipeline.Candidate) (*Set, error) {
	s := &Set{}
	for _, f := range []struct {
		name string
		into any
	}{{IndexFile, &s.Mutants}, {MatrixFile, &s.Matrix}, {ReportFile, &s.Report}} {
		p, err := c.Path(f.name)
		if err != nil {
			return nil, err
		}
		if err := workspace.ReadJSON(p, f.into); err != nil {
			return nil, fmt.Errorf("candidate %s: %w", c.ID, err)
		}
	}
	if s.Matrix == nil {
		return nil, fmt.Errorf("candidate %s: %s: no matrix", c.ID, MatrixFile)
	}
	if err := s.Matrix.Check(); err != nil {
		return nil, fmt.Errorf("candidate %s: %s: %w", c.ID, MatrixFile, err)
	}
	for i, m := range s.Mutants {
		if m == nil {
			return nil, fmt.Errorf("candidate %s: %s: entry %d is null", c.ID, IndexFile, i)
		}
		if err := CheckID(m.ID); err != nil {
			return nil, fmt.Errorf("candidate %s: %s: %w", c.ID, IndexFile, err)
		}
	}
	return s, nil
}

// MutantDir returns a mutant's folder in the candidate folder.
func MutantDir(c *pipeline.Candidate, id string) (string, error) {
	if err := CheckID(id); err != nil {
		return "", err
	}
	return c.Path(filepath.Join(Dir, id))
}

// LoadPatch reads a mutant's patch.
func LoadPatch(c *pipeline.Candidate, id string) ([]byte, error) {
	dir, err := MutantDir(c, id)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(dir, PatchFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("candidate %s: mutant %s has no patch: %w", c.ID, id, err)
	}
	return b, err
}
