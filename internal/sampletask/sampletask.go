// Package sampletask turns a sample project under data/samples (base/ and
// pr/ folders, recipe.yaml, mapping.md) into what the enhancement stages
// work from: the git repository, the change, the reference solution and
// the test patch, split as the build stage splits a PR. It is a test
// helper; product code never imports it.
package sampletask

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/lolbench/lolbench/internal/testrepo"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
	"github.com/lolbench/lolbench/pipeline/syntax"
)

// Task is a sample as a task.
type Task struct {
	Name       string
	Sample     string // the sample folder
	Dir        string // the repository
	Repo       *diff.Repo
	Base, Head string
	Recipe     recipe.Recipe // defaults applied
	Language   string
	Change     *diff.Change
	Solution   *mutation.Solution
	// SolutionPatch and TestPatch are the split PR; TestFiles the test
	// files that feed the selection.
	SolutionPatch, TestPatch []byte
	TestFiles                []string
	Selection                []string
	Scopes                   *syntax.Result
	// Mapping is the sample's mapping.md, nil when it has none.
	Mapping *mapping.Mapping
}

// Load builds data/samples/<name> below root (the module root) into a
// repository at dir/<name>.
func Load(ctx context.Context, root, dir, name string) (*Task, error) {
	src := filepath.Join(root, "data", "samples", name)
	t := &Task{Name: name, Sample: src, Dir: filepath.Join(dir, name)}
	if err := testrepo.Build(t.Dir,
		testrepo.Step{Overlay: filepath.Join(src, "base"), Tag: "base"},
		testrepo.Step{Overlay: filepath.Join(src, "pr"), Tag: "head"}); err != nil {
		return nil, fmt.Errorf("build %s: %w", t.Dir, err)
	}
	var err error
	if t.Repo, err = diff.Open(t.Dir); err != nil {
		return nil, err
	}
	if t.Base, err = t.Repo.Resolve("base"); err != nil {
		return nil, err
	}
	if t.Head, err = t.Repo.Resolve("head"); err != nil {
		return nil, err
	}
	rec, err := recipe.Load(filepath.Join(src, "recipe.yaml"))
	if err != nil {
		return nil, err
	}
	t.Recipe = rec.Defaults()
	if t.Change, err = t.Repo.Diff(ctx, t.Base, t.Head); err != nil {
		return nil, err
	}
	var testPaths, solPaths []string
	counts := map[string]int{}
	for _, f := range t.Change.Files {
		paths := []string{f.Path()}
		if f.Status == diff.Renamed {
			paths = []string{f.OldPath, f.NewPath}
		}
		if f.Category == lang.Test || f.Category == lang.TestData {
			testPaths = append(testPaths, paths...)
			if f.Category == lang.Test && f.Status != diff.Deleted {
				t.TestFiles = append(t.TestFiles, f.Path())
			}
			continue
		}
		solPaths = append(solPaths, paths...)
		if f.Category == lang.Source {
			counts[f.Language]++
		}
	}
	for l, n := range counts {
		if n > counts[t.Language] || n == counts[t.Language] && l < t.Language {
			t.Language = l
		}
	}
	sort.Strings(t.TestFiles)
	if t.TestPatch, err = t.Repo.Patch(ctx, t.Base, t.Head, testPaths...); err != nil {
		return nil, err
	}
	if t.SolutionPatch, err = t.Repo.Patch(ctx, t.Base, t.Head, solPaths...); err != nil {
		return nil, err
	}
	t.Selection = testcmd.Selection(t.Recipe, t.TestFiles)
	if t.Solution, err = mutation.LoadSolution(ctx, t.Repo, t.Change); err != nil {
		return nil, err
	}
	if t.Scopes, err = syntax.Resolve(ctx, t.Dir, t.Change, syntax.Options{Workers: 1}); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(src, "mapping.md")); err == nil {
		if t.Mapping, err = mapping.ParseFile(filepath.Join(src, "mapping.md")); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// Spec is the sandbox spec of the task's environment.
func (t *Task) Spec(task string) sandbox.Spec {
	return sandbox.Spec{Project: t.Name, Task: task, Base: t.Base, Recipe: t.Recipe, Tree: sandbox.GitTree{Repo: t.Repo, Commit: t.Base}}
}
