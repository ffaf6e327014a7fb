package mutation

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/scanner"
	"go/token"
	"slices"
	"sort"
)

// A section's revert must build for the test-to-section map to learn
// anything from it (issue 36 §4): a revert that does not compile fails
// every test of its package, whatever the test asserts. The line-level
// revert of a Go section broke the build three ways on gRFC A58: an
// import only the section used stayed ("imported and not used"), a type
// the section adds went while other sections' code still used it
// ("undefined: weightedSubConn"), and a file the PR adds lost its package
// clause with the section that owned its file-level lines ("expected
// 'package', found 'func'"). The Go pass works on the reference and base
// files with go/ast, in this order:
//
//   - whole functions (restoreFuncs, here): an existing function the
//     section changes comes back from the base whole, not line by line,
//     since git may align the base function's closing brace with another
//     function's;
//   - shape (goshape.go): a file's package clause and doc comment, a
//     group's parentheses, a type's braces stay while any line of code in
//     them does; a declaration the base does not have goes whole when its
//     added lines all go (lines git calls unchanged too); a doc comment
//     goes, or stays, with its declaration;
//   - uses (gouses.go): a declaration the revert removes stays when the
//     code left after it (other sections' code, unchanged code, the PR's
//     Go tests) still uses it: a function or method as a stub, a type,
//     variable, constant, struct field or import as it is, in place or,
//     when its hunk puts base lines back, appended to its file (applyKept).
//     This repeats until nothing more is needed, since what is kept may
//     use more;
//   - finish (gostub.go): stub bodies that fail the calling test without
//     ending the test binary, the imports they need, the imports left
//     unused dropped, gofmt when the reference file was gofmt'ed, a
//     parse check, and a file the PR adds left with no declaration
//     removed.
//
// Uses are found by name, without type checking (the task's dependencies
// are not here): a local variable or a field named like a removed
// declaration keeps it. That errs on the side of building; it never
// removes what a use needs. What it cannot see is a type error: a section
// that changes a struct field's type, whose revert restores the old type
// under code written for the new one (tinykv's 3.1 and 3.4), still does
// not build, and the build check drops it.

// goReverter holds the reference side of a solution's Go files, parsed
// once for all sections.
type goReverter struct {
	sol   *Solution
	o     *Owners
	ref   map[string]*goSrc // the reference version of each Go solution file that parses
	decls map[string][]*goDecl
	gofmt map[string]bool // the reference file is gofmt'ed
	tests []*goSrc        // the PR's Go test files
	// base are the base versions of the Go files that parse, baseKeys
	// the keys of their declarations.
	base     map[string]*goSrc
	baseKeys map[string]map[string]bool
}

func newGoReverter(sol *Solution, o *Owners) *goReverter {
	g := &goReverter{sol: sol, o: o, ref: map[string]*goSrc{}, decls: map[string][]*goDecl{}, gofmt: map[string]bool{},
		base: map[string]*goSrc{}, baseKeys: map[string]map[string]bool{}}
	for i := range sol.Files {
		f := &sol.Files[i]
		if !isGo(f) || f.After == nil {
			continue
		}
		g.baseKeys[f.Path] = map[string]bool{}
		if f.Base != nil {
			if b, err := parseGoSrc(f.Path, f.Base); err == nil {
				g.base[f.Path] = b
				for _, d := range b.decls() {
					g.baseKeys[f.Path][d.key()] = true
				}
			}
		}
		s, err := parseGoSrc(f.Path, f.After)
		if err != nil {
			continue // its revert is checked, and reported, as it is
		}
		g.ref[f.Path] = s
		g.decls[f.Path] = s.decls()
		if b, err := format.Source(f.After); err == nil && bytes.Equal(b, f.After) {
			g.gofmt[f.Path] = true
		}
	}
	for _, p := range sortedKeys(sol.GoTests) {
		if s, err := parseGoSrc(p, sol.GoTests[p]); err == nil {
			g.tests = append(g.tests, s)
		}
	}
	return g
}

func isGo(f *File) bool { return f.Language == "Go" && f.Skip == "" }

// revert makes a section's plain revert: the line-level revert, adjusted
// in Go files until what is left after it builds.
func (g *goReverter) revert(sec Section) Revert {
	keep, hold := lineSet{}, lineSet{}
	st := newGoKeep()
	whole := g.restoreFuncs(sec.ID, keep, hold, st)
	st.hold = hold
	var edit Edit
	var n int
	var files []string
	for {
		drop := g.structure(sec.ID, keep, hold)
		edit, n, files = revertSection(g.sol, g.o, sec.ID, keep, drop, hold)
		files = g.include(edit, files, st)
		applyKept(edit, st)
		more, err := g.keepUsed(sec.ID, edit, keep, st)
		if err != nil {
			return Revert{Section: sec, Edit: edit, Lines: n + whole, Files: files, Kept: st.list(), Invalid: err.Error()}
		}
		if !more {
			break
		}
	}
	r := Revert{Section: sec, Edit: edit, Lines: n + whole + g.stubbedLines(sec.ID, st), Files: files, Kept: st.list()}
	r.Invalid = g.finish(sec.ID, edit, st.stubs)
	r.NoCode = r.Invalid == "" && len(edit) > 0
	for p, b := range edit {
		f := g.sol.File(p)
		r.NoCode = r.NoCode && isGo(f) && b != nil && f.After != nil && sameGoCode(b, f.After)
	}
	return r
}

// stubbedLines counts the changed lines section id owns in the functions
// its revert keeps as stubs: they are reverted too, their bodies replaced.
// A section whose every function others call (gRFC A58's subchannel
// weights: OnLoadReport from the picker, weight from the scheduler) is
// reverted by its stubs alone, and without them counted it had no revert.
func (g *goReverter) stubbedLines(id string, st *goKeep) int {
	n := 0
	for _, p := range sortedKeys(st.stubs) {
		for _, d := range g.decls[p] {
			if !st.stubs[p][d.key()] {
				continue
			}
			for _, l := range d.body {
				if g.o.Added(p, l) == id {
					n++
				}
			}
		}
	}
	return n
}

// sameGoCode reports whether two Go sources have the same tokens, comments
// and layout aside.
func sameGoCode(a, b []byte) bool {
	scan := func(src []byte) []string {
		var sc scanner.Scanner
		fset := token.NewFileSet()
		sc.Init(fset.AddFile("", -1, len(src)), src, nil, 0)
		var out []string
		for {
			_, tok, lit := sc.Scan()
			if tok == token.EOF {
				return out
			}
			if tok == token.SEMICOLON && lit == "\n" {
				lit = ";" // an automatic semicolon is a semicolon
			}
			out = append(out, tok.String()+" "+lit)
		}
	}
	return slices.Equal(scan(a), scan(b))
}

// goRestore is an existing function a section changes, which its Go revert
// puts back whole: key and the base's text.
type goRestore struct{ key, text string }

// restoreFuncs finds the existing functions of the Go files that section
// id changes (an added line of it in the reference's version, or a deleted
// one in the base's): the revert puts each back whole, from the base, as
// the stub revert does, instead of line by line, because git may align
// the base function's closing brace with another function's (a changed
// Version followed by new functions: "-return 1 / +return 2, +}, +func
// sizeOf..." keeps the old "}" for the last new function), and the
// restored lines would then close the wrong function. Their lines go to
// keep (reference) and hold (base), and the count of their changed lines
// the section owns is returned.
func (g *goReverter) restoreFuncs(id string, keep, hold lineSet, st *goKeep) int {
	n := 0
	for _, p := range sortedKeys(g.ref) {
		f, s := g.sol.File(p), g.ref[p]
		if f.Base == nil {
			continue
		}
		base := g.base[p]
		if base == nil {
			continue
		}
		baseFuncs := map[string]*ast.FuncDecl{}
		for _, d := range base.file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				baseFuncs[funcKey(fd)] = fd
			}
		}
		added, deleted := map[int]bool{}, map[int]bool{}
		for _, l := range f.Added {
			added[l] = true
		}
		for _, l := range f.Deleted {
			deleted[l] = true
		}
		for _, d := range s.file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			b := baseFuncs[funcKey(fd)]
			if b == nil {
				continue
			}
			var mine, gone []int
			for l := s.line(fd.Pos()); l <= s.line(fd.End()); l++ {
				if added[l] && g.o.Added(p, l) == id {
					mine = append(mine, l)
				}
			}
			for l := base.line(b.Pos()); l <= base.line(b.End()); l++ {
				if deleted[l] && g.o.Deleted(p, l) == id {
					gone = append(gone, l)
				}
			}
			if len(mine)+len(gone) == 0 {
				continue
			}
			keep.add(p, s.span(nil, fd.Pos(), fd.End())...)
			hold.add(p, base.span(nil, b.Pos(), b.End())...)
			st.restored[p] = append(st.restored[p], goRestore{funcKey(fd), string(base.src[base.off(b.Pos()):base.off(b.End())])})
			n += len(mine) + len(gone)
		}
	}
	return n
}

// include adds to the edit, as the reference has them, the files where the
// revert restores or stubs a function but drops no line, and returns the
// files touched.
func (g *goReverter) include(edit Edit, files []string, st *goKeep) []string {
	for _, p := range append(sortedKeys(st.restored), sortedKeys(st.stubs)...) {
		if _, ok := edit[p]; !ok {
			edit[p] = append([]byte{}, g.sol.File(p).After...)
			files = append(files, p)
		}
	}
	sort.Strings(files)
	return files
}

// goKeep is what a revert has kept so far: the functions to stub (path ->
// key) and a note per kept declaration.
type goKeep struct {
	stubs map[string]map[string]bool
	notes []goNote
	seen  map[string]bool // path + key
	// moved are the kept declarations appended to their file, imports the
	// kept imports added back (applyKept), by path.
	moved, imports map[string][]*goDecl
	// restored are the functions put back whole, hold the base lines they
	// come from (restoreFuncs).
	restored map[string][]goRestore
	hold     lineSet
}

func newGoKeep() *goKeep {
	return &goKeep{stubs: map[string]map[string]bool{}, seen: map[string]bool{}, moved: map[string][]*goDecl{},
		imports: map[string][]*goDecl{}, restored: map[string][]goRestore{}, hold: lineSet{}}
}

// applyKept puts into a revert's edit the kept declarations that are not
// kept in place: a declaration whose lines share a hunk with base lines
// the revert puts back is appended to its file (git may have aligned its
// closing brace with the restored function's, so keeping its lines in
// place would nest them wrongly; Go does not care where a declaration
// is), and a kept import is added back to the file's imports. First, the
// functions put back whole replace the reference's.
func applyKept(edit Edit, st *goKeep) {
	for _, p := range sortedKeys(st.restored) {
		s, err := parseGoSrc(p, edit[p])
		if edit[p] == nil || err != nil {
			continue // keepUsed reports it
		}
		want := map[string]string{}
		for _, r := range st.restored[p] {
			want[r.key] = r.text
		}
		var rs []Replace
		for _, d := range s.file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if text, ok := want[funcKey(fd)]; ok {
					rs = append(rs, Replace{Start: uint32(s.off(fd.Pos())), End: uint32(s.off(fd.End())), Text: text})
					delete(want, funcKey(fd))
				}
			}
		}
		edit[p] = Site{Replace: rs}.Apply(edit[p])
	}
	for _, p := range sortedKeys(st.moved) {
		if edit[p] == nil {
			continue
		}
		b := append([]byte{}, edit[p]...)
		for _, d := range st.moved[p] {
			if len(b) > 0 && b[len(b)-1] != '\n' {
				b = append(b, '\n')
			}
			b = append(append(b, '\n'), d.text...)
		}
		edit[p] = b
	}
	for _, p := range sortedKeys(st.imports) {
		if edit[p] == nil {
			continue
		}
		for _, d := range st.imports[p] {
			edit[p] = addGoImport(edit[p], d.path, d.name)
		}
	}
}

type goNote struct {
	path string
	line int
	text string
}

func (k *goKeep) list() []string {
	sort.SliceStable(k.notes, func(i, j int) bool {
		a, b := k.notes[i], k.notes[j]
		if a.path != b.path {
			return a.path < b.path
		}
		return a.line < b.line
	})
	var out []string
	for _, n := range k.notes {
		out = append(out, n.text)
	}
	return out
}
