package augment

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/harbor"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/sectionmap"
	"github.com/lolbench/lolbench/stages/build"
)

// writeTask rewrites the candidate's Harbor task from the build record
// with the added tests: the verifier applies the original test patch and
// then the added one (new files only, so the two never overlap), checks
// the longer FAIL_TO_PASS list, and grades sections with the
// test-to-section map. It is written from the build's record each time, so
// a rerun never stacks additions.
func (a *augmenter) writeTask(added []byte) error {
	t, rep := a.t, a.rep
	taskDir := filepath.Join(t.c.Dir, build.TaskDir)
	grader := filepath.Join(taskDir, filepath.FromSlash(harbor.GraderBin))
	bin, err := os.ReadFile(grader)
	if errors.Is(err, fs.ErrNotExist) {
		rep.Notes = append(rep.Notes, "no Harbor task folder to rewrite (task/); run lolbench build --force "+t.c.ID)
		return nil
	}
	if err != nil {
		return err
	}
	// The grader is read from the folder being replaced: keep a copy.
	tmp, err := os.CreateTemp("", "lolbench-grade-")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(bin); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	smap := rep.Map
	if smap == nil {
		smap = &sectionmap.Map{}
	}
	testPaths := append([]string{}, t.rec.TestPaths...)
	testPaths = append(testPaths, rep.AddedFiles...)
	sort.Strings(testPaths)
	var epText []byte
	epFormat := ""
	if t.epDoc != nil {
		epText, epFormat = t.epDoc.Source, string(t.epDoc.Format)
	}
	info := t.info
	task := &harbor.Task{
		ID: t.c.ID, Project: info.Project, Repo: info.Repo, Language: info.Language, Domain: info.Domain,
		EPID: info.EP.ID, EPTitle: info.EP.Title, PRNumber: info.PR.Number, PRURL: info.PR.URL, BaseCommit: t.base,
		EP: epText, EPFormat: epFormat, Recipe: t.recipe, Tree: sandbox.GitTree{Repo: t.repo, Commit: t.base},
		TestPatch: joinPatches(t.testPatch, added), Solution: t.solution, TestPaths: testPaths,
		Selection: t.finalSelection(rep.AddedFiles), FailToPass: rep.FailToPass, PassToPass: t.rec.Report.PassToPass,
		Sections: smap.F2PSections(), Implementable: smap.SectionIDs(), Untested: smap.Untested, Report: t.rec.Report, Grader: tmp.Name(),
		SkippedGates: t.rec.SkippedGates,
	}
	if err := harbor.Write(taskDir, task); err != nil {
		return fmt.Errorf("candidate %s: %w", t.c.ID, err)
	}
	return nil
}

// Final is a task's tests after augmentation, as the export writes them.
type Final struct {
	// TestPatch is the original test patch followed by the added one.
	TestPatch []byte
	// Added is the added tests' patch alone (empty when none).
	Added      []byte
	FailToPass []string
}

// ErrStale says the augment report was made from an earlier build of the
// task (its original F2P list is not the build's): the export then uses
// the build's lists until lolbench augment runs again.
var ErrStale = errors.New("the augment report is older than the task's build")

// LoadFinal reads what the augment stage left for a built candidate. It
// returns an error wrapping fs.ErrNotExist when the stage has not run, and
// one wrapping ErrStale when the task was rebuilt since.
func LoadFinal(c *pipeline.Candidate) (*Final, error) {
	rep, err := LoadReport(c)
	if err != nil {
		return nil, err
	}
	rec, err := build.LoadRecord(c)
	if err != nil {
		return nil, err
	}
	if rec.Report == nil || !sameSet(rec.Report.FailToPass, rep.OriginalF2P) {
		return nil, fmt.Errorf("candidate %s: %w; run lolbench augment %s", c.ID, ErrStale, c.ID)
	}
	orig, err := os.ReadFile(filepath.Join(c.Dir, build.TestPatch))
	if err != nil {
		return nil, err
	}
	f := &Final{FailToPass: rep.FailToPass, TestPatch: orig}
	if rep.TestPatch != "" {
		p, err := c.Path(rep.TestPatch)
		if err != nil {
			return nil, err
		}
		if f.Added, err = os.ReadFile(p); err != nil {
			return nil, fmt.Errorf("candidate %s: %w", c.ID, err)
		}
		f.TestPatch = joinPatches(orig, f.Added)
	}
	return f, nil
}

func sameSet(a, b []string) bool {
	x, y := uniqueSorted(a), uniqueSorted(b)
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}
