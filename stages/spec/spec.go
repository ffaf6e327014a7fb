// Package spec derives the "specification" variant of a task (paper §4:
// agents are also evaluated with a file tree and an API specification
// taken from the reference solution, appended to the EP). From a built
// candidate it lists the files the reference solution changes (the build
// stage's solution side: the PR without the paths of its test patch) and
// the signatures of the public classes and functions the solution adds or
// changes, with the public data members it adds (fields, constants, class
// attributes: issue 12 §1, they are public API too), read with tree-sitter
// (pipeline/syntax), and renders them as a Markdown section.
//
// The same section feeds both outputs, so there is one way to make it:
// `lolbench spec` writes task/instruction.spec.md (the task's
// instruction.md followed by the section) for reviewers, and
// `lolbench export --variant spec` computes it afresh for each exported
// task, because build and augment rewrite task/ and drop the file.
package spec

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/harbor"
	"github.com/lolbench/lolbench/pipeline/syntax"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/build"
)

// File is the specification instruction in a candidate folder, beside the
// task's instruction.md.
const File = build.TaskDir + "/instruction.spec.md"

// Spec is what the specification variant adds to the EP.
type Spec struct {
	// Files are the reference solution's changed files, sorted by path.
	Files []ChangedFile `json:"files"`
	// Skipped are solution source files whose signatures tree-sitter could
	// not read (a language without a grammar, a file too large).
	Skipped []syntax.Skip `json:"skipped"`
}

// ChangedFile is one file of the reference solution.
type ChangedFile struct {
	Path string `json:"path"`
	// OldPath is the path before a rename; empty otherwise.
	OldPath string      `json:"old_path,omitempty"`
	Status  diff.Status `json:"status"`
	// Language is the grammar the signatures were read with ("" when
	// none were).
	Language   string      `json:"language,omitempty"`
	Signatures []Signature `json:"signatures,omitempty"`
}

// Signature is one class, function or data member of the post-change
// file.
type Signature struct {
	// Name is the qualified name ("Store.TTL", "Item.ExpiresAt").
	Name string `json:"name"`
	// Text is the declaration up to its body (syntax.Entity.Signature),
	// or a member's one-line declaration (syntax.Member.Declaration).
	Text string `json:"text"`
	// Change is New, Changed, or empty for a class listed only because
	// it holds a listed member (context).
	Change string `json:"change,omitempty"`
	// Depth is the number of listed entities whose lines hold this one:
	// a Python method under its class is 1, a Go method 0, a Go struct
	// field 1.
	Depth int `json:"depth"`
}

// Kinds of change of a Signature.
const (
	New     = "new"
	Changed = "changed"
)

// Load derives the specification of a built candidate from its build
// record (base and head commits, the test patch's paths) and its
// repository.
func Load(ctx context.Context, ws *workspace.Workspace, c *pipeline.Candidate) (*Spec, error) {
	rec, err := build.LoadRecord(c)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("candidate %s is not built; run lolbench build %s", c.ID, c.ID)
	}
	if err != nil {
		return nil, err
	}
	if rec.Rejected != "" {
		return nil, fmt.Errorf("candidate %s was rejected by build (%s): there is no task to specify", c.ID, rec.Rejected)
	}
	info, err := c.LoadInfo()
	if err != nil {
		return nil, err
	}
	dir, err := info.RepoPath(ws)
	if err != nil {
		return nil, err
	}
	repo, err := diff.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("candidate %s: %w", c.ID, err)
	}
	ch, err := repo.Diff(ctx, rec.BaseCommit, rec.HeadCommit)
	if err != nil {
		return nil, fmt.Errorf("candidate %s: %s: %w", c.ID, build.RecordFile, err)
	}
	s, err := FromChange(ctx, repo, ch, rec.TestPaths)
	if err != nil {
		return nil, fmt.Errorf("candidate %s: %w", c.ID, err)
	}
	return s, nil
}

// FromChange derives the specification of a change whose test side is
// testPaths (build.Record.TestPaths): every other changed file is the
// reference solution, as build.Split has it.
func FromChange(ctx context.Context, repo *diff.Repo, ch *diff.Change, testPaths []string) (*Spec, error) {
	isTest := map[string]bool{}
	for _, p := range testPaths {
		isTest[p] = true
	}
	sol := &diff.Change{Base: ch.Base, Head: ch.Head}
	for _, f := range ch.Files {
		if !isTest[f.Path()] {
			sol.Files = append(sol.Files, f)
		}
	}
	res, err := syntax.Resolve(ctx, repo.Dir(), sol, syntax.Options{})
	if err != nil {
		return nil, err
	}
	// The members' files are chosen and skipped as Resolve's are, so
	// res.Skipped names the files of both.
	mres, err := syntax.NewMembers(ctx, repo.Dir(), sol, syntax.Options{})
	if err != nil {
		return nil, err
	}
	members := map[string][]syntax.Member{}
	for _, fm := range mres.Files {
		members[fm.File] = fm.Members
	}
	newKeys := map[string]map[[2]string]bool{}
	for _, fr := range res.Files {
		m := map[[2]string]bool{}
		for _, e := range fr.NewEntities {
			m[[2]string{e.Class, e.Function}] = true
		}
		newKeys[fr.File] = m
	}
	changed := map[string][]syntax.Scope{}
	for _, sc := range res.Scopes {
		if !sc.New && sc.Function != "" {
			changed[sc.File] = append(changed[sc.File], sc)
		}
	}
	s := &Spec{Files: []ChangedFile{}, Skipped: res.Skipped}
	p := syntax.NewParser()
	defer p.Close()
	for _, f := range sol.Files {
		cf := ChangedFile{Path: f.Path(), Status: f.Status}
		if f.Status == diff.Renamed {
			cf.OldPath = f.OldPath
		}
		if f.Status != diff.Deleted && (len(newKeys[f.Path()]) > 0 || len(changed[f.Path()]) > 0 || len(members[f.Path()]) > 0) {
			cf.Language = syntax.ParseLanguage(f.Path(), f.Language)
			src, err := repo.ReadFile(ch.Head, f.Path())
			if err != nil {
				return nil, fmt.Errorf("%s at %s: %w", f.Path(), ch.Head, err)
			}
			ents, err := p.EntitiesContext(ctx, cf.Language, src)
			if err != nil {
				return nil, fmt.Errorf("%s at %s: %w", f.Path(), ch.Head, err)
			}
			cf.Signatures = signatures(ents, newKeys[f.Path()], changed[f.Path()], members[f.Path()])
			if len(cf.Signatures) == 0 {
				cf.Language = ""
			}
		}
		s.Files = append(s.Files, cf)
	}
	slices.SortFunc(s.Files, func(a, b ChangedFile) int { return cmp.Compare(a.Path, b.Path) })
	return s, nil
}

// signatures picks the exported entities of a post-change file that are
// new (their qualified name is one of newKeys) or changed (a changed
// function scope, matched by name and, when the scope has added lines,
// by holding one of them: overloads share a name), and the file's new
// public members (syntax.NewMembers: issue 12 §1 counts the fields,
// constants and class attributes a PR adds as public API). The classes
// around a picked entity or member come along for context. Everything is
// listed containers first (by first line, the longer span first, an
// entity before a member on the same lines), so a member sits under its
// class among the class's methods, and a module-level one between the
// functions around it. A declaration that names several new members
// (A = B = 0; int MAX = 10, MIN = 1) is listed once, under its first name.
// Every step is linear in the number of entities and members, whatever
// their nesting (hostile input).
func signatures(ents []syntax.Entity, newKeys map[[2]string]bool, scopes []syntax.Scope, members []syntax.Member) []Signature {
	byKey := map[[2]string][][]int{} // scope key -> sorted added lines of each scope
	for _, sc := range scopes {
		k := [2]string{sc.Class, sc.Function}
		byKey[k] = append(byKey[k], slices.Sorted(slices.Values(sc.PostLines)))
	}
	// Items 0..n-1 are the entities, n and up the members, each
	// declaration once.
	n := len(ents)
	type decl struct {
		start, end int
		text       string
	}
	var mems []syntax.Member
	seen := map[decl]bool{}
	for _, m := range members {
		if k := (decl{m.Start, m.End, m.Declaration}); !seen[k] {
			seen[k] = true
			mems = append(mems, m)
		}
	}
	span := func(i int) (start, end int) {
		if i < n {
			return ents[i].Start, ents[i].End
		}
		return mems[i-n].Start, mems[i-n].End
	}
	isFunction := func(i int) bool { return i < n && ents[i].IsFunction() }
	change := make([]string, n+len(mems))
	for i := n; i < len(change); i++ {
		change[i] = New
	}
	for i, e := range ents {
		// An impl block is no symbol of its own (it shares its type's
		// name); it is listed only around a listed method.
		if !e.Exported || e.Kind == "impl" {
			continue
		}
		k := [2]string{e.Class, e.Function}
		if newKeys[k] {
			change[i] = New
			continue
		}
		if !e.IsFunction() {
			continue
		}
		for _, lines := range byKey[k] {
			if len(lines) == 0 || holdsAny(e, lines) {
				change[i] = Changed
				break
			}
		}
	}
	// parent[i] is the innermost entity whose lines hold item i's (a
	// member's first line), found with a stack of entities over the items
	// in container-first order; the stable sort keeps entities before
	// members on the same lines. A member holds nothing.
	order := make([]int, len(change))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		as, ae := span(a)
		bs, be := span(b)
		return cmp.Or(cmp.Compare(as, bs), cmp.Compare(be, ae))
	})
	parent := make([]int, len(change))
	var stack []int
	for _, i := range order {
		start, end := span(i)
		if i >= n {
			end = start
		}
		for len(stack) > 0 && ents[stack[len(stack)-1]].End < end {
			stack = stack[:len(stack)-1]
		}
		parent[i] = -1
		if len(stack) > 0 {
			parent[i] = stack[len(stack)-1]
		}
		if i < n {
			stack = append(stack, i)
		}
	}
	// Every class around a picked item is listed; each ancestor is
	// walked once.
	listed := make([]bool, len(change))
	walked := make([]bool, len(change))
	for i := range change {
		if change[i] == "" {
			continue
		}
		listed[i] = true
		for p := parent[i]; p >= 0 && !walked[p]; p = parent[p] {
			walked[p] = true
			if !isFunction(p) {
				listed[p] = true
			}
		}
	}
	depth := make([]int, len(change))
	var out []Signature
	for _, i := range order {
		if p := parent[i]; p >= 0 {
			depth[i] = depth[p]
			if listed[p] {
				depth[i]++
			}
		}
		switch {
		case !listed[i]:
		case i < n:
			e := ents[i]
			out = append(out, Signature{Name: e.Name(), Text: e.Signature, Change: change[i], Depth: depth[i]})
		default:
			m := mems[i-n]
			out = append(out, Signature{Name: m.Qualified(), Text: m.Declaration, Change: New, Depth: depth[i]})
		}
	}
	return out
}

// holdsAny reports whether one of the sorted lines is within e's lines.
func holdsAny(e syntax.Entity, lines []int) bool {
	k, _ := slices.BinarySearch(lines, e.Start)
	return k < len(lines) && lines[k] <= e.End
}

// Instruction is a built candidate's specification instruction: the
// task's instruction.md (preamble and EP, as pipeline/harbor wrote
// it) followed by the specification section.
func Instruction(ctx context.Context, ws *workspace.Workspace, c *pipeline.Candidate) ([]byte, *Spec, error) {
	p := filepath.Join(c.Dir, build.TaskDir, harbor.Instruction)
	inst, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("candidate %s has no task (%s); run lolbench build %s", c.ID, filepath.Join(build.TaskDir, harbor.Instruction), c.ID)
	}
	if err != nil {
		return nil, nil, err
	}
	s, err := Load(ctx, ws, c)
	if err != nil {
		return nil, nil, err
	}
	return Append(inst, s.Markdown()), s, nil
}

// Write writes a built candidate's File and returns its path.
func Write(ctx context.Context, ws *workspace.Workspace, c *pipeline.Candidate) (string, *Spec, error) {
	data, s, err := Instruction(ctx, ws, c)
	if err != nil {
		return "", nil, err
	}
	p := filepath.Join(c.Dir, filepath.FromSlash(File))
	if err := workspace.WriteFile(p, data, 0o644); err != nil {
		return "", nil, err
	}
	return p, s, nil
}

// Append puts the specification section after a document (an
// instruction, or an EP for SWE-bench's problem_statement), separated by
// a thematic break.
func Append(doc, section []byte) []byte {
	var b bytes.Buffer
	b.Write(doc)
	if len(doc) > 0 && !bytes.HasSuffix(doc, []byte("\n")) {
		b.WriteByte('\n')
	}
	b.WriteString("\n---\n\n")
	b.Write(section)
	return b.Bytes()
}

// Markdown renders the specification section: the changed-file tree, then
// the signatures grouped by file, one fenced block per file.
func (s *Spec) Markdown() []byte {
	var b bytes.Buffer
	b.WriteString("## Specification from the reference solution\n\n")
	b.WriteString("In this variant of the task the proposal comes with a narrower specification, taken from the implementation the project's maintainers merged: the files it touches (its tests left out), the public classes and functions it adds or changes, and the public fields and constants it adds. ")
	b.WriteString("The hidden tests were written against that implementation, so use these paths, names and signatures; the proposal above still says how the code must behave.\n\n")
	b.WriteString("### Files to change\n\n")
	if len(s.Files) == 0 {
		b.WriteString("None: the reference solution changes no file outside its tests.\n\n")
	} else {
		fenced(&b, "text", s.tree())
	}
	b.WriteString("### Public classes, functions, fields and constants\n\n")
	n := 0
	for _, f := range s.Files {
		n += len(f.Signatures)
	}
	if n == 0 {
		b.WriteString("None: the reference solution adds or changes no public class, function, field or constant that could be read.\n\n")
	} else {
		b.WriteString("Signatures and declarations as they read after the change, grouped by file, fields under their class. `new` marks what the implementation adds and `changed` what it modifies; unmarked lines are the classes around them, shown for context.\n\n")
		for _, f := range s.Files {
			if len(f.Signatures) == 0 {
				continue
			}
			fmt.Fprintf(&b, "#### %s\n\n", codeSpan(f.Path))
			comment := lineComment(f.Language)
			var code strings.Builder
			for _, sig := range f.Signatures {
				code.WriteString(strings.Repeat("    ", sig.Depth))
				code.WriteString(sig.Text)
				if sig.Change != "" {
					fmt.Fprintf(&code, " %s %s", comment, sig.Change)
				}
				code.WriteByte('\n')
			}
			fenced(&b, syntax.FenceTag(f.Language), code.String())
		}
	}
	if len(s.Skipped) > 0 {
		b.WriteString("Signatures could not be read from:\n\n")
		for _, sk := range s.Skipped {
			fmt.Fprintf(&b, "- %s (%s)\n", codeSpan(sk.File), sk.Reason)
		}
		b.WriteString("\n")
	}
	return append(bytes.TrimRight(b.Bytes(), "\n"), '\n')
}

// lineComment is the marker that makes "new" and "changed" comments in
// the language; every grammar but Python's takes "//".
func lineComment(language string) string {
	if language == "Python" {
		return "#"
	}
	return "//"
}

// fenced writes a fenced code block longer than any backtick run in code.
func fenced(b *bytes.Buffer, tag, code string) {
	fence := strings.Repeat("`", max(3, longestRun(code, '`')+1))
	fmt.Fprintf(b, "%s%s\n%s", fence, tag, code)
	if !strings.HasSuffix(code, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString(fence + "\n\n")
}

// codeSpan writes s as an inline code span that no backtick in s ends
// (CommonMark 6.1); a path with control characters is quoted.
func codeSpan(s string) string {
	s = printable(s)
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// printable returns a path name as is, or Go-quoted when it holds a
// control character or invalid UTF-8 (a hostile path would otherwise break
// the tree's lines).
func printable(s string) string {
	if !utf8.ValidString(s) || strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return strconv.Quote(s)
	}
	return s
}

// treeNode is a folder or a file of the changed-file tree.
type treeNode struct {
	name     string
	children map[string]*treeNode
	file     *ChangedFile
}

// tree renders the changed files as an indented tree: folders end in
// "/", a folder whose only child is a folder is shown on one line with it
// ("src/main/java/"), and each file names its change.
func (s *Spec) tree() string {
	root := &treeNode{children: map[string]*treeNode{}}
	for i := range s.Files {
		f := &s.Files[i]
		n := root
		parts := strings.Split(f.Path, "/")
		for k, part := range parts {
			c := n.children[part]
			if c == nil {
				c = &treeNode{name: part, children: map[string]*treeNode{}}
				n.children[part] = c
			}
			if k == len(parts)-1 {
				c.file = f
			}
			n = c
		}
	}
	var b strings.Builder
	var walk func(n *treeNode, depth int)
	walk = func(n *treeNode, depth int) {
		names := make([]string, 0, len(n.children))
		for name := range n.children {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			c := n.children[name]
			indent := strings.Repeat("  ", depth)
			if c.file != nil {
				fmt.Fprintf(&b, "%s%s (%s)\n", indent, printable(c.name), describe(c.file))
			}
			if len(c.children) == 0 {
				continue
			}
			label := printable(c.name) + "/"
			for len(c.children) == 1 && c.file == nil {
				var only *treeNode
				for _, o := range c.children {
					only = o
				}
				if only.file != nil {
					break
				}
				label += printable(only.name) + "/"
				c = only
			}
			fmt.Fprintf(&b, "%s%s\n", indent, label)
			walk(c, depth+1)
		}
	}
	walk(root, 0)
	return b.String()
}

// describe names a file's change in the tree.
func describe(f *ChangedFile) string {
	switch f.Status {
	case diff.Added:
		return "new"
	case diff.Deleted:
		return "deleted"
	case diff.Renamed:
		return "renamed from " + printable(f.OldPath)
	}
	return "changed"
}
