package rules

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/lolbench/lolbench/internal/testrepo"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/syntax"
)

// The rule fixtures live in testdata/rNN/*.md. Each is a mapping artifact
// for the small project in testdata/fixture (ep.md, ep.rst, base/ and the
// PR overlay pr/), and carries its expectations inline, on the offending
// line:
//
//	<!-- want R07 "regexp" -->      a violation of rule 7 at this line
//	<!-- want R01@0 "regexp" -->    a violation of rule 1 with no artifact line
//	<!-- forward R26 S8 "regexp" --> rule 26 forwards to S8
//
// The harness runs every rule on every fixture, with the EP in Markdown and
// in reStructuredText, and fails on missing and on unexpected findings. A
// case X.md may bring its own EP as X.ep.md and X.ep.rst. A folder
// testdata/rNN/NAME/ holding base/ and pr/ is a project of its own, with
// its EP as ep.md (and ep.rst), for the cases NAME/*.md: a change the
// shared project does not have (rule 28's class body shared member by
// member).

var wantRE = regexp.MustCompile(`<!--\s*(want|forward)\s+R(\d+)(@0)?\s+(?:(S\d)\s+)?"((?:[^"\\]|\\.)*)"\s*-->`)

type expectation struct {
	forward bool
	rule    int
	line    int
	to      string
	re      *regexp.Regexp
	raw     string
}

func parseExpectations(t *testing.T, path string) []expectation {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []expectation
	for i, line := range strings.Split(string(data), "\n") {
		for _, m := range wantRE.FindAllStringSubmatch(line, -1) {
			rule, _ := strconv.Atoi(m[2])
			pattern, err := strconv.Unquote(`"` + m[5] + `"`)
			if err != nil {
				t.Fatalf("%s:%d: bad expectation string: %v", path, i+1, err)
			}
			re, err := regexp.Compile(pattern)
			if err != nil {
				t.Fatalf("%s:%d: bad expectation regexp: %v", path, i+1, err)
			}
			e := expectation{forward: m[1] == "forward", rule: rule, line: i + 1, to: m[4], re: re, raw: m[0]}
			if m[3] == "@0" {
				e.line = 0
			}
			out = append(out, e)
		}
	}
	return out
}

// TestMain removes the fixture repositories after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	for _, p := range projects {
		if p.repo != "" {
			os.RemoveAll(p.repo)
		}
	}
	os.Exit(code)
}

// sharedProject is the project of every case outside a project folder.
const sharedProject = "testdata/fixture"

// project is a fixture project's repository, change and scopes.
type project struct {
	once   sync.Once
	repo   string
	change *diff.Change
	scopes *syntax.Result
	err    error
}

var (
	projectsMu sync.Mutex
	projects   = map[string]*project{}
)

// fixtureInputs is the shared project's change and scopes.
func fixtureInputs(t *testing.T) (*diff.Change, *syntax.Result) {
	return projectInputs(t, sharedProject)
}

// projectInputs builds a fixture project's repository with go-git (tags
// base and head, from dir/base and dir/pr) and computes its change and
// scopes once per test binary.
func projectInputs(t *testing.T, dir string) (*diff.Change, *syntax.Result) {
	t.Helper()
	projectsMu.Lock()
	p := projects[dir]
	if p == nil {
		p = &project{}
		projects[dir] = p
	}
	projectsMu.Unlock()
	p.once.Do(func() {
		if p.repo, p.err = os.MkdirTemp("", "lolbench-rules-fixture-"); p.err != nil {
			return
		}
		if p.err = testrepo.Build(p.repo,
			testrepo.Step{Overlay: filepath.Join(dir, "base"), Tag: "base"},
			testrepo.Step{Overlay: filepath.Join(dir, "pr"), Tag: "head"}); p.err != nil {
			return
		}
		repo, err := diff.Open(p.repo)
		if err != nil {
			p.err = err
			return
		}
		if p.change, p.err = repo.Diff(context.Background(), "base", "head"); p.err != nil {
			return
		}
		p.scopes, p.err = syntax.Resolve(context.Background(), p.repo, p.change, syntax.Options{})
	})
	if p.err != nil {
		t.Fatalf("fixture repository %s: %v", dir, p.err)
	}
	return p.change, p.scopes
}

// caseProject is the project folder of a case: its own folder when that
// holds base/, else the shared one.
func caseProject(casePath string) string {
	dir := filepath.Dir(casePath)
	if _, err := os.Stat(filepath.Join(dir, "base")); err == nil {
		return dir
	}
	return sharedProject
}

// epVariants returns the EP files a case runs against.
func epVariants(casePath string) []string {
	stem := strings.TrimSuffix(casePath, ".md")
	var own []string
	for _, ext := range []string{".ep.md", ".ep.rst"} {
		if _, err := os.Stat(stem + ext); err == nil {
			own = append(own, stem+ext)
		}
	}
	if len(own) > 0 {
		return own
	}
	dir := caseProject(casePath)
	for _, name := range []string{"ep.md", "ep.rst"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			own = append(own, filepath.Join(dir, name))
		}
	}
	return own
}

// checkCase runs every rule on one fixture and compares the findings with
// its expectations.
func checkCase(t *testing.T, casePath string) {
	change, scopes := projectInputs(t, caseProject(casePath))
	wants := parseExpectations(t, casePath)
	m, err := mapping.ParseFile(casePath)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	for _, epPath := range epVariants(casePath) {
		t.Run(filepath.Ext(epPath)[1:], func(t *testing.T) {
			doc := loadEP(t, epPath)
			rep, err := Run(&Input{EP: doc, Change: change, Scopes: scopes, Mapping: m}, All)
			if err != nil {
				t.Fatal(err)
			}
			compare(t, casePath, wants, rep)
		})
	}
}

func compare(t *testing.T, casePath string, wants []expectation, rep *Report) {
	t.Helper()
	used := make([]bool, len(wants))
	var unexpected []string
	for _, v := range rep.Violations {
		found := false
		for i, w := range wants {
			if !used[i] && !w.forward && w.rule == v.Rule && w.line == v.Line && w.re.MatchString(v.Message) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			unexpected = append(unexpected, fmt.Sprintf("%s:%d: unexpected R%02d [%s] %q", casePath, v.Line, v.Rule, v.Where, v.Message))
		}
	}
	for _, f := range rep.Forwarded {
		found := false
		for i, w := range wants {
			if !used[i] && w.forward && w.rule == f.Rule && w.to == f.To && w.re.MatchString(f.Reason) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			unexpected = append(unexpected, fmt.Sprintf("%s: unexpected forward R%02d -> %s %q", casePath, f.Rule, f.To, f.Reason))
		}
	}
	sort.Strings(unexpected)
	for _, u := range unexpected {
		t.Error(u)
	}
	for i, w := range wants {
		if !used[i] {
			t.Errorf("%s:%d: missing %s", casePath, w.line, w.raw)
		}
	}
}

// TestFixtures runs every case under testdata/rNN/ and the canonical
// fixture mapping, which must pass every rule.
func TestFixtures(t *testing.T) {
	cases, _ := filepath.Glob("testdata/r[0-9][0-9]/*.md")
	own, _ := filepath.Glob("testdata/r[0-9][0-9]/*/*.md")
	cases = append(append(cases, own...), "testdata/fixture/mapping.md")
	for _, c := range cases {
		if strings.HasSuffix(c, ".ep.md") || filepath.Base(c) == "ep.md" {
			continue
		}
		t.Run(strings.TrimPrefix(c, "testdata/"), func(t *testing.T) { checkCase(t, c) })
	}
}

func loadEP(t *testing.T, path string) *ep.Document {
	t.Helper()
	doc, err := ep.Load(path, "")
	if err != nil {
		t.Fatal(err)
	}
	return doc
}
