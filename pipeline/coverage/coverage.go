// Package coverage measures the line coverage of a reference solution's
// executable added lines by a task's tests (issue 7; LoLBench reports 60%
// for the original F2P tests and 78.5% after augmentation).
//
// The target is the set of lines the reference solution adds to source
// files that are executable: a line is executable when a statement starts
// on it, found with tree-sitter (Executable). Blank lines, comments and
// declarations without code (imports, type and function signatures,
// constant declarations, Go package-level variables) are not.
//
// Coverage is measured with each language's real tool inside the task's
// container, by one adapter per language (one file each, listed in
// Adapters), among them:
//
//   - Go: a test binary per package built with `go test -c -cover
//     -coverpkg=<changed packages>`, run once per test with
//     -test.coverprofile, so coverage is known per test; the suites and
//     their union are unions of the per-test profiles.
//   - Python: coverage.py (`python3 -m coverage run -m pytest`) with
//     lolbench's pytest plugin (pytest_contexts.py), which names each
//     context by the test's pytest node id, so that every parametrized
//     case has its own coverage; `coverage json --show-contexts`.
//   - Java: JaCoCo per test through lolbench's JUnit Platform listener,
//     or the XML of the recipe's coverage command, per suite.
//
// Per-test coverage is measured only where it can matter (issue 32): an
// adapter that is a Reacher first runs the whole suite once to find the
// tests that run a changed file at all (Python: coverage.py over the
// changed files, a context per test; Go: `go list -deps -test`, then one
// profile per package), and the per-test run then measures the F2P tests
// and those. A run stopped at its time limit lists the tests it did not
// measure (Result.Unmeasured) and says so (Result.Partial).
//
// Per-test coverage lets the mutate stage run only the P2P tests that
// reach a mutant's lines (as PIT does) and the augment stage see which
// lines a new test adds.
package coverage

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// Files of the coverage step in a candidate folder.
const (
	Dir        = "coverage"
	ResultFile = "coverage/coverage.json"
	LogDir     = "coverage/logs"
)

// Suite names of a Result.
const (
	F2P   = "F2P"
	P2P   = "P2P"
	Union = "F2P ∪ P2P"
)

// Lines are line numbers per file: slash paths relative to the repository
// root, 1-based lines of the file after the reference solution, sorted and
// without duplicates.
type Lines map[string][]int

// Count is the number of lines.
func (l Lines) Count() int {
	n := 0
	for _, ls := range l {
		n += len(ls)
	}
	return n
}

// Has reports whether line of file is in l.
func (l Lines) Has(file string, line int) bool {
	_, ok := slices.BinarySearch(l[file], line)
	return ok
}

// Intersects reports whether l and o share a line.
func (l Lines) Intersects(o Lines) bool {
	for f, ls := range o {
		for _, n := range ls {
			if l.Has(f, n) {
				return true
			}
		}
	}
	return false
}

// Union returns the lines of l and o.
func (l Lines) Union(o Lines) Lines {
	out := Lines{}
	for _, src := range []Lines{l, o} {
		for f, ls := range src {
			out[f] = append(out[f], ls...)
		}
	}
	return out.Normalize()
}

// Intersect returns the lines of l that are in o.
func (l Lines) Intersect(o Lines) Lines {
	out := Lines{}
	for f, ls := range l {
		for _, n := range ls {
			if o.Has(f, n) {
				out[f] = append(out[f], n)
			}
		}
	}
	return out.Normalize()
}

// Minus returns the lines of l that are not in o.
func (l Lines) Minus(o Lines) Lines {
	out := Lines{}
	for f, ls := range l {
		for _, n := range ls {
			if !o.Has(f, n) {
				out[f] = append(out[f], n)
			}
		}
	}
	return out.Normalize()
}

// Normalize sorts every file's lines, drops duplicates and non-positive
// lines and removes files without lines. It returns l.
func (l Lines) Normalize() Lines {
	for f, ls := range l {
		sort.Ints(ls)
		out := ls[:0]
		for i, n := range ls {
			if n > 0 && (i == 0 || n != ls[i-1]) {
				out = append(out, n)
			}
		}
		if len(out) == 0 {
			delete(l, f)
		} else {
			l[f] = out
		}
	}
	return l
}

// Files returns the files of l, sorted.
func (l Lines) Files() []string {
	return slices.Sorted(maps.Keys(l))
}

// FileTarget is one source file of the reference solution with its added
// and executable added lines.
type FileTarget struct {
	Path     string `json:"path"`
	Language string `json:"language"`
	// Added are every line the solution adds (post-change numbering).
	Added []int `json:"added"`
	// Executable are the added lines on which a statement starts.
	Executable []int `json:"executable"`
	// Columns are, per executable line, the 1-based byte column where its
	// first statement starts; adapters whose tools report columns (Go's
	// coverage blocks) use them to pick the block of the statement.
	Columns []int `json:"columns"`
	// Inner are the added lines that are not executable but lie within a
	// statement that starts on an executable added line, each with that
	// line ([line, statement line]): a multi-line statement's later lines,
	// an else: line. A test that runs none of a statement's first line runs
	// nothing within it, so a mutant's change there is judged by the
	// statement's line.
	Inner [][2]int `json:"inner,omitempty"`
}

// Target is what coverage is measured over: the reference solution's
// executable added lines.
type Target struct {
	Files []FileTarget `json:"files"`
	// Skipped are changed source files that were not analysed (no
	// grammar, too large), with the reason.
	Skipped []string `json:"skipped,omitempty"`
}

// Lines returns the executable added lines.
func (t *Target) Lines() Lines {
	out := Lines{}
	for _, f := range t.Files {
		if len(f.Executable) > 0 {
			out[f.Path] = append([]int(nil), f.Executable...)
		}
	}
	return out.Normalize()
}

// Executable is the number of executable added lines.
func (t *Target) Executable() int {
	n := 0
	for _, f := range t.Files {
		n += len(f.Executable)
	}
	return n
}

// File returns the target of a path, or nil.
func (t *Target) File(path string) *FileTarget {
	for i := range t.Files {
		if t.Files[i].Path == path {
			return &t.Files[i]
		}
	}
	return nil
}

// Suite is the coverage of the target by one suite of tests.
type Suite struct {
	// Name is F2P, P2P, Union, or a name the caller gave (the augment
	// stage's added tests).
	Name string `json:"suite"`
	// Tests are the tests of the suite.
	Tests []string `json:"tests"`
	// Covered and Executable count target lines; Percent is their ratio
	// in percent (0 when Executable is 0).
	Covered    int     `json:"covered"`
	Executable int     `json:"executable"`
	Percent    float64 `json:"percent"`
	// Lines are the covered target lines.
	Lines Lines `json:"lines"`
}

// Span is a run of uncovered executable target lines of one file, with no
// covered executable line between them: the coverage-guided augmentation
// loop targets the large ones.
type Span struct {
	File  string `json:"file"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	// Lines is the number of executable lines in the span.
	Lines int `json:"lines"`
}

// FuncCoverage is the statement coverage of one function, as `go tool
// cover -func` prints it (Go only): covered and total statements of the
// coverage blocks inside the function.
type FuncCoverage struct {
	File     string  `json:"file"`
	Line     int     `json:"line"`
	Function string  `json:"function"`
	Covered  int     `json:"covered"`
	Total    int     `json:"total"`
	Percent  float64 `json:"percent"`
}

// Result is the coverage of a task's reference solution,
// coverage/coverage.json.
type Result struct {
	// Adapter is the language adapter ("go", "python", "jacoco"); Tool
	// says what ran ("go test -coverprofile").
	Adapter string `json:"adapter"`
	Tool    string `json:"tool"`
	Target  Target `json:"target"`
	// Suites are F2P, P2P and their union, then any suite the caller
	// added, in that order.
	Suites []Suite `json:"suites"`
	// PerTest reports whether Tests holds per-test coverage.
	PerTest bool `json:"per_test"`
	// Tests maps each measured test to the target lines it covers; a test
	// that covers nothing maps to no lines. A test the reach run saw run
	// no changed file is not measured one by one and covers nothing.
	Tests map[string]Lines `json:"tests,omitempty"`
	// Reach is what the reach run found, when the adapter has one: which
	// tests run a changed file at all, so that only those (and the F2P
	// tests) are measured one by one (issue 32 §1).
	Reach *Reach `json:"reach,omitempty"`
	// Unmeasured are tests whose per-test coverage is unknown: the run
	// stopped before them (a time limit) or wrote nothing for them.
	// Reaching counts them as reaching every line, and a map that uses
	// this result says its coverage evidence is partial.
	Unmeasured []string `json:"unmeasured,omitempty"`
	// Partial says why the result is incomplete; "" when it is whole.
	Partial string `json:"partial,omitempty"`
	// Setup are target lines run outside every test (Python module bodies
	// run when pytest collects): every suite covers them, and a mutant
	// that touches them needs every test.
	Setup Lines `json:"setup,omitempty"`
	// Uncovered are the union's uncovered spans, largest first.
	Uncovered []Span `json:"uncovered"`
	// Functions is the statement coverage of the changed files'
	// functions by the union (Go: what `go tool cover -func` prints for
	// the union's profile, restricted to the changed files).
	Functions []FuncCoverage `json:"functions,omitempty"`
	// Notes are problems that did not stop the measurement (a test the
	// adapter could not map to a coverage context).
	Notes []string `json:"notes,omitempty"`
}

// Suite returns the suite with the name, or nil.
func (r *Result) Suite(name string) *Suite {
	for i := range r.Suites {
		if r.Suites[i].Name == name {
			return &r.Suites[i]
		}
	}
	return nil
}

// statementLines returns lines with the statement line of each inner line
// (FileTarget.Inner) added, and false when a line is neither an executable
// target line nor an inner one (a declaration, a constant): no line
// coverage sees such a line being used.
func (r *Result) statementLines(lines Lines) (Lines, bool) {
	target := r.Target.Lines()
	stmts := Lines{}
	for file, ls := range lines {
		ft := r.Target.File(file)
		for _, l := range ls {
			if target.Has(file, l) {
				continue
			}
			i := -1
			if ft != nil {
				i = slices.IndexFunc(ft.Inner, func(p [2]int) bool { return p[0] == l })
			}
			if i < 0 {
				return nil, false
			}
			stmts[file] = append(stmts[file], ft.Inner[i][1])
		}
	}
	return lines.Union(stmts), true
}

// Reaching returns the tests whose per-test coverage includes any of lines
// (or the statement an inner line lies within) and every unmeasured test,
// sorted, and false when per-test coverage cannot tell: there is none, or
// lines include setup lines or lines that are neither executable target
// lines nor inner ones (statementLines). Then every test must run.
func (r *Result) Reaching(lines Lines) ([]string, bool) {
	if !r.PerTest {
		return nil, false
	}
	lines, ok := r.statementLines(lines)
	if !ok || r.Setup.Intersects(lines) {
		return nil, false
	}
	var out []string
	out = append(out, r.Unmeasured...)
	for t, l := range r.Tests {
		if l.Intersects(lines) && !slices.Contains(r.Unmeasured, t) {
			out = append(out, t)
		}
	}
	sort.Strings(out)
	return out, true
}

// Unexecuted reports whether no test executes any of lines, as far as line
// coverage can tell: every line is an executable target line or an inner
// one, none runs at setup, and the union of the suites covers none of them
// (nor the statements the inner lines lie within). A mutant that changes
// only such lines cannot change what any test observes. It does not need
// per-test coverage. With unmeasured tests nothing is known to be
// unexecuted.
func (r *Result) Unexecuted(lines Lines) bool {
	u := r.Suite(Union)
	if u == nil || len(r.Unmeasured) > 0 || lines.Count() == 0 {
		return false
	}
	lines, ok := r.statementLines(lines)
	if !ok || r.Setup.Intersects(lines) {
		return false
	}
	return !u.Lines.Intersects(lines)
}

// NewSuite computes a suite's figures from the lines its tests cover.
func NewSuite(name string, tests []string, target Lines, covered Lines) Suite {
	c := covered.Intersect(target)
	s := Suite{Name: name, Tests: append([]string{}, tests...), Covered: c.Count(), Executable: target.Count(), Lines: c}
	sort.Strings(s.Tests)
	if s.Executable > 0 {
		s.Percent = 100 * float64(s.Covered) / float64(s.Executable)
	}
	return s
}

// UncoveredSpans returns the runs of target lines not in covered, largest
// first (then by file and line).
func UncoveredSpans(target *Target, covered Lines) []Span {
	var out []Span
	for _, f := range target.Files {
		var cur *Span
		for _, n := range f.Executable {
			if covered.Has(f.Path, n) {
				cur = nil
				continue
			}
			if cur == nil {
				out = append(out, Span{File: f.Path, Start: n, End: n})
				cur = &out[len(out)-1]
			}
			cur.End = n
			cur.Lines++
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Lines != out[j].Lines {
			return out[i].Lines > out[j].Lines
		}
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Start < out[j].Start
	})
	return out
}

// Load reads a candidate's coverage/coverage.json. A candidate without one
// gives an error wrapping fs.ErrNotExist.
func Load(c *pipeline.Candidate) (*Result, error) {
	p, err := c.Path(ResultFile)
	if err != nil {
		return nil, err
	}
	var r Result
	if err := workspace.ReadJSON(p, &r); err != nil {
		return nil, fmt.Errorf("candidate %s: %w", c.ID, err)
	}
	for t, l := range r.Tests {
		r.Tests[t] = l.Normalize()
	}
	r.Setup = r.Setup.Normalize()
	for i := range r.Suites {
		r.Suites[i].Lines = r.Suites[i].Lines.Normalize()
	}
	return &r, nil
}
