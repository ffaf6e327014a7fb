package mutate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/stages/build"
)

// RestrictedDir holds the jobs of RunRestricted in the candidate folder.
const RestrictedDir = "dag/restricted"

// Restriction is one run of the reference solution restricted to Keep
// (every other mapped section reverted, mutation.Restrict).
type Restriction struct {
	Name string
	Keep []string
}

// RestrictedOutcome is what one restricted run found: the F2P tests'
// outcomes, or, when the run could not judge them, why (the patch did not
// apply, the code or its tests do not build); its F2P tests then cannot
// pass.
type RestrictedOutcome struct {
	Name   string
	F2P    map[string]mutation.Outcome
	Failed string
}

// RunRestricted runs each restriction in the built task's environment, one
// job each with the task's test patch, every test run once and the F2P
// tests judged (P2P failures are expected: sections are missing). It is
// the section graph's discriminativeness check (issue 35 §2).
func RunRestricted(ctx context.Context, env *pipeline.Env, c *pipeline.Candidate, exec sandbox.Executor, rs []Restriction) ([]RestrictedOutcome, error) {
	rec, err := build.LoadRecord(c)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("candidate %s is not built: run lolbench build %s", c.ID, c.ID)
	}
	if err != nil {
		return nil, err
	}
	if rec.Rejected != "" || rec.Report == nil || len(rec.Report.FailToPass) == 0 {
		return nil, fmt.Errorf("candidate %s: the task was not built (%s)", c.ID, orText(rec.Rejected, "no F2P tests"))
	}
	t, err := loadTask(ctx, env, c, rec)
	if err != nil {
		return nil, err
	}
	if t.mapping == nil {
		return nil, fmt.Errorf("candidate %s has no %s", c.ID, pipeline.MappingFile)
	}
	dir := filepath.Join(c.Dir, filepath.FromSlash(RestrictedDir))
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	spec := sandbox.Spec{Project: t.info.Project, Task: c.ID, Base: rec.BaseCommit, Recipe: rec.Recipe,
		Tree: sandbox.GitTree{Repo: t.repo, Commit: rec.BaseCommit}, LogDir: filepath.Join(dir, "env"), Status: env.Status}
	if spec.Project == "" {
		spec.Project = c.ID
	}
	senv, err := exec.Prepare(ctx, spec)
	if err != nil {
		return nil, fmt.Errorf("candidate %s: environment: %w", c.ID, err)
	}
	defer senv.Close()
	rn := &runner{env: senv, recipe: mutantRecipe(rec), selection: rec.Report.Selection, testPatch: t.testPatch,
		f2p: rec.Report.FailToPass, p2p: rec.Report.PassToPass, f2pOnly: true}
	if adapter, err := coverage.AdapterFor(rec.Recipe, t.info.Language); err == nil {
		rn.adapter = adapter
		rn.build = rec.Recipe.Build
		if rn.build == "" {
			rn.build = adapter.BuildCheck(t.buildFiles())
		}
	}
	var out []RestrictedOutcome
	for _, r := range rs {
		rv := mutation.Restrict(t.sol, t.owners, r.Keep)
		m := &mutation.Mutant{ID: "restricted-" + mutation.Slug(r.Name), Status: mutation.Pending}
		res := RestrictedOutcome{Name: r.Name}
		if rv.Invalid != "" {
			res.Failed = "the restricted Go code does not parse: " + rv.Invalid
			out = append(out, res)
			continue
		}
		patches, err := mutation.Prepare(ctx, t.sol, []mutation.Candidate{{Mutant: m, Edit: rv.Edit}}, "")
		if err != nil {
			return nil, fmt.Errorf("candidate %s: restricted to %v: %w", c.ID, r.Keep, err)
		}
		o, err := rn.run(ctx, m, patches[0], filepath.Join(dir, mutation.Slug(r.Name)))
		if err != nil {
			return nil, err
		}
		if o.drop != "" {
			res.Failed = o.reason
		}
		res.F2P = o.f2p
		out = append(out, res)
	}
	return out, nil
}
