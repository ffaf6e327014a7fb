package coverage

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/sandbox/guard"
	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
)

// Adapter measures coverage with one language's tool. An adapter is one
// file; Adapters lists them.
type Adapter interface {
	// Name is the adapter's name in recipes ("go").
	Name() string
	// Tool says what runs, for reports ("go test -cover").
	Tool() string
	// Languages are the source languages (pipeline/lang names) whose lines
	// the tool sees run. Lines of other languages are left out of the
	// target: a Go test that drives a Python client runs the client's
	// lines, but go test's coverage cannot see them, and calling them
	// uncovered would mark their mutants as reached by no test.
	Languages() []string
	// Script is the part of the job script that measures plan's tests,
	// run in the repository after the patches are applied; it writes its
	// raw output into the folder "$cov".
	Script(p *Plan) (string, error)
	// Read turns the raw output folder into covered lines.
	Read(dir string, p *Plan) (*Raw, error)
	// Select returns the items to put in place of the recipe's {tests} so
	// that its test command runs only tests, and false when the adapter
	// cannot select single tests (then the whole selection runs).
	Select(p *Plan, tests []string) ([]string, bool)
	// BuildCheck is the default build check over the changed source files
	// (recipe.Recipe.Build overrides it); "" for none.
	BuildCheck(files []string) string
	// Support says what the adapter can do, for the language matrix
	// (lolbench lang list).
	Support() Support
}

// Support is what an adapter can do.
type Support struct {
	// PerTest is set when it measures coverage per test, not per suite.
	PerTest bool `json:"per_test"`
	// SingleTest says how Select runs single tests; "" when it cannot.
	SingleTest string `json:"single_test,omitempty"`
}

// Adapters lists the adapters. Adding a language is one file and one line.
var Adapters = []Adapter{goAdapter{}, pythonAdapter{}, jacocoAdapter{}, llvmCovAdapter{}, v8Adapter{}}

// AdapterFor returns the adapter a recipe names, else the one for language
// (a pipeline/lang name).
func AdapterFor(r recipe.Recipe, language string) (Adapter, error) {
	name := r.Coverage.Adapter
	if name == "" {
		switch language {
		case "Go":
			name = recipe.CoverageGo
		case "Python":
			name = recipe.CoveragePython
		case "Java":
			name = recipe.CoverageJaCoCo
		case "Rust":
			name = recipe.CoverageLLVM
		case "C", "C++", "C/C++ Header":
			name = recipe.CoverageGcov
		case "JavaScript", "TypeScript":
			name = recipe.CoverageV8
		default:
			return nil, fmt.Errorf("no coverage adapter for %s: set coverage.adapter in the recipe (go, python, jacoco, llvm-cov, gcov, v8 or regrtest)", orUnknown(language))
		}
	}
	for _, a := range Adapters {
		if a.Name() == name {
			if name == recipe.CoverageJaCoCo && r.Coverage.Command != "" && r.Coverage.Report == "" {
				return nil, errors.New("the jacoco coverage adapter reads coverage.command's XML report: set coverage.report in the recipe (docs/projects.md, \"Recipes\")")
			}
			return a, nil
		}
	}
	return nil, fmt.Errorf("unknown coverage adapter %q", name)
}

// SuiteSpec names a suite of tests to measure.
type SuiteSpec struct {
	Name  string
	Tests []string
}

// Patch is one patch a job applies, in order.
type Patch struct {
	// Name is a file name ("test.patch"); Data the patch.
	Name string
	Data []byte
}

// Spec is what Measure measures.
type Spec struct {
	// Recipe, with defaults applied.
	Recipe recipe.Recipe
	// Language is the candidate's language (pipeline/lang name); it picks
	// the adapter when the recipe names none.
	Language string
	// Selection is the task's test selection (sandbox.Selection).
	Selection []string
	// Patches are applied in order at the base commit: the test patch,
	// the reference solution, and any further test patch (the augment
	// stage's added tests).
	Patches []Patch
	// Sources are the reference solution's changed source files, after
	// the change, with their added lines.
	Sources []SourceFile
	// Suites are measured in order; the first two are normally F2P and
	// P2P, whose union is added as Union when both are present.
	Suites []SuiteSpec
	// unmeasured lists the sources left out for the adapter (measured).
	unmeasured []string
	// Exists reports whether a slash path exists in the repository after
	// the patches (Python uses it to turn test ids into pytest node ids);
	// nil guesses.
	Exists func(path string) bool
	// Progress, when set, receives the test progress of the reach run
	// (sandbox.ReachSide) and of the per-test run (sandbox.CoverageSide),
	// one run each, as the build's test runs report
	// theirs (issue 25 §2).
	Progress sandbox.ProgressFunc
	// Grader is a static lolbench-grade for the sandbox (the task's
	// tests/lolbench-grade). With Progress, it counts the finished tests
	// in a test log as the verifier does (lolbench-grade count); without
	// it, a run that is one test command (Python) reports only its start,
	// its end and the time it takes.
	Grader string
}

// Plan is what an adapter works from: the spec, its target and every
// test of its suites.
type Plan struct {
	Spec
	Target *Target
	// Tests are the tests of every suite, sorted, without duplicates.
	Tests []string
}

// NewPlan computes the target of a spec and collects its tests.
func NewPlan(ctx context.Context, spec Spec) *Plan {
	p := &Plan{Spec: spec, Target: NewTarget(ctx, spec.Sources)}
	p.Target.Skipped = append(p.Target.Skipped, spec.unmeasured...)
	seen := map[string]bool{}
	for _, s := range spec.Suites {
		for _, t := range s.Tests {
			if !seen[t] {
				seen[t] = true
				p.Tests = append(p.Tests, t)
			}
		}
	}
	sort.Strings(p.Tests)
	return p
}

// source returns the source file of a path, or nil.
func (p *Plan) source(path string) *SourceFile {
	for i := range p.Sources {
		if p.Sources[i].Path == path {
			return &p.Sources[i]
		}
	}
	return nil
}

// Raw is what an adapter read: covered lines of the changed source files
// (every line the tool saw executed, not only target lines).
type Raw struct {
	// PerTest is set by adapters with per-test coverage.
	PerTest map[string]Lines
	// PerSuite is set by adapters without it, by suite name.
	PerSuite map[string]Lines
	// Setup are lines run outside every test (Python module bodies run at
	// collection): every suite covers them, and a mutant touching them
	// needs every test.
	Setup Lines
	// Functions is the union's statement coverage per function (Go).
	Functions []FuncCoverage
	// Keep are files to keep beside the result (the union profile).
	Keep map[string][]byte
	// Unmeasured are tests the run did not get to (it stopped at its
	// time limit): their coverage is unknown, not empty.
	Unmeasured []string
	// Notes are problems that did not stop the measurement.
	Notes []string
}

// ApplyScript is the start of every coverage and mutant job: it applies
// the named patches from $LOLBENCH_DIR in order, and on failure writes the
// patch's name to out/apply-failed and its error to out/apply-<name>.err
// and exits 0.
func ApplyScript(patches []string) string {
	var b strings.Builder
	b.WriteString("#!/bin/sh\nset -u\nout=\"$LOLBENCH_DIR/out\"\nmkdir -p \"$out\"\ncd \"$LOLBENCH_TESTBED\" || exit 90\n")
	for _, p := range patches {
		q := testcmd.Quote(p)
		fmt.Fprintf(&b, "if [ -s \"$LOLBENCH_DIR\"/%[1]s ]; then\n", q)
		fmt.Fprintf(&b, "\tif ! git apply --whitespace=nowarn \"$LOLBENCH_DIR\"/%[1]s 2>\"$out\"/apply-%[1]s.err; then\n", q)
		fmt.Fprintf(&b, "\t\techo %s >\"$out/apply-failed\"\n\t\texit 0\n\tfi\nfi\n", q)
	}
	return b.String()
}

// ProgressScript defines the shell functions with which an adapter's
// script reports its tests' progress to the host, in guard.ProgressFile
// as the verifier writes it (issue 25 §2); without on they do nothing.
//
//	lolbench_done N      N tests are done (an adapter that runs one test
//	                     at a time counts them itself: Go)
//	lolbench_count LOG   the verifier's counter follows the test log LOG
//	                     (lolbench-grade count, when the job has it) ...
//	lolbench_count_end   ... until the run is over (Python)
func ProgressScript(on bool, known int) string {
	if !on {
		return "lolbench_done() { :; }\nlolbench_count() { :; }\nlolbench_count_end() { :; }\n"
	}
	return fmt.Sprintf(`lolbench_done() { printf '{"run":1,"runs":1,"done":%%d,"known":%[1]d}' "$1" >"$out/%[2]s.tmp" && mv -f "$out/%[2]s.tmp" "$out/%[2]s"; }
lolbench_count() { if [ -x "$LOLBENCH_DIR/%[3]s" ]; then rm -f "$LOLBENCH_DIR/count.done"; "$LOLBENCH_DIR/%[3]s" count -log "$1" -until "$LOLBENCH_DIR/count.done" -out "$out" -known %[1]d & lolbench_counter=$!; fi; }
lolbench_count_end() { if [ -n "${lolbench_counter:-}" ]; then : >"$LOLBENCH_DIR/count.done"; wait "$lolbench_counter" 2>/dev/null; lolbench_counter=; fi; }
`, known, guard.ProgressFile, guard.GraderFile)
}

// ApplyError reads what ApplyScript left in a job's output folder: "" when
// every patch applied.
func ApplyError(outDir string) string {
	which, err := os.ReadFile(filepath.Join(outDir, "apply-failed"))
	if err != nil {
		return ""
	}
	p := strings.TrimSpace(string(which))
	msg, _ := os.ReadFile(filepath.Join(outDir, "apply-"+filepath.Base(p)+".err"))
	return p + ": " + firstLine(strings.TrimSpace(string(msg)))
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Reacher is an adapter with a reach run: one run of the task's whole
// selection, with coverage of the changed source files only and no
// per-test contexts, that finds which tests run a changed file at all
// (by test file or package). Only those and the F2P tests are then
// measured one by one (issue 32 §1): on PEP 639 × packaging, 61 F2P tests
// and 26,860 P2P tests, per-test coverage of the whole suite did not
// finish in 20 minutes, and most P2P tests never touch the changed files.
type Reacher interface {
	// ReachScript is the reach run's part of a job script, as Script is
	// the per-test run's.
	ReachScript(p *Plan) (string, error)
	// ReadReach reads the reach run's output folder.
	ReadReach(dir string, p *Plan) (*ReachRaw, error)
	// Narrow is the selection that runs the given tests in the per-test
	// run (Python: their test files).
	Narrow(p *Plan, tests []string) []string
}

// ReachRaw is what a reach run found.
type ReachRaw struct {
	// Reached are the tests that run a changed file, or whose test unit
	// (file, package) does.
	Reached map[string]bool
	// Seen are the tests the run is known to have run; a test it did not
	// see is measured one by one, to be safe.
	Seen map[string]bool
	// Setup are lines run outside every test (collection).
	Setup Lines
	// Notes are problems that did not stop the run.
	Notes []string
}

// Reach is the reach run's summary in a Result.
type Reach struct {
	// Tests counts the plan's tests; Reached those that run a changed
	// file (or whose unit does); Unseen those the run did not see;
	// Measured those measured one by one (the F2P tests, the reached and
	// the unseen ones).
	Tests    int `json:"tests"`
	Reached  int `json:"reached"`
	Unseen   int `json:"unseen"`
	Measured int `json:"measured"`
	// Duration is the reach run's wall time.
	Duration time.Duration `json:"duration_ns"`
}

// Measure runs the spec's suites with coverage in env and computes the
// result. outDir receives the job's output (raw tool output, logs); an
// adapter with a reach run (Reacher) runs it first, into outDir/reach.
//
// A per-test run that stops before its end (its time limit) does not fail
// the measurement when the adapter can tell which tests it measured: the
// others are listed as unmeasured and the result says it is partial.
func Measure(ctx context.Context, env sandbox.Env, spec Spec, outDir string) (*Result, error) {
	a, err := AdapterFor(spec.Recipe, spec.Language)
	if err != nil {
		return nil, err
	}
	p := NewPlan(ctx, measured(spec, a))
	res := &Result{Adapter: a.Name(), Tool: a.Tool(), Target: *p.Target, Suites: []Suite{}, Uncovered: []Span{}}
	if p.Target.Executable() == 0 {
		res.Notes = append(res.Notes, "the reference solution adds no executable line in a supported language: nothing to measure")
		finish(res, p, &Raw{PerTest: map[string]Lines{}})
		return res, nil
	}
	if err := os.RemoveAll(outDir); err != nil {
		return nil, err
	}
	run := p
	var setup Lines
	if r, ok := a.(Reacher); ok && p.reachWorthwhile(a) {
		start := time.Now()
		rr, err := runReach(ctx, env, a, r, p, filepath.Join(outDir, "reach"))
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			res.Notes = append(res.Notes, fmt.Sprintf("the reach run failed, so every test is measured one by one: %v", err))
		} else {
			run, res.Reach = p.narrowed(r, rr)
			res.Reach.Duration = time.Since(start).Round(time.Second)
			res.Notes = append(res.Notes, rr.Notes...)
			setup = rr.Setup
		}
	}
	raw, err := runTests(ctx, env, a, run, spec, outDir)
	if err != nil {
		return nil, err
	}
	raw.Setup = raw.Setup.Union(setup)
	finish(res, p, raw)
	if n := len(res.Unmeasured); n > 0 {
		res.Partial = fmt.Sprintf("%d of %d tests unmeasured (the per-test run stopped at its time limit, the recipe's limits.timeout_sec of %d s, or left no coverage for them: see the notes); a mutant runs them whatever lines it changes, and the map's coverage evidence is partial", n, len(run.Tests), spec.Recipe.Limits.TimeoutSec)
	}
	return res, nil
}

// reachWorthwhile reports whether a reach run can spare per-test runs: the
// plan has P2P tests, and the adapter can run a part of the selection.
func (p *Plan) reachWorthwhile(a Adapter) bool {
	if _, ok := a.Select(p, nil); !ok {
		return false
	}
	for _, s := range p.Suites {
		if s.Name == P2P && len(s.Tests) > 0 {
			return true
		}
	}
	return false
}

// narrowed is the plan of the per-test run after a reach run: every test
// of a suite other than P2P, and the P2P tests the reach run saw run a
// changed file or did not see.
func (p *Plan) narrowed(r Reacher, rr *ReachRaw) (*Plan, *Reach) {
	keep := map[string]bool{}
	for _, s := range p.Suites {
		if s.Name != P2P {
			for _, t := range s.Tests {
				keep[t] = true
			}
		}
	}
	sum := &Reach{Tests: len(p.Tests)}
	for _, t := range p.Tests {
		switch {
		case !rr.Seen[t]:
			sum.Unseen++
			keep[t] = true
		case rr.Reached[t]:
			sum.Reached++
			keep[t] = true
		}
	}
	n := *p
	n.Tests = nil
	for _, t := range p.Tests {
		if keep[t] {
			n.Tests = append(n.Tests, t)
		}
	}
	n.Selection = r.Narrow(p, n.Tests)
	sum.Measured = len(n.Tests)
	return &n, sum
}

// runReach runs a reach run.
func runReach(ctx context.Context, env sandbox.Env, a Adapter, r Reacher, p *Plan, outDir string) (*ReachRaw, error) {
	script, err := r.ReachScript(p)
	if err != nil {
		return nil, err
	}
	dir, err := runJob(ctx, env, "coverage-reach", sandbox.ReachSide, script, p, p.Spec, outDir, 1)
	if err != nil {
		return nil, err
	}
	return r.ReadReach(dir, p)
}

// runTests runs the per-test run of p and reads it.
func runTests(ctx context.Context, env sandbox.Env, a Adapter, p *Plan, spec Spec, outDir string) (*Raw, error) {
	script, err := a.Script(p)
	if err != nil {
		return nil, err
	}
	dir, err := runJob(ctx, env, "coverage", sandbox.CoverageSide, script, p, spec, outDir, len(p.Tests)+len(p.Suites)+2)
	if err != nil {
		return nil, err
	}
	raw, err := a.Read(dir, p)
	if err != nil {
		return nil, fmt.Errorf("coverage (%s): %w (logs in %s)", a.Name(), err, outDir)
	}
	for name, data := range raw.Keep {
		if err := os.WriteFile(filepath.Join(outDir, filepath.Base(name)), data, 0o644); err != nil {
			return nil, err
		}
	}
	return raw, nil
}

// runJob runs one coverage job over p's tests: the spec's patches, then
// script, with up to runs test runs in its time limit, its progress
// reported as side. It returns the raw output folder ("$cov").
func runJob(ctx context.Context, env sandbox.Env, name, side, script string, p *Plan, spec Spec, outDir string, runs int) (string, error) {
	names := make([]string, len(spec.Patches))
	files := map[string][]byte{}
	for i, pt := range spec.Patches {
		if pt.Name == "" || strings.ContainsAny(pt.Name, "/\\") || files[pt.Name] != nil {
			return "", fmt.Errorf("coverage: bad or repeated patch name %q", pt.Name)
		}
		names[i] = pt.Name
		files[pt.Name] = pt.Data
	}
	full := ApplyScript(names) + ProgressScript(spec.Progress != nil, len(p.Tests)) + "cov=\"$out/cov\"\nexport cov\nmkdir -p \"$cov\"\n" + script
	per := time.Duration(spec.Recipe.Limits.TimeoutSec+40) * time.Second
	job := sandbox.Job{Name: name, Script: full, Files: files, Timeout: time.Duration(runs)*per + 5*time.Minute, OutDir: outDir}
	if spec.Progress != nil {
		if spec.Grader != "" {
			bin, err := os.ReadFile(spec.Grader)
			if err != nil {
				return "", fmt.Errorf("%s job: grader: %w", name, err)
			}
			files[guard.GraderFile] = bin
			job.Executables = map[string]bool{guard.GraderFile: true}
		}
		var over func(string)
		ctx, over = sandbox.FollowProgress(ctx, spec.Progress, side, 1, len(p.Tests), guard.ProgressFile)
		defer func() { over(filepath.Join(outDir, guard.ProgressFile)) }()
	}
	jr, err := env.Run(ctx, job)
	if err != nil {
		return "", fmt.Errorf("%s job: %w", name, err)
	}
	if msg := ApplyError(outDir); msg != "" {
		return "", fmt.Errorf("%s job: a patch does not apply: %s", name, msg)
	}
	if jr.TimedOut {
		return "", fmt.Errorf("%s job: timed out after %s (logs in %s)", name, job.Timeout, outDir)
	}
	return filepath.Join(outDir, "cov"), nil
}

// finish computes the suites, per-test lines and spans from raw.
func finish(res *Result, p *Plan, raw *Raw) {
	target := p.Target.Lines()
	setup := raw.Setup.Intersect(target)
	res.Notes = append(res.Notes, raw.Notes...)
	res.Functions = raw.Functions
	unmeasured := map[string]bool{}
	for _, t := range raw.Unmeasured {
		unmeasured[t] = true
	}
	covered := map[string]Lines{}
	if raw.PerSuite == nil {
		res.PerTest = true
		res.Tests = map[string]Lines{}
		for _, t := range p.Tests {
			if unmeasured[t] {
				res.Unmeasured = append(res.Unmeasured, t)
				continue
			}
			res.Tests[t] = raw.PerTest[t].Intersect(target)
		}
		if setup.Count() > 0 {
			res.Setup = setup
		}
		for _, s := range p.Suites {
			c := setup
			for _, t := range s.Tests {
				c = c.Union(res.Tests[t])
			}
			covered[s.Name] = c
		}
	} else {
		for _, s := range p.Suites {
			covered[s.Name] = raw.PerSuite[s.Name].Union(setup).Intersect(target)
		}
	}
	var union Lines
	var unionTests []string
	hasF2P, hasP2P := false, false
	for _, s := range p.Suites {
		res.Suites = append(res.Suites, NewSuite(s.Name, s.Tests, target, covered[s.Name]))
		if s.Name == F2P || s.Name == P2P {
			hasF2P = hasF2P || s.Name == F2P
			hasP2P = hasP2P || s.Name == P2P
			union = union.Union(covered[s.Name])
			unionTests = append(unionTests, s.Tests...)
		}
	}
	if hasF2P && hasP2P {
		u := NewSuite(Union, unionTests, target, union)
		// The union goes right after F2P and P2P.
		i := 0
		for i < len(res.Suites) && (res.Suites[i].Name == F2P || res.Suites[i].Name == P2P) {
			i++
		}
		res.Suites = append(res.Suites[:i], append([]Suite{u}, res.Suites[i:]...)...)
	}
	all := setup
	for _, l := range covered {
		all = all.Union(l)
	}
	if hasF2P || hasP2P {
		all = union
	}
	res.Uncovered = UncoveredSpans(&res.Target, all)
	if res.Uncovered == nil {
		res.Uncovered = []Span{}
	}
}

// measured is spec with only the sources the adapter can see, the others
// listed as skipped in the target.
func measured(spec Spec, a Adapter) Spec {
	var keep []SourceFile
	var skipped []string
	for _, f := range spec.Sources {
		if slices.Contains(a.Languages(), f.Language) {
			keep = append(keep, f)
		} else {
			skipped = append(skipped, fmt.Sprintf("%s: %s lines are not seen by the %s adapter", f.Path, orUnknown(f.Language), a.Name()))
		}
	}
	spec.Sources = keep
	spec.unmeasured = skipped
	return spec
}
