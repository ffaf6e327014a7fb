package testaudit

import (
	"strings"
	"unicode"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/python"
)

// Python is the Python rule: a name with a leading underscore is private
// (dunder names such as __init__ are not, and neither is "_" alone), and so
// is everything reached through a private module: `import pkg._impl`,
// `from pkg._impl import f`, `from pkg import _helper`. Private names spelt
// in strings are caught where Python code reaches them by string: getattr,
// setattr, hasattr, delattr, and mock.patch / monkeypatch targets.
// Attributes the test sets on self or cls, and names it or its helpers
// (conftest.py) define, are its own.
var Python = &Language{
	Name:     "Python",
	Doc:      "names with a leading underscore (not dunder names) and anything imported from or through a private module (a module path component with a leading underscore)",
	grammar:  python.GetLanguage,
	scan:     scanPython,
	internal: internalPython,
}

// pyPrivate reports whether a Python name is private by convention.
func pyPrivate(name string) bool {
	if !strings.HasPrefix(name, "_") || name == "_" {
		return false
	}
	dunder := len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
	return !dunder
}

// pyPrivatePath reports whether a dotted path has a private component.
func pyPrivatePath(path string) bool {
	for _, c := range strings.Split(strings.TrimLeft(path, "."), ".") {
		if pyPrivate(strings.TrimSpace(c)) {
			return true
		}
	}
	return false
}

func internalPython(r ref, a *auditor) (bool, string) {
	if r.forced {
		return true, "private"
	}
	return pyPrivate(r.name), "private"
}

// pyStringCallees take a name or a dotted target as a string argument.
var pyStringCallees = map[string]bool{
	"getattr": true, "setattr": true, "hasattr": true, "delattr": true,
	"patch": true, "object": true, "setitem": true, "delitem": true,
}

// pyCallee is the last name of a call's function: "assertEqual" for
// self.assertEqual(...), "getattr" for getattr(...).
func pyCallee(f *parsed, call *sitter.Node) string {
	fn := call.ChildByFieldName("function")
	if fn == nil {
		return ""
	}
	switch fn.Type() {
	case "identifier":
		return f.text(fn)
	case "attribute":
		return f.text(fn.ChildByFieldName("attribute"))
	}
	return ""
}

// pyUse is how a name in function position is used: a call, or a
// construction when it reads as a class (CamelCase after underscores).
func pyCallUse(name string) Use {
	r, _ := utf8.DecodeRuneInString(strings.TrimLeft(name, "_"))
	if unicode.IsUpper(r) {
		return UseConstruct
	}
	return UseCall
}

func scanPython(f *parsed) *scan {
	s := &scan{}
	decl := func(n *sitter.Node, kind, class string, local bool) {
		if n == nil || n.Type() != "identifier" {
			return
		}
		name := f.text(n)
		exported := !pyPrivate(name) && (class == "" || !pyPrivate(class))
		s.decls = append(s.decls, Decl{Name: name, Kind: kind, Class: class, Exported: exported && !local, Line: line(n), local: local})
	}
	// targets declares the names an assignment target binds: identifiers,
	// patterns of them, and attributes of self and cls (the test's own
	// state).
	var targets func(n *sitter.Node, kind, class string, local bool, depth int)
	targets = func(n *sitter.Node, kind, class string, local bool, depth int) {
		if n == nil || depth > 8 {
			return
		}
		switch n.Type() {
		case "identifier":
			decl(n, kind, class, local)
		case "attribute":
			if o := f.text(n.ChildByFieldName("object")); o == "self" || o == "cls" {
				decl(n.ChildByFieldName("attribute"), "field", class, false)
			}
		case "pattern_list", "tuple_pattern", "list_pattern", "expression_list", "tuple", "list", "list_splat_pattern", "as_pattern_target", "parenthesized_expression":
			for i := 0; i < int(n.NamedChildCount()); i++ {
				targets(n.NamedChild(i), kind, class, local, depth+1)
			}
		}
	}
	walk(f.root, func(st []frame) {
		top := &st[len(st)-1]
		par := parent(st, 1)
		n := top.n
		switch top.typ {
		case "class_definition":
			name := n.ChildByFieldName("name")
			decl(name, "type", top.scope, top.local)
		case "block":
			if par.typ == "class_definition" {
				top.scope = f.text(par.n.ChildByFieldName("name"))
				top.local = false
				// A class body is not a function body; scope marks
				// "directly in a class" until a def opens a function.
			} else if par.typ == "function_definition" {
				top.local = true
			}
		case "function_definition":
			name := n.ChildByFieldName("name")
			inClass := pyDirectlyInClass(st)
			if inClass {
				decl(name, "method", top.scope, false)
			} else {
				decl(name, "func", "", top.local)
			}
			nm := f.text(name)
			if strings.HasPrefix(nm, "test") {
				cls := pyTestClass(f, st)
				if (!top.local && !inClass) || (inClass && cls != "") {
					s.tests = append(s.tests, TestFunc{Name: nm, Class: cls, Line: line(n), Fingerprint: fingerprint(f, n, name)})
				}
			}
		case "parameters", "lambda_parameters":
			for i := 0; i < int(n.NamedChildCount()); i++ {
				p := n.NamedChild(i)
				switch p.Type() {
				case "identifier":
					decl(p, "var", "", true)
				case "default_parameter", "typed_default_parameter":
					decl(p.ChildByFieldName("name"), "var", "", true)
				case "typed_parameter", "list_splat_pattern", "dictionary_splat_pattern":
					for j := 0; j < int(p.NamedChildCount()); j++ {
						decl(p.NamedChild(j), "var", "", true)
					}
				}
			}
		case "assignment", "augmented_assignment":
			kind, class := "var", ""
			if !top.local && top.scope != "" && pyInClassBody(st) {
				kind, class = "field", top.scope
			}
			targets(n.ChildByFieldName("left"), kind, class, top.local, 0)
		case "for_statement", "for_in_clause":
			targets(n.ChildByFieldName("left"), "var", "", true, 0)
		case "as_pattern_target":
			targets(n, "var", "", true, 0)
		case "named_expression":
			decl(n.ChildByFieldName("name"), "var", "", true)
		case "assert_statement":
			top.assert = true
		case "argument_list":
			if par.typ == "call" && hasAssertPrefix(pyCallee(f, par.n)) {
				top.assert = true
			}
			if par.typ == "call" && pyStringCallees[pyCallee(f, par.n)] {
				pyStringArgs(f, s, n, top.assert)
			}
		case "import_statement":
			pyImport(f, s, n)
		case "import_from_statement":
			pyImportFrom(f, s, n)
		case "identifier":
			pyIdentifier(f, s, st)
		}
	})
	return s
}

// pyDirectlyInClass reports whether the function at the top of the stack
// is a method: its parent block (through a decorated_definition) belongs
// to a class.
func pyDirectlyInClass(st []frame) bool {
	k := 1
	if parent(st, k).typ == "decorated_definition" {
		k++
	}
	return parent(st, k).typ == "block" && parent(st, k+1).typ == "class_definition"
}

// pyInClassBody reports whether an assignment statement sits directly in
// a class body (a class attribute).
func pyInClassBody(st []frame) bool {
	// assignment <- expression_statement <- block <- class_definition
	return parent(st, 2).typ == "block" && parent(st, 3).typ == "class_definition"
}

// pyTestClass returns the class of a method when pytest or unittest would
// collect its tests: a class named Test*, or one with base classes
// (unittest.TestCase and the project's base classes); "" otherwise.
func pyTestClass(f *parsed, st []frame) string {
	for k := 1; k <= 3; k++ {
		if p := parent(st, k); p.typ == "class_definition" {
			name := f.text(p.n.ChildByFieldName("name"))
			if strings.HasPrefix(name, "Test") || p.n.ChildByFieldName("superclasses") != nil {
				return name
			}
			return ""
		}
	}
	return ""
}

// pyIdentifier records a bare name or an attribute; names in import
// statements, keyword-argument names and definition names are not uses.
func pyIdentifier(f *parsed, s *scan, st []frame) {
	top := st[len(st)-1]
	par := parent(st, 1)
	name := f.text(top.n)
	kind := kindName
	switch {
	case par.typ == "attribute" && top.field == "attribute":
		kind = kindMember
	case par.typ == "attribute" && top.field == "object":
	case par.typ == "keyword_argument" && top.field == "name",
		par.typ == "dotted_name", par.typ == "aliased_import", par.typ == "relative_import",
		par.typ == "function_definition" && top.field == "name",
		par.typ == "class_definition" && top.field == "name":
		return
	}
	use := UseReference
	call := par
	if kind == kindMember {
		call = parent(st, 2)
		if call.typ == "call" && par.field == "function" {
			use = pyCallUse(name)
		}
	} else if par.typ == "call" && top.field == "function" {
		use = pyCallUse(name)
	}
	if use == UseReference && top.assert {
		use = UseAssert
	}
	s.refs = append(s.refs, ref{name: name, kind: kind, use: use, line: line(top.n)})
}

// pyImport reads `import a.b [as c]`: a private module on the path is an
// internal import; the binding is the test's own name.
func pyImport(f *parsed, s *scan, n *sitter.Node) {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		path := c
		if c.Type() == "aliased_import" {
			path = c.ChildByFieldName("name")
			s.decls = append(s.decls, Decl{Name: f.text(c.ChildByFieldName("alias")), Kind: "import", Line: line(c), local: true})
		} else if p := f.text(c); p != "" {
			first, _, _ := strings.Cut(p, ".")
			s.decls = append(s.decls, Decl{Name: first, Kind: "import", Line: line(c), local: true})
		}
		if p := f.text(path); pyPrivatePath(p) {
			s.refs = append(s.refs, ref{name: p, kind: kindImport, use: UseImport, line: line(c), forced: true, word: "private module"})
		}
	}
}

// pyImportFrom reads `from m import a [as b], _c`.
func pyImportFrom(f *parsed, s *scan, n *sitter.Node) {
	mod := n.ChildByFieldName("module_name")
	if p := f.text(mod); pyPrivatePath(p) {
		s.refs = append(s.refs, ref{name: p, kind: kindImport, use: UseImport, line: line(n), forced: true, word: "private module"})
	}
	for i := 0; i < int(n.ChildCount()); i++ {
		if n.FieldNameForChild(i) != "name" {
			continue
		}
		c := n.Child(i)
		name, bind := c, c
		if c.Type() == "aliased_import" {
			name, bind = c.ChildByFieldName("name"), c.ChildByFieldName("alias")
		}
		imported := lastName(f.text(name))
		s.decls = append(s.decls, Decl{Name: lastName(f.text(bind)), Kind: "import", Line: line(c), local: true})
		s.refs = append(s.refs, ref{name: imported, kind: kindImport, use: UseImport, line: line(c)})
	}
}

// pyStringArgs records private names spelt in the string arguments of
// getattr-like calls and patch targets.
func pyStringArgs(f *parsed, s *scan, args *sitter.Node, assert bool) {
	for i := 0; i < int(args.NamedChildCount()) && i < 8; i++ {
		a := args.NamedChild(i)
		if a.Type() != "string" {
			continue
		}
		text := ""
		for j := 0; j < int(a.NamedChildCount()); j++ {
			if c := a.NamedChild(j); c.Type() == "string_content" {
				text += f.text(c)
			}
		}
		if pyPrivatePath(text) {
			use := UseReference
			if assert {
				use = UseAssert
			}
			s.refs = append(s.refs, ref{name: text, kind: kindString, use: use, line: line(a), forced: true})
		}
	}
}
