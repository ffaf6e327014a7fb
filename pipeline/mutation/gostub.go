package mutation

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"path"
	"strconv"
	"strings"
	"unicode"
)

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
