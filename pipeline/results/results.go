// Package results turns the output of a test run into per-test statuses, and
// judges a run by its log and its exit status together (task construction,
// paper §3.3: the fail-to-pass and pass-to-pass lists are computed from these
// statuses, so a parser that invents a pass invents a task).
//
// A parser is one small file and one line in Registry. Every parser reads its
// input as a stream (ParseReader) and never holds more than one line, or one
// XML token, of it at a time besides the results; Parse is the same over a
// byte slice. Input is hostile: arbitrary bytes never panic, invalid UTF-8 is
// replaced, ANSI colour codes are stripped, over-long lines are cut.
//
// Test ids (Result.Name) are the ones the F2P/P2P lists use, and they are kept
// stable across runs of the same command:
//
//   - junit: "classname::name", or just the one that is set; a suite whose
//     counters report failures none of its test cases shows gets
//     "suitename [suite]" (error).
//   - go-json: "importpath.TestName/sub" (subtest names as go test prints them,
//     spaces already turned into "_"); a package that failed without any
//     failing test (build failure, TestMain exit, timeout in init) gets
//     "importpath [package]" (error).
//   - cargo: "binary::path::to::test", where binary is the test executable's
//     name without cargo's hash ("tinycrate", "integration") or the crate of a
//     Doc-tests section; doctests keep rustdoc's name
//     ("tinycrate::src/lib.rs - add (line 3)"). A crate that did not compile
//     gets "crate [build]", a test binary that crashed without reporting a
//     failing test gets "binary [binary]" (both error). Capture cargo's
//     stderr with stdout (2>&1): the "Running" headers are on stderr.
//   - pytest-ra: pytest's node id ("tests/test_x.py::TestK::test_m[a b]");
//     skips are reported by pytest by location, so a skipped test is
//     "path:line" (one entry for the "[N]" skips there).
//
// Within one run a test id appears once: when the log reports it more than
// once (reruns, -count=2, concatenated reports, a forged line), the worst
// status wins, in the order error > failed > passed > skipped. A forged
// "pass" therefore never hides a real failure.
//
// The parsers report every test they see, Go parents and subtests alike;
// Leaves (leaves.go) then keeps the subtests of a Go test in its place,
// passing a parent's own failure down to them, and every run is graded on
// those leaves.
//
// The log alone never makes a run pass: Judge also weighs the exit status
// (see judge.go).
package results

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"unicode/utf8"
)

// Status is the outcome of one test.
type Status string

// The four statuses. Their order of severity, used whenever two reports of
// one test disagree, is Error > Failed > Passed > Skipped.
const (
	Passed  Status = "passed"
	Failed  Status = "failed"
	Error   Status = "error"
	Skipped Status = "skipped"
)

// Conflicting is the status of a test that one run's log reports both
// passed and failed, where the format prints one verdict per test and run
// (libtest): a forged log, since no honest run does that. It ranks above
// every other status, so it is never a pass; a canary with it is a canary
// that passed (grade).
const Conflicting Status = "conflicting"

// severity ranks statuses for the worst-wins rule; unknown statuses rank
// highest so that they are never silently taken for a pass.
func (s Status) severity() int {
	switch s {
	case Skipped:
		return 1
	case Passed:
		return 2
	case Failed:
		return 3
	case Error:
		return 4
	}
	return 5
}

// Worse returns the more severe of a and b (error > failed > passed > skipped).
func Worse(a, b Status) Status {
	if b.severity() > a.severity() {
		return b
	}
	return a
}

// Result is the status of one test in one run.
type Result struct {
	Name   string `json:"name"`
	Status Status `json:"status"`
}

// Parser reads one kind of test output.
type Parser interface {
	// Name is the format's name in recipes and on the command line.
	Name() string
	// Parse parses a whole log. Results are sorted by Name, one per Name.
	// On malformed input it returns what it could read and an error; a
	// caller must then not treat the run as passed.
	Parse(data []byte) ([]Result, error)
	// ParseReader is Parse over a stream, for logs too big to hold.
	ParseReader(r io.Reader) ([]Result, error)
}

// Registry lists the parsers, one per format. Adding a format means one file
// and one line here (and a testdata log for the registry test).
var Registry = []Parser{
	JUnit{},
	GoJSON{},
	Cargo{},
	PytestRA{},
}

// Formats returns the registered format names, in Registry order.
func Formats() []string {
	names := make([]string, len(Registry))
	for i, p := range Registry {
		names[i] = p.Name()
	}
	return names
}

// Lookup returns the parser for format.
func Lookup(format string) (Parser, error) {
	for _, p := range Registry {
		if p.Name() == format {
			return p, nil
		}
	}
	return nil, fmt.Errorf("unknown test-result format %q (known: %s)", format, strings.Join(Formats(), ", "))
}

// ParseFile parses the log at path in the given format, streaming it from
// disk so that a log of hundreds of megabytes is never held in memory.
func ParseFile(format, path string) ([]Result, error) {
	p, err := Lookup(format)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	defer f.Close()
	res, err := p.ParseReader(f)
	if err != nil {
		return res, fmt.Errorf("parse %s: %w", path, err)
	}
	return res, nil
}

// Merge joins the results of several reports of one run (a folder of JUnit
// files, several go test invocations) into one list: one entry per name, the
// worst status winning, sorted by name.
func Merge(lists ...[]Result) []Result {
	var c collector
	for _, l := range lists {
		for _, r := range l {
			c.add(r.Name, r.Status)
		}
	}
	return c.results()
}

// maxName caps a test id: a hostile log could otherwise make one id as long
// as a line. Real ids are far shorter.
const maxName = 4096

// collector gathers results with the worst-wins rule. With oneVerdict,
// a test reported both passed and failed (or errored) is Conflicting.
type collector struct {
	index      map[string]int
	list       []Result
	oneVerdict bool
}

// add records status for name; names are cleaned (valid UTF-8, trimmed,
// capped) so that they survive a JSON round trip unchanged.
func (c *collector) add(name string, s Status) {
	name = cleanName(name)
	if name == "" {
		return
	}
	if c.index == nil {
		c.index = map[string]int{}
	}
	if i, ok := c.index[name]; ok {
		old := c.list[i].Status
		if c.oneVerdict && (old == Passed && bad(s) || bad(old) && s == Passed) {
			s = Conflicting
		}
		c.list[i].Status = Worse(old, s)
		return
	}
	c.index[name] = len(c.list)
	c.list = append(c.list, Result{Name: name, Status: s})
}

// results returns the gathered results sorted by name (never nil).
func (c *collector) results() []Result {
	out := make([]Result, len(c.list))
	copy(out, c.list)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// cleanName makes a test id safe to store and compare.
func cleanName(name string) string {
	name = strings.TrimSpace(name)
	if len(name) > maxName {
		n := maxName
		for n > 0 && !utf8.RuneStart(name[n]) {
			n--
		}
		name = name[:n]
	}
	return strings.ToValidUTF8(name, "\uFFFD")
}

// bad reports whether s counts against a run.
func bad(s Status) bool { return s == Failed || s == Error }
