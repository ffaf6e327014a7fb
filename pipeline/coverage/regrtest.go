package coverage

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
)

// regrtestAdapter measures CPython's standard library under its own test
// runner, regrtest (`./python -m test`), with the interpreter built from
// the task's tree. coverage.py cannot: Debian's is built for Python 3.11
// (its C tracer does not load into a 3.12 development build) and its data
// store needs the _sqlite3 extension, which a build without
// libsqlite3-dev lacks. lolbench ships its own tracer instead
// (regrtest_trace.py): sys.settrace, lines of the target files only,
// per test by unittest's startTest and stopTest, so each line carries the
// tests that ran it under their unittest ids, which are exactly the ids
// of regrtest's JUnit report. Python processes the tests start (tarfile's
// command line under script_helper) are traced too, for the test that
// started them. A recipe picks it with coverage.adapter: regrtest.
//
// Single tests are selected with regrtest's own arguments: the test
// modules (test.test_tarfile) and -m with each test's full id, which
// regrtest matches exactly. The recipe's test command must pass such
// items through to regrtest unchanged (docs/projects.md, "CPython").
type regrtestAdapter struct{}

func init() { Adapters = append(Adapters, regrtestAdapter{}) }

//go:embed regrtest_trace.py
var regrtestTracer string

// regrtestTraceFile is the tracer's name in the job's coverage folder.
const regrtestTraceFile = "lolbench_regrtest_trace.py"

// Name implements Adapter.
func (regrtestAdapter) Name() string { return recipe.CoverageRegrtest }

// Languages implements Adapter.
func (regrtestAdapter) Languages() []string { return []string{"Python"} }

// Tool implements Adapter.
func (regrtestAdapter) Tool() string {
	return "lolbench's sys.settrace tracer around CPython's regrtest (per test by unittest's startTest and stopTest, Python subprocesses included)"
}

// regrtestCommand matches the interpreter that runs regrtest in a test
// command: "./python -m test", "python3 -m test".
var regrtestCommand = regexp.MustCompile(`(^|[;&|(]\s*|\s)((?:\S*/)?python[0-9.]*)\s+-m\s+test(\s|$)`)

// regrtestTraced rewrites a regrtest command to run under the tracer.
func regrtestTraced(command string) (string, error) {
	loc := regrtestCommand.FindStringSubmatchIndex(command)
	if loc == nil {
		return "", fmt.Errorf("regrtest coverage: the test command %q runs no regrtest (./python -m test) to trace", command)
	}
	py := command[loc[4]:loc[5]]
	return command[:loc[4]] + py + ` "$cov/` + regrtestTraceFile + `" -m test` + command[loc[6]:], nil
}

// Script implements Adapter.
func (regrtestAdapter) Script(p *Plan) (string, error) {
	cmd, err := regrtestTraced(p.Recipe.Test.Command)
	if err != nil {
		return "", err
	}
	if strings.Contains(regrtestTracer, "\nLOLBENCH_TRACER_EOF\n") {
		return "", fmt.Errorf("regrtest coverage: the tracer holds its own here-document delimiter")
	}
	r := p.Recipe
	items := make([]string, len(p.Selection))
	for i, s := range p.Selection {
		items[i] = testcmd.Quote(s)
	}
	cmd = strings.ReplaceAll(cmd, recipe.Placeholder, strings.Join(items, " "))
	var files []string
	for _, f := range p.Target.Files {
		files = append(files, f.Path)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "cat >\"$cov/%s\" <<'LOLBENCH_TRACER_EOF'\n%s", regrtestTraceFile, regrtestTracer)
	if !strings.HasSuffix(regrtestTracer, "\n") {
		b.WriteString("\n")
	}
	b.WriteString("LOLBENCH_TRACER_EOF\n")
	fmt.Fprintf(&b, "LOLBENCH_TRACE_OUT=\"$cov/trace\" LOLBENCH_TRACE_ROOT=\"$PWD\" LOLBENCH_TRACE_FILES=%s\nexport LOLBENCH_TRACE_OUT LOLBENCH_TRACE_ROOT LOLBENCH_TRACE_FILES\n", testcmd.Quote(strings.Join(files, "\n")))
	b.WriteString("lolbench_count \"$cov/run.log\"\n")
	fmt.Fprintf(&b, "if command -v timeout >/dev/null 2>&1; then\n\ttimeout -k 10 %d sh -c %s >\"$cov/run.log\" 2>&1 </dev/null\n", r.Limits.TimeoutSec, testcmd.Quote(cmd))
	fmt.Fprintf(&b, "else\n\tsh -c %s >\"$cov/run.log\" 2>&1 </dev/null\nfi\n", testcmd.Quote(cmd))
	b.WriteString("echo $? >\"$cov/run.exit\"\nlolbench_count_end\n")
	return b.String(), nil
}

// regrtestTrace is one process's trace-PID.json.
type regrtestTrace struct {
	PID   int      `json:"pid"`
	Argv  []string `json:"argv"`
	Notes []string `json:"notes"`
	// Tests maps a unittest id ("" for setup) to lines per repository
	// path.
	Tests map[string]map[string][]int `json:"tests"`
}

// maxTraceBytes caps one process's trace file: lines of a few files per
// test, megabytes at most.
const maxTraceBytes = 256 << 20

// Read implements Adapter.
func (regrtestAdapter) Read(dir string, p *Plan) (*Raw, error) {
	if b, err := os.ReadFile(filepath.Join(dir, "run.exit")); err == nil {
		if code := strings.TrimSpace(string(b)); code == "124" || code == "137" {
			return nil, fmt.Errorf("the coverage run timed out after %d s (the recipe's limits.timeout_sec): raise limits.timeout_sec (run.log shows how far it got)", p.Recipe.Limits.TimeoutSec)
		}
	}
	names, err := filepath.Glob(filepath.Join(dir, "trace", "trace-*.json"))
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		log, _ := os.ReadFile(filepath.Join(dir, "run.log"))
		return nil, fmt.Errorf("the tracer wrote no trace (trace/trace-*.json): %s", lastLines(string(log), 1))
	}
	sort.Strings(names)
	want := map[string]bool{}
	for _, t := range p.Tests {
		want[t] = true
	}
	raw := &Raw{PerTest: map[string]Lines{}, Setup: Lines{}}
	seenNote := map[string]bool{}
	for _, name := range names {
		st, err := os.Stat(name)
		if err != nil {
			return nil, err
		}
		if st.Size() > maxTraceBytes {
			return nil, fmt.Errorf("%s: %d bytes, more than the cap of %d", filepath.Base(name), st.Size(), maxTraceBytes)
		}
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		var tr regrtestTrace
		if err := json.Unmarshal(data, &tr); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Base(name), err)
		}
		for _, n := range tr.Notes {
			if !seenNote[n] {
				seenNote[n] = true
				raw.Notes = append(raw.Notes, n)
			}
		}
		for test, files := range tr.Tests {
			var dst Lines
			switch {
			case test == "":
				dst = raw.Setup
			case want[test]:
				if raw.PerTest[test] == nil {
					raw.PerTest[test] = Lines{}
				}
				dst = raw.PerTest[test]
			default:
				continue // a test of no suite (skipped, or not F2P/P2P)
			}
			for f, lines := range files {
				rel := path.Clean(filepath.ToSlash(f))
				if p.Target.File(rel) == nil {
					continue
				}
				for _, l := range lines {
					if l <= 0 {
						return nil, fmt.Errorf("%s: %s: bad line %d", filepath.Base(name), f, l)
					}
				}
				dst[rel] = append(dst[rel], lines...)
			}
		}
	}
	for _, l := range raw.PerTest {
		l.Normalize()
	}
	raw.Setup.Normalize()
	var missing []string
	for _, t := range p.Tests {
		if _, ok := raw.PerTest[t]; !ok {
			missing = append(missing, t)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		raw.Notes = append(raw.Notes, fmt.Sprintf("%d test(s) ran no line of the changed files, e.g. %s", len(missing), missing[0]))
	}
	return raw, nil
}

// regrtestModule is the test module of a unittest id: all but its class
// and method ("test.test_tarfile" of "test.test_tarfile.TestX.test_y").
func regrtestModule(id string) (string, bool) {
	if id == "" || strings.ContainsAny(id, " \t\n/[(:#") || strings.HasPrefix(id, "-") {
		return "", false
	}
	el := strings.Split(id, ".")
	if len(el) < 3 {
		return "", false
	}
	for _, e := range el {
		if e == "" {
			return "", false
		}
	}
	return strings.Join(el[:len(el)-2], "."), true
}

// Select implements Adapter: the tests' modules, then -m and each test's
// id.
func (regrtestAdapter) Select(p *Plan, tests []string) ([]string, bool) {
	if _, err := regrtestTraced(p.Recipe.Test.Command); err != nil {
		return nil, false
	}
	mods := map[string]bool{}
	ids := append([]string(nil), tests...)
	sort.Strings(ids)
	for _, t := range ids {
		m, ok := regrtestModule(t)
		if !ok {
			return nil, false
		}
		mods[m] = true
	}
	out := []string{}
	for m := range mods {
		out = append(out, m)
	}
	sort.Strings(out)
	for _, t := range ids {
		out = append(out, "-m", t)
	}
	return out, true
}

// BuildCheck implements Adapter: the changed files parse with the
// interpreter under test when the tree has one built (./python), which
// reads the new syntax of its own version; else with python3.
func (regrtestAdapter) BuildCheck(files []string) string {
	check := pythonAdapter{}.BuildCheck(files)
	if check == "" {
		return ""
	}
	return `py=python3; if [ -x ./python ]; then py=./python; fi; "$py"` + strings.TrimPrefix(check, "python3")
}

// Support implements Adapter.
func (regrtestAdapter) Support() Support {
	return Support{PerTest: true, SingleTest: "regrtest's test modules and -m with unittest ids (test.test_x.TestK.test_m)"}
}
