package augment

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/harbor"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/results"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/stages/build"
)

// runner runs the retention checks' jobs in the task's prepared
// environment; every job is one sandbox, and its output stays under
// augment/logs/.
type runner struct {
	env    sandbox.Env
	t      *task
	logDir string
	status io.Writer
	// progress follows the coverage runs; nil reports nothing.
	progress sandbox.ProgressFunc
	// Jobs counts the sandbox jobs, Runs the test-command runs.
	Jobs, Runs int
}

func (x *runner) outDir(name string) string {
	x.Jobs++
	return filepath.Join(x.logDir, fmt.Sprintf("%03d-%s", x.Jobs, name))
}

// jobName keeps the characters a sandbox job name allows (letters,
// digits, - and _); mutant and candidate ids also hold dots.
func jobName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c == '-' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			b[i] = '_'
		}
	}
	return string(b)
}

// side applies testPatch (and solution, when not empty) at the base commit
// and runs selection runs times.
func (x *runner) side(ctx context.Context, name string, testPatch, solution []byte, selection []string, runs int) (*sandbox.Side, error) {
	r := x.t.recipe
	r.Runs = runs
	plan := sandbox.Plan{Recipe: r, Selection: selection, Language: x.t.language, TestPatch: testPatch,
		Grader: filepath.Join(x.t.c.Dir, build.TaskDir, filepath.FromSlash(harbor.GraderBin))}
	name = jobName(name)
	s, err := sandbox.RunSide(ctx, x.env, plan, name, solution, x.outDir(name))
	if err != nil {
		return nil, fmt.Errorf("%s job: %w", name, err)
	}
	x.Runs += len(s.Runs)
	return s, nil
}

// cover measures the per-test coverage of tests with the reference
// solution and the added patch applied.
func (x *runner) cover(ctx context.Context, name string, added []byte, tests, selection []string) (*coverage.Result, error) {
	extra := map[string]bool{}
	for _, f := range patchedFiles(added) {
		extra[f] = true
	}
	spec := coverage.Spec{Recipe: x.t.recipe, Language: x.t.language, Selection: selection,
		Patches: []coverage.Patch{{Name: "test.patch", Data: x.t.testPatch}, {Name: "solution.patch", Data: x.t.solution}, {Name: "added.patch", Data: added}},
		Sources: x.t.sources(), Suites: []coverage.SuiteSpec{{Name: name, Tests: tests}},
		Exists: func(p string) bool { return extra[p] || x.t.fileExists(p) }, Progress: x.progress}
	res, err := coverage.Measure(ctx, x.env, spec, x.outDir("coverage-"+name))
	if err != nil {
		return nil, err
	}
	x.Runs++
	return res, nil
}

// patchedFiles are the paths a patch made by newFilePatch creates.
func patchedFiles(p []byte) []string {
	var out []string
	for _, l := range strings.Split(string(p), "\n") {
		if f, ok := strings.CutPrefix(l, "+++ b/"); ok {
			out = append(out, f)
		}
	}
	return out
}

func candidatesPatch(cs []*Candidate) []byte {
	var ps [][]byte
	for _, c := range cs {
		ps = append(ps, newFilePatch(c.Path, c.source))
	}
	return joinPatches(ps...)
}

func candidateFiles(cs []*Candidate) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Path
	}
	return out
}

// checker applies the retention rules that need runs.
type checker struct {
	t    *task
	run  *runner
	runs int
	// covered are the target lines run by the original tests and by the
	// tests kept so far (coverage loop).
	covered coverage.Lines
	// beforePassed are ids of a candidate that passed in some run before
	// the solution (they are not fail-to-pass).
	beforePassed map[*Candidate]map[string]bool
}

func live(cs []*Candidate) []*Candidate {
	var out []*Candidate
	for _, c := range cs {
		if c.ok() {
			out = append(out, c)
		}
	}
	return out
}

// evaluate runs cs (all past the static checks) through the run rules, in
// order: fails before the solution, passes with it, stable, kills its
// target mutants (mutation loop), covers new target lines (coverage loop).
// A candidate that passes them all is retained.
func (k *checker) evaluate(ctx context.Context, cs []*Candidate) error {
	for _, c := range live(cs) {
		if err := k.before(ctx, c); err != nil {
			return err
		}
	}
	for _, b := range batches(live(cs)) {
		if err := k.after(ctx, b, true); err != nil {
			return err
		}
	}
	if err := k.mutants(ctx, live(cs)); err != nil {
		return err
	}
	if err := k.coverage(ctx, live(cs)); err != nil {
		return err
	}
	for _, c := range live(cs) {
		c.Status = Retained
	}
	return nil
}

// before runs the test alone at the base commit, without the original
// test patch and without other generated tests, so that nothing but the
// test itself decides: it must fail or error in every run. (With the
// original test patch, a Go package whose tests use new API does not
// compile before the solution, and every test in it would "fail".)
func (k *checker) before(ctx context.Context, c *Candidate) error {
	s, err := k.run.side(ctx, "before-"+c.ID, newFilePatch(c.Path, c.source), nil, k.t.items([]string{c.Path}), k.runs)
	if err != nil {
		return err
	}
	if s.ApplyError != "" {
		c.reject("structure", "the test file does not apply at the base commit: %s", s.ApplyError)
		return nil
	}
	sts, _ := sideStatuses(k.t.format, c.ref(), s)
	passed := map[string]bool{}
	for _, run := range s.Runs {
		for _, r := range run.Results {
			if r.Status == results.Passed && c.ref().matches(k.t.format, r.Name) {
				passed[r.Name] = true
			}
		}
	}
	k.beforePassed[c] = passed
	switch {
	case all(sts, isFailing):
	case all(sts, isPassed):
		c.reject("before", "passes before the reference solution (%s): it checks behaviour that exists already, not what the proposal adds", statusList(sts))
	case anyStatus(sts, isPassed):
		c.reject("unstable", "unstable before the reference solution: %s over %d runs", statusList(sts), len(sts))
	default:
		c.reject("before", "does not fail before the reference solution: %s", statusList(sts))
	}
	return nil
}

func anyStatus(sts []results.Status, ok func(results.Status) bool) bool {
	for _, s := range sts {
		if ok(s) {
			return true
		}
	}
	return false
}

// after runs a batch with the original test patch and the reference
// solution: each test must pass in every run. A test the runs do not
// report is retried alone when it shared the run, since another test of
// its package may have broken the build.
func (k *checker) after(ctx context.Context, b []*Candidate, retry bool) error {
	s, err := k.run.side(ctx, "after", joinPatches(k.t.testPatch, candidatesPatch(b)), k.t.solution, k.t.items(candidateFiles(b)), k.runs)
	if err != nil {
		return err
	}
	if s.ApplyError != "" {
		if len(b) > 1 && retry {
			for _, c := range b {
				if err := k.after(ctx, []*Candidate{c}, false); err != nil {
					return err
				}
			}
			return nil
		}
		for _, c := range b {
			c.reject("structure", "the test does not apply with the original tests and the reference solution: %s", s.ApplyError)
		}
		return nil
	}
	var again []*Candidate
	for _, c := range b {
		sts, _ := sideStatuses(k.t.format, c.ref(), s)
		switch {
		case all(sts, isPassed):
			for _, id := range passedIn(k.t.format, c.ref(), s) {
				if !k.beforePassed[c][id] {
					c.Tests = append(c.Tests, id)
				}
			}
		case all(sts, func(s results.Status) bool { return s == sandbox.Absent }) && len(b) > 1 && retry:
			again = append(again, c)
		case all(sts, func(s results.Status) bool { return s == sandbox.Absent }):
			c.reject("after", "does not run with the reference solution: no result reports it (it does not build or is not collected)")
		case anyStatus(sts, isPassed):
			c.reject("unstable", "unstable with the reference solution: %s over %d runs", statusList(sts), len(sts))
		default:
			c.reject("after", "fails with the reference solution: %s", statusList(sts))
		}
	}
	for _, c := range again {
		if err := k.after(ctx, []*Candidate{c}, false); err != nil {
			return err
		}
	}
	return nil
}

// mutants runs each targeted mutant with the tests that target it: each
// must fail, error or not build in every run.
func (k *checker) mutants(ctx context.Context, cs []*Candidate) error {
	byMutant := map[string][]*Candidate{}
	var order []string
	for _, c := range cs {
		if c.Loop != LoopMutation {
			continue
		}
		for _, m := range c.Targets {
			if byMutant[m] == nil {
				order = append(order, m)
			}
			byMutant[m] = append(byMutant[m], c)
		}
	}
	for _, m := range order {
		patch, err := mutation.LoadPatch(k.t.c, m)
		if err != nil {
			for _, c := range byMutant[m] {
				c.reject("mutant", "its target mutant %s cannot be read: %v", m, err)
			}
			continue
		}
		for _, b := range batches(byMutant[m]) {
			if err := k.mutant(ctx, m, patch, live(b), true); err != nil {
				return err
			}
		}
	}
	return nil
}

func (k *checker) mutant(ctx context.Context, m string, patch []byte, b []*Candidate, retry bool) error {
	if len(b) == 0 {
		return nil
	}
	s, err := k.run.side(ctx, "mutant-"+m, joinPatches(k.t.testPatch, candidatesPatch(b)), patch, k.t.items(candidateFiles(b)), k.runs)
	if err != nil {
		return err
	}
	if s.ApplyError != "" {
		for _, c := range b {
			c.reject("mutant", "its target mutant %s does not apply with the tests: %s", m, s.ApplyError)
		}
		return nil
	}
	for _, c := range b {
		sts, _ := sideStatuses(k.t.format, c.ref(), s)
		absent := all(sts, func(s results.Status) bool { return s == sandbox.Absent })
		switch {
		case absent && len(b) > 1 && retry:
			if err := k.mutant(ctx, m, patch, []*Candidate{c}, false); err != nil {
				return err
			}
		case all(sts, isFailing):
			c.Kills = appendOnce(c.Kills, m)
		case all(sts, isPassed):
			c.reject("mutant", "passes on its target mutant %s: it does not catch the violation (%s)", m, k.mutantWhat(m))
		case anyStatus(sts, isPassed):
			c.reject("unstable", "unstable on its target mutant %s: %s over %d runs", m, statusList(sts), len(sts))
		default:
			c.reject("mutant", "does not fail on its target mutant %s: %s", m, statusList(sts))
		}
	}
	return nil
}

// mutantWhat recalls a mutant's diverging scenario for the rewrite.
func (k *checker) mutantWhat(id string) string {
	if k.t.mutants != nil {
		if mu := k.t.mutants.Mutant(id); mu != nil && mu.Scenario != "" {
			return "its diverging scenario: " + mu.Scenario
		}
	}
	return "see the mutant's record"
}

// coverage measures the coverage-loop tests with the reference solution:
// each must run a target line that neither the original tests nor an
// earlier kept test run.
func (k *checker) coverage(ctx context.Context, cs []*Candidate) error {
	var loop []*Candidate
	for _, c := range cs {
		if c.Loop == LoopCoverage {
			loop = append(loop, c)
		}
	}
	if len(loop) == 0 {
		return nil
	}
	for _, b := range batches(loop) {
		var ids []string
		for _, c := range b {
			ids = append(ids, coverIDs(k.t.format, c.Name, c.Tests)...)
		}
		res, err := k.run.cover(ctx, "added", candidatesPatch(b), ids, k.t.items(candidateFiles(b)))
		if err != nil {
			return err
		}
		if !res.PerTest && len(b) > 1 {
			// Without per-test coverage, one measurement per test.
			for _, c := range b {
				if err := k.coverage(ctx, []*Candidate{c}); err != nil {
					return err
				}
			}
			continue
		}
		for _, c := range b {
			var lines coverage.Lines
			if res.PerTest {
				for _, id := range coverIDs(k.t.format, c.Name, c.Tests) {
					lines = lines.Union(res.Tests[id])
				}
			} else if s := res.Suite("added"); s != nil {
				lines = s.Lines
			}
			fresh := lines.Minus(k.covered)
			if fresh.Count() == 0 {
				c.reject("coverage", "runs no target line that the original tests or an earlier kept test do not run (it runs %d target line%s, all covered already)", lines.Count(), plural(lines.Count()))
				continue
			}
			c.NewLines = fresh.Count()
			k.covered = k.covered.Union(lines)
		}
	}
	return nil
}

// coverIDs are the ids of test fn that coverage is measured for: every
// id of it, a Go test's subtests each with a profile of its own (runs are
// read at subtest level, so a Go test with subtests has no id of its own).
func coverIDs(format, fn string, ids []string) []string {
	out := append([]string(nil), ids...)
	sort.Strings(out)
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
