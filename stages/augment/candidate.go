package augment

import (
	"context"
	"errors"
	"fmt"
	"github.com/lolbench/lolbench/pipeline/coverage"
	"path"
	"regexp"
	"strings"

	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/testaudit"
)

// Loop names (`lolbench augment --loops`).
const (
	LoopMutation = "mutation"
	LoopCoverage = "coverage"
)

// Loops lists the generation loops in run order.
var Loops = []string{LoopMutation, LoopCoverage}

// Statuses of a generated test.
const (
	// Retained: every retention rule held; the test is in the added
	// test patch.
	Retained = "retained"
	// Rejected: a rule failed in the first round; the test went back to
	// the model once with its reason.
	Rejected = "rejected"
	// Dropped: a rule failed after the rewrite (or no rewrite could be
	// had); the test is gone, with its reason.
	Dropped = "dropped"
)

// Proposal is one test of a model's answer.
type Proposal struct {
	Path        string   `json:"path"`
	Name        string   `json:"name"`
	Requirement string   `json:"requirement"`
	Targets     []string `json:"targets,omitempty"`
	Source      string   `json:"source"`
}

// Answer is the model's answer to an augment prompt.
type Answer struct {
	Tests []Proposal `json:"tests"`
}

// maxAnswerTests bounds the tests of one answer; the stage then keeps the
// first PerPrompt of them.
const maxAnswerTests = 8

// maxSourceBytes caps one generated test file.
const maxSourceBytes = 256 << 10

// Validate implements llm.Validator: the answer's shape, which the model
// can fix by answering again.
func (a *Answer) Validate() error {
	if len(a.Tests) == 0 {
		return errors.New(`"tests" is empty: give at least one test`)
	}
	if len(a.Tests) > maxAnswerTests {
		return fmt.Errorf(`"tests" has %d tests; give at most %d`, len(a.Tests), maxAnswerTests)
	}
	for i, p := range a.Tests {
		switch {
		case strings.TrimSpace(p.Path) == "":
			return fmt.Errorf(`tests[%d]: "path" is empty`, i)
		case strings.TrimSpace(p.Source) == "":
			return fmt.Errorf(`tests[%d]: "source" is empty`, i)
		case len(p.Source) > maxSourceBytes:
			return fmt.Errorf(`tests[%d]: "source" has %d bytes; keep a test under %d`, i, len(p.Source), maxSourceBytes)
		}
	}
	return nil
}

// Candidate is one generated test and what became of it.
type Candidate struct {
	// ID names the test in the report and its folder under
	// augment/candidates/.
	ID   string `json:"id"`
	Loop string `json:"loop"`
	// Round is 1 for a first answer, 2 for a rewrite.
	Round int `json:"round"`
	// Conversation is the mutant (mutation loop) or "coverage".
	Conversation string `json:"conversation"`
	// Targets are the mutants it must kill (mutation loop) or the spans
	// it aims at (coverage loop).
	Targets     []string `json:"targets"`
	Path        string   `json:"path"`
	Name        string   `json:"name"`
	Class       string   `json:"class,omitempty"`
	Requirement string   `json:"requirement,omitempty"`
	Status      string   `json:"status"`
	// Rule names the retention rule that failed: "structure", "audit",
	// "duplicate", "before", "after", "unstable", "mutant", "coverage".
	Rule   string `json:"rule,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Audit is the test audit's verdict, when it ran.
	Audit *testaudit.Report `json:"audit,omitempty"`
	// Tests are the result ids the test adds to FAIL_TO_PASS.
	Tests []string `json:"tests,omitempty"`
	// Kills are the mutants it kills: its targets (mutation loop), then
	// every P2P-surviving mutant in the final matrix.
	Kills []string `json:"kills,omitempty"`
	// NewLines counts the target lines it runs that no original test and
	// no earlier kept test runs (coverage loop).
	NewLines int `json:"new_lines,omitempty"`
	// Covered are the target lines its tests run with the reference
	// solution (the final coverage measurement), when it was measured:
	// the test-to-section map's coverage evidence for it.
	Covered coverage.Lines `json:"covered,omitempty"`

	source      []byte
	fingerprint string
	decls       []string // file-level names, for batch collisions
	pkg         string   // Go package clause
}

func (c *Candidate) ref() testRef { return testRef{File: c.Path, Name: c.Name, Class: c.Class} }

func (c *Candidate) reject(rule, format string, args ...any) {
	c.Status, c.Rule, c.Reason = Rejected, rule, fmt.Sprintf(format, args...)
}

func (c *Candidate) ok() bool { return c.Status == "" }

var safePath = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._/-]*$`)

var goPackage = regexp.MustCompile(`(?m)^package\s+([A-Za-z_][A-Za-z0-9_]*)`)

// checkStatic applies the rules that need no run: the file is a new test
// file of the task's language in an existing folder, it holds exactly one
// test function, it passes the test audit, and it duplicates no existing
// or earlier test. taken are the paths and fingerprints already used in
// this run.
func (t *task) checkStatic(ctx context.Context, c *Candidate, taken map[string]bool, kept []existingTest) {
	p := strings.TrimPrefix(path.Clean(strings.TrimSpace(c.Path)), "./")
	c.Path = p
	l := lang.ForPath(p)
	switch {
	case !safePath.MatchString(p) || strings.Contains(p, "..") || strings.HasPrefix(p, "/"):
		c.reject("structure", "the path %q is not a plain repository-relative path (letters, digits, '.', '_', '-' and '/' only)", p)
		return
	case l == nil || l.Name != t.language:
		c.reject("structure", "%s is not a %s file", p, t.language)
		return
	case lang.Classify(p) != lang.Test:
		c.reject("structure", "%s is not named or placed as a test file of this project (%s test files look like %s)", p, t.language, strings.Join(append(append([]string{}, l.TestNames...), l.TestDirs...), ", "))
		return
	case !t.dirExists(path.Dir(p)):
		c.reject("structure", "the folder %s does not exist in the repository; put the test next to the existing tests", path.Dir(p))
		return
	case t.fileExists(p) || taken[p]:
		c.reject("structure", "%s exists already; every added test goes into a new file", p)
		return
	}
	fns, err := testaudit.TestFuncs(ctx, t.language, testaudit.File{Path: p, Source: c.source})
	if err != nil {
		c.reject("structure", "%v", err)
		return
	}
	if len(fns) != 1 {
		names := make([]string, len(fns))
		for i, f := range fns {
			names[i] = f.Name
		}
		c.reject("structure", "the file holds %d test functions (%s); write exactly one", len(fns), strings.Join(names, ", "))
		return
	}
	c.Name, c.Class, c.fingerprint = fns[0].Name, fns[0].Class, fns[0].Fingerprint
	rep, err := testaudit.Audit(ctx, testaudit.Input{Language: t.language, Test: testaudit.File{Path: p, Source: c.source},
		Helpers: t.helpers(p), Product: t.product, NewSymbols: t.newSymbols, EP: t.epText()})
	if err != nil {
		c.reject("audit", "%v", err)
		return
	}
	c.Audit = rep
	if !rep.OK() {
		c.reject("audit", "%s", rep.Reason())
		return
	}
	if m := goPackage.FindSubmatch(c.source); m != nil && t.language == "Go" {
		c.pkg = string(m[1])
	}
	// Python modules never share names; Go packages and Java packages do.
	if ds, err := testaudit.Declarations(ctx, t.language, testaudit.File{Path: p, Source: c.source}); err == nil && t.language != "Python" {
		for _, d := range ds {
			if d.Class == "" {
				c.decls = append(c.decls, d.Name)
			}
		}
	}
	for _, e := range append(t.existingTests(ctx, path.Dir(p)), kept...) {
		if e.Fingerprint == c.fingerprint {
			c.reject("duplicate", "duplicate of %s in %s: the same assertions on the same inputs", e.Name, e.File)
			return
		}
		if e.Name == c.Name && (t.language == "Go" && path.Dir(e.File) == path.Dir(p) || e.File == p) {
			c.reject("duplicate", "the name %s is taken by the test in %s; choose another", c.Name, e.File)
			return
		}
	}
	// A Go test shares its package with the folder's test files: a
	// second declaration of a name does not compile.
	if t.language == "Go" {
		for _, h := range t.helpers(p) {
			ds, err := testaudit.Declarations(ctx, "Go", h)
			if err != nil || goPackageOf(h.Source) != c.pkg {
				continue
			}
			for _, d := range ds {
				if d.Class != "" {
					continue
				}
				for _, n := range c.decls {
					if n == d.Name {
						c.reject("structure", "redeclares %s, which %s declares in the same package; rename it or use that one", n, h.Path)
						return
					}
				}
			}
		}
	}
}

func goPackageOf(src []byte) string {
	if m := goPackage.FindSubmatch(src); m != nil {
		return string(m[1])
	}
	return ""
}

// collides reports whether two candidates cannot share a run: Go tests of
// one package that declare a name twice, Java test classes of one folder
// with a class name in common.
func collides(a, b *Candidate) bool {
	if path.Dir(a.Path) != path.Dir(b.Path) || a.pkg != b.pkg {
		return false
	}
	for _, x := range a.decls {
		for _, y := range b.decls {
			if x == y {
				return true
			}
		}
	}
	return false
}

// batches splits candidates into groups whose members do not collide,
// first fit, keeping their order.
func batches(cs []*Candidate) [][]*Candidate {
	var out [][]*Candidate
	for _, c := range cs {
		placed := false
		for i := range out {
			ok := true
			for _, o := range out[i] {
				if collides(c, o) {
					ok = false
					break
				}
			}
			if ok {
				out[i] = append(out[i], c)
				placed = true
				break
			}
		}
		if !placed {
			out = append(out, []*Candidate{c})
		}
	}
	return out
}
