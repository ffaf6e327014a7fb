package testaudit

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/golang"
)

// Go is the Go rule: a name is internal when it is unexported (its first
// letter is not upper case), whoever declares it, unless the test or the
// other test files of its package declare it, or it is a predeclared
// identifier (len, error, nil, ...) or an imported package's name. A test
// in the package under test can reach the package's unexported functions,
// fields and types; an agent's solution need not have them.
var Go = &Language{
	Name:     "Go",
	Doc:      "unexported identifiers: functions, types, variables, constants, fields and methods whose name does not start with an upper-case letter",
	grammar:  golang.GetLanguage,
	scan:     scanGo,
	internal: internalGo,
}

// goUniverse are Go's predeclared identifiers.
var goUniverse = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`any bool byte comparable complex64 complex128 error float32 float64
		int int8 int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr
		true false iota nil
		append cap clear close complex copy delete imag len make max min new panic print println real recover`) {
		goUniverse[n] = true
	}
}

func goExported(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return unicode.IsUpper(r)
}

func internalGo(r ref, a *auditor) (bool, string) {
	if r.forced {
		return true, "unexported"
	}
	if r.name == "_" || goExported(r.name) {
		return false, ""
	}
	if r.kind != kindMember && (goUniverse[r.name] || a.imports[r.name]) {
		return false, ""
	}
	return true, "unexported"
}

var goVersionSuffix = regexp.MustCompile(`^v[0-9]+$`)

// goImportNames are the names an unnamed import may bind: the path's last
// element, also without a ".vN" suffix and a "go-" prefix or "-go" suffix,
// the element before a "/vN" major version, and with dashes removed (the
// package clause is not at hand; a wrong guess only spares a name).
func goImportNames(path string) []string {
	elems := strings.Split(path, "/")
	last := elems[len(elems)-1]
	if goVersionSuffix.MatchString(last) && len(elems) > 1 {
		last = elems[len(elems)-2]
	}
	if i := strings.Index(last, ".v"); i > 0 {
		last = last[:i]
	}
	out := []string{last}
	trimmed := strings.TrimSuffix(strings.TrimPrefix(last, "go-"), "-go")
	out = append(out, trimmed, strings.ReplaceAll(trimmed, "-", ""), strings.ReplaceAll(trimmed, "-", "_"))
	return out
}

// goReceiverType is the base type name of a method's receiver list.
func goReceiverType(f *parsed, list *sitter.Node) string {
	if list == nil {
		return ""
	}
	for i := 0; i < int(list.NamedChildCount()); i++ {
		p := list.NamedChild(i)
		if p.Type() != "parameter_declaration" {
			continue
		}
		t := p.ChildByFieldName("type")
		for k := 0; t != nil && k < 8; k++ {
			switch t.Type() {
			case "type_identifier":
				return f.text(t)
			case "generic_type":
				t = t.ChildByFieldName("type")
			case "pointer_type", "parenthesized_type":
				t = t.NamedChild(0)
			default:
				return ""
			}
		}
		return ""
	}
	return ""
}

// goIsTestName is go test's rule: Test, or Test followed by a rune that is
// not a lower-case letter.
func goIsTestName(name string) bool {
	rest, ok := strings.CutPrefix(name, "Test")
	if !ok {
		return false
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return rest == "" || !unicode.IsLower(r)
}

// goAssertCall reports whether a call's callee reads as an assertion:
// assert.X and require.X (testify), or a function or method whose name
// starts with Assert or Expect.
func goAssertCall(f *parsed, call *sitter.Node) bool {
	fn := call.ChildByFieldName("function")
	if fn == nil {
		return false
	}
	switch fn.Type() {
	case "identifier":
		return hasAssertPrefix(f.text(fn))
	case "selector_expression":
		op := fn.ChildByFieldName("operand")
		if op != nil && op.Type() == "identifier" {
			if o := f.text(op); o == "assert" || o == "require" {
				return true
			}
		}
		return hasAssertPrefix(f.text(fn.ChildByFieldName("field")))
	}
	return false
}

func scanGo(f *parsed) *scan {
	s := &scan{imports: map[string]bool{}}
	decl := func(n *sitter.Node, kind, class string, local bool) {
		if n == nil {
			return
		}
		name := f.text(n)
		if name == "" || name == "_" {
			return
		}
		exported := goExported(name) && (class == "" || goExported(class))
		s.decls = append(s.decls, Decl{Name: name, Kind: kind, Class: class, Exported: exported && !local, Line: line(n), local: local})
	}
	// names declares every named child in field "name" (a, b int).
	names := func(n *sitter.Node, kind, class string, local bool) {
		for i := 0; i < int(n.ChildCount()); i++ {
			if n.FieldNameForChild(i) == "name" {
				decl(n.Child(i), kind, class, local)
			}
		}
	}
	// exprNames declares the identifiers of an expression list (x, y :=).
	exprNames := func(n *sitter.Node, local bool) {
		if n == nil {
			return
		}
		if n.Type() == "identifier" {
			decl(n, "var", "", local)
			return
		}
		for i := 0; i < int(n.NamedChildCount()); i++ {
			if c := n.NamedChild(i); c.Type() == "identifier" {
				decl(c, "var", "", local)
			}
		}
	}
	walk(f.root, func(st []frame) {
		top := &st[len(st)-1]
		par := parent(st, 1)
		n := top.n
		switch top.typ {
		case "block":
			top.local = true
		case "argument_list":
			if par.typ == "call_expression" && goAssertCall(f, par.n) {
				top.assert = true
			}
		case "import_spec":
			if nm := n.ChildByFieldName("name"); nm != nil {
				s.imports[f.text(nm)] = true
			} else if p := n.ChildByFieldName("path"); p != nil {
				for _, name := range goImportNames(strings.Trim(f.text(p), "\"`")) {
					s.imports[name] = true
				}
			}
		case "function_declaration":
			name := n.ChildByFieldName("name")
			decl(name, "func", "", top.local)
			if nm := f.text(name); goIsTestName(nm) && !top.local {
				s.tests = append(s.tests, TestFunc{Name: nm, Line: line(n), Fingerprint: fingerprint(f, n, name)})
			}
		case "method_declaration":
			recv := goReceiverType(f, n.ChildByFieldName("receiver"))
			top.scope = recv
			decl(n.ChildByFieldName("name"), "method", recv, false)
		case "type_spec", "type_alias":
			name := n.ChildByFieldName("name")
			decl(name, "type", "", top.local)
			if !top.local {
				top.scope = f.text(name)
			}
		case "field_declaration":
			names(n, "field", top.scope, top.local)
		case "method_elem", "method_spec":
			names(n, "method", top.scope, top.local)
		case "var_spec":
			names(n, "var", "", top.local)
		case "const_spec":
			names(n, "const", "", top.local)
		case "parameter_declaration", "variadic_parameter_declaration", "type_parameter_declaration":
			names(n, "var", "", true)
		case "short_var_declaration", "range_clause", "receive_statement":
			exprNames(n.ChildByFieldName("left"), true)
		case "type_switch_statement":
			exprNames(n.ChildByFieldName("alias"), true)
		case "identifier":
			s.goIdentifier(f, st)
		case "field_identifier":
			if par.typ == "selector_expression" && top.field == "field" {
				use := UseReference
				if parent(st, 2).typ == "call_expression" && par.field == "function" {
					use = UseCall
				} else if top.assert {
					use = UseAssert
				}
				s.refs = append(s.refs, ref{name: f.text(n), kind: kindMember, use: use, line: line(n)})
			}
		case "type_identifier":
			if par.typ == "type_spec" || par.typ == "type_alias" || par.typ == "type_parameter_declaration" {
				return // a declaration
			}
			use := UseReference
			lit := par
			if par.typ == "qualified_type" || par.typ == "generic_type" {
				lit = parent(st, 2)
			}
			if lit.typ == "composite_literal" {
				use = UseConstruct
			} else if top.assert {
				use = UseAssert
			}
			s.refs = append(s.refs, ref{name: f.text(n), kind: kindType, use: use, line: line(n)})
		}
		// The condition of an if is what a Go test asserts.
		if top.field == "condition" && par.typ == "if_statement" {
			top.assert = true
		}
	})
	return s
}

// goIdentifier records a bare identifier: a key of a struct literal is a
// field (a member), a map literal's key an expression.
func (s *scan) goIdentifier(f *parsed, st []frame) {
	top := st[len(st)-1]
	par := parent(st, 1)
	n := top.n
	name := f.text(n)
	kind := kindName
	use := UseReference
	switch {
	case par.typ == "call_expression" && top.field == "function":
		use = UseCall
	case par.typ == "literal_element" && parent(st, 2).typ == "keyed_element" && isFirstNamed(parent(st, 2).n, par.n):
		kind, use = kindMember, UseConstruct
		if lit := parent(st, 4); lit.typ == "composite_literal" {
			if t := lit.n.ChildByFieldName("type"); t != nil && t.Type() == "map_type" {
				kind, use = kindName, UseReference
			}
		}
	case top.assert:
		use = UseAssert
	}
	if kind == kindName && use == UseReference && top.assert {
		use = UseAssert
	}
	s.refs = append(s.refs, ref{name: name, kind: kind, use: use, line: line(n)})
}

// isFirstNamed reports whether c is n's first named child.
func isFirstNamed(n, c *sitter.Node) bool {
	if n.NamedChildCount() == 0 {
		return false
	}
	return n.NamedChild(0).StartByte() == c.StartByte() && n.NamedChild(0).EndByte() == c.EndByte()
}
