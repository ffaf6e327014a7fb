package mutation

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"path"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// A section's revert must build for the test-to-section map to learn
// anything from it (issue 36 §4): a revert that does not compile fails
// every test of its package, whatever the test asserts. The line-level
// revert of a Go section broke the build three ways on gRFC A58: an
// import only the section used stayed ("imported and not used"), a type
// the section adds went while other sections' code still used it
// ("undefined: weightedSubConn"), and a file the PR adds lost its package
// clause with the section that owned its file-level lines ("expected
// 'package', found 'func'"). The Go pass below works on the reference
// files with go/ast:
//
//   - structure: a file's package clause and doc comment, a group's
//     parentheses and a type's braces stay while any other line in them
//     does (unless the revert puts the base's own lines back in their
//     place); a declaration's doc comment goes with it;
//   - uses: a declaration the revert removes stays when the code left
//     after it (other sections' code, unchanged code, the PR's Go tests)
//     still uses it; a function or method as a stub, a type, variable,
//     constant, struct field or import as it is. This repeats until
//     nothing more is needed, since what is kept may use more;
//   - finish: stub bodies, the imports they need, the imports left unused
//     dropped, gofmt when the reference file was gofmt'ed, and a parse
//     check.
//
// Uses are found by name, without type checking (the task's dependencies
// are not here): a local variable or a field named like a removed
// declaration keeps it. That errs on the side of building; it never
// removes what a use needs.

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
	r := Revert{Section: sec, Edit: edit, Lines: n + whole, Files: files, Kept: st.list()}
	r.Invalid = g.finish(sec.ID, edit, st.stubs)
	return r
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

// goSrc is one parsed Go file.
type goSrc struct {
	path string
	src  []byte
	fset *token.FileSet
	file *ast.File
}

func parseGoSrc(p string, src []byte) (*goSrc, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, p, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	return &goSrc{path: p, src: src, fset: fset, file: f}, nil
}

func (s *goSrc) line(p token.Pos) int { return s.fset.Position(p).Line }
func (s *goSrc) off(p token.Pos) int  { return s.fset.Position(p).Offset }

// span is the lines from doc (or from) to to.
func (s *goSrc) span(doc *ast.CommentGroup, from, to token.Pos) []int {
	if doc != nil {
		from = doc.Pos()
	}
	var out []int
	for l := s.line(from); l <= s.line(to); l++ {
		out = append(out, l)
	}
	return out
}

// goDecl is a declaration a revert may remove: a top-level function,
// method, type, variable or constant, a field of a struct (or a method of
// an interface) type, an import.
type goDecl struct {
	kind     string // "func", "method", "type", "var", "const", "field", "import"
	name     string // the name a use writes (an import's name)
	recv     string // a method's receiver type, a field's type
	path     string // an import's path
	exported bool
	embedded bool // an embedded field
	// body are its own lines, doc comment left out; lines what keeping it
	// keeps: its doc comment, its lines and the parentheses of its group.
	body, lines []int
	// text is the declaration on its own, doc comment included (a
	// grouped spec with its keyword): what a revert appends to keep it
	// when keeping its lines in place would not parse.
	text string
}

func (d *goDecl) key() string {
	switch d.kind {
	case "method", "field":
		return d.kind + " " + d.recv + "." + d.name
	case "import":
		return "import " + d.name + " " + d.path
	}
	return d.kind + " " + d.name
}

// label names the declaration in a note.
func (d *goDecl) label() string {
	switch d.kind {
	case "method", "field":
		return d.recv + "." + d.name
	case "import":
		return strconv.Quote(d.path)
	}
	return d.name
}

func funcKey(fd *ast.FuncDecl) string {
	if fd.Recv != nil && len(fd.Recv.List) == 1 {
		return "method " + typeName(fd.Recv.List[0].Type) + "." + fd.Name.Name
	}
	return "func " + fd.Name.Name
}

// typeName is the name of a (receiver or embedded) type: T for *T,
// T[K], pkg.T.
func typeName(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.SelectorExpr:
			return t.Sel.Name
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

// lineText is the text of the lines from's line to to's line, line breaks
// included.
func (s *goSrc) lineText(from, to token.Pos) string {
	a := bytes.LastIndexByte(s.src[:s.off(from)], '\n') + 1
	b := s.off(to)
	if i := bytes.IndexByte(s.src[b:], '\n'); i >= 0 {
		b += i + 1
	} else {
		b = len(s.src)
	}
	return string(s.src[a:b])
}

// decls lists the file's declarations.
func (s *goSrc) decls() []*goDecl {
	var out []*goDecl
	whole := func(doc *ast.CommentGroup, n ast.Node) string {
		from := n.Pos()
		if doc != nil {
			from = doc.Pos()
		}
		return s.lineText(from, n.End())
	}
	for _, d := range s.file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			g := &goDecl{kind: "func", name: d.Name.Name, exported: d.Name.IsExported(),
				body: s.span(nil, d.Pos(), d.End()), lines: s.span(d.Doc, d.Pos(), d.End()), text: whole(d.Doc, d)}
			if d.Recv != nil && len(d.Recv.List) == 1 {
				g.kind, g.recv = "method", typeName(d.Recv.List[0].Type)
			}
			out = append(out, g)
		case *ast.GenDecl:
			var group []int // a grouped spec keeps the group's doc comment and parentheses
			if d.Lparen.IsValid() {
				group = append(s.span(d.Doc, d.Pos(), d.Lparen), s.line(d.Rparen))
			}
			spanOf := func(doc *ast.CommentGroup, sp ast.Spec) (body, all []int) {
				if group == nil {
					return s.span(nil, d.Pos(), d.End()), s.span(d.Doc, d.Pos(), d.End())
				}
				return s.span(nil, sp.Pos(), sp.End()), append(s.span(doc, sp.Pos(), sp.End()), group...)
			}
			textOf := func(doc *ast.CommentGroup, sp ast.Spec) string {
				if group == nil {
					return whole(d.Doc, d)
				}
				t := strings.TrimLeft(whole(nil, sp), " \t")
				if doc != nil {
					t = strings.TrimLeft(whole(doc, doc), " \t") + t
				}
				return d.Tok.String() + " " + t
			}
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.ImportSpec:
					p, _ := strconv.Unquote(sp.Path.Value)
					body, all := spanOf(sp.Doc, sp)
					out = append(out, &goDecl{kind: "import", name: importName(sp), path: p, body: body, lines: all})
				case *ast.TypeSpec:
					body, all := spanOf(sp.Doc, sp)
					out = append(out, &goDecl{kind: "type", name: sp.Name.Name, exported: sp.Name.IsExported(), body: body, lines: all, text: textOf(sp.Doc, sp)})
					out = append(out, s.members(sp)...)
				case *ast.ValueSpec:
					body, all := spanOf(sp.Doc, sp)
					text := textOf(sp.Doc, sp)
					if d.Tok == token.CONST && group != nil && len(sp.Values) == 0 {
						// An implicit constant repeats the group's last
						// expression (iota): it keeps only with the group.
						all, text = s.span(d.Doc, d.Pos(), d.End()), whole(d.Doc, d)
					}
					for _, n := range sp.Names {
						// A blank one (var _ I = (*T)(nil)) is listed for
						// its owner as a referrer; no use can keep it.
						out = append(out, &goDecl{kind: d.Tok.String(), name: n.Name, exported: n.IsExported(), body: body, lines: all, text: text})
					}
				}
			}
		}
	}
	return out
}

// members are the fields of a struct type and the methods of an interface
// type.
func (s *goSrc) members(ts *ast.TypeSpec) []*goDecl {
	var fields *ast.FieldList
	switch t := ts.Type.(type) {
	case *ast.StructType:
		fields = t.Fields
	case *ast.InterfaceType:
		fields = t.Methods
	}
	if fields == nil {
		return nil
	}
	var out []*goDecl
	for _, f := range fields.List {
		body, all := s.span(nil, f.Pos(), f.End()), s.span(f.Doc, f.Pos(), f.End())
		if len(f.Names) == 0 {
			if n := typeName(f.Type); n != "" {
				out = append(out, &goDecl{kind: "field", name: n, recv: ts.Name.Name, embedded: true, exported: ast.IsExported(n), body: body, lines: all})
			}
			continue
		}
		for _, n := range f.Names {
			out = append(out, &goDecl{kind: "field", name: n.Name, recv: ts.Name.Name, exported: n.IsExported(), body: body, lines: all})
		}
	}
	return out
}

// structure adjusts the lines a section's revert keeps and drops in its Go
// files so that what is left has a shape that parses: the package clause
// and the file's doc comment, a group's parentheses, a struct's or an
// interface's braces and a multi-line value's first and last lines stay
// while any line of code inside them does; and a declaration's doc
// comment, which rule 27 makes a file-level line, goes when all of the
// declaration goes. Lines whose hunk puts the base's lines back are left
// alone: the base's own structure returns with them. It adds to keep and
// returns the lines to drop, which depend on what is kept.
func (g *goReverter) structure(id string, keep, hold lineSet) (drop lineSet) {
	drop = lineSet{}
	for _, p := range sortedKeys(g.ref) {
		f, s := g.sol.File(p), g.ref[p]
		added := map[int]bool{}
		for _, l := range f.Added {
			added[l] = true
		}
		dropped := func(l int) bool {
			return (drop.has(p, l) || added[l] && g.o.Added(p, l) == id) && !keep.has(p, l)
		}
		text := splitLines(f.After)
		blank := func(l int) bool { return l >= 1 && l <= len(text) && strings.TrimSpace(string(text[l-1])) == "" }
		code := func(l int) bool {
			if l < 1 || l > len(text) {
				return false
			}
			t := strings.TrimSpace(string(text[l-1]))
			return t != "" && !strings.HasPrefix(t, "//")
		}
		// frame keeps the frame's dropped lines when a line of code
		// between first and last (not of the frame) stays.
		frame := func(first, last int, lines ...int) bool {
			in := map[int]bool{}
			for _, l := range lines {
				in[l] = true
			}
			stays := false
			for l := first; l <= last && !stays; l++ {
				stays = !in[l] && code(l) && !dropped(l)
			}
			changed := false
			for _, l := range lines {
				if stays && dropped(l) && !g.restores(f, id, l, hold) {
					changed = keep.add(p, l) || changed
				}
			}
			return changed
		}
		// fresh drops whole a declaration the base does not have whose
		// added lines all go: its lines git calls unchanged too (the last
		// "}" of a new function after a changed one is often the old
		// function's, for git).
		fresh := func(key string, doc *ast.CommentGroup, from, to token.Pos) bool {
			if g.baseKeys[p][key] {
				return false
			}
			n := 0
			for l := s.line(from); l <= s.line(to); l++ {
				if added[l] {
					if !dropped(l) {
						return false
					}
					n++
				}
			}
			changed := false
			for _, l := range s.span(doc, from, to) {
				if n > 0 && !keep.has(p, l) {
					changed = drop.add(p, l) || changed
				}
			}
			return changed
		}
		// gone drops a declaration's doc comment with it, and a
		// declaration that stays keeps its doc comment and the blank line
		// above.
		gone := func(doc *ast.CommentGroup, from, to token.Pos) bool {
			all := true
			for l := s.line(from); l <= s.line(to) && all; l++ {
				all = dropped(l)
			}
			changed := false
			if all {
				if doc != nil {
					for _, l := range s.span(nil, doc.Pos(), doc.End()) {
						if added[l] && !keep.has(p, l) {
							changed = drop.add(p, l) || changed
						}
					}
				}
				return changed
			}
			first := s.line(from)
			if doc != nil {
				first = s.line(doc.Pos())
			}
			var stay []int // the doc comment, and the blank line above
			for l := first; l < s.line(from); l++ {
				stay = append(stay, l)
			}
			if l := first - 1; blank(l) && dropped(l) {
				// Only when what stays above does not end with a blank
				// line already: gofmt would merge the two, and the line
				// counts as reverted.
				above := l - 1
				for above >= 1 && dropped(above) {
					above--
				}
				if above >= 1 && !blank(above) {
					stay = append(stay, l)
				}
			}
			for _, l := range stay {
				if dropped(l) && !g.restores(f, id, l, hold) {
					changed = keep.add(p, l) || changed
				}
			}
			return changed
		}
		for changed := true; changed; {
			changed = false
			pkg := s.span(nil, s.file.FileStart, s.file.Name.End())
			changed = frame(1, len(text), pkg...) || changed
			for _, d := range s.file.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					changed = fresh(funcKey(d), d.Doc, d.Pos(), d.End()) || changed
					changed = gone(d.Doc, d.Pos(), d.End()) || changed
				case *ast.GenDecl:
					if d.Lparen.IsValid() {
						open := s.span(nil, d.Pos(), d.Lparen)
						changed = frame(s.line(d.Pos()), s.line(d.Rparen), append(open, s.line(d.Rparen))...) || changed
					}
					changed = gone(d.Doc, d.Pos(), d.End()) || changed
					for _, sp := range d.Specs {
						switch sp := sp.(type) {
						case *ast.TypeSpec:
							if d.Lparen.IsValid() {
								changed = fresh("type "+sp.Name.Name, sp.Doc, sp.Pos(), sp.End()) || changed
								changed = gone(sp.Doc, sp.Pos(), sp.End()) || changed
							} else {
								changed = fresh("type "+sp.Name.Name, d.Doc, d.Pos(), d.End()) || changed
							}
							var lb, rb token.Pos
							switch t := sp.Type.(type) {
							case *ast.StructType:
								lb, rb = t.Fields.Opening, t.Fields.Closing
							case *ast.InterfaceType:
								lb, rb = t.Methods.Opening, t.Methods.Closing
							}
							if lb.IsValid() && rb.IsValid() {
								open := s.span(nil, sp.Pos(), lb)
								changed = frame(s.line(sp.Pos()), s.line(rb), append(open, s.line(rb))...) || changed
							}
						case *ast.ValueSpec:
							if d.Lparen.IsValid() {
								changed = fresh(d.Tok.String()+" "+sp.Names[0].Name, sp.Doc, sp.Pos(), sp.End()) || changed
								changed = gone(sp.Doc, sp.Pos(), sp.End()) || changed
							} else {
								changed = fresh(d.Tok.String()+" "+sp.Names[0].Name, d.Doc, d.Pos(), d.End()) || changed
							}
							if a, b := s.line(sp.Pos()), s.line(sp.End()); b > a {
								changed = frame(a, b, a, b) || changed
							}
						}
					}
				}
			}
		}
	}
	return drop
}

// restoresAny reports whether a hunk that added one of the lines puts back
// deleted lines section id owns.
func (g *goReverter) restoresAny(f *File, id string, lines []int, hold lineSet) bool {
	for _, l := range lines {
		if g.restores(f, id, l, hold) {
			return true
		}
	}
	return false
}

// restores reports whether the hunk that added line l of f puts back
// deleted lines section id owns (and hold does not hold).
func (g *goReverter) restores(f *File, id string, l int, hold lineSet) bool {
	for _, h := range f.Hunks {
		if h.NewLines > 0 && l >= h.NewStart && l < h.NewStart+h.NewLines {
			for d := h.OldStart; h.OldLines > 0 && d < h.OldStart+h.OldLines; d++ {
				if g.o.Deleted(f.Path, d) == id && !hold.has(f.Path, d) {
					return true
				}
			}
			return false
		}
	}
	return false
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

// goRefs are uses by name: name -> the referrers (see referrer).
type goRefs map[string]map[string]bool

func (r goRefs) add(name, ref string) {
	if r[name] == nil {
		r[name] = map[string]bool{}
	}
	r[name][ref] = true
}

// goUses are the uses one file makes.
type goUses struct {
	idents  goRefs // unqualified names
	members goRefs // selected names (x.name) and struct literal keys
	quals   goRefs // "importpath name" for pkg.name
	pkgs    goRefs // qualifiers: the X of every x.name
	ifaces  map[string]bool
}

// uses walks the file's declarations, each a referrer, except the bodies
// of the functions skip says are stubs: a stub uses only its signature.
func (s *goSrc) uses(skip func(*ast.FuncDecl) bool, referrer func(key string) string) *goUses {
	u := &goUses{idents: goRefs{}, members: goRefs{}, quals: goRefs{}, pkgs: goRefs{}, ifaces: map[string]bool{}}
	imports := map[string]string{}
	for _, is := range s.file.Imports {
		if n := importName(is); n != "_" && n != "." {
			imports[n], _ = strconv.Unquote(is.Path.Value)
		}
	}
	ref := ""
	var visit func(n ast.Node)
	visit = func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok {
					u.idents.add(x.Name, ref)
					// Any qualifier: it may name an import the revert
					// removed.
					u.pkgs.add(x.Name, ref)
					if p, ok := imports[x.Name]; ok {
						u.quals.add(p+" "+n.Sel.Name, ref)
					}
				} else {
					visit(n.X)
				}
				u.members.add(n.Sel.Name, ref)
				return false
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok {
					// A struct literal's field, or a constant as a map key.
					u.members.add(k.Name, ref)
					u.idents.add(k.Name, ref)
				} else {
					visit(n.Key)
				}
				visit(n.Value)
				return false
			case *ast.InterfaceType:
				for _, m := range n.Methods.List {
					for _, name := range m.Names {
						u.ifaces[name.Name] = true
					}
				}
			case *ast.Field:
				visit(n.Type) // names declare: parameters, fields, methods
				return false
			case *ast.ValueSpec:
				if n.Type != nil {
					visit(n.Type)
				}
				for _, v := range n.Values {
					visit(v)
				}
				return false
			case *ast.TypeSpec:
				if n.TypeParams != nil {
					visit(n.TypeParams)
				}
				visit(n.Type)
				return false
			case *ast.AssignStmt:
				if n.Tok == token.DEFINE {
					for _, e := range n.Rhs {
						visit(e)
					}
					return false
				}
			case *ast.RangeStmt:
				if n.Tok == token.DEFINE {
					visit(n.X)
					visit(n.Body)
					return false
				}
			case *ast.LabeledStmt:
				visit(n.Stmt)
				return false
			case *ast.BranchStmt:
				return false
			case *ast.Ident:
				u.idents.add(n.Name, ref)
			}
			return true
		})
	}
	for _, d := range s.file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			ref = referrer(funcKey(d))
			if d.Recv != nil {
				visit(d.Recv)
			}
			visit(d.Type)
			if d.Body != nil && !skip(d) {
				visit(d.Body)
			}
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				continue
			}
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					ref = referrer("type " + sp.Name.Name)
				case *ast.ValueSpec:
					ref = referrer(d.Tok.String() + " " + sp.Names[0].Name)
				}
				visit(sp)
			}
		}
	}
	return u
}

// keepUsed finds the declarations the revert removes that the code left
// after it uses, adds their lines to keep and their functions to the
// stubs, and reports whether it found any. It fails when a Go file does
// not parse after the revert.
func (g *goReverter) keepUsed(id string, edit Edit, keep lineSet, st *goKeep) (bool, error) {
	after := map[string]*goSrc{}
	for i := range g.sol.Files {
		f := &g.sol.Files[i]
		if !isGo(f) {
			continue
		}
		src, edited := edit[f.Path]
		switch {
		case !edited && g.ref[f.Path] != nil:
			after[f.Path] = g.ref[f.Path]
		case edited && src != nil:
			s, err := parseGoSrc(f.Path, src)
			if err != nil {
				return false, fmt.Errorf("%v (after the revert of section %s)", err, id)
			}
			after[f.Path] = s
		}
	}
	// What is declared after the revert, and what the reference declares,
	// by package folder.
	present, declared := map[string]map[string]bool{}, map[string]map[string]bool{}
	note := func(m map[string]map[string]bool, dir, key string) {
		if m[dir] == nil {
			m[dir] = map[string]bool{}
		}
		m[dir][key] = true
	}
	imported := map[string]map[string]bool{} // file -> import keys after the revert
	for p, s := range after {
		imported[p] = map[string]bool{}
		for _, d := range s.decls() {
			if d.kind == "import" {
				imported[p][d.key()] = true
			} else {
				note(present, path.Dir(p), d.key())
			}
		}
	}
	for p, ds := range g.decls {
		for _, d := range ds {
			note(declared, path.Dir(p), d.key())
		}
	}
	// A type declared outside the solution's files is unchanged: it stays.
	stays := func(dir, key string) bool { return present[dir][key] || !declared[dir][key] }

	// Uses, with who makes them.
	idents := map[string]goRefs{} // folder + " " + package -> names
	members, quals, ifaces := goRefs{}, map[string]goRefs{}, map[string]map[string]bool{}
	pkgs := map[string]goRefs{} // file -> import names
	merge := func(dir, pkg, file string, u *goUses) {
		k := dir + " " + pkg
		if idents[k] == nil {
			idents[k] = goRefs{}
		}
		for n, rs := range u.idents {
			for r := range rs {
				idents[k].add(n, r)
			}
		}
		for n, rs := range u.members {
			for r := range rs {
				members.add(n, r)
			}
		}
		for q, rs := range u.quals {
			imp, name, _ := strings.Cut(q, " ")
			if quals[imp] == nil {
				quals[imp] = goRefs{}
			}
			for r := range rs {
				quals[imp].add(name, r)
			}
		}
		if file != "" {
			pkgs[file] = u.pkgs
		}
		if ifaces[dir] == nil {
			ifaces[dir] = map[string]bool{}
		}
		for m := range u.ifaces {
			ifaces[dir][m] = true
		}
	}
	for _, p := range sortedKeys(after) {
		s := after[p]
		skip := func(fd *ast.FuncDecl) bool { return st.stubs[p][funcKey(fd)] || isStubPlaceholder(fd, id) }
		merge(path.Dir(p), s.file.Name.Name, p, s.uses(skip, g.referrer(id, p, st)))
	}
	for _, s := range g.tests {
		u := s.uses(func(*ast.FuncDecl) bool { return false }, func(string) string { return "the tests" })
		merge(path.Dir(s.path), s.file.Name.Name, "", u)
	}

	more := false
	for _, p := range sortedKeys(g.decls) {
		src, edited := edit[p]
		if !edited {
			continue // the revert leaves the file as the reference has it
		}
		dir, pkg := path.Dir(p), g.ref[p].file.Name.Name
		for _, d := range g.decls[p] {
			if st.seen[p+" "+d.key()] {
				continue
			}
			if d.name == "_" {
				continue
			}
			var refs map[string]bool
			switch d.kind {
			case "import":
				if src == nil || imported[p][d.key()] {
					continue
				}
				refs = pkgs[p][d.name]
			case "func", "type", "var", "const":
				if present[dir][d.key()] {
					continue
				}
				refs = union(nil, idents[dir+" "+pkg][d.name])
				if d.exported {
					for imp, r := range quals {
						if path.Base(imp) == path.Base(dir) {
							refs = union(refs, r[d.name])
						}
					}
				}
			case "method", "field":
				if present[dir][d.key()] || !stays(dir, "type "+d.recv) {
					continue
				}
				refs = union(nil, members[d.name])
				switch {
				case d.embedded:
					refs = union(refs, map[string]bool{"embedded " + d.recv: true})
				case d.kind == "method" && len(refs) == 0 && (d.exported || ifaces[dir][d.name]):
					refs = map[string]bool{"interface " + d.recv: true}
				}
			}
			if len(refs) == 0 {
				continue
			}
			st.seen[p+" "+d.key()] = true
			more = true
			switch {
			case d.kind == "import":
				st.imports[p] = append(st.imports[p], d)
				continue
			case d.kind == "field" || !g.restoresAny(g.sol.File(p), id, d.lines, st.hold):
				keep.add(p, d.lines...)
			default:
				st.moved[p] = append(st.moved[p], d)
			}
			verb := "kept"
			if d.kind == "func" || d.kind == "method" {
				verb = "stubbed"
				if st.stubs[p] == nil {
					st.stubs[p] = map[string]bool{}
				}
				st.stubs[p][d.key()] = true
			}
			if d.kind == "type" {
				note(present, dir, d.key()) // its methods may stay now
				for _, m := range g.decls[p] {
					if m.kind == "field" && m.recv == d.name {
						st.seen[p+" "+m.key()] = true // kept with it
					}
				}
			}
			st.notes = append(st.notes, goNote{p, d.body[0], fmt.Sprintf("%s %s (%s): %s", verb, d.label(), p, g.why(refs))})
		}
	}
	return more, nil
}

func union(a, b map[string]bool) map[string]bool {
	if a == nil {
		a = map[string]bool{}
	}
	for k := range b {
		a[k] = true
	}
	return a
}

// referrer names who makes the uses of a declaration of file p after the
// revert: "section X" for another section's code, "kept name" for what
// the revert keeps of section id, "" for code no section owns (unchanged
// code, or the base's code the revert puts back).
func (g *goReverter) referrer(id, p string, st *goKeep) func(key string) string {
	f := g.sol.File(p)
	added := map[int]bool{}
	for _, l := range f.Added {
		added[l] = true
	}
	return func(key string) string {
		for _, d := range g.decls[p] {
			if d.key() != key {
				continue
			}
			if st.seen[p+" "+key] {
				return "kept " + d.label()
			}
			for _, l := range d.body {
				if x := g.o.Added(p, l); added[l] && x != "" && x != id {
					return "section " + x
				}
			}
			return ""
		}
		return ""
	}
}

// why says why a declaration was kept, from its referrers.
func (g *goReverter) why(refs map[string]bool) string {
	var secs, others []string
	for r := range refs {
		if x, ok := strings.CutPrefix(r, "section "); ok {
			secs = append(secs, x)
		}
	}
	order := map[string]int{}
	for i, s := range g.o.Sections {
		order[s.ID] = i
	}
	sort.Slice(secs, func(i, j int) bool { return order[secs[i]] < order[secs[j]] })
	switch len(secs) {
	case 0:
	case 1:
		others = append(others, "section "+secs[0]+"'s code")
	default:
		others = append(others, "sections "+strings.Join(secs[:len(secs)-1], ", ")+" and "+secs[len(secs)-1]+"'s code")
	}
	var rest []string
	for r := range refs {
		switch {
		case strings.HasPrefix(r, "section "), strings.HasPrefix(r, "embedded "), strings.HasPrefix(r, "interface "):
		case r == "":
			rest = append(rest, "code no section owns")
		default:
			rest = append(rest, r)
		}
	}
	sort.Strings(rest)
	others = append(others, rest...)
	var out []string
	if len(others) > 0 {
		out = append(out, "used by "+strings.Join(others, ", "))
	}
	for r := range refs {
		if t, ok := strings.CutPrefix(r, "embedded "); ok {
			out = append(out, t+" stays and may use its promoted fields and methods")
		}
		if t, ok := strings.CutPrefix(r, "interface "); ok {
			out = append(out, t+" stays and may need it to implement an interface")
		}
	}
	return strings.Join(out, "; ")
}

// stubMessage is the text a stub of section id fails with.
func stubMessage(id string) string {
	return "lolbench stub revert: section " + Slug(id) + " is not implemented"
}

// isStubPlaceholder reports whether fd's body is the stub revert's
// placeholder, panic("lolbench stub revert: ..."), which finish replaces.
func isStubPlaceholder(fd *ast.FuncDecl, id string) bool {
	if fd.Body == nil || len(fd.Body.List) != 1 {
		return false
	}
	es, ok := fd.Body.List[0].(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := es.X.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return false
	}
	fn, ok := call.Fun.(*ast.Ident)
	lit, ok2 := call.Args[0].(*ast.BasicLit)
	return ok && ok2 && fn.Name == "panic" && lit.Value == strconv.Quote(stubMessage(id))
}

// finish completes a revert's Go files: the stubs' bodies (the functions
// in stubs, and the stub revert's placeholders), the imports they need,
// the imports left unused dropped, gofmt when the reference file was
// gofmt'ed, and a file the PR adds that is left with no declaration
// removed when its folder keeps another Go file. It returns why a file
// does not parse, or "".
func (g *goReverter) finish(id string, edit Edit, stubs map[string]map[string]bool) string {
	for _, p := range sortedKeys(edit) {
		f := g.sol.File(p)
		if f == nil || !isGo(f) || edit[p] == nil {
			continue
		}
		out, err := g.finishFile(id, p, edit[p], stubs[p])
		if err != nil {
			return fmt.Sprintf("%v (after the revert of section %s)", err, id)
		}
		edit[p] = out
		if f.Base == nil && out != nil && g.empty(out) && g.folderKeeps(p, edit) {
			edit[p] = nil
		}
	}
	return ""
}

func (g *goReverter) finishFile(id, p string, src []byte, stubs map[string]bool) ([]byte, error) {
	s, err := parseGoSrc(p, src)
	if err != nil {
		return nil, err
	}
	var todo []*ast.FuncDecl
	taken := map[string]bool{}
	for _, is := range s.file.Imports {
		taken[importName(is)] = true
	}
	for _, d := range s.decls() {
		if d.kind != "import" && d.kind != "field" && d.kind != "method" {
			taken[d.name] = true
		}
	}
	for q, ds := range g.decls {
		for _, d := range ds {
			if path.Dir(q) == path.Dir(p) && d.kind != "import" && d.kind != "field" && d.kind != "method" {
				taken[d.name] = true // the package's names
			}
		}
	}
	for _, d := range s.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || !(stubs[funcKey(fd)] || isStubPlaceholder(fd, id)) {
			continue
		}
		todo = append(todo, fd)
		for _, fl := range []*ast.FieldList{fd.Recv, fd.Type.TypeParams, fd.Type.Params, fd.Type.Results} {
			if fl == nil {
				continue
			}
			for _, fi := range fl.List {
				for _, n := range fi.Names {
					taken[n.Name] = true
				}
			}
		}
	}
	if len(todo) > 0 {
		errName, addErr := importAs(s, "errors", taken)
		rtName, addRT := importAs(s, "runtime", taken)
		exit := "lolbenchStubExit_" + identPart(path.Base(p))
		msg := stubMessage(id)
		var rs []Replace
		usesErr, usesExit := false, false
		for _, fd := range todo {
			text, exits := goStubBody(s, fd, msg, errName, exit)
			usesErr, usesExit = usesErr || !exits, usesExit || exits
			rs = append(rs, Replace{Start: uint32(s.off(fd.Body.Pos())), End: uint32(s.off(fd.Body.End())), Text: text})
		}
		if usesExit {
			at := uint32(len(src))
			lead := "\n"
			if len(src) > 0 && src[len(src)-1] != '\n' {
				lead = "\n\n"
			}
			rs = append(rs, Replace{Start: at, End: at, Text: lead + goExitHelper(exit, rtName)})
		}
		src = pruneGoImports(Site{Replace: rs}.Apply(src))
		if usesErr && addErr {
			src = addGoImport(src, "errors", errName)
		}
		if usesExit && addRT {
			src = addGoImport(src, "runtime", rtName)
		}
	} else {
		src = pruneGoImports(src)
	}
	if g.gofmt[p] {
		b, err := format.Source(src)
		if err != nil {
			return nil, err
		}
		src = b
	}
	if _, err := parseGoSrc(p, src); err != nil {
		return nil, err
	}
	return src, nil
}

// empty reports whether a Go file declares nothing but imports.
func (g *goReverter) empty(src []byte) bool {
	s, err := parseGoSrc("", src)
	if err != nil {
		return false
	}
	for _, d := range s.file.Decls {
		if gd, ok := d.(*ast.GenDecl); !ok || gd.Tok != token.IMPORT {
			return false
		}
	}
	return true
}

// folderKeeps reports whether p's folder keeps another Go file after the
// edit, or existed before the change: removing p then leaves the package
// in place.
func (g *goReverter) folderKeeps(p string, edit Edit) bool {
	for i := range g.sol.Files {
		f := &g.sol.Files[i]
		if f.Path == p || path.Dir(f.Path) != path.Dir(p) || f.Language != "Go" {
			continue
		}
		if f.Base != nil {
			return true
		}
		if src, edited := edit[f.Path]; edited && src != nil || !edited && f.After != nil {
			return true
		}
	}
	return false
}

// importAs is the name under which the file can use the standard package
// p: its import's, when it has one; else p itself, or lolbench<p> when
// that name is taken (another import, a declaration, a stub's parameter).
// add is set when the import must be added.
func importAs(s *goSrc, p string, taken map[string]bool) (name string, add bool) {
	for _, is := range s.file.Imports {
		if v, _ := strconv.Unquote(is.Path.Value); v == p {
			if n := importName(is); n != "_" && n != "." {
				return n, false
			}
		}
	}
	if taken[p] {
		return "lolbench" + p, true
	}
	return p, true
}

// addGoImport adds an import of p under name to a Go file: into its first
// import group, or as a group with its single import, or after the package
// clause.
func addGoImport(src []byte, p, name string) []byte {
	s, err := parseGoSrc("", src)
	if err != nil {
		return src
	}
	spec := strconv.Quote(p)
	if name != importName(&ast.ImportSpec{Path: &ast.BasicLit{Value: spec}}) {
		spec = name + " " + spec
	}
	insert := func(at int, text string) []byte {
		return append(append(append([]byte{}, src[:at]...), text...), src[at:]...)
	}
	for _, d := range s.file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		if gd.Lparen.IsValid() {
			return insert(s.off(gd.Lparen)+1, "\n\t"+spec)
		}
		from, to := s.off(gd.Specs[0].Pos()), s.off(gd.Specs[0].End())
		return append(append(append([]byte{}, src[:from]...), "(\n\t"+spec+"\n\t"+string(src[from:to])+"\n)"...), src[to:]...)
	}
	at := s.off(s.file.Name.End())
	if i := bytes.IndexByte(src[at:], '\n'); i >= 0 {
		at += i
	} else {
		at = len(src)
	}
	return insert(at, "\n\nimport "+spec)
}

// pruneGoImports removes the imports a Go file no longer uses (the revert
// or a stub removed their last use), which the compiler would refuse:
// whole lines, and a whole import declaration whose imports all go. A file
// that does not parse is returned as it is: finish reports it.
func pruneGoImports(src []byte) []byte {
	s, err := parseGoSrc("", src)
	if err != nil {
		return src
	}
	used := map[string]bool{}
	ast.Inspect(s.file, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	type cut struct{ from, to int }
	var cuts []cut
	// lineCut widens [from, to) to whole lines when nothing else is on
	// them.
	lineCut := func(from, to int) cut {
		a := bytes.LastIndexByte(src[:from], '\n') + 1
		b := to
		if i := bytes.IndexByte(src[to:], '\n'); i >= 0 {
			b = to + i + 1
		} else {
			b = len(src)
		}
		if len(bytes.TrimSpace(src[a:from])) == 0 && len(bytes.TrimSpace(src[to:b])) == 0 {
			return cut{a, b}
		}
		return cut{from, to}
	}
	for _, d := range s.file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		var drop []*ast.ImportSpec
		for _, sp := range gd.Specs {
			is := sp.(*ast.ImportSpec)
			if name := importName(is); name != "_" && name != "." && !used[name] {
				drop = append(drop, is)
			}
		}
		if len(drop) == 0 {
			continue
		}
		if len(drop) == len(gd.Specs) {
			from := gd.Pos()
			if gd.Doc != nil {
				from = gd.Doc.Pos()
			}
			cuts = append(cuts, lineCut(s.off(from), s.off(gd.End())))
			continue
		}
		for _, is := range drop {
			from, to := is.Pos(), is.End()
			if is.Doc != nil {
				from = is.Doc.Pos()
			}
			if is.Comment != nil {
				to = is.Comment.End()
			}
			cuts = append(cuts, lineCut(s.off(from), s.off(to)))
		}
	}
	if len(cuts) == 0 {
		return src
	}
	var b []byte
	pos := 0
	for _, c := range cuts {
		b = append(b, src[pos:c.from]...)
		pos = c.to
	}
	return append(b, src[pos:]...)
}

// goStubBody is the body of a stub of fd. A function whose last result is
// an error returns the zero values and an error naming the section: its
// caller, a test included, goes on and fails on the error. Any other
// function calls the file's exit helper (goExitHelper), which ends the
// goroutine unless it is a test's own, and then returns values a caller
// can use without panicking where the type allows one (safeValue).
func goStubBody(s *goSrc, fd *ast.FuncDecl, msg, errName, exit string) (text string, exits bool) {
	res := fd.Type.Results
	if res != nil && len(res.List) > 0 {
		if id, ok := res.List[len(res.List)-1].Type.(*ast.Ident); ok && id.Name == "error" {
			zeros := resultValues(s, res, zeroValue)
			zeros[len(zeros)-1] = errName + ".New(" + strconv.Quote(msg) + ")"
			return "{\n\treturn " + strings.Join(zeros, ", ") + "\n}", false
		}
	}
	text = "{\n\t// " + msg + "\n\t" + exit + "()\n"
	if vals := resultValues(s, res, safeValue); len(vals) > 0 {
		text += "\treturn " + strings.Join(vals, ", ") + "\n"
	}
	return text + "}", true
}

// resultValues is one value per result of a function.
func resultValues(s *goSrc, res *ast.FieldList, value func(*goSrc, ast.Expr) string) []string {
	var out []string
	if res == nil {
		return nil
	}
	for _, f := range res.List {
		v := value(s, f.Type)
		for j := 0; j < max(1, len(f.Names)); j++ {
			out = append(out, v)
		}
	}
	return out
}

// zeroValue is the zero value of a type expression: a literal for the
// predeclared types, nil for pointers, slices, maps, channels, functions
// and interfaces, and *new(T) for any other type.
func zeroValue(s *goSrc, t ast.Expr) string {
	switch t := t.(type) {
	case *ast.Ident:
		switch t.Name {
		case "bool":
			return "false"
		case "string":
			return `""`
		case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr",
			"float32", "float64", "complex64", "complex128", "byte", "rune":
			return "0"
		case "error", "any":
			return "nil"
		}
	case *ast.StarExpr, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.InterfaceType:
		return "nil"
	case *ast.ArrayType:
		if t.Len == nil {
			return "nil"
		}
	case *ast.ParenExpr:
		return zeroValue(s, t.X)
	}
	return "*new(" + s.text(t) + ")"
}

// safeValue is the value a goroutine-ending stub returns when its caller
// goes on (a test's goroutine): the zero value, except where that would
// make the caller panic and end the test binary after all: a function
// type gets a function that does nothing ("stop()" of a stubbed
// StartSweeper), a pointer new(T), a map type an empty map. Channels,
// slices and interfaces stay nil.
func safeValue(s *goSrc, t ast.Expr) string {
	switch t := t.(type) {
	case *ast.FuncType:
		body := "{}"
		if vals := resultValues(s, t.Results, safeValue); len(vals) > 0 {
			body = "{ return " + strings.Join(vals, ", ") + " }"
		}
		return s.text(t) + " " + body
	case *ast.StarExpr:
		return "new(" + s.text(t.X) + ")"
	case *ast.MapType:
		return s.text(t) + "{}"
	case *ast.ParenExpr:
		return safeValue(s, t.X)
	}
	return zeroValue(s, t)
}

func (s *goSrc) text(n ast.Node) string { return string(s.src[s.off(n.Pos()):s.off(n.End())]) }

// goExitHelper is the function a file's stubs call before returning zero
// values. runtime.Goexit ends only the goroutine that calls it and runs
// its deferred calls, but on a test's own goroutine the testing package
// turns it into a panic ("test executed panic(nil) or runtime.Goexit")
// that ends the whole test binary, every later test with it (Go 1.26, as
// every release before it); on the main goroutine it is a fatal
// deadlock. So the helper looks at its goroutine's stack: under
// testing.tRunner or runtime.main it returns, and the stub returns zero
// values to its caller; anywhere else it calls Goexit. One helper per file
// (its name carries the file's), so that files never redeclare it.
func goExitHelper(name, rt string) string {
	return fmt.Sprintf(`// %[1]s is where this file's lolbench
// stubs stop: it ends the goroutine that reached one, running its deferred
// calls, unless the goroutine is a test's own or the main one, where
// runtime.Goexit would end the whole test binary; there it returns, and
// the stub returns zero values.
func %[1]s() {
	pc := make([]uintptr, 4096)
	frames := %[2]s.CallersFrames(pc[:%[2]s.Callers(2, pc)])
	for {
		f, more := frames.Next()
		if f.Function == "testing.tRunner" || f.Function == "runtime.main" {
			return
		}
		if !more {
			%[2]s.Goexit()
		}
	}
}
`, name, rt)
}

// identPart turns a file name into characters an identifier allows.
func identPart(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
			return r
		}
		return '_'
	}, s)
}
