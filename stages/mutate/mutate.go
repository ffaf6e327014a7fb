// Package mutate is the mutation stage of phase 4 (issue 7; LoLBench paper,
// Table 8): it measures the coverage of the reference solution by the
// task's tests, makes mutants of the solution, filters them and runs the
// original F2P suite on the survivors to build the kill matrix and the
// mutation score per method.
//
// Methods (pipeline/mutation): mapped-section revert and the syntax
// operators need no model and always run; Section Revert, Requirement
// Mismatch and Semantic Mutation ask the LLM, and without an endpoint the
// stage records a skip line for them and goes on.
//
// Filters, in order: a mutant equal to the reference or to an earlier
// mutant is a duplicate; an LLM mutant must be confirmed by the judge
// (paper, section 3.4: its edits omit or break what its record claims);
// its patch must apply at the base commit; the build check must pass
// (recipe build, or the language default); every P2P test must pass. Each
// mutant that gets through is run against the original F2P tests: a
// failing, erroring or absent test kills it. A mutant whose lines no test
// executes (the reference solution's coverage) runs no test and is
// "uncovered": valid, but not a survivor in the mutation score. Where the
// coverage adapter gives per-test coverage, each mutant's job runs every
// F2P test (its kill matrix row is a full run's) and only the P2P tests
// that execute a line it changes (PIT's test selection, issue 32 §2): a
// test that does not reach the mutation cannot fail because of it; the
// report counts the test runs saved. Per-test coverage itself is measured
// only for the F2P tests and the tests a reach run saw run a changed file
// (pipeline/coverage.Reacher).
//
// A mapped-section revert that fails the build check or the P2P tests
// (other sections import what it removes) is retried once as a stub
// revert (mutation.StubReverts), which keeps the section's signatures
// with bodies that fail; its record says why in "retry", and the plain
// revert's logs stay in logs-plain/.
//
// The report gives the paper's three EP-level methods' score on its own
// (ep_level) and lists the LLM mutants the judge kept, for review.
//
// Outputs, in the candidate folder:
//
//	coverage/coverage.json     line coverage of the executable added lines (pipeline/coverage)
//	coverage/logs/             the coverage job's output (reach/: the reach run's)
//	mutants/<id>/record.json   one mutant's record
//	mutants/<id>/mutant.patch  the mutant, a complete solution
//	mutants/<id>/logs/         its job's output
//	mutants/mutants.json       every record
//	mutants/matrix.json        the kill matrix
//	mutants/report.json        Table 8 for the task
package mutate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/harbor"
	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/sectionmap"
	"github.com/lolbench/lolbench/pipeline/syntax"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/build"
	"github.com/lolbench/lolbench/stages/evidence"
)

// Stage generates and runs mutants.
type Stage struct {
	// Executor runs the jobs; the CLI picks docker or local.
	Executor sandbox.Executor
	// LLM asks for the paper's three methods; nil means no endpoint (the
	// llm family is skipped with a reason).
	LLM *llm.Client
	// Families are the method families to run (mutation.Families); empty
	// means all.
	Families []string
	// Operators restricts the syntax operators (names); empty means all.
	Operators []string
	// MaxPerOperator caps the mutants of one operator per task (0: no cap),
	// sampled across files and functions (mutation.SpreadPerOperator), to
	// bound the runs on a large PR.
	MaxPerOperator int
	// Jobs is how many mutant jobs run at once; 0 means 1.
	Jobs int
	// AllTests runs every F2P and P2P test on every mutant, without the
	// selection by per-test coverage or the "uncovered" verdict (to check
	// that they change nothing, or where coverage is not trusted).
	AllTests bool
	// Sections restricts the LLM methods to these section ids; empty
	// means every mapped section that owns changed lines.
	Sections []string
	// Evidence are the prompt budgets of the LLM method.
	Evidence evidence.Options
	// Progress, when set, receives the progress of a candidate's coverage
	// runs: the reach run (sandbox.ReachSide), the whole suite under the
	// coverage tool, and the per-test run (sandbox.CoverageSide) (issue
	// 25 §2).
	Progress func(id string, p sandbox.TestProgress)
}

// Name implements pipeline.Stage.
func (*Stage) Name() string { return "mutate" }

// String implements pipeline.Stage.
func (*Stage) String() string { return "generating mutants" }

// scheme names the stage's algorithm in its fingerprint: a change to how
// mutants are made or run reruns it.
const scheme = "mutate 3"

func (s *Stage) families() []string {
	if len(s.Families) == 0 {
		return mutation.Families
	}
	return s.Families
}

func (s *Stage) operators() ([]*mutation.Operator, error) {
	if len(s.Operators) == 0 {
		return mutation.Registry, nil
	}
	var out []*mutation.Operator
	for _, n := range s.Operators {
		op := mutation.LookupOperator(n)
		if op == nil {
			return nil, fmt.Errorf("unknown syntax operator %q", n)
		}
		out = append(out, op)
	}
	return out, nil
}

// Inputs implements pipeline.CandidateStage.
func (s *Stage) Inputs(env *pipeline.Env, c *pipeline.Candidate) (pipeline.Inputs, error) {
	in := pipeline.Inputs{Files: []string{pipeline.InfoFile, pipeline.MappingFile, build.RecordFile, build.TestPatch, build.SolutionFile}}
	info, err := c.LoadInfo()
	if err != nil {
		return in, err
	}
	if info.EP.File != "" {
		in.Files = append(in.Files, info.EP.File)
	}
	ops, err := s.operators()
	if err != nil {
		return in, err
	}
	names := make([]string, len(ops))
	for i, op := range ops {
		names[i] = op.Name
	}
	in.Params = append(in.Params, scheme, "families "+strings.Join(s.families(), ","), "operators "+strings.Join(names, ","),
		fmt.Sprintf("max per operator %d", s.MaxPerOperator), fmt.Sprintf("all tests %v", s.AllTests))
	if s.Executor != nil {
		in.Params = append(in.Params, "executor "+s.Executor.Name())
	}
	if slices.Contains(s.families(), mutation.FamilyLLM) {
		in.Params = append(in.Params, evidence.ModelParam(s.LLM, "mutate"), "sections "+strings.Join(s.Sections, ","))
		ps, err := promptParams()
		if err != nil {
			return in, err
		}
		in.Params = append(in.Params, ps...)
		in.Params = append(in.Params, s.Evidence.Params()...)
	}
	return in, nil
}

// Run implements pipeline.CandidateStage.
func (s *Stage) Run(ctx context.Context, env *pipeline.Env, c *pipeline.Candidate) error {
	if s.Executor == nil {
		return errors.New("mutate: no executor")
	}
	status := env.Status
	if status == nil {
		status = io.Discard
	}
	rec, err := build.LoadRecord(c)
	if errors.Is(err, os.ErrNotExist) {
		return pipeline.Skip("no %s: run lolbench build %s first", build.RecordFile, c.ID)
	}
	if err != nil {
		return err
	}
	if rec.Rejected != "" || rec.Report == nil || len(rec.Report.FailToPass) == 0 {
		return pipeline.Skip("the task was not built (%s): nothing to mutate", orText(rec.Rejected, "no F2P tests"))
	}
	t, err := loadTask(ctx, env, c, rec)
	if err != nil {
		return err
	}
	for _, d := range []string{mutation.Dir, coverage.Dir} {
		if err := os.RemoveAll(filepath.Join(c.Dir, d)); err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(c.Dir, d), 0o755); err != nil {
			return err
		}
	}
	spec := sandbox.Spec{Project: t.info.Project, Task: c.ID, Base: rec.BaseCommit, Recipe: rec.Recipe,
		Tree: sandbox.GitTree{Repo: t.repo, Commit: rec.BaseCommit}, LogDir: filepath.Join(c.Dir, coverage.LogDir, "env"), Status: env.Status}
	if spec.Project == "" {
		spec.Project = c.ID
	}
	senv, err := s.Executor.Prepare(ctx, spec)
	if err != nil {
		return fmt.Errorf("candidate %s: environment: %w", c.ID, err)
	}
	defer senv.Close()

	// Coverage first: per-test coverage selects the tests of each mutant.
	fmt.Fprintf(status, "%s: measuring coverage of the reference solution\n", c.ID)
	covSpec := coverage.Spec{Recipe: rec.Recipe, Language: t.info.Language, Selection: rec.Report.Selection,
		Patches: []coverage.Patch{{Name: "test.patch", Data: t.testPatch}, {Name: "solution.patch", Data: t.solutionPatch}},
		Sources: t.sol.Sources(),
		Suites:  []coverage.SuiteSpec{{Name: coverage.F2P, Tests: rec.Report.FailToPass}, {Name: coverage.P2P, Tests: rec.Report.PassToPass}},
		Exists:  t.exists,
	}
	if s.Progress != nil {
		covSpec.Progress = func(p sandbox.TestProgress) { s.Progress(c.ID, p) }
		// The task's own verifier binary counts the tests in the log.
		if g := filepath.Join(c.Dir, build.TaskDir, filepath.FromSlash(harbor.GraderBin)); regularFile(g) {
			covSpec.Grader = g
		}
	}
	adapter, aerr := coverage.AdapterFor(rec.Recipe, t.info.Language)
	var cov *coverage.Result
	var covErr error
	if aerr != nil {
		covErr = aerr
	} else {
		start := time.Now()
		cov, covErr = coverage.Measure(ctx, senv, covSpec, filepath.Join(c.Dir, coverage.LogDir))
		fmt.Fprintf(status, "%s: coverage measured in %s\n", c.ID, time.Since(start).Round(time.Second))
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if covErr != nil {
		fmt.Fprintf(status, "%s: coverage: %v (every mutant runs every test)\n", c.ID, covErr)
		if err := workspace.WriteJSON(filepath.Join(c.Dir, coverage.ResultFile), &coverage.Result{Notes: []string{"coverage failed: " + covErr.Error()}}); err != nil {
			return err
		}
	} else {
		if err := workspace.WriteJSON(filepath.Join(c.Dir, coverage.ResultFile), cov); err != nil {
			return err
		}
		fmt.Fprintf(status, "%s: coverage %s\n", c.ID, covSummary(cov))
		if r := cov.Reach; r != nil {
			fmt.Fprintf(status, "%s: coverage: the reach run (%s) found %d of %d tests running a changed file, %d unseen; %d measured one by one\n", c.ID, r.Duration, r.Reached, r.Tests, r.Unseen, r.Measured)
		}
		if cov.Partial != "" {
			fmt.Fprintf(status, "%s: WARNING: coverage is PARTIAL: %s\n", c.ID, cov.Partial)
		}
	}

	// Generate.
	rep := &mutation.Report{}
	var cands []mutation.Candidate
	var ran []mutation.Method
	var notes []string
	for _, fam := range s.families() {
		switch fam {
		case mutation.FamilyRevert:
			ran = append(ran, mutation.MappedRevert)
			if t.mapping == nil {
				notes = append(notes, "revert: no "+pipeline.MappingFile+": mapped-section revert needs the mapping")
				continue
			}
			cands = append(cands, mutation.RevertCandidates(t.sol, t.owners)...)
		case mutation.FamilyOps:
			ran = append(ran, mutation.SyntaxOperator)
			ops, err := s.operators()
			if err != nil {
				return err
			}
			oc, n, err := mutation.OperatorCandidates(ctx, t.sol, t.owners, ops)
			if err != nil {
				return err
			}
			notes = append(notes, n...)
			cands = append(cands, mutation.SpreadPerOperator(oc, s.MaxPerOperator)...)
		case mutation.FamilyLLM:
			if s.LLM == nil {
				rep.Skipped = append(rep.Skipped, "llm: "+llm.ErrNoEndpoint.Error())
				fmt.Fprintf(status, "%s: skipped the LLM methods: %s\n", c.ID, llm.ErrNoEndpoint)
				continue
			}
			ran = append(ran, mutation.LLMMethods...)
			lc, skipped, err := s.llmCandidates(ctx, env, c, t)
			if err != nil {
				return err
			}
			rep.Skipped = append(rep.Skipped, skipped...)
			cands = append(cands, lc...)
		default:
			return fmt.Errorf("unknown method family %q (want %s)", fam, strings.Join(mutation.Families, ", "))
		}
	}
	fmt.Fprintf(status, "%s: %d mutant(s) generated\n", c.ID, len(cands))
	patches, err := mutation.Prepare(ctx, t.sol, cands, "")
	if err != nil {
		return fmt.Errorf("candidate %s: %w", c.ID, err)
	}
	if s.LLM != nil {
		if err := s.vet(ctx, env, c, t, cands); err != nil {
			return err
		}
	}
	mutants := make([]*mutation.Mutant, len(cands))
	for i, cd := range cands {
		mutants[i] = cd.Mutant
		if err := writePatch(c, cd.Mutant.ID, patches[i]); err != nil {
			return err
		}
	}

	// Run.
	rn := &runner{env: senv, recipe: mutantRecipe(rec), selection: rec.Report.Selection, testPatch: t.testPatch,
		f2p: rec.Report.FailToPass, p2p: rec.Report.PassToPass, adapter: adapter}
	if adapter != nil {
		rn.build = rec.Recipe.Build
		if rn.build == "" {
			rn.build = adapter.BuildCheck(t.buildFiles())
		}
		if covErr == nil && !s.AllTests {
			rn.cov = cov
			rn.plan = coverage.NewPlan(ctx, covSpec)
		}
	}
	if s.Progress != nil {
		rn.progress = func(p sandbox.TestProgress) { s.Progress(c.ID, p) }
		if covSpec.Grader != "" {
			if rn.grader, err = os.ReadFile(covSpec.Grader); err != nil {
				return fmt.Errorf("candidate %s: grader: %w", c.ID, err)
			}
		}
	}
	rep.Runs.Selective = rn.selective()
	outcomes := make([]*outcome, len(mutants))
	var todo []int
	for i, m := range mutants {
		if m.Status == mutation.Pending {
			todo = append(todo, i)
		}
	}
	if err := s.runAll(ctx, status, c, rn, mutants, patches, outcomes, todo); err != nil {
		return err
	}

	// A section revert that does not build or breaks the P2P tests
	// (other sections import what it removed) is retried as a stub
	// revert, which keeps the section's signatures.
	var retried []int
	for i, m := range mutants {
		o := outcomes[i]
		if m.Method != mutation.MappedRevert || o == nil || (o.drop != mutation.DropCompile && o.drop != mutation.DropP2P) {
			continue
		}
		sec := t.owners.Section(m.Section)
		if sec == nil {
			continue
		}
		sr, ok, err := mutation.StubReverts(ctx, t.sol, t.owners, *sec)
		if err != nil {
			return fmt.Errorf("candidate %s: %w", c.ID, err)
		}
		if !ok {
			continue
		}
		cd := mutation.StubCandidate(sr, m.ID, fmt.Sprintf("the plain revert was dropped (%s): %s", o.drop, o.reason))
		ps, err := mutation.Prepare(ctx, t.sol, []mutation.Candidate{cd}, "")
		if err != nil {
			return fmt.Errorf("candidate %s: %w", c.ID, err)
		}
		if cd.Mutant.Status != mutation.Pending {
			continue // identical to the reference solution
		}
		rep.Runs.Jobs += o.jobs // the plain revert's job(s)
		rep.Runs.Full += o.full
		rep.Runs.Executed += o.executed
		dir, _ := mutation.MutantDir(c, m.ID)
		if err := os.RemoveAll(filepath.Join(dir, mutation.LogDir+"-plain")); err != nil {
			return err
		}
		if err := os.Rename(filepath.Join(dir, mutation.LogDir), filepath.Join(dir, mutation.LogDir+"-plain")); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		if err := writePatch(c, m.ID, ps[0]); err != nil {
			return err
		}
		mutants[i], patches[i], outcomes[i] = cd.Mutant, ps[0], nil
		retried = append(retried, i)
		fmt.Fprintf(status, "%s: %s: %s; retrying as a stub revert (%d function(s) stubbed)\n", c.ID, m.ID, cd.Mutant.Retry, len(sr.Stubbed))
	}
	if len(retried) > 0 {
		if err := s.runAll(ctx, status, c, rn, mutants, patches, outcomes, retried); err != nil {
			return err
		}
	}

	matrix := mutation.NewMatrix(rec.Report.FailToPass)
	for i, m := range mutants {
		o := outcomes[i]
		if o == nil {
			continue
		}
		rep.Runs.Jobs += o.jobs
		rep.Runs.Full += o.full
		rep.Runs.Executed += o.executed
		switch {
		case o.drop != "":
			m.Status, m.Drop, m.Reason = mutation.Dropped, o.drop, o.reason
		case o.uncovered:
			m.Status, m.Reason = mutation.Uncovered, "no test executes the lines it changes"
		default:
			matrix.Add(m, o.f2p)
			m.KilledBy = matrix.KilledBy(m.ID)
			m.Status = mutation.Survived
			if len(m.KilledBy) > 0 {
				m.Status = mutation.Killed
			}
		}
	}
	rep.Runs.Saved = rep.Runs.Full - rep.Runs.Executed
	final := mutation.NewReport(c.ID, ran, mutants)
	final.Skipped, final.Runs = rep.Skipped, rep.Runs
	if len(final.Vetted) > 0 {
		fmt.Fprintf(status, "%s: %d LLM mutant(s) confirmed by the judge, listed for review in %s\n", c.ID, len(final.Vetted), mutation.ReportFile)
	}
	for _, m := range mutants {
		dir, _ := mutation.MutantDir(c, m.ID)
		if err := workspace.WriteJSON(filepath.Join(dir, mutation.RecordFile), m); err != nil {
			return err
		}
	}
	for _, n := range notes {
		fmt.Fprintf(status, "%s: note: %s\n", c.ID, n)
	}
	for _, w := range []struct {
		file string
		v    any
	}{{mutation.IndexFile, mutants}, {mutation.MatrixFile, matrix}, {mutation.ReportFile, final}} {
		if err := workspace.WriteJSON(filepath.Join(c.Dir, w.file), w.v); err != nil {
			return err
		}
	}
	fmt.Fprintf(status, "%s: %s; %s\n", c.ID, scoreLine(final), final.Runs)

	// The kill matrix is the first evidence of which sections each F2P
	// test asserts: the test-to-section map is rewritten with it, and the
	// task graded by it (issue 25).
	if t.mapping != nil {
		in := sectionmap.Input{Tests: rec.Report.FailToPass, Sections: t.mapping.TaskSections(),
			Rows: sectionmap.RowsOf(t.repo, rec.HeadCommit, t.mapping, rec.Recipe.Test.Format, rec.TestFiles, rec.Report.FailToPass)}
		if covErr != nil {
			cov = nil
		}
		in.AddMutants(&mutation.Set{Mutants: mutants, Matrix: matrix}, cov, t.owners)
		smap := sectionmap.Compute(s.Name(), in)
		if err := sectionmap.Regrade(c, smap, filepath.Join(c.Dir, build.TaskDir)); err != nil {
			return fmt.Errorf("candidate %s: %w", c.ID, err)
		}
		fmt.Fprintf(status, "%s: test-to-section map (%s): %s\n", c.ID, strings.Join(smap.Sources, ", "), smap.Summary())
		if line := smap.PerSection(); line != "" {
			fmt.Fprintf(status, "%s: %s\n", c.ID, line)
		}
	}
	return nil
}

// runAll runs the mutants of todo, Jobs at a time, into outcomes.
func (s *Stage) runAll(ctx context.Context, status io.Writer, c *pipeline.Candidate, rn *runner, mutants []*mutation.Mutant, patches [][]byte, outcomes []*outcome, todo []int) error {
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	next := make(chan int)
	done := 0
	for w := 0; w < max(s.Jobs, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				m := mutants[i]
				dir, _ := mutation.MutantDir(c, m.ID)
				o, err := rn.run(ctx, m, patches[i], filepath.Join(dir, mutation.LogDir))
				mu.Lock()
				done++
				if err != nil && firstErr == nil {
					firstErr = err
				}
				outcomes[i] = o
				if o != nil {
					fmt.Fprintf(status, "%s: [%d/%d] %s: %s\n", c.ID, done, len(todo), m.ID, o.summary())
				}
				mu.Unlock()
			}
		}()
	}
	for _, i := range todo {
		if ctx.Err() != nil {
			break
		}
		mu.Lock()
		stop := firstErr != nil
		mu.Unlock()
		if stop {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return fmt.Errorf("candidate %s: %w", c.ID, firstErr)
	}
	return ctx.Err()
}

// writePatch writes a mutant's patch into its folder.
func writePatch(c *pipeline.Candidate, id string, patch []byte) error {
	dir, err := mutation.MutantDir(c, id)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return workspace.WriteFile(filepath.Join(dir, mutation.PatchFile), patch, 0o644)
}

func (o *outcome) summary() string {
	if o.drop == mutation.DropP2P {
		return fmt.Sprintf("dropped (%s): %s (%s)", o.drop, o.reason, o.runs())
	}
	if o.drop != "" {
		return "dropped (" + string(o.drop) + "): " + o.reason
	}
	if o.uncovered {
		return "uncovered: no test executes the lines it changes"
	}
	var killers []string
	for t, x := range o.f2p {
		if x.Kills() {
			killers = append(killers, t)
		}
	}
	sort.Strings(killers)
	if len(killers) == 0 {
		return fmt.Sprintf("survived (%s)", o.runs())
	}
	return fmt.Sprintf("killed by %s (%s)", joinCut(killers, 3), o.runs())
}

// runs says how many tests the job ran: "11 of 17 tests run", or, after
// a rerun, "11 of 17 tests run, then all 17: a test process died".
func (o *outcome) runs() string {
	if o.jobs > 1 {
		return fmt.Sprintf("%d of %d tests run, then all %d: a test process died", o.executed-o.full, o.full, o.full)
	}
	return fmt.Sprintf("%d of %d tests run", o.executed, o.full)
}

func scoreLine(r *mutation.Report) string {
	t := r.Total
	score := "no mutant passed the P2P filter"
	if t.Scored {
		score = fmt.Sprintf("mutation score %.1f%%", 100*t.Score)
	}
	ep := "EP-level methods: none ran"
	switch {
	case r.EPLevel.Scored:
		ep = fmt.Sprintf("EP-level methods: %d of %d killed, %.1f%%", r.EPLevel.Killed, r.EPLevel.SurvivedP2P, 100*r.EPLevel.Score)
	case r.EPLevel.Generated > 0:
		ep = "EP-level methods: no mutant passed the P2P filter"
	}
	return fmt.Sprintf("%d generated, %d valid, %d uncovered, %d passed P2P, %d killed: %s; %s", t.Generated, t.Valid, t.Uncovered, t.SurvivedP2P, t.Killed, score, ep)
}

func covSummary(r *coverage.Result) string {
	var parts []string
	for _, s := range r.Suites {
		parts = append(parts, fmt.Sprintf("%s %d/%d (%.1f%%)", s.Name, s.Covered, s.Executable, s.Percent))
	}
	if len(parts) == 0 {
		return "(no suites)"
	}
	return strings.Join(parts, ", ")
}

func orText(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// mutantRecipe is the task's recipe with a run limit fit for mutants: ten
// times the reference run's duration and 60 s more, within the recipe's
// own limit. A mutant can loop forever; the reference's duration says how
// long a normal run takes. One run, no repeats: flakiness was settled by
// the build stage.
func mutantRecipe(rec *build.Record) (r recipe.Recipe) {
	r = rec.Recipe
	r.Runs = 1
	if rec.Report != nil && rec.Report.Runs > 0 && rec.Report.After.Duration > 0 {
		per := rec.Report.After.Duration / time.Duration(rec.Report.Runs)
		limit := int((10*per + 60*time.Second) / time.Second)
		if r.Limits.TimeoutSec == 0 || limit < r.Limits.TimeoutSec {
			r.Limits.TimeoutSec = limit
		}
	}
	return r
}

// task is what the stage loaded about a candidate.
type task struct {
	info                     *pipeline.Info
	repo                     *diff.Repo
	change                   *diff.Change
	sol                      *mutation.Solution
	scopes                   *syntax.Result
	mapping                  *mapping.Mapping
	owners                   *mutation.Owners
	testPatch, solutionPatch []byte
	testPaths                map[string]bool
}

func loadTask(ctx context.Context, env *pipeline.Env, c *pipeline.Candidate, rec *build.Record) (*task, error) {
	info, err := c.LoadInfo()
	if err != nil {
		return nil, err
	}
	t := &task{info: info, testPaths: map[string]bool{}}
	dir, err := info.RepoPath(env.Workspace)
	if err != nil {
		return nil, err
	}
	if t.repo, err = diff.Open(dir); err != nil {
		return nil, fmt.Errorf("candidate %s: %w", c.ID, err)
	}
	if t.change, err = t.repo.Diff(ctx, rec.BaseCommit, rec.HeadCommit); err != nil {
		return nil, fmt.Errorf("candidate %s: %w", c.ID, err)
	}
	if t.sol, err = mutation.LoadSolution(ctx, t.repo, t.change); err != nil {
		return nil, fmt.Errorf("candidate %s: %w", c.ID, err)
	}
	if t.scopes, err = syntax.Resolve(ctx, dir, t.change, syntax.Options{}); err != nil {
		return nil, fmt.Errorf("candidate %s: scopes: %w", c.ID, err)
	}
	if p, err := c.Path(pipeline.MappingFile); err == nil {
		if _, serr := os.Stat(p); serr == nil {
			m, err := mapping.ParseFile(p)
			if err != nil {
				return nil, fmt.Errorf("candidate %s: %w", c.ID, err)
			}
			t.mapping = m
		}
	}
	t.owners = mutation.NewOwners(t.mapping, t.scopes)
	for _, f := range []struct {
		name string
		into *[]byte
	}{{build.TestPatch, &t.testPatch}, {build.SolutionFile, &t.solutionPatch}} {
		p, err := c.Path(f.name)
		if err != nil {
			return nil, err
		}
		if *f.into, err = os.ReadFile(p); err != nil {
			return nil, fmt.Errorf("candidate %s: %w", c.ID, err)
		}
	}
	for _, p := range rec.TestPaths {
		t.testPaths[p] = true
	}
	return t, nil
}

// exists reports whether a path exists after the PR (a test id's file).
func (t *task) exists(p string) bool {
	if t.testPaths[p] {
		return true
	}
	_, err := t.repo.ReadFile(t.change.Head, p)
	return err == nil
}

// buildFiles are the solution's source files present after it, for the
// default build check.
func (t *task) buildFiles() []string {
	var out []string
	for _, f := range t.sol.Sources() {
		out = append(out, f.Path)
	}
	return out
}

// regularFile reports whether name is a regular file.
func regularFile(name string) bool {
	fi, err := os.Stat(name)
	return err == nil && fi.Mode().IsRegular()
}
