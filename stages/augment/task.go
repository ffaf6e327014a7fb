package augment

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
	"github.com/lolbench/lolbench/pipeline/sectionmap"
	"github.com/lolbench/lolbench/pipeline/syntax"
	"github.com/lolbench/lolbench/pipeline/testaudit"
	"github.com/lolbench/lolbench/stages/build"
)

// task is one candidate's material, loaded once per run.
type task struct {
	c    *pipeline.Candidate
	info *pipeline.Info
	rec  *build.Record
	// recipe has defaults applied; format is its result format.
	recipe recipe.Recipe
	format string
	// language is the task's language; audit its test-audit rule (nil when
	// the language has none: the loops cannot run).
	language string
	audit    *testaudit.Language
	repo     *diff.Repo
	repoDir  string
	change   *diff.Change
	base     string
	head     string
	headTree *object.Tree
	// testPatch and solution split the PR (build's files).
	testPatch, solution []byte
	epDoc               *ep.Document
	mapping             *mapping.Mapping
	sections            []mapping.TaskSection
	// smap is the test-to-section map as the last stage left it.
	smap *sectionmap.Map
	// mutants and cov are the mutate stage's outputs, nil when absent.
	mutants *mutation.Set
	cov     *coverage.Result
	// newSymbols are the names the PR introduces.
	newSymbols []string
	// scopes are the changed scopes of the PR (pipeline/syntax); owners
	// says which section owns each changed line.
	scopes *syntax.Result
	owners *mutation.Owners
	// dirFiles caches the file names of head folders.
	dirFiles map[string][]string
	// existing caches the test functions of head test files by folder.
	existing map[string][]existingTest
	// product are the product files the Java, Rust, JavaScript and
	// TypeScript audits read.
	product []testaudit.File
}

// existingTest is a test function of the original suite (or a retained
// generated test), for the duplicate check.
type existingTest struct {
	File, Name, Fingerprint string
}

// errNotBuilt says the candidate has no task to augment.
var errNotBuilt = errors.New("no task built")

// loadTask reads everything the stage needs. A candidate without a kept
// task is errNotBuilt (the stage skips).
func loadTask(ctx context.Context, env *pipeline.Env, c *pipeline.Candidate) (*task, error) {
	t := &task{c: c, dirFiles: map[string][]string{}, existing: map[string][]existingTest{}}
	var err error
	if t.info, err = c.LoadInfo(); err != nil {
		return nil, err
	}
	t.rec, err = build.LoadRecord(c)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: run lolbench build %s first", errNotBuilt, c.ID)
	}
	if err != nil {
		return nil, err
	}
	if t.rec.Rejected != "" || t.rec.Report == nil || t.rec.Task == "" {
		why := t.rec.Rejected
		if why == "" {
			why = "no task folder"
		}
		return nil, fmt.Errorf("%w: the build did not keep a task (%s)", errNotBuilt, why)
	}
	t.recipe = t.rec.Recipe.Defaults()
	t.format = t.recipe.Test.Format
	t.language = t.info.Language
	t.audit = testaudit.Lookup(t.language)
	for _, f := range []struct {
		rel string
		dst *[]byte
	}{{build.TestPatch, &t.testPatch}, {build.SolutionFile, &t.solution}} {
		if *f.dst, err = os.ReadFile(filepath.Join(c.Dir, f.rel)); err != nil {
			return nil, fmt.Errorf("candidate %s: %w", c.ID, err)
		}
	}
	if t.repoDir, err = t.info.RepoPath(env.Workspace); err != nil {
		return nil, err
	}
	if t.repo, err = diff.Open(t.repoDir); err != nil {
		return nil, fmt.Errorf("candidate %s: %w", c.ID, err)
	}
	t.base, t.head = t.rec.BaseCommit, t.rec.HeadCommit
	commit, err := t.repo.Git().CommitObject(plumbing.NewHash(t.head))
	if err != nil {
		return nil, fmt.Errorf("candidate %s: head %s: %w", c.ID, t.head, err)
	}
	if t.headTree, err = commit.Tree(); err != nil {
		return nil, fmt.Errorf("candidate %s: head %s: %w", c.ID, t.head, err)
	}
	if t.change, err = t.repo.Diff(ctx, t.base, t.head); err != nil {
		return nil, fmt.Errorf("candidate %s: %w", c.ID, err)
	}
	if t.info.EP.File != "" {
		if p, err := c.Path(t.info.EP.File); err == nil {
			if t.epDoc, err = ep.Load(p, ""); err != nil {
				return nil, err
			}
		}
	}
	if m, err := mapping.ParseFile(filepath.Join(c.Dir, pipeline.MappingFile)); err == nil {
		t.mapping = m
		t.sections = m.TaskSections()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	switch set, err := mutation.Load(c); {
	case err == nil:
		t.mutants = set
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("candidate %s: %w", c.ID, err)
	}
	switch r, err := coverage.Load(c); {
	case err == nil:
		t.cov = r
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("candidate %s: %w", c.ID, err)
	}
	if t.scopes, err = syntax.Resolve(ctx, t.repoDir, t.change, syntax.Options{}); err != nil {
		return nil, fmt.Errorf("candidate %s: scopes: %w", c.ID, err)
	}
	if t.mapping != nil {
		t.owners = mutation.NewOwners(t.mapping, t.scopes)
	}
	switch m, err := sectionmap.Load(c); {
	case err == nil:
		t.smap = m
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("candidate %s: %w", c.ID, err)
	}
	if t.audit != nil {
		if err := t.loadSymbols(ctx); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// epText is the proposal's text.
func (t *task) epText() []byte {
	if t.epDoc == nil {
		return nil
	}
	return t.epDoc.Source
}

// loadSymbols finds the names the PR introduces: the new classes and
// functions of pipeline/syntax and the new declarations (constants,
// fields, variables) of the test audit's declaration reader; and, for
// Java, Rust, JavaScript and TypeScript, the product files whose
// visibility the audit reads.
func (t *task) loadSymbols(ctx context.Context) error {
	set := map[string]bool{}
	for _, f := range t.scopes.Files {
		for _, e := range f.NewEntities {
			name := e.Function
			if name == "" {
				name = e.Class
			}
			set[lastDot(name)] = true
		}
	}
	productDirs := map[string]bool{}
	for _, f := range t.change.Files {
		if f.Category != lang.Source || f.Language != t.language || f.NewPath == "" {
			continue
		}
		productDirs[path.Dir(f.NewPath)] = true
		after, err := t.repo.ReadFile(t.head, f.NewPath)
		if err != nil {
			continue
		}
		var before []byte
		if f.OldPath != "" {
			before, _ = t.repo.ReadFile(t.base, f.OldPath)
		}
		names, err := testaudit.NewSymbols(ctx, t.language, testaudit.File{Path: f.OldPath, Source: before}, testaudit.File{Path: f.NewPath, Source: after})
		if err != nil {
			continue // a file the audit cannot read adds no names
		}
		for _, n := range names {
			set[n] = true
		}
	}
	for n := range set {
		t.newSymbols = append(t.newSymbols, n)
	}
	sort.Strings(t.newSymbols)
	// Java, Rust, JavaScript and TypeScript declare visibility: the audit
	// reads the product's declarations in the folders the PR changes.
	if ext := map[string]string{"Java": ".java", "Rust": ".rs", "TypeScript": ".ts", "JavaScript": ".js"}[t.language]; ext != "" {
		dirs := make([]string, 0, len(productDirs))
		for d := range productDirs {
			dirs = append(dirs, d)
		}
		sort.Strings(dirs)
		for _, d := range dirs {
			for _, name := range t.listDir(d) {
				p := path.Join(d, name)
				if lang.Classify(p) != lang.Source || !strings.HasSuffix(p, ext) {
					continue
				}
				if src, err := t.repo.ReadFile(t.head, p); err == nil && len(src) <= testaudit.MaxSource {
					t.product = append(t.product, testaudit.File{Path: p, Source: src})
				}
			}
		}
	}
	if t.language == "C" || t.language == "C++" {
		t.product = append(t.product, t.cfamilyProduct()...)
	}
	return nil
}

func lastDot(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// listDir returns the names of the regular files of a head folder, sorted.
func (t *task) listDir(dir string) []string {
	if names, ok := t.dirFiles[dir]; ok {
		return names
	}
	var names []string
	tree := t.headTree
	if dir != "." && dir != "" {
		sub, err := t.headTree.Tree(dir)
		if err != nil {
			t.dirFiles[dir] = nil
			return nil
		}
		tree = sub
	}
	for _, e := range tree.Entries {
		if e.Mode.IsFile() {
			names = append(names, e.Name)
		}
	}
	sort.Strings(names)
	t.dirFiles[dir] = names
	return names
}

// dirExists reports whether a folder exists at head.
func (t *task) dirExists(dir string) bool {
	if dir == "." {
		return true
	}
	_, err := t.headTree.Tree(dir)
	return err == nil
}

// fileExists reports whether a file exists at head.
func (t *task) fileExists(p string) bool {
	_, err := t.headTree.File(p)
	return err == nil
}

// helpers are the test files a generated test at p may share
// declarations with: the other test files of its folder (a Go package, a
// Java package) and, for Python, the conftest.py files on its path.
func (t *task) helpers(p string) []testaudit.File {
	var out []testaudit.File
	dir := path.Dir(p)
	add := func(q string) {
		if src, err := t.repo.ReadFile(t.head, q); err == nil && len(src) <= testaudit.MaxSource {
			out = append(out, testaudit.File{Path: q, Source: src})
		}
	}
	if t.language == "Python" {
		for d := dir; ; d = path.Dir(d) {
			if t.fileExists(path.Join(d, "conftest.py")) {
				add(path.Join(d, "conftest.py"))
			}
			if d == "." || d == "/" {
				break
			}
		}
		return out
	}
	for _, name := range t.listDir(dir) {
		q := path.Join(dir, name)
		if q != p && lang.Classify(q) == lang.Test && lang.ForPath(q) != nil && lang.ForPath(q).Name == t.language {
			add(q)
		}
	}
	return out
}

// existingTests are the test functions of the head test files of a folder
// and of the task's test files, for the duplicate check.
func (t *task) existingTests(ctx context.Context, dir string) []existingTest {
	if ts, ok := t.existing[dir]; ok {
		return ts
	}
	files := map[string]bool{}
	for _, f := range t.rec.TestFiles {
		files[f] = true
	}
	for _, name := range t.listDir(dir) {
		q := path.Join(dir, name)
		if lang.Classify(q) == lang.Test {
			files[q] = true
		}
	}
	var out []existingTest
	for _, f := range sortedKeys(files) {
		l := lang.ForPath(f)
		if l == nil || l.Name != t.language {
			continue
		}
		src, err := t.repo.ReadFile(t.head, f)
		if err != nil {
			continue
		}
		fns, err := testaudit.TestFuncs(ctx, t.language, testaudit.File{Path: f, Source: src})
		if err != nil {
			continue
		}
		for _, fn := range fns {
			out = append(out, existingTest{File: f, Name: fn.Name, Fingerprint: fn.Fingerprint})
		}
	}
	t.existing[dir] = out
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// items is the test selection that runs the given test files only (the
// recipe's selection mode without its suite); the task's whole selection
// when the mode selects nothing.
func (t *task) items(files []string) []string {
	r := t.recipe
	r.Test.Suite = nil
	sel := testcmd.Selection(r, files)
	if len(sel) == 0 {
		return append([]string(nil), t.rec.Report.Selection...)
	}
	return sel
}

// sources are the reference solution's changed source files after the
// change, with their added lines, for coverage measurements.
func (t *task) sources() []coverage.SourceFile {
	var out []coverage.SourceFile
	for _, f := range t.change.Files {
		if f.Category != lang.Source || f.NewPath == "" || len(f.NewLines) == 0 {
			continue
		}
		src, err := t.repo.ReadFile(t.head, f.NewPath)
		if err != nil {
			continue
		}
		out = append(out, coverage.SourceFile{Path: f.NewPath, Language: f.Language, Content: src, Added: f.NewLines})
	}
	return out
}

// untested reports whether a section is one the current map leaves
// untested: the loops target those first (paper §3.4, issue 25).
func (t *task) untested(section string) bool {
	return t.smap != nil && section != "" && slices.Contains(t.smap.Untested, section)
}

// untestedSpans are the uncovered spans with an executable line that an
// untested section owns, in the coverage measurement's order (largest
// first).
func (t *task) untestedSpans() []coverage.Span {
	if t.cov == nil || t.owners == nil {
		return nil
	}
	target := t.cov.Target.Lines()
	var out []coverage.Span
	for _, sp := range t.cov.Uncovered {
		for l := sp.Start; l <= sp.End; l++ {
			if target.Has(sp.File, l) && t.untested(t.owners.Added(sp.File, l)) {
				out = append(out, sp)
				break
			}
		}
	}
	return out
}

// targetOrder puts the mutants of untested sections first, keeping the
// order within each group.
func (t *task) targetOrder(mutants []string) []string {
	var first, rest []string
	for _, id := range mutants {
		if mu := t.mutants.Mutant(id); mu != nil && t.untested(mu.Section) {
			first = append(first, id)
		} else {
			rest = append(rest, id)
		}
	}
	return append(first, rest...)
}
