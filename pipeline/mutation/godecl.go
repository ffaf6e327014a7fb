package mutation

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
)

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

func (s *goSrc) off(p token.Pos) int { return s.fset.Position(p).Offset }

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

func (s *goSrc) text(n ast.Node) string { return string(s.src[s.off(n.Pos()):s.off(n.End())]) }
