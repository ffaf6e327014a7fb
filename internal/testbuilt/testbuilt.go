// Package testbuilt makes a sample candidate (internal/testcand) look built
// without Docker: the PR is split as the build stage splits it,
// build/build.json records the commits and the test paths, the patches are
// written, status.json says the build passed, and the Harbor task is
// written from them with a stand-in FAIL_TO_PASS list and grader. It serves
// the tests of what reads a built task (spec, export); product code never
// imports it.
package testbuilt

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/lolbench/lolbench/internal/testcand"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/harbor"
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/build"
)

// FailToPass is the stand-in FAIL_TO_PASS list of the task.
var FailToPass = []string{"example.com/tinykv/store.TestTTL"}

// Build creates the workspace at dir with the sample's candidate, built.
// The sample must have a recipe.yaml.
func Build(dir string, s testcand.Spec) (*workspace.Workspace, *pipeline.Candidate, error) {
	ws, c, err := testcand.Build(dir, s)
	if err != nil {
		return nil, nil, err
	}
	info, err := c.LoadInfo()
	if err != nil {
		return nil, nil, err
	}
	repoDir, err := info.RepoPath(ws)
	if err != nil {
		return nil, nil, err
	}
	repo, err := diff.Open(repoDir)
	if err != nil {
		return nil, nil, err
	}
	base, head := info.PR.BaseSHA, info.PR.HeadSHA
	sp, err := build.Split(context.Background(), repo, base, head, info.Language)
	if err != nil {
		return nil, nil, err
	}
	r, err := recipe.Load(filepath.Join(s.Sample, "recipe.yaml"))
	if err != nil {
		return nil, nil, err
	}
	rec := build.Record{ID: c.ID, Project: info.Project, Repo: info.Repo, BaseCommit: base, HeadCommit: head,
		CreatedAt: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), Version: sandbox.EnvKey(r.Defaults(), base),
		Recipe: r.Defaults(), TestFiles: sp.TestFiles, TestPaths: sp.TestPaths,
		Report: &sandbox.Report{Command: "go test -json -count=1 ./...", Classification: sandbox.Classification{FailToPass: FailToPass, PassToPass: []string{}}},
		Task:   build.TaskDir}
	if err := os.MkdirAll(filepath.Join(c.Dir, build.Dir), 0o755); err != nil {
		return nil, nil, err
	}
	for name, data := range map[string][]byte{build.TestPatch: sp.TestPatch, build.SolutionFile: sp.Solution} {
		if err := workspace.WriteFile(filepath.Join(c.Dir, name), data, 0o644); err != nil {
			return nil, nil, err
		}
	}
	if err := workspace.WriteJSON(filepath.Join(c.Dir, build.RecordFile), rec); err != nil {
		return nil, nil, err
	}
	st := &pipeline.Status{Stages: map[string]*pipeline.StageStatus{"build": {Result: pipeline.Passed}}}
	if err := c.SaveStatus(st); err != nil {
		return nil, nil, err
	}
	epPath := filepath.Join(c.Dir, s.EPFile)
	f, err := ep.FormatFromPath(epPath)
	if err != nil {
		return nil, nil, err
	}
	doc, err := ep.Load(epPath, f)
	if err != nil {
		return nil, nil, err
	}
	grader := filepath.Join(dir, "lolbench-grade")
	if err := os.WriteFile(grader, []byte("#!/bin/sh\n"), 0o755); err != nil {
		return nil, nil, err
	}
	task := &harbor.Task{ID: c.ID, Project: info.Project, Repo: info.Repo, Language: info.Language, EPID: info.EP.ID, EPTitle: info.EP.Title,
		PRNumber: info.PR.Number, BaseCommit: base, EP: doc.Source, EPFormat: string(doc.Format), Recipe: rec.Recipe,
		Tree: sandbox.GitTree{Repo: repo, Commit: base}, TestPatch: sp.TestPatch, Solution: sp.Solution, TestPaths: sp.TestPaths,
		FailToPass: FailToPass, Report: rec.Report, Grader: grader}
	if err := harbor.Write(filepath.Join(c.Dir, build.TaskDir), task); err != nil {
		return nil, nil, err
	}
	return ws, c, nil
}
