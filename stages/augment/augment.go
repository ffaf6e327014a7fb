// Package augment is the test-augmentation stage of phase 4 (issue 7;
// LoLBench paper, Table 9): it strengthens a built task's FAIL_TO_PASS
// tests where the pull request's own tests miss what the proposal
// requires, and maps every F2P test to the sections it asserts.
//
// Two generation loops ask the model for tests (prompts augment-mutation
// and augment-coverage):
//
//   - mutation-guided: for each mutant that survives the original tests
//     (pipeline/mutation's kill matrix), tests that assert the outcome the
//     EP requires through public entry points, the mutant's diverging
//     scenario guiding the input;
//   - coverage-guided: when the original F2P ∪ P2P tests run less than half
//     of the reference solution's executable added lines
//     (pipeline/coverage), tests aimed at the largest uncovered spans.
//
// A generated test is retained only when every rule holds, checked in
// this order (candidate.go, retain.go): it is a new test file of the task's
// language with exactly one test function; it passes the test audit
// (pipeline/testaudit: no internal symbol, no new symbol the EP does not
// name); it duplicates no existing or earlier test; run alone at the base
// commit it fails or errors in every run; with the original tests and
// the reference solution it passes in every run (stable); it fails in every
// run on each mutant it targets (mutation loop) or runs target lines no
// original or earlier kept test runs (coverage loop). A rejected test goes
// back to the model once, with its reason, for a rewrite; a rewrite that
// fails again is dropped with its reason.
//
// Retained tests stay apart from the original suite: each is a new file,
// and together they are augment/tests.patch. The task's Harbor folder is
// rewritten with the original and the added test patch, the longer
// FAIL_TO_PASS list and the test-to-section map, which drives
// reward.json's sections_completed (a section is completed only when all
// its F2P tests pass); LoadFinal gives the export the same lists.
//
// The test-to-section map (sectionmap.go) is deterministic: a test asserts
// a section when it kills one of the section's revert mutants, or when it
// runs a target line the section owns (the mapping's scopes, rules 27–28).
// A test mapped to no section is reported as possibly overly broad
// (ProMax). Without an LLM endpoint the loops skip with the one-line
// message, but the map of the original tests is still computed and
// written; tests an earlier run added to the same build are kept as they
// are.
//
// Outputs, in the candidate folder:
//
//	augment/augment.json          the report (Report)
//	augment/tests.patch           the added tests (when any)
//	augment/candidates/<id>/      every generated test's source
//	augment/logs/                 the retention runs' output
//	task/                         the Harbor task, rewritten
package augment

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/langsupport"
	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
	"github.com/lolbench/lolbench/pipeline/sectionmap"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/prompts"
	"github.com/lolbench/lolbench/stages/build"
	"github.com/lolbench/lolbench/stages/evidence"
)

// Files and folders of the stage in a candidate folder.
const (
	Dir           = "augment"
	ReportFile    = "augment/augment.json"
	TestPatchFile = "augment/tests.patch"
	CandidatesDir = "augment/candidates"
	LogDir        = "augment/logs"
)

// Defaults of the stage's knobs.
const (
	// DefaultPerPrompt is the number of tests asked per prompt.
	DefaultPerPrompt = 2
	// DefaultMaxMutants bounds the surviving mutants prompted per task.
	DefaultMaxMutants = 20
	// DefaultMaxSpans bounds the uncovered spans shown per task.
	DefaultMaxSpans = 6
	// DefaultThreshold is the F2P ∪ P2P coverage (percent) below which
	// the coverage-guided loop runs (issue 7: 50%).
	DefaultThreshold = 50.0
	// Budgets of the material shown to the model.
	solutionBudget = 96 << 10
	testFileBudget = 16 << 10
	testsBudget    = 64 << 10
	spanLines      = 60
)

// Stage augments tasks.
type Stage struct {
	// LLM is the model client; nil skips the loops (the map is still
	// written).
	LLM *llm.Client
	// Executor runs the retention checks; needed when a loop runs.
	Executor sandbox.Executor
	// Loops are the loops to run (Loops when empty).
	Loops []string
	// PerPrompt, MaxMutants, MaxSpans and Threshold: zero means the
	// default.
	PerPrompt  int
	MaxMutants int
	MaxSpans   int
	Threshold  float64
	// Progress, when set, receives the progress of a candidate's
	// coverage runs (issue 25 §2: no long silences), as in mutate.
	Progress func(id string, p sandbox.TestProgress)
}

// Name implements pipeline.Stage.
func (*Stage) Name() string { return "augment" }

// String implements pipeline.Stage.
func (*Stage) String() string { return "augmenting tests" }

func (s *Stage) loops() []string {
	if len(s.Loops) == 0 {
		return Loops
	}
	return s.Loops
}

func orDefault[T int | float64](v, d T) T {
	if v <= 0 {
		return d
	}
	return v
}

// ParseLoops reads a --loops value ("mutation,coverage").
func ParseLoops(s string) ([]string, error) {
	var out []string
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if p != LoopMutation && p != LoopCoverage {
			return nil, fmt.Errorf("unknown loop %q (loops: %s)", p, strings.Join(Loops, ", "))
		}
		if !contains(out, p) {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no loop given (loops: mutation, coverage)")
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Inputs implements pipeline.CandidateStage.
func (s *Stage) Inputs(env *pipeline.Env, c *pipeline.Candidate) (pipeline.Inputs, error) {
	in := pipeline.Inputs{Files: []string{pipeline.InfoFile, pipeline.MappingFile, build.RecordFile, build.TestPatch, build.SolutionFile,
		mutation.IndexFile, mutation.MatrixFile, coverage.ResultFile}}
	if info, err := c.LoadInfo(); err == nil && info.EP.File != "" {
		in.Files = append(in.Files, info.EP.File)
	}
	in.Params = append(in.Params, "loops "+strings.Join(s.loops(), ","),
		fmt.Sprintf("per prompt %d, mutants %d, spans %d, threshold %.1f", orDefault(s.PerPrompt, DefaultPerPrompt),
			orDefault(s.MaxMutants, DefaultMaxMutants), orDefault(s.MaxSpans, DefaultMaxSpans), orDefault(s.Threshold, DefaultThreshold)),
		evidence.ModelParam(s.LLM, "augment"))
	for _, n := range prompts.AugmentNames() {
		d, err := prompts.AugmentDigest(n)
		if err != nil {
			return in, err
		}
		in.Params = append(in.Params, "prompt "+n+" "+d)
	}
	if s.Executor != nil {
		in.Params = append(in.Params, "executor "+s.Executor.Name())
	}
	return in, nil
}

// augmenter is one stage run on one candidate.
type augmenter struct {
	s      *Stage
	env    *pipeline.Env
	t      *task
	rep    *Report
	run    *runner
	check  *checker
	cands  []*Candidate
	closer func()
}

func (a *augmenter) statusf(format string, args ...any) {
	if a.env.Status != nil {
		fmt.Fprintf(a.env.Status, "%s: %s\n", a.t.c.ID, fmt.Sprintf(format, args...))
	}
}

// Run implements pipeline.CandidateStage.
func (s *Stage) Run(ctx context.Context, env *pipeline.Env, c *pipeline.Candidate) error {
	t, err := loadTask(ctx, env, c)
	if errors.Is(err, errNotBuilt) {
		return pipeline.Skip("%v", err)
	}
	if err != nil {
		return err
	}
	if s.LLM == nil {
		return s.withoutModel(env, c, t)
	}
	a := &augmenter{s: s, env: env, t: t}
	a.rep = &Report{Candidate: c.ID, OriginalF2P: append([]string{}, t.rec.Report.FailToPass...), AddedBy: map[string]int{},
		Added: []string{}, Candidates: []*Candidate{}}
	for _, p := range []string{CandidatesDir, LogDir} {
		if err := os.RemoveAll(filepath.Join(c.Dir, p)); err != nil {
			return err
		}
	}
	os.Remove(filepath.Join(c.Dir, TestPatchFile))
	defer func() {
		if a.closer != nil {
			a.closer()
		}
	}()

	run := a.plan()
	if len(run) > 0 {
		if err := a.prepare(ctx); err != nil {
			return err
		}
		if err := a.generate(ctx, run); err != nil {
			return err
		}
	}
	return a.finish(ctx)
}

// withoutModel is the stage without an LLM endpoint: the loops cannot
// run. Tests an earlier run added to this very build stay (rerunning
// without an endpoint must not quietly strip a task): the task is
// rewritten with them and the map recomputed, and the stage says so.
// Otherwise it changes nothing, and says which untested sections a model
// would target first.
func (s *Stage) withoutModel(env *pipeline.Env, c *pipeline.Candidate, t *task) error {
	prev, err := LoadReport(c)
	if err != nil || len(prev.Added) == 0 || prev.TestPatch == "" || !sameSet(prev.OriginalF2P, t.rec.Report.FailToPass) {
		why := llm.ErrNoEndpoint.Error()
		if t.smap != nil && len(t.smap.Untested) > 0 {
			why += fmt.Sprintf("; untested sections it would target first: %s", strings.Join(t.smap.Untested, ", "))
		}
		return pipeline.Skip("%s", why)
	}
	p, err := c.Path(prev.TestPatch)
	if err != nil {
		return err
	}
	added, err := os.ReadFile(p)
	if err != nil {
		return fmt.Errorf("candidate %s: %w", c.ID, err)
	}
	var kept []*Candidate
	for _, cd := range prev.Candidates {
		if cd.Status == Retained {
			kept = append(kept, cd)
		}
	}
	a := &augmenter{s: s, env: env, t: t, rep: prev}
	if t.mapping != nil {
		prev.Map = sectionmap.Compute(s.Name(), t.mapInput(prev.FailToPass, kept))
	}
	if err := a.writeTask(added); err != nil {
		return err
	}
	if prev.Map != nil {
		if err := sectionmap.Save(c, prev.Map, false); err != nil {
			return err
		}
	}
	if err := workspace.WriteJSON(filepath.Join(c.Dir, ReportFile), prev); err != nil {
		return err
	}
	fmt.Fprintf(envStatus(a), "%s: the loops did not run (%s); kept the %d test%s an earlier run added and rewrote the task with them; %s\n",
		c.ID, llm.ErrNoEndpoint, len(prev.AddedFiles), plural(len(prev.AddedFiles)), mapLine(prev.Map))
	return nil
}

// plan decides which loops run, recording why the others do not.
func (a *augmenter) plan() []string {
	t := a.t
	var run []string
	for _, loop := range a.s.loops() {
		lr := LoopReport{Loop: loop}
		switch {
		case t.audit == nil:
			lr.Skipped = fmt.Sprintf("the test audit has no rule for %s: generated tests cannot be audited", orUnknown(t.language))
		case newTest(t.language) == "":
			lr.Skipped = fmt.Sprintf("no rule for where a new %s test file goes (NewTest, pipeline/lang/table.go): %s", t.language, langsupport.Why(t.language, langsupport.Augment))
		case loop == LoopMutation && t.mutants == nil:
			lr.Skipped = "no mutants: run lolbench mutate " + t.c.ID + " first"
		case loop == LoopMutation && len(t.mutants.Matrix.Survivors()) == 0:
			lr.Skipped = "no surviving mutant: the original F2P tests kill every mutant past the P2P filter"
		case loop == LoopCoverage && t.cov == nil:
			lr.Skipped = "no coverage measurement: run lolbench mutate " + t.c.ID + " first"
		case loop == LoopCoverage && t.cov.Suite(coverage.Union) == nil:
			lr.Skipped = "the coverage measurement has no F2P ∪ P2P figure"
		case loop == LoopCoverage && t.cov.Suite(coverage.Union).Percent >= orDefault(a.s.Threshold, DefaultThreshold) && len(t.untestedSpans()) == 0:
			lr.Skipped = fmt.Sprintf("F2P ∪ P2P covers %.1f%% of the reference solution's executable added lines, not below %.0f%%",
				t.cov.Suite(coverage.Union).Percent, orDefault(a.s.Threshold, DefaultThreshold))
		case loop == LoopCoverage && len(t.cov.Uncovered) == 0:
			lr.Skipped = "no uncovered span"
		default:
			lr.Ran = true
			run = append(run, loop)
		}
		a.rep.Loops = append(a.rep.Loops, lr)
	}
	return run
}

func orUnknown(s string) string {
	if s == "" {
		return "an unknown language"
	}
	return s
}

// prepare makes the task's environment ready for the retention runs.
func (a *augmenter) prepare(ctx context.Context) error {
	t := a.t
	if a.s.Executor == nil {
		return errors.New("augment: no executor")
	}
	logDir := filepath.Join(t.c.Dir, LogDir)
	if err := os.MkdirAll(logDir, 0o755); err != nil {
		return err
	}
	project := t.info.Project
	if project == "" {
		project = t.c.ID
	}
	spec := sandbox.Spec{Project: project, Task: t.c.ID, Base: t.base, Recipe: t.recipe,
		Tree: sandbox.GitTree{Repo: t.repo, Commit: t.base}, LogDir: logDir, Status: a.env.Status}
	senv, err := a.s.Executor.Prepare(ctx, spec)
	if err != nil {
		return fmt.Errorf("candidate %s: environment: %w", t.c.ID, err)
	}
	a.closer = func() { senv.Close() }
	a.run = &runner{env: senv, t: t, logDir: logDir, status: a.env.Status}
	if a.s.Progress != nil {
		a.run.progress = func(p sandbox.TestProgress) { a.s.Progress(t.c.ID, p) }
	}
	a.check = &checker{t: t, run: a.run, runs: t.recipe.Runs, beforePassed: map[*Candidate]map[string]bool{}}
	if t.cov != nil {
		if u := t.cov.Suite(coverage.Union); u != nil {
			a.check.covered = u.Lines.Union(nil)
		}
	}
	return nil
}

// finish computes the final figures and the map, and writes the outputs.
func (a *augmenter) finish(ctx context.Context) error {
	t, rep := a.t, a.rep
	var kept []*Candidate
	for _, c := range a.cands {
		if c.Status == Retained {
			kept = append(kept, c)
			rep.AddedBy[c.Loop]++
			rep.Added = append(rep.Added, c.Tests...)
			rep.AddedFiles = append(rep.AddedFiles, c.Path)
		}
	}
	rep.Candidates = a.cands
	if rep.Candidates == nil {
		rep.Candidates = []*Candidate{}
	}
	rep.FailToPass = uniqueSorted(append(append([]string{}, rep.OriginalF2P...), rep.Added...))
	added := candidatesPatch(kept)

	// Figures before augmentation.
	if t.mutants != nil {
		m := t.mutants.Matrix
		rep.Mutants.Available = true
		rep.Mutants.SurvivedP2P = len(m.Rows)
		rep.Mutants.KilledOriginal = len(m.Rows) - len(m.Survivors())
	}
	if t.cov != nil {
		rep.Coverage.Available = true
		rep.Coverage.Executable = t.cov.Target.Executable()
		if f := t.cov.Suite(coverage.F2P); f != nil {
			rep.Coverage.F2POriginal = f.Percent
		}
		if u := t.cov.Suite(coverage.Union); u != nil {
			rep.Coverage.UnionOriginal = u.Percent
		}
	}
	rep.Coverage.F2POverall, rep.Coverage.UnionOverall = rep.Coverage.F2POriginal, rep.Coverage.UnionOriginal

	// The added tests' coverage and kills, over every mutant.
	addedCov := map[string]coverage.Lines{}
	killedByAdded := map[string]bool{}
	if len(kept) > 0 {
		var err error
		if addedCov, err = a.finalCoverage(ctx, kept, added); err != nil {
			return err
		}
		if killedByAdded, err = a.finalMatrix(ctx, kept, added, addedCov); err != nil {
			return err
		}
	}
	if t.mutants != nil {
		m := t.mutants.Matrix
		rep.Mutants.Survivors = []string{}
		for _, row := range m.Rows {
			if len(m.KilledBy(row.Mutant)) > 0 || killedByAdded[row.Mutant] {
				rep.Mutants.KilledOverall++
			} else {
				rep.Mutants.Survivors = append(rep.Mutants.Survivors, row.Mutant)
			}
		}
		rep.Mutants.ScoreOriginal = score(rep.Mutants.KilledOriginal, rep.Mutants.SurvivedP2P)
		rep.Mutants.ScoreOverall = score(rep.Mutants.KilledOverall, rep.Mutants.SurvivedP2P)
	}
	if a.run != nil {
		rep.Jobs, rep.Runs = a.run.Jobs, a.run.Runs
	}

	for _, c := range kept {
		if len(c.Tests) > 0 {
			c.Covered = addedCov[c.Tests[0]] // every id of a file runs the same lines
		}
	}
	if t.mapping != nil {
		rep.Map = sectionmap.Compute(a.s.Name(), t.mapInput(rep.FailToPass, kept))
	}

	if err := a.write(kept, added); err != nil {
		return err
	}
	a.statusf("%d F2P test%s (%d original, %d added: %d mutation-guided, %d coverage-guided); %s",
		len(rep.FailToPass), plural(len(rep.FailToPass)), len(rep.OriginalF2P), len(rep.Added), rep.AddedBy[LoopMutation], rep.AddedBy[LoopCoverage], mapLine(rep.Map))
	return nil
}

func mapLine(m *sectionmap.Map) string {
	if m == nil {
		return "no test-to-section map (no mapping.md)"
	}
	return fmt.Sprintf("%d test%s mapped to sections, %d possibly overly broad; %s",
		len(m.Tests)-len(m.Broad), plural(len(m.Tests)-len(m.Broad)), len(m.Broad), m.Summary())
}

func envStatus(a *augmenter) io.Writer {
	if a.env == nil || a.env.Status == nil {
		return io.Discard
	}
	return a.env.Status
}

// finalCoverage measures the overall F2P suite (original and added tests)
// and P2P with the added tests in place, for the overall figures and the
// added tests' per-test lines.
func (a *augmenter) finalCoverage(ctx context.Context, kept []*Candidate, added []byte) (map[string]coverage.Lines, error) {
	t, rep := a.t, a.rep
	out := map[string]coverage.Lines{}
	if t.cov == nil {
		return out, nil
	}
	extra := map[string]bool{}
	for _, c := range kept {
		extra[c.Path] = true
	}
	spec := coverage.Spec{Recipe: t.recipe, Language: t.language, Selection: t.finalSelection(candidateFiles(kept)),
		Patches: []coverage.Patch{{Name: "test.patch", Data: t.testPatch}, {Name: "solution.patch", Data: t.solution}, {Name: "added.patch", Data: added}},
		Sources: t.sources(), Suites: []coverage.SuiteSpec{{Name: coverage.F2P, Tests: rep.FailToPass}, {Name: coverage.P2P, Tests: t.rec.Report.PassToPass}},
		Exists: func(p string) bool { return extra[p] || t.fileExists(p) }, Progress: a.run.progress}
	res, err := coverage.Measure(ctx, a.run.env, spec, a.run.outDir("coverage-final"))
	if err != nil {
		rep.Notes = append(rep.Notes, "the final coverage measurement failed; the overall coverage is the original: "+err.Error())
		return out, nil
	}
	if f := res.Suite(coverage.F2P); f != nil {
		rep.Coverage.F2POverall = f.Percent
	}
	if u := res.Suite(coverage.Union); u != nil {
		rep.Coverage.UnionOverall = u.Percent
	}
	if res.PerTest {
		for _, c := range kept {
			var l coverage.Lines
			for _, id := range coverIDs(t.format, c.Name, c.Tests) {
				l = l.Union(res.Tests[id])
			}
			for _, id := range c.Tests {
				out[id] = l
			}
		}
	}
	return out, nil
}

// finalMatrix runs the added tests on every mutant past the P2P filter
// once (only those the added tests can reach, when per-test coverage
// tells), and records what each added test kills.
func (a *augmenter) finalMatrix(ctx context.Context, kept []*Candidate, added []byte, cov map[string]coverage.Lines) (map[string]bool, error) {
	t := a.t
	killed := map[string]bool{}
	if t.mutants == nil {
		return killed, nil
	}
	var reach coverage.Lines
	perTest := len(cov) > 0
	for _, l := range cov {
		reach = reach.Union(l)
	}
	for _, row := range t.mutants.Matrix.Rows {
		mu := t.mutants.Mutant(row.Mutant)
		if perTest && mu != nil && len(mu.Lines) > 0 && t.cov != nil && !mu.Lines.Intersects(reach) && onlyExecutable(mu.Lines, t.cov) {
			continue // no added test runs a line the mutant changes (PIT)
		}
		patch, err := mutation.LoadPatch(t.c, row.Mutant)
		if err != nil {
			a.rep.Notes = append(a.rep.Notes, fmt.Sprintf("mutant %s: %v", row.Mutant, err))
			continue
		}
		s, err := a.run.side(ctx, "final-"+row.Mutant, joinPatches(t.testPatch, added), patch, t.items(candidateFiles(kept)), 1)
		if err != nil {
			return nil, err
		}
		if s.ApplyError != "" {
			a.rep.Notes = append(a.rep.Notes, fmt.Sprintf("mutant %s does not apply with the added tests: %s", row.Mutant, s.ApplyError))
			continue
		}
		for _, c := range kept {
			sts, _ := sideStatuses(t.format, c.ref(), s)
			if all(sts, isFailing) {
				c.Kills = appendOnce(c.Kills, row.Mutant)
				killed[row.Mutant] = true
			}
		}
	}
	for _, c := range kept {
		sort.Strings(c.Kills)
	}
	return killed, nil
}

// onlyExecutable reports whether every line a mutant changes is an
// executable target line, so that line coverage can tell who reaches it
// (a changed declaration or constant is used without being "run").
func onlyExecutable(l coverage.Lines, cov *coverage.Result) bool {
	target := cov.Target.Lines()
	for f, lines := range l {
		for _, n := range lines {
			if !target.Has(f, n) {
				return false
			}
		}
	}
	return true
}

// finalSelection is the task's selection with the added files' items.
func (t *task) finalSelection(addedFiles []string) []string {
	return testcmd.Selection(t.recipe, append(append([]string{}, t.rec.TestFiles...), addedFiles...))
}

func uniqueSorted(list []string) []string {
	set := map[string]bool{}
	out := []string{}
	for _, s := range list {
		if !set[s] {
			set[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// write writes the report, the added tests' patch, the candidates'
// sources, and rewrites the Harbor task.
func (a *augmenter) write(kept []*Candidate, added []byte) error {
	t, rep := a.t, a.rep
	dir := filepath.Join(t.c.Dir, Dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, c := range a.cands {
		if len(c.source) == 0 {
			continue
		}
		p, err := workspace.SafeJoin(filepath.Join(t.c.Dir, CandidatesDir), filepath.Join(c.ID, filepath.Base(c.Path)))
		if err != nil {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := workspace.WriteFile(p, c.source, 0o644); err != nil {
			return err
		}
	}
	if len(kept) > 0 {
		if err := workspace.WriteFile(filepath.Join(t.c.Dir, TestPatchFile), added, 0o644); err != nil {
			return err
		}
		rep.TestPatch = TestPatchFile
	}
	if rep.Map != nil {
		if err := sectionmap.Save(t.c, rep.Map, false); err != nil {
			return err
		}
	}
	if err := workspace.WriteJSON(filepath.Join(t.c.Dir, ReportFile), rep); err != nil {
		return err
	}
	return a.writeTask(added)
}
