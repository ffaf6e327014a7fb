package sectionmap

import (
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/harbor"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// File is the map in a candidate folder.
const File = "sections.json"

// Load reads a candidate's map; the error wraps fs.ErrNotExist when no
// stage has written one.
func Load(c *pipeline.Candidate) (*Map, error) {
	return pipeline.ReadArtifact[Map](c, File)
}

// Save writes m as the candidate's map. When fresh is false and the map it
// replaces grades otherwise, m records that map's stage and reference
// figures as Previous (the report shows both); when it grades alike, m
// keeps the Previous of the map it replaces. fresh starts a new history (a
// new build of the task).
func Save(c *pipeline.Candidate, m *Map, fresh bool) error {
	if !fresh {
		old, err := Load(c)
		switch {
		case err == nil && !SameGrading(old, m):
			m.Previous = &Previous{Stage: old.Stage, Reference: old.Reference}
		case err == nil:
			m.Previous = old.Previous
		case !errors.Is(err, fs.ErrNotExist):
			return err
		}
	}
	return workspace.WriteJSON(filepath.Join(c.Dir, File), m)
}

// Regrade saves m as the candidate's map (keeping the history, see Save)
// and regrades the task folder at taskDir with it, so that verify, the
// Harbor task and everything exported from it grade by m.
func Regrade(c *pipeline.Candidate, m *Map, taskDir string) error {
	if err := Save(c, m, false); err != nil {
		return err
	}
	return harbor.SetSections(taskDir, m.F2PSections(), m.SectionIDs(), m.Untested)
}
