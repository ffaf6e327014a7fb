// Package build is the task-construction stage (paper §3.3, issue 6): it
// turns a retained candidate into an executable benchmark task. The PR is
// split into the test patch (its test files) and the reference solution
// (the rest); the repository at the PR's base commit becomes an offline
// environment (pipeline/sandbox); the tests run several times before and
// after the reference solution, and the task is kept only when the
// solution applies and at least one test fails before it and passes after
// it. The kept task is written in Harbor's format (pipeline/harbor).
//
// Outputs, in the candidate folder:
//
//	build/build.json          the record: lists, runs, rejection reason
//	build/test.patch          the PR's test files
//	build/solution.patch      the reference solution
//	build/logs/               image build logs, before/ and after/ run logs
//	task/                     the Harbor task (only when kept)
package build

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/harbor"
	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
	"github.com/lolbench/lolbench/pipeline/sectionmap"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// Files and folders the stage writes in a candidate folder.
const (
	Dir          = "build"
	RecordFile   = "build/build.json"
	TestPatch    = "build/test.patch"
	SolutionFile = "build/solution.patch"
	LogDir       = "build/logs"
	TaskDir      = "task"
	// RecipeFile is a candidate's own recipe, which wins over the
	// project's (a curator's override).
	RecipeFile = "recipe.yaml"
)

// Stage builds tasks.
type Stage struct {
	// Executor runs the environments; the CLI picks docker or local.
	Executor sandbox.Executor
	// Recipe finds a candidate's recipe when the candidate folder has no
	// recipe.yaml (the project registry's recipe); nil means none.
	Recipe func(info *pipeline.Info) (*recipe.Recipe, error)
	// IncludeUnreviewed builds a candidate that has not passed every gate
	// (Gates), and marks its task unreviewed with the gates it skipped.
	IncludeUnreviewed bool
	// Runs, when above 0, overrides the recipe's run count (lolbench build
	// --runs: a quick look; fewer runs catch fewer flaky tests).
	Runs int
	// Progress, when set, receives the progress of a candidate's test
	// runs while they go on (issue 13 §3: long builds talk).
	Progress func(id string, p sandbox.TestProgress)

	graderOnce sync.Once
	grader     string
	graderErr  error
}

// Name is the stage's name.
const Name = "build"

// Name implements pipeline.Stage.
func (*Stage) Name() string { return Name }

// String implements pipeline.Stage.
func (*Stage) String() string { return "building tasks" }

// Record is build/build.json.
type Record struct {
	ID         string    `json:"id"`
	Project    string    `json:"project"`
	Repo       string    `json:"repo"`
	BaseCommit string    `json:"base_commit"`
	HeadCommit string    `json:"head_commit"`
	CreatedAt  time.Time `json:"created_at"`
	// Version names the environment (layer 2): tasks with the same
	// version share it, as SWE-bench's version does.
	Version string        `json:"version"`
	Recipe  recipe.Recipe `json:"recipe"`
	// TestFiles are the PR's test files that feed the selection;
	// TestPaths every path the test patch touches.
	TestFiles []string `json:"test_files"`
	TestPaths []string `json:"test_paths"`
	// Sections are the EP's sections. Which F2P tests assert which of
	// them is the test-to-section map, sections.json (pipeline/sectionmap),
	// which the build writes from the mapping's rows.
	Sections []Section       `json:"sections"`
	Report   *sandbox.Report `json:"report"`
	Rejected string          `json:"rejected,omitempty"`
	Task     string          `json:"task,omitempty"`
	// Unreviewed is set when the task was built without passing every gate
	// (--include-unreviewed); SkippedGates says which and how they stood.
	Unreviewed   bool     `json:"unreviewed,omitempty"`
	SkippedGates []string `json:"skipped_gates,omitempty"`
}

// Gates are the stages a candidate must pass before a task is built from
// it (paper §3.2): the static rules, the semantic audits, the judge's
// Q >= 8.0 and the expert's review. A skipped gate is not a pass.
var Gates = []string{"validate", "audit", "rank", "review"}

// gateGaps lists the gates a candidate has not passed, with how each
// stands ("audit skipped: no LLM endpoint configured; ...").
func gateGaps(c *pipeline.Candidate) ([]string, error) {
	st, err := c.LoadStatus()
	if err != nil {
		return nil, err
	}
	var gaps []string
	for _, g := range Gates {
		s := st.Stages[g]
		switch {
		case s == nil:
			gaps = append(gaps, g+" not run")
		case s.Result != pipeline.Passed:
			gap := g + " " + string(s.Result)
			if s.Reason != "" {
				gap += ": " + s.Reason
			}
			gaps = append(gaps, gap)
		}
	}
	return gaps, nil
}

// Section is one EP section in the record.
type Section struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// Inputs implements pipeline.CandidateStage.
func (s *Stage) Inputs(env *pipeline.Env, c *pipeline.Candidate) (pipeline.Inputs, error) {
	in := pipeline.Inputs{Files: []string{pipeline.InfoFile, RecipeFile, pipeline.MappingFile}}
	info, err := c.LoadInfo()
	if err != nil {
		return in, err
	}
	if info.EP.File != "" {
		in.Files = append(in.Files, info.EP.File)
	}
	if s.Executor != nil {
		in.Params = append(in.Params, "executor "+s.Executor.Name())
	}
	// The gates' standing is an input: a gate passing later rebuilds the
	// task without the unreviewed mark.
	gaps, err := gateGaps(c)
	if err != nil {
		return in, err
	}
	in.Params = append(in.Params, fmt.Sprintf("gates %q include-unreviewed %v", gaps, s.IncludeUnreviewed))
	if r, err := s.recipeFor(c, info); err == nil {
		in.Params = append(in.Params, fmt.Sprintf("recipe %+v", *r))
		if r.HostPaths() {
			// A changed host file (a wheel, a requirement file) rebuilds
			// the task, as it renames layer 2 (issue 13 §2).
			key := "unreadable"
			if files, err := r.HostFiles(); err == nil {
				if k, err := r.HostFilesKey(files); err == nil {
					key = k
				}
			}
			in.Params = append(in.Params, "host files "+key)
		}
	}
	if s.Runs > 0 {
		in.Params = append(in.Params, fmt.Sprintf("runs %d", s.Runs))
	}
	return in, nil
}

func (s *Stage) recipeFor(c *pipeline.Candidate, info *pipeline.Info) (*recipe.Recipe, error) {
	p := filepath.Join(c.Dir, RecipeFile)
	if _, err := os.Stat(p); err == nil {
		r, err := recipe.Load(p)
		if err != nil {
			return nil, err
		}
		// collect copies the project's recipe here; the copy's host paths
		// stay relative to the registry's folder (docs/projects.md), while
		// a curator's own recipe.yaml keeps its folder.
		if r.HostPaths() && s.Recipe != nil {
			if reg, err := s.Recipe(info); err == nil && reg != nil && reg.SameAs(r) {
				r.Dir = reg.Dir
			}
		}
		return r, nil
	}
	if s.Recipe != nil {
		r, err := s.Recipe(info)
		if err != nil {
			return nil, err
		}
		if r != nil {
			if err := r.Validate(); err != nil {
				return nil, fmt.Errorf("recipe of project %s: %w", info.Project, err)
			}
			return r, nil
		}
	}
	return nil, fmt.Errorf("candidate %s has no recipe: give project %s a recipe in the registry (docs/projects.md, \"Recipes\") or put one in %s", c.ID, info.Project, p)
}

// Run implements pipeline.CandidateStage.
func (s *Stage) Run(ctx context.Context, env *pipeline.Env, c *pipeline.Candidate) error {
	if s.Executor == nil {
		return errors.New("build: no executor")
	}
	gaps, err := gateGaps(c)
	if err != nil {
		return err
	}
	if len(gaps) > 0 && !s.IncludeUnreviewed {
		return pipeline.Skip("not built: gates not passed (%s); a skipped gate is not a pass: pass them, or build with --include-unreviewed", strings.Join(gaps, "; "))
	}
	info, err := c.LoadInfo()
	if err != nil {
		return err
	}
	rec, err := s.recipeFor(c, info)
	if err != nil {
		return err
	}
	r := rec.Defaults()
	if !r.HostPaths() {
		// The recipe's folder locates host files only; without them it is
		// a host path that the record need not carry.
		r.Dir = ""
	}
	if s.Runs > 0 {
		r.Runs = s.Runs
	}
	// The last build's runs say how many tests to expect, before it is
	// replaced.
	known := knownTests(c)
	repoDir, err := info.RepoPath(env.Workspace)
	if err != nil {
		return err
	}
	repo, err := diff.Open(repoDir)
	if err != nil {
		return fmt.Errorf("candidate %s: %w", c.ID, err)
	}
	base, err := repo.Resolve(info.PR.BaseSHA)
	if err != nil {
		return fmt.Errorf("candidate %s: base %q: %w", c.ID, info.PR.BaseSHA, err)
	}
	head, err := repo.Resolve(info.PR.HeadSHA)
	if err != nil {
		return fmt.Errorf("candidate %s: head %q: %w", c.ID, info.PR.HeadSHA, err)
	}
	sp, err := Split(ctx, repo, base, head, info.Language)
	if err != nil {
		return fmt.Errorf("candidate %s: %w", c.ID, err)
	}
	// The Go toolchain is settled once, here, so that the record, every
	// later stage and the Harbor task use the same release (issue 31 §1).
	logs := filepath.Join(c.Dir, LogDir)
	if r, err = sandbox.ResolveGo(ctx, r, info.Language, sandbox.GitTree{Repo: repo, Commit: base}, logs, env.Status); err != nil {
		return fmt.Errorf("candidate %s: environment: %w", c.ID, err)
	}
	record := &Record{ID: c.ID, Project: info.Project, Repo: info.Repo, BaseCommit: base, HeadCommit: head,
		CreatedAt: info.PR.CreatedAt, Recipe: r, TestFiles: sp.TestFiles, TestPaths: sp.TestPaths,
		Unreviewed: len(gaps) > 0, SkippedGates: gaps}
	record.Version = sandbox.EnvKey(r, base)
	var epDoc *ep.Document
	if info.EP.File != "" {
		if p, err := c.Path(info.EP.File); err == nil {
			if f, ferr := ep.FormatFromPath(p); ferr == nil {
				if d, err := ep.Load(p, f); err == nil {
					epDoc = d
					for _, sec := range d.Sections {
						record.Sections = append(record.Sections, Section{ID: sec.ID, Title: sec.Title})
					}
				}
			}
		}
	}
	for _, p := range []string{Dir, LogDir} {
		if err := os.MkdirAll(filepath.Join(c.Dir, p), 0o755); err != nil {
			return err
		}
	}
	if err := workspace.WriteFile(filepath.Join(c.Dir, TestPatch), sp.TestPatch, 0o644); err != nil {
		return err
	}
	if err := workspace.WriteFile(filepath.Join(c.Dir, SolutionFile), sp.Solution, 0o644); err != nil {
		return err
	}
	os.RemoveAll(filepath.Join(c.Dir, TaskDir))
	reject := func(reason string) error {
		record.Rejected = reason
		if err := workspace.WriteJSON(filepath.Join(c.Dir, RecordFile), record); err != nil {
			return err
		}
		return pipeline.Reject("%s", reason)
	}
	switch {
	case len(sp.TestPatch) == 0:
		return reject("the PR changes no test file: nothing could check a solution")
	case len(sp.Solution) == 0:
		return reject("the PR changes only test files: there is no solution to implement")
	}
	os.RemoveAll(filepath.Join(logs, sandbox.Before))
	os.RemoveAll(filepath.Join(logs, sandbox.After))
	spec := sandbox.Spec{Project: info.Project, Task: c.ID, Base: base, Recipe: r,
		Tree: sandbox.GitTree{Repo: repo, Commit: base}, LogDir: logs, Status: env.Status}
	if spec.Project == "" {
		spec.Project = c.ID
	}
	// What the recipe brings from the host (issue 13 §2), made once for the
	// image and the Harbor task's environment/deps/.
	deps, err := sandbox.PrepareDeps(ctx, r, spec.Tree, logs, env.Status)
	if err != nil {
		return fmt.Errorf("candidate %s: environment: %w", c.ID, err)
	}
	defer deps.Close()
	spec.Deps = deps
	senv, err := s.Executor.Prepare(ctx, spec)
	if err != nil {
		return fmt.Errorf("candidate %s: environment: %w", c.ID, err)
	}
	defer senv.Close()
	grader, err := s.graderPath(ctx, env)
	if err != nil {
		return err
	}
	plan := sandbox.Plan{Recipe: r, Selection: testcmd.Selection(r, sp.TestFiles), Language: info.Language,
		TestPatch: sp.TestPatch, Solution: sp.Solution, Grader: grader, Known: known}
	if s.Progress != nil {
		plan.Progress = func(p sandbox.TestProgress) { s.Progress(c.ID, p) }
	}
	rep, err := sandbox.Validate(ctx, senv, plan, logs, env.Status)
	if err != nil {
		return fmt.Errorf("candidate %s: %w", c.ID, err)
	}
	record.Report = rep
	if rep.Rejected != "" {
		return reject(rep.Rejected)
	}
	// Honest lists (issue 36 §2): no test is fail-to-pass only because
	// its package did not build before, and every test of the PR passes
	// after the reference solution, or the build says which do not.
	src := sectionmap.Source(repo, head, sp.TestFiles)
	tc, err := changedTests(ctx, repoDir, sp.Change, sp.TestFiles)
	if err != nil {
		return fmt.Errorf("candidate %s: %w", c.ID, err)
	}
	regradeNotBuilt(rep, notBuiltBefore(rep, r.Test.Format, src, tc))
	if env.Status != nil {
		for _, line := range excludedLines(rep) {
			fmt.Fprintf(env.Status, "%s: %s\n", c.ID, line)
		}
	}
	if failing := withoutKnown(failingPRTests(rep, r.Test.Format, src), r.Test.KnownFailures); len(failing) > 0 {
		return reject(fmt.Sprintf("%d of the PR's tests do not pass after the reference solution in any run: %s (logs in %s; a test that cannot pass in the sandbox whatever the solution goes in the recipe's test.known_failures)",
			len(failing), listSome(failing, 10), filepath.ToSlash(filepath.Join(c.Dir, LogDir, sandbox.After))))
	}
	if len(rep.FailToPass) == 0 {
		return reject(fmt.Sprintf("no fail-to-pass test: the %d that failed before the reference solution did so only because their package did not build (%s)",
			len(rep.NotBuiltBefore), listSome(rep.NotBuiltBefore, 10)))
	}
	// The first test-to-section map rests on the mapping's rows alone;
	// mutate adds the kill and coverage evidence (pipeline/sectionmap).
	smap := &sectionmap.Map{}
	if m, err := mapping.ParseFile(filepath.Join(c.Dir, pipeline.MappingFile)); err == nil {
		smap = sectionmap.Compute(Name, sectionmap.Input{Tests: rep.FailToPass, Sections: m.TaskSections(),
			Rows: sectionmap.RowsOf(repo, head, m, r.Test.Format, sp.TestFiles, rep.FailToPass)})
		if why := completesNothing(smap, rep.FailToPass); why != "" {
			return reject(why)
		}
		if err := sectionmap.Save(c, smap, true); err != nil {
			return err
		}
	} else {
		os.Remove(filepath.Join(c.Dir, sectionmap.File))
	}
	var epText []byte
	epFormat := ""
	if epDoc != nil {
		epText, epFormat = epDoc.Source, string(epDoc.Format)
	}
	t := &harbor.Task{
		ID: c.ID, Project: info.Project, Repo: info.Repo, Language: info.Language, Domain: info.Domain,
		EPID: info.EP.ID, EPTitle: info.EP.Title, PRNumber: info.PR.Number, PRURL: info.PR.URL, BaseCommit: base,
		EP: epText, EPFormat: epFormat, Recipe: r, Tree: spec.Tree,
		TestPatch: sp.TestPatch, Solution: sp.Solution, TestPaths: sp.TestPaths, Selection: plan.Selection,
		FailToPass: rep.FailToPass, PassToPass: rep.PassToPass, Sections: smap.F2PSections(), Implementable: smap.SectionIDs(), Untested: smap.Untested,
		Report: rep, Grader: grader, SkippedGates: gaps, Deps: deps,
	}
	if err := harbor.Write(filepath.Join(c.Dir, TaskDir), t); err != nil {
		return err
	}
	record.Task = TaskDir
	if err := workspace.WriteJSON(filepath.Join(c.Dir, RecordFile), record); err != nil {
		return err
	}
	if env.Status != nil {
		fmt.Fprintf(env.Status, "%s: %s\n", c.ID, rep.Summary())
		if smap.Reference.Total > 0 {
			fmt.Fprintf(env.Status, "%s: %s\n", c.ID, smap.Summary())
			fmt.Fprintf(env.Status, "%s: %s\n", c.ID, smap.PerSection())
		}
	}
	return nil
}

// knownTests is how many tests each side's last run reported in the
// candidate's last build, canaries included; nil when there was none.
func knownTests(c *pipeline.Candidate) map[string]int {
	rec, err := LoadRecord(c)
	if err != nil || rec.Report == nil {
		return nil
	}
	known := map[string]int{}
	for _, sd := range []sandbox.Side{rec.Report.Before, rec.Report.After} {
		if len(sd.Runs) == 0 {
			continue
		}
		// The progress counts the planted canaries too: they are tests.
		last := sd.Runs[len(sd.Runs)-1]
		known[sd.Name] = last.Canaries
		for _, n := range last.Counts {
			known[sd.Name] += n
		}
	}
	return known
}

// graderPath builds lolbench-grade once per stage, into the workspace's
// cache/ folder (the Go build cache makes a rebuild cheap).
func (s *Stage) graderPath(ctx context.Context, env *pipeline.Env) (string, error) {
	s.graderOnce.Do(func() {
		dir, err := env.Workspace.Path("cache")
		if err == nil {
			err = os.MkdirAll(dir, 0o755)
		}
		if err != nil {
			s.graderErr = err
			return
		}
		s.grader = filepath.Join(dir, "lolbench-grade-linux-"+runtime.GOARCH)
		getenv := env.Getenv
		if getenv == nil {
			getenv = os.Getenv
		}
		s.graderErr = sandbox.BuildGrader(ctx, getenv, runtime.GOARCH, s.grader)
	})
	return s.grader, s.graderErr
}

// LoadRecord reads a candidate's build/build.json.
func LoadRecord(c *pipeline.Candidate) (*Record, error) {
	return pipeline.ReadArtifact[Record](c, RecordFile)
}

// SplitPR is a PR split into test patch and reference solution.
type SplitPR struct {
	TestPatch, Solution []byte
	// TestFiles are the test files (lang.Test) of the candidate's language
	// (or its family: lang.SameFamily) that exist after the PR: they feed
	// the test selection.
	TestFiles []string
	// TestPaths are all paths of the test patch.
	TestPaths []string
	// Change is the PR's whole change.
	Change *diff.Change
}

// Split splits a PR: files of category lang.Test, lang.TestData and
// lang.Vendor make the test patch, every other file the reference solution
// (a renamed file's two paths go to the side of its new path). Vendored
// code goes with the tests: the verifier resets it as test infrastructure
// (a vendored test library could be made to pass anything), so the PR's
// vendored changes are part of what it puts in place. So do the files it
// resets whole as test configuration (lang.TestInfra): the CMakeLists.txt
// of a test folder declares the PR's new test programs.
func Split(ctx context.Context, repo *diff.Repo, base, head, language string) (*SplitPR, error) {
	ch, err := repo.Diff(ctx, base, head)
	if err != nil {
		return nil, err
	}
	sp := &SplitPR{TestFiles: []string{}, TestPaths: []string{}, Change: ch}
	var solPaths []string
	for _, f := range ch.Files {
		paths := []string{f.Path()}
		if f.Status == diff.Renamed {
			paths = []string{f.OldPath, f.NewPath}
		}
		if f.Category != lang.Test && f.Category != lang.TestData && f.Category != lang.Vendor && !lang.TestInfra(f.Path(), nil).Whole {
			solPaths = append(solPaths, paths...)
			continue
		}
		sp.TestPaths = append(sp.TestPaths, paths...)
		if f.Category == lang.Test && f.Status != diff.Deleted {
			l := lang.ForPath(f.Path())
			if language == "" || (l != nil && lang.SameFamily(l.Name, language)) {
				sp.TestFiles = append(sp.TestFiles, f.Path())
			}
		}
	}
	sort.Strings(sp.TestFiles)
	sort.Strings(sp.TestPaths)
	if len(sp.TestPaths) > 0 {
		if sp.TestPatch, err = repo.Patch(ctx, base, head, sp.TestPaths...); err != nil {
			return nil, err
		}
	}
	if len(solPaths) > 0 {
		if sp.Solution, err = repo.Patch(ctx, base, head, solPaths...); err != nil {
			return nil, err
		}
	}
	return sp, nil
}
