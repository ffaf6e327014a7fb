package coverage

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
)

// pythonAdapter measures Python with coverage.py: the recipe's pytest
// command runs once under `coverage run` with the test_function dynamic
// context, so every executed line carries the tests that ran it; `coverage
// json --show-contexts` writes them out. Lines run outside every test
// (module bodies at collection) have the empty context: they are setup.
type pythonAdapter struct{}

// Name implements Adapter.
func (pythonAdapter) Name() string { return "python" }

// Languages implements Adapter.
func (pythonAdapter) Languages() []string { return []string{"Python"} }

// Tool implements Adapter.
func (pythonAdapter) Tool() string {
	return "coverage.py (coverage run, dynamic_context = test_function; coverage json --show-contexts)"
}

// pytestCommand matches the start of a pytest run in a test command:
// "python3 -m pytest", "python -m pytest" or a bare "pytest".
var pytestCommand = regexp.MustCompile(`(^|[;&|(]\s*|\s)((?:\S*/)?python[0-9.]*\s+-m\s+pytest|pytest)(\s|$)`)

// coverageCommand rewrites a pytest command to run under coverage.py.
func coverageCommand(command string) (string, error) {
	loc := pytestCommand.FindStringSubmatchIndex(command)
	if loc == nil {
		return "", fmt.Errorf("python coverage: the test command %q runs no pytest (python3 -m pytest or pytest) to run under coverage.py", command)
	}
	runner := command[loc[4]:loc[5]]
	py := "python3"
	if i := strings.Index(runner, " -m"); i >= 0 {
		py = strings.TrimSpace(runner[:i])
	}
	repl := py + ` -m coverage run --rcfile="$cov/coveragerc" -m pytest`
	return command[:loc[4]] + repl + command[loc[5]:], nil
}

// Script implements Adapter.
func (pythonAdapter) Script(p *Plan) (string, error) {
	cmd, err := coverageCommand(p.Recipe.Test.Command)
	if err != nil {
		return "", err
	}
	r := p.Recipe
	items := make([]string, len(p.Selection))
	for i, s := range p.Selection {
		items[i] = testcmd.Quote(s)
	}
	cmd = strings.ReplaceAll(cmd, recipe.Placeholder, strings.Join(items, " "))
	var b strings.Builder
	b.WriteString("printf '[run]\\ndynamic_context = test_function\\nrelative_files = True\\ndata_file = %s/data\\n' \"$cov\" >\"$cov/coveragerc\"\n")
	b.WriteString("lolbench_count \"$cov/run.log\"\n")
	fmt.Fprintf(&b, "if command -v timeout >/dev/null 2>&1; then\n\ttimeout -k 10 %d sh -c %s >\"$cov/run.log\" 2>&1 </dev/null\n", r.Limits.TimeoutSec, testcmd.Quote(cmd))
	fmt.Fprintf(&b, "else\n\tsh -c %s >\"$cov/run.log\" 2>&1 </dev/null\nfi\n", testcmd.Quote(cmd))
	b.WriteString("echo $? >\"$cov/run.exit\"\nlolbench_count_end\n")
	b.WriteString("python3 -m coverage json --rcfile=\"$cov/coveragerc\" --show-contexts -o \"$cov/coverage.json\" >\"$cov/json.log\" 2>&1\n")
	return b.String(), nil
}

// pyReport is the part of coverage.py's JSON report the adapter reads.
type pyReport struct {
	Files map[string]struct {
		ExecutedLines []int               `json:"executed_lines"`
		Contexts      map[string][]string `json:"contexts"`
	} `json:"files"`
}

// pyContextKey turns a junit test id ("tests.test_x.TestK::test_m[a-b]")
// into the dotted name coverage.py's test_function context has for it,
// parameters dropped ("tests.test_x.TestK.test_m"); the context's module
// may be shorter (pytest's rootdir-relative import): contexts are matched
// as dotted suffixes.
func pyContextKey(id string) string {
	cls, name, ok := strings.Cut(id, "::")
	if !ok {
		name, cls = id, ""
	}
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	name = strings.ReplaceAll(name, "::", ".")
	if cls == "" {
		return name
	}
	return cls + "." + name
}

// Read implements Adapter.
func (pythonAdapter) Read(dir string, p *Plan) (*Raw, error) {
	// A run that timeout(1) stopped (124, or 137 after -k's SIGKILL) leaves
	// coverage.py's data file half written, and the JSON report empty or
	// missing: say that, not what the JSON parser makes of it.
	if b, err := os.ReadFile(filepath.Join(dir, "run.exit")); err == nil {
		if code := strings.TrimSpace(string(b)); code == "124" || code == "137" {
			return nil, fmt.Errorf("the coverage run timed out after %d s (the recipe's limits.timeout_sec); coverage.py's per-test contexts make a run slower than the tests alone: raise limits.timeout_sec (run.log shows how far it got)", p.Recipe.Limits.TimeoutSec)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "coverage.json"))
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "json.log"))
		return nil, fmt.Errorf("coverage.py wrote no JSON report: %v: %s", err, firstLine(strings.TrimSpace(string(log))))
	}
	var rep pyReport
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, fmt.Errorf("coverage.json: %w", err)
	}
	// Contexts to tests, by dotted suffix.
	keys := map[string][]string{}
	for _, t := range p.Tests {
		k := pyContextKey(t)
		keys[k] = append(keys[k], t)
	}
	match := map[string][]string{}
	testsOf := func(ctx string) []string {
		if ts, ok := match[ctx]; ok {
			return ts
		}
		var out []string
		for k, ts := range keys {
			if k == ctx || strings.HasSuffix(k, "."+ctx) {
				out = append(out, ts...)
			}
		}
		match[ctx] = out
		return out
	}
	raw := &Raw{PerTest: map[string]Lines{}, Setup: Lines{}}
	for name, f := range rep.Files {
		rel := path.Clean(filepath.ToSlash(name))
		if p.Target.File(rel) == nil {
			continue
		}
		for lineStr, ctxs := range f.Contexts {
			line, err := strconv.Atoi(lineStr)
			if err != nil || line <= 0 {
				return nil, fmt.Errorf("coverage.json: %s: bad line %q", name, lineStr)
			}
			for _, c := range ctxs {
				if c == "" {
					raw.Setup[rel] = append(raw.Setup[rel], line)
					continue
				}
				for _, t := range testsOf(c) {
					if raw.PerTest[t] == nil {
						raw.PerTest[t] = Lines{}
					}
					raw.PerTest[t][rel] = append(raw.PerTest[t][rel], line)
				}
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
		raw.Notes = append(raw.Notes, fmt.Sprintf("%d test(s) reached no line of the changed files (or ran under another context name), e.g. %s", len(missing), missing[0]))
	}
	return raw, nil
}

// pytestNodeID turns a junit test id into a pytest node id:
// "tests.test_x.TestK::test_m[a]" is tests/test_x.py::TestK::test_m[a].
// The module is the longest dotted prefix that exists as a .py file, or,
// without exists, the parts before the first one that starts with an
// upper-case letter (a class).
func pytestNodeID(id string, exists func(string) bool) (string, bool) {
	cls, name, ok := strings.Cut(id, "::")
	if !ok || cls == "" || name == "" {
		return "", false
	}
	parts := strings.Split(cls, ".")
	cut := -1
	if exists != nil {
		for k := len(parts); k >= 1; k-- {
			if exists(strings.Join(parts[:k], "/") + ".py") {
				cut = k
				break
			}
		}
	}
	if cut < 0 {
		cut = len(parts)
		for k, s := range parts {
			if k > 0 && s != "" && s[0] >= 'A' && s[0] <= 'Z' {
				cut = k
				break
			}
		}
	}
	node := strings.Join(parts[:cut], "/") + ".py"
	for _, c := range parts[cut:] {
		node += "::" + c
	}
	return node + "::" + name, true
}

// Select implements Adapter.
func (pythonAdapter) Select(p *Plan, tests []string) ([]string, bool) {
	if _, err := coverageCommand(p.Recipe.Test.Command); err != nil || p.Recipe.Test.Select == recipe.SelectNone {
		return nil, false
	}
	out := []string{}
	seen := map[string]bool{}
	for _, t := range tests {
		n, ok := pytestNodeID(t, p.Exists)
		if !ok {
			return nil, false
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out, true
}

// BuildCheck implements Adapter.
func (pythonAdapter) BuildCheck(files []string) string {
	var py []string
	for _, f := range files {
		if strings.HasSuffix(f, ".py") {
			py = append(py, testcmd.Quote(f))
		}
	}
	if len(py) == 0 {
		return ""
	}
	// Parse, not py_compile: nothing is written into the tree. A file the
	// mutant removes is not there to check.
	return `python3 -c 'import ast, os, sys
for f in sys.argv[1:]:
    if os.path.exists(f):
        ast.parse(open(f, "rb").read(), f)' ` + strings.Join(py, " ")
}

// Support implements Adapter.
func (pythonAdapter) Support() Support {
	return Support{PerTest: true, SingleTest: "pytest node ids (tests/test_x.py::TestK::test_m)"}
}
