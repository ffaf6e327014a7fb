// Package dag builds a candidate's section dependency graph (issue 35,
// pipeline/sectiondag) from what the earlier stages left: the mapping's
// rows (which section owns which scope), the PR's scopes and new entities
// (tree-sitter), the names each section's added lines use, and, once the
// task is built and mutated, the test-to-section map and the kill matrix.
// It writes dag.json (sectiondag.Result) in the candidate folder, which
// eval reads.
package dag

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strings"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/sectiondag"
	"github.com/lolbench/lolbench/pipeline/sectionmap"
	"github.com/lolbench/lolbench/pipeline/syntax"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/mutate"
)

// maxSource bounds a file read for identifiers.
const maxSource = 4 << 20

// Compute builds the candidate's graph and writes dag.json.
func Compute(ctx context.Context, env *pipeline.Env, c *pipeline.Candidate) (*sectiondag.Result, error) {
	info, err := c.LoadInfo()
	if err != nil {
		return nil, err
	}
	mp, err := c.Path(pipeline.MappingFile)
	if err != nil {
		return nil, err
	}
	m, err := mapping.ParseFile(mp)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("candidate %s has no %s: run lolbench map %s first, or write it (docs/mapping-format.md)", c.ID, pipeline.MappingFile, c.ID)
	}
	if err != nil {
		return nil, err // it names the file and the line
	}
	repoDir, err := info.RepoPath(env.Workspace)
	if err != nil {
		return nil, fmt.Errorf("candidate %s: repo_dir: %w", c.ID, err)
	}
	repo, err := diff.Open(repoDir)
	if err != nil {
		return nil, err
	}
	ch, err := repo.Diff(ctx, info.PR.BaseSHA, info.PR.HeadSHA)
	if err != nil {
		return nil, err
	}
	scopes, err := syntax.Resolve(ctx, repoDir, ch, syntax.Options{})
	if err != nil {
		return nil, fmt.Errorf("resolve scopes in %s: %w", repoDir, err)
	}
	in, err := Input(ctx, m, ch, scopes, func(p string) ([]byte, error) { return repo.ReadFile(ch.Head, p) })
	if err != nil {
		return nil, err
	}
	res := &sectiondag.Result{Candidate: c.ID, Titles: map[string]string{}, Files: map[string][]string{}, Sources: []string{"mapping rows", "scopes"}, Missing: []string{}}
	for _, s := range m.TaskSections() {
		res.Titles[s.ID] = s.Title
	}
	for _, s := range in.Sections {
		seen := map[string]bool{}
		res.Files[s] = []string{}
		for _, sc := range in.Owned[s] {
			if !seen[sc.File] {
				seen[sc.File] = true
				res.Files[s] = append(res.Files[s], sc.File)
			}
		}
		sort.Strings(res.Files[s])
	}
	if err := addTests(c, in, res); err != nil {
		return nil, err
	}
	res.Graph = sectiondag.Compute(*in)
	p, err := c.Path(sectiondag.File)
	if err != nil {
		return nil, err
	}
	return res, workspace.WriteJSON(p, res)
}

// addTests adds the test evidence when the task is built (sections.json)
// and mutated (the kill matrix), and says what is missing otherwise.
func addTests(c *pipeline.Candidate, in *sectiondag.Input, res *sectiondag.Result) error {
	smap, err := sectionmap.Load(c)
	if errors.Is(err, fs.ErrNotExist) {
		res.Missing = append(res.Missing, "test evidence: no test-to-section map; run lolbench build "+c.ID)
		return nil
	}
	if err != nil {
		return err
	}
	set, err := mutation.Load(c)
	if errors.Is(err, fs.ErrNotExist) {
		res.Missing = append(res.Missing, "test evidence: no kill matrix; run lolbench mutate "+c.ID)
		return nil
	}
	if err != nil {
		return err
	}
	in.Tests, in.Kills = map[string][]string{}, map[string][]string{}
	for _, s := range smap.Sections {
		in.Tests[s.ID] = s.Tests
	}
	for _, r := range set.Matrix.Rows {
		if r.Section != "" && (r.Method == mutation.MappedRevert || r.Method == mutation.SectionRevert) {
			in.Kills[r.Section] = append(in.Kills[r.Section], set.Matrix.KilledBy(r.Mutant)...)
		}
	}
	res.Sources = append(res.Sources, "kill matrix")
	return nil
}

// Input reads the evidence of the mapping and the change: who owns which
// scope, which scopes are new, which names each section defines and uses,
// and what its new classes extend. read gives a file after the change.
func Input(ctx context.Context, m *mapping.Mapping, ch *diff.Change, scopes *syntax.Result, read func(path string) ([]byte, error)) (*sectiondag.Input, error) {
	in := &sectiondag.Input{Sections: m.TaskSectionIDs(), Owned: map[string][]sectiondag.Scope{}, Named: map[string][]sectiondag.Scope{},
		New: map[sectiondag.Scope]bool{}, Defines: map[string][]sectiondag.Def{}, Uses: map[string][]sectiondag.Use{}, Extends: map[string][]sectiondag.Use{}, Names: map[string]map[string]bool{}}
	task := map[string]bool{}
	for _, s := range in.Sections {
		task[s] = true
	}
	source := map[string]*diff.File{}
	for i := range ch.Files {
		f := &ch.Files[i]
		if f.Category == lang.Source && f.NewPath != "" {
			source[f.NewPath] = f
			if f.OldPath == "" {
				in.New[sectiondag.Scope{File: f.NewPath}] = true
			}
		}
	}
	for _, b := range m.Blocks {
		id := strings.TrimSpace(b.Section)
		if !task[id] {
			continue
		}
		for _, r := range b.Direct.Rows {
			if s, ok := rowScope(r, source); ok {
				in.Owned[id] = append(in.Owned[id], s)
			}
		}
		for _, r := range b.Associated.Rows {
			if s, ok := rowScope(r, source); ok {
				in.Named[id] = append(in.Named[id], s)
			}
		}
	}
	for _, s := range scopes.Scopes {
		if s.New {
			in.New[sectiondag.Scope{File: s.File, Class: s.Class, Function: s.Function}] = true
		}
	}
	// Definitions: each new class and function, given to the section that
	// owns its scope, or the innermost owned scope that holds it.
	for _, fr := range scopes.Files {
		for _, e := range fr.NewEntities {
			sc := sectiondag.Scope{File: fr.File, Class: e.Class, Function: e.Function}
			in.New[sc] = true
			u := ownerOf(in, sc)
			if u == "" {
				continue
			}
			name := e.Function
			if name == "" {
				name = e.Class
			}
			name = name[strings.LastIndex(name, ".")+1:]
			in.Defines[u] = append(in.Defines[u], sectiondag.Def{Name: name, Scope: sc, Class: !e.IsFunction(), Family: family(fr.File)})
			if !e.IsFunction() {
				for _, w := range identRE.FindAllString(e.Signature, -1) {
					if w != name {
						in.Extends[u] = append(in.Extends[u], sectiondag.Use{Name: w, File: fr.File, Line: e.Start, Family: family(fr.File)})
					}
				}
			}
		}
	}
	// Uses: the identifiers on each section's added lines.
	added := map[string]map[string]map[int]bool{} // file → section → lines
	for _, s := range scopes.Scopes {
		u := ownerOf(in, sectiondag.Scope{File: s.File, Class: s.Class, Function: s.Function})
		if u == "" || len(s.PostLines) == 0 {
			continue
		}
		if added[s.File] == nil {
			added[s.File] = map[string]map[int]bool{}
		}
		if added[s.File][u] == nil {
			added[s.File][u] = map[int]bool{}
		}
		for _, l := range s.PostLines {
			added[s.File][u][l] = true
		}
	}
	files := make([]string, 0, len(added))
	for f := range added {
		files = append(files, f)
	}
	sort.Strings(files)
	p := syntax.NewParser()
	defer p.Close()
	p.SetTimeout(syntax.DefaultParseTimeout)
	for _, file := range files {
		f := source[file]
		language := ""
		if f != nil {
			language = syntax.ParseLanguage(file, f.Language)
		}
		if !syntax.Supported(language) {
			continue
		}
		src, err := read(file)
		if err != nil || len(src) > maxSource {
			continue // a file that cannot be read gives no names
		}
		all, err := p.Identifiers(ctx, language, src, nil)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue
		}
		in.Names[file] = map[string]bool{}
		for _, id := range all {
			in.Names[file][id.Name] = true
		}
		for _, u := range sortedKeys(added[file]) {
			ids, err := p.Identifiers(ctx, language, src, added[file][u])
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				continue
			}
			for _, id := range ids {
				in.Uses[u] = append(in.Uses[u], sectiondag.Use{Name: id.Name, File: file, Line: id.Line, Family: family(file)})
			}
		}
	}
	return in, nil
}

// family is the language family of a file: a name one section defines
// is used by another only from a file that can see it (C and C++ share
// headers; JavaScript and TypeScript import each other).
func family(path string) string {
	l := lang.ForPath(path)
	switch {
	case l == nil:
		return ""
	case l.Name == "C" || l.Name == "C++" || l.Name == "C/C++ Header":
		return "C/C++"
	case lang.SameFamily(l.Name, "JavaScript"):
		return "ECMAScript"
	}
	return l.Name
}

var identRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// rowScope is a Direct or Associated row's scope, for a changed source
// file of the PR only (tests, docs and build files are not sections'
// code here).
func rowScope(r mapping.CodeRow, source map[string]*diff.File) (sectiondag.Scope, bool) {
	path := strings.Trim(strings.TrimSpace(r.Path), "`")
	if source[path] == nil {
		return sectiondag.Scope{}, false
	}
	s := sectiondag.Scope{File: path, Class: strings.Trim(strings.TrimSpace(r.Class), "`"), Function: strings.Trim(strings.TrimSpace(r.Function), "`")}
	if mapping.IsNone(s.Class) {
		s.Class = ""
	}
	if mapping.IsNone(s.Function) {
		s.Function = ""
	}
	return s, true
}

// ownerOf is the section that owns sc: the one whose Direct rows name it,
// else the one owning the innermost named scope that holds it.
func ownerOf(in *sectiondag.Input, sc sectiondag.Scope) string {
	best, depth := "", -1
	for _, u := range in.Sections {
		for _, s := range in.Owned[u] {
			if s == sc {
				return u
			}
			if s.Contains(sc) {
				if d := len(s.Class) + len(s.Function); d > depth {
					best, depth = u, d
				}
			}
		}
	}
	return best
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Check runs the discriminativeness check of issue 35 §2 on a computed
// graph and records it in dag.json: for every tested section, the
// reference solution restricted to its ancestors (every other section
// reverted, stages/mutate.RunRestricted) must still fail at least one of
// its F2P tests; a section whose tests all pass is flagged. When the
// restricted reference does not build (a Go field whose type another
// section changed), the check is undetermined: not flagged, not passed. A section
// without ancestors passes by definition (its tests are F2P: they fail on
// the base), and an untested one cannot be checked.
func Check(ctx context.Context, env *pipeline.Env, c *pipeline.Candidate, exec sandbox.Executor, res *sectiondag.Result) error {
	smap, err := sectionmap.Load(c)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("candidate %s has no test-to-section map: run lolbench build %s before --check", c.ID, c.ID)
	}
	if err != nil {
		return err
	}
	tests := map[string][]string{}
	for _, s := range smap.Sections {
		tests[s.ID] = s.Tests
	}
	var runs []mutate.Restriction
	res.Checks, res.NotDiscriminative = []sectiondag.Check{}, []string{}
	for _, n := range res.Nodes {
		anc := res.Ancestors(n.ID)
		ck := sectiondag.Check{Section: n.ID, Ancestors: append([]string{}, anc...), Tests: len(tests[n.ID]), Examples: []string{}}
		switch {
		case len(tests[n.ID]) == 0:
			ck.Why = "untested: no F2P test to check"
		case len(anc) == 0:
			ck.Discriminative, ck.Failing = true, len(tests[n.ID])
			ck.Examples = append(ck.Examples, tests[n.ID][:min(5, len(tests[n.ID]))]...)
			ck.Why = "no ancestors: its tests are F2P, so they fail on the base commit"
		default:
			runs = append(runs, mutate.Restriction{Name: n.ID, Keep: anc})
		}
		res.Checks = append(res.Checks, ck)
	}
	if len(runs) > 0 {
		if env.Status != nil {
			fmt.Fprintf(env.Status, "%s: running the reference restricted to the ancestors of %d section(s)\n", c.ID, len(runs))
		}
		outs, err := mutate.RunRestricted(ctx, env, c, exec, runs)
		if err != nil {
			return err
		}
		byName := map[string]mutate.RestrictedOutcome{}
		for _, o := range outs {
			byName[o.Name] = o
		}
		for i := range res.Checks {
			ck := &res.Checks[i]
			o, ok := byName[ck.Section]
			if !ok {
				continue
			}
			if o.Failed != "" {
				ck.Undetermined = true
				ck.Why = "undetermined: the restricted reference cannot run its tests: " + o.Failed
				continue
			}
			for _, t := range tests[ck.Section] {
				if o.F2P[t] != mutation.OutcomePassed {
					ck.Failing++
					if len(ck.Examples) < 5 {
						ck.Examples = append(ck.Examples, t)
					}
				}
			}
			ck.Discriminative = ck.Failing > 0
			switch {
			case ck.Discriminative:
				ck.Why = fmt.Sprintf("the reference restricted to its ancestors fails %d of its %d tests", ck.Failing, ck.Tests)
			default:
				ck.Why = fmt.Sprintf("the reference restricted to its ancestors (%s) passes all %d of its tests: they do not test its own code", strings.Join(ck.Ancestors, ", "), ck.Tests)
			}
		}
	}
	for _, ck := range res.Checks {
		if !ck.Discriminative && !ck.Undetermined && ck.Tests > 0 {
			res.NotDiscriminative = append(res.NotDiscriminative, ck.Section)
		}
	}
	p, err := c.Path(sectiondag.File)
	if err != nil {
		return err
	}
	return workspace.WriteJSON(p, res)
}
