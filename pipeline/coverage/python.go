package coverage

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
)

// pythonAdapter measures Python with coverage.py: the recipe's pytest
// command runs once under `coverage run`, measuring the changed source
// files only, with lolbench's pytest plugin (pytest_contexts.py) putting
// each test in a coverage.py context named by its pytest node id, so every
// executed line carries the tests that ran it (parametrized cases apart);
// `coverage json --show-contexts` writes them out. Lines run outside every
// test (module bodies at collection) have the empty context: they are
// setup.
//
// Its reach run (Reacher) runs the whole selection the same way with one
// context per test file: only the tests of files that run a changed file,
// and the F2P tests, are then run with a context per test.
type pythonAdapter struct{}

//go:embed pytest_contexts.py
var pytestContextsPlugin string

// pytestPlugin is the plugin's module name, in the job's coverage folder.
const pytestPlugin = "lolbench_pytest_contexts"

// Name implements Adapter.
func (pythonAdapter) Name() string { return "python" }

// Languages implements Adapter.
func (pythonAdapter) Languages() []string { return []string{"Python"} }

// Tool implements Adapter.
func (pythonAdapter) Tool() string {
	return "coverage.py (coverage run over the changed files, a context per pytest node id; coverage json --show-contexts)"
}

// pytestCommand matches the start of a pytest run in a test command:
// "python3 -m pytest", "python -m pytest" or a bare "pytest".
var pytestCommand = regexp.MustCompile(`(^|[;&|(]\s*|\s)((?:\S*/)?python[0-9.]*\s+-m\s+pytest|pytest)(\s|$)`)

// coverageCommand rewrites a pytest command to run under coverage.py with
// lolbench's plugin.
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
	repl := py + ` -m coverage run --rcfile="$cov/coveragerc" -m pytest -p ` + pytestPlugin
	return command[:loc[4]] + repl + command[loc[5]:], nil
}

// Script implements Adapter.
func (pythonAdapter) Script(p *Plan) (string, error) { return pythonScript(p, "test") }

// ReachScript implements Reacher.
func (pythonAdapter) ReachScript(p *Plan) (string, error) { return pythonScript(p, "file") }

// pythonScript runs the plan's selection under coverage.py with a context
// per test or per test file (pytest_contexts.py).
func pythonScript(p *Plan, contexts string) (string, error) {
	cmd, err := coverageCommand(p.Recipe.Test.Command)
	if err != nil {
		return "", err
	}
	if strings.Contains(pytestContextsPlugin, "\nLOLBENCH_PLUGIN_EOF\n") {
		return "", fmt.Errorf("python coverage: the plugin holds its own here-document delimiter")
	}
	r := p.Recipe
	items := make([]string, len(p.Selection))
	for i, s := range p.Selection {
		items[i] = testcmd.Quote(s)
	}
	cmd = strings.ReplaceAll(cmd, recipe.Placeholder, strings.Join(items, " "))
	var b strings.Builder
	fmt.Fprintf(&b, "cat >\"$cov/%s.py\" <<'LOLBENCH_PLUGIN_EOF'\n%sLOLBENCH_PLUGIN_EOF\n", pytestPlugin, pytestContextsPlugin)
	// Only the changed files are measured: the tests and the rest of the
	// project run untraced.
	b.WriteString("printf '[run]\\nrelative_files = True\\ndata_file = %s/data\\ninclude =\\n' \"$cov\" >\"$cov/coveragerc\"\n")
	for _, f := range p.Target.Files {
		fmt.Fprintf(&b, "printf '    %%s/%%s\\n' \"$PWD\" %s >>\"$cov/coveragerc\"\n", testcmd.Quote(f.Path))
	}
	fmt.Fprintf(&b, "PYTHONPATH=\"$cov${PYTHONPATH:+:$PYTHONPATH}\" LOLBENCH_COV_CONTEXT=%s LOLBENCH_COV_DONE=\"$cov/done.txt\"\nexport PYTHONPATH LOLBENCH_COV_CONTEXT LOLBENCH_COV_DONE\n: >\"$cov/done.txt\"\n", contexts)
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

// pyRun is what a python coverage run left: its report (empty when no
// line of a changed file ran), the contexts it finished, and whether it
// stopped at its time limit.
type pyRun struct {
	report   pyReport
	done     map[string]bool
	timedOut bool
}

func readPyRun(dir string) (*pyRun, error) {
	run := &pyRun{done: map[string]bool{}}
	// timeout(1) stops the run with 124 (the plugin saves the data on its
	// SIGTERM and exits 124), or 137 after -k's SIGKILL.
	if b, err := os.ReadFile(filepath.Join(dir, "run.exit")); err == nil {
		code := strings.TrimSpace(string(b))
		run.timedOut = code == "124" || code == "137"
	}
	if b, err := os.ReadFile(filepath.Join(dir, "done.txt")); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if l != "" {
				run.done[l] = true
			}
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "coverage.json"))
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "json.log"))
		msg := strings.TrimSpace(string(log))
		// coverage.py says so when no measured file ran at all.
		if strings.Contains(msg, "No data to report") {
			return run, nil
		}
		if run.timedOut && len(run.done) == 0 {
			return nil, fmt.Errorf("the coverage run timed out before its first test ended (the recipe's limits.timeout_sec): raise limits.timeout_sec (run.log shows how far it got)")
		}
		return nil, fmt.Errorf("coverage.py wrote no JSON report: %v: %s", err, firstLine(msg))
	}
	if err := json.Unmarshal(data, &run.report); err != nil {
		return nil, fmt.Errorf("coverage.json: %w", err)
	}
	return run, nil
}

// pyNodes matches the contexts of a run (pytest node ids or their test
// files) to the plan's test ids. pytest names a node relative to its
// rootdir; when that is not the repository root, a context is matched as a
// path suffix of a test's node id.
type pyNodes struct {
	exact  map[string][]string // node id or file -> test ids
	byBase map[string][]string // the same keyed from the file's base name
	cache  map[string][]string
}

func newPyNodes(p *Plan, tests []string, byFile bool) *pyNodes {
	n := &pyNodes{exact: map[string][]string{}, byBase: map[string][]string{}, cache: map[string][]string{}}
	for _, t := range tests {
		node, ok := pytestNodeID(t, p.Exists)
		if !ok {
			continue
		}
		if byFile {
			node, _, _ = strings.Cut(node, "::")
		}
		n.exact[node] = append(n.exact[node], t)
		n.byBase[path.Base(node)] = append(n.byBase[path.Base(node)], node)
	}
	return n
}

// tests returns the test ids of a context.
func (n *pyNodes) tests(ctx string) []string {
	if ts, ok := n.cache[ctx]; ok {
		return ts
	}
	out := n.exact[ctx]
	if out == nil {
		file, rest, _ := strings.Cut(ctx, "::")
		key := path.Base(file)
		if rest != "" {
			key += "::" + rest
		}
		for _, node := range n.byBase[key] {
			if strings.HasSuffix(node, "/"+ctx) {
				out = append(out, n.exact[node]...)
			}
		}
	}
	n.cache[ctx] = out
	return out
}

// Read implements Adapter.
func (pythonAdapter) Read(dir string, p *Plan) (*Raw, error) {
	run, err := readPyRun(dir)
	if err != nil {
		return nil, err
	}
	nodes := newPyNodes(p, p.Tests, false)
	raw := &Raw{PerTest: map[string]Lines{}, Setup: Lines{}}
	for name, f := range run.report.Files {
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
				for _, t := range nodes.tests(c) {
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
	if run.timedOut {
		finished := map[string]bool{}
		for c := range run.done {
			for _, t := range nodes.tests(c) {
				finished[t] = true
			}
		}
		for _, t := range p.Tests {
			if !finished[t] {
				raw.Unmeasured = append(raw.Unmeasured, t)
			}
		}
	}
	var missing []string
	for _, t := range p.Tests {
		if _, ok := raw.PerTest[t]; !ok {
			missing = append(missing, t)
		}
	}
	if n := len(missing) - len(raw.Unmeasured); n > 0 {
		sort.Strings(missing)
		raw.Notes = append(raw.Notes, fmt.Sprintf("%d test(s) reached no line of the changed files (or ran under another node id), e.g. %s", n, firstNotIn(missing, raw.Unmeasured)))
	}
	return raw, nil
}

// ReadReach implements Reacher.
func (pythonAdapter) ReadReach(dir string, p *Plan) (*ReachRaw, error) {
	run, err := readPyRun(dir)
	if err != nil {
		return nil, err
	}
	nodes := newPyNodes(p, p.Tests, true)
	rr := &ReachRaw{Reached: map[string]bool{}, Seen: map[string]bool{}, Setup: Lines{}}
	for name, f := range run.report.Files {
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
					rr.Setup[rel] = append(rr.Setup[rel], line)
					continue
				}
				for _, t := range nodes.tests(c) {
					rr.Reached[t] = true
				}
			}
		}
	}
	rr.Setup.Normalize()
	for c := range run.done {
		for _, t := range nodes.tests(c) {
			rr.Seen[t] = true
		}
	}
	if run.timedOut {
		rr.Notes = append(rr.Notes, fmt.Sprintf("the reach run stopped at its time limit (%d s): the tests of the test files it did not finish are measured one by one", p.Recipe.Limits.TimeoutSec))
	}
	return rr, nil
}

// Narrow implements Reacher: the test files of the tests.
func (pythonAdapter) Narrow(p *Plan, tests []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, t := range tests {
		node, ok := pytestNodeID(t, p.Exists)
		if !ok {
			return p.Selection
		}
		file, _, _ := strings.Cut(node, "::")
		if !seen[file] {
			seen[file] = true
			out = append(out, file)
		}
	}
	sort.Strings(out)
	return out
}

// firstNotIn is the first of list not in not.
func firstNotIn(list, not []string) string {
	for _, s := range list {
		if !slices.Contains(not, s) {
			return s
		}
	}
	return ""
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
