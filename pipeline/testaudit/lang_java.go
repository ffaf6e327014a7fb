package testaudit

import (
	"strings"
	"unicode"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/java"
)

// Java is the Java rule: a class, constructor, method or field is internal
// when it is private or package-private (no modifier outside an
// interface), or when it is a member of an internal class; protected and
// public are not. Java declares visibility rather than naming it, so the
// rule reads the product's declarations (Input.Product); a name is
// internal only when no product declaration of it is public, so an
// overload or a same-named public member elsewhere spares it. A call or
// field access on a receiver whose declared type is not a product class
// (a List, a String) is never internal. Reflection that opens members
// (getDeclaredField, getDeclaredMethod, getDeclaredConstructor,
// setAccessible) is internal by itself.
var Java = &Language{
	Name:     "Java",
	Doc:      "private and package-private classes, constructors, methods and fields of the product (and members of such classes), and reflection that opens them",
	grammar:  java.GetLanguage,
	scan:     scanJava,
	internal: internalJava,
	product:  productJava,
}

// javaReflection are the calls that reach members by name, past their
// visibility.
var javaReflection = map[string]bool{
	"getDeclaredField": true, "getDeclaredFields": true, "getDeclaredMethod": true, "getDeclaredMethods": true,
	"getDeclaredConstructor": true, "getDeclaredConstructors": true, "setAccessible": true, "trySetAccessible": true,
}

// javaTestAnnotations mark test methods (JUnit 4 and 5).
var javaTestAnnotations = map[string]bool{
	"Test": true, "ParameterizedTest": true, "RepeatedTest": true, "TestFactory": true, "TestTemplate": true,
}

// Frame flags of the Java scan, kept in frame.scope as "class|flags":
// the innermost class, whether it is hidden (not effectively public) and
// whether its body is an interface's (members default to public).
type javaScope struct {
	class     string
	hidden    string // "" when effectively public, else the word: "private", "package-private"
	iface     bool
	testClass bool
}

func (j javaScope) encode() string {
	b := func(v bool) string {
		if v {
			return "1"
		}
		return "0"
	}
	return j.class + "|" + j.hidden + "|" + b(j.iface) + "|" + b(j.testClass)
}

func decodeJavaScope(s string) javaScope {
	p := strings.SplitN(s, "|", 4)
	for len(p) < 4 {
		p = append(p, "")
	}
	return javaScope{class: p[0], hidden: p[1], iface: p[2] == "1", testClass: p[3] == "1"}
}

// javaVisibility reads a declaration's modifiers: "public", "protected",
// "private", or "" for none; and whether it carries a test annotation.
func javaVisibility(f *parsed, decl *sitter.Node) (vis string, test bool, extends string) {
	for i := 0; i < int(decl.NamedChildCount()); i++ {
		c := decl.NamedChild(i)
		if c.Type() != "modifiers" {
			continue
		}
		for j := 0; j < int(c.ChildCount()); j++ {
			m := c.Child(j)
			switch t := m.Type(); t {
			case "public", "protected", "private":
				vis = t
			case "marker_annotation", "annotation":
				if javaTestAnnotations[lastName(f.text(m.ChildByFieldName("name")))] {
					test = true
				}
			}
		}
	}
	if sc := decl.ChildByFieldName("superclass"); sc != nil {
		extends = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(f.text(sc)), "extends"))
	}
	return vis, test, extends
}

// javaWord is the internal word of a visibility, "" when it is visible
// (public or protected, or none inside an interface).
func javaWord(vis string, iface bool) string {
	switch vis {
	case "public", "protected":
		return ""
	case "private":
		return "private"
	}
	if iface {
		return ""
	}
	return "package-private"
}

// javaTypeName is the simple name of a type node: Store for Store,
// Map<K,V>, com.x.Store or Store[].
func javaTypeName(f *parsed, t *sitter.Node) string {
	for k := 0; t != nil && k < 8; k++ {
		switch t.Type() {
		case "type_identifier", "identifier":
			return f.text(t)
		case "generic_type", "array_type":
			t = t.NamedChild(0)
			if t != nil && t.Type() == "array_type" {
				continue
			}
		case "scoped_type_identifier":
			t = t.NamedChild(int(t.NamedChildCount()) - 1)
		default:
			return ""
		}
	}
	return ""
}

func scanJava(f *parsed) *scan {
	s := &scan{}
	varTypes := map[string]string{} // variable -> declared type ("?" when ambiguous)
	setType := func(name, typ string) {
		if name == "" {
			return
		}
		if old, ok := varTypes[name]; ok && old != typ {
			varTypes[name] = "?"
			return
		}
		varTypes[name] = typ
	}
	type pending struct {
		i    int    // index into s.refs
		recv string // receiver variable
	}
	var recvs []pending
	walk(f.root, func(st []frame) {
		top := &st[len(st)-1]
		par := parent(st, 1)
		n := top.n
		sc := decodeJavaScope(top.scope)
		switch top.typ {
		case "class_declaration", "interface_declaration", "enum_declaration", "record_declaration", "annotation_type_declaration":
			vis, _, extends := javaVisibility(f, n)
			word := javaWord(vis, sc.iface)
			if sc.class != "" && sc.hidden != "" {
				word = sc.hidden
			}
			name := f.text(n.ChildByFieldName("name"))
			s.decls = append(s.decls, Decl{Name: name, Kind: "type", Class: sc.class, Exported: word == "", Visibility: orPkg(vis, sc.iface), Line: line(n), local: top.local})
			top.scope = javaScope{class: name, hidden: word, iface: top.typ == "interface_declaration" || top.typ == "annotation_type_declaration",
				testClass: strings.HasSuffix(extends, "TestCase")}.encode()
		case "method_declaration", "constructor_declaration", "compact_constructor_declaration":
			vis, test, _ := javaVisibility(f, n)
			word := javaWord(vis, sc.iface)
			if word == "" && sc.hidden != "" {
				word = sc.hidden
			}
			name := f.text(n.ChildByFieldName("name"))
			kind := "method"
			if top.typ != "method_declaration" {
				kind, name = "ctor", sc.class
			}
			s.decls = append(s.decls, Decl{Name: name, Kind: kind, Class: sc.class, Exported: word == "", Visibility: orPkg(vis, sc.iface), Line: line(n), local: top.local})
			if kind == "method" && !top.local {
				params := n.ChildByFieldName("parameters")
				junit3 := sc.testClass && vis == "public" && strings.HasPrefix(name, "test") && params != nil && params.NamedChildCount() == 0
				if test || junit3 {
					s.tests = append(s.tests, TestFunc{Name: name, Class: sc.class, Line: line(n), Fingerprint: fingerprint(f, n, n.ChildByFieldName("name"))})
				}
			}
		case "field_declaration", "constant_declaration":
			vis, _, _ := javaVisibility(f, n)
			iface := sc.iface || top.typ == "constant_declaration"
			word := javaWord(vis, iface)
			if word == "" && sc.hidden != "" {
				word = sc.hidden
			}
			typ := javaTypeName(f, n.ChildByFieldName("type"))
			for i := 0; i < int(n.ChildCount()); i++ {
				if n.FieldNameForChild(i) == "declarator" {
					d := n.Child(i)
					name := f.text(d.ChildByFieldName("name"))
					s.decls = append(s.decls, Decl{Name: name, Kind: "field", Class: sc.class, Exported: word == "", Visibility: orPkg(vis, iface), Line: line(d), local: top.local})
					setType(name, typ)
				}
			}
		case "enum_constant":
			s.decls = append(s.decls, Decl{Name: f.text(n.ChildByFieldName("name")), Kind: "field", Class: sc.class, Exported: sc.hidden == "", Visibility: "public", Line: line(n), local: top.local})
		case "block", "constructor_body", "lambda_expression":
			top.local = true
		case "local_variable_declaration":
			typ := javaTypeName(f, n.ChildByFieldName("type"))
			for i := 0; i < int(n.ChildCount()); i++ {
				if n.FieldNameForChild(i) != "declarator" {
					continue
				}
				d := n.Child(i)
				name := f.text(d.ChildByFieldName("name"))
				t := typ
				if t == "var" {
					t = ""
					if v := d.ChildByFieldName("value"); v != nil && v.Type() == "object_creation_expression" {
						t = javaTypeName(f, v.ChildByFieldName("type"))
					}
				}
				s.decls = append(s.decls, Decl{Name: name, Kind: "var", Line: line(d), local: true})
				setType(name, t)
			}
		case "formal_parameter", "catch_formal_parameter", "enhanced_for_statement", "resource", "spread_parameter":
			name := n.ChildByFieldName("name")
			if name == nil && top.typ == "spread_parameter" {
				if d := firstNamedOfType(n, "variable_declarator"); d != nil {
					name = d.ChildByFieldName("name")
				}
			}
			if name != nil {
				s.decls = append(s.decls, Decl{Name: f.text(name), Kind: "var", Line: line(n), local: true})
				setType(f.text(name), javaTypeName(f, n.ChildByFieldName("type")))
			}
		case "inferred_parameters":
			for i := 0; i < int(n.NamedChildCount()); i++ {
				s.decls = append(s.decls, Decl{Name: f.text(n.NamedChild(i)), Kind: "var", Line: line(n), local: true})
			}
		case "identifier":
			if par.typ == "lambda_expression" && top.field == "parameters" {
				s.decls = append(s.decls, Decl{Name: f.text(n), Kind: "var", Line: line(n), local: true})
			}
		case "assert_statement":
			top.assert = true
		case "argument_list":
			if par.typ == "method_invocation" && hasAssertPrefix(f.text(par.n.ChildByFieldName("name"))) {
				top.assert = true
			}
		case "import_declaration":
			javaImport(f, s, n)
		case "object_creation_expression":
			if t := javaTypeName(f, n.ChildByFieldName("type")); t != "" {
				s.refs = append(s.refs, ref{name: t, kind: kindType, use: UseConstruct, line: line(n)})
			}
		case "method_invocation":
			name := f.text(n.ChildByFieldName("name"))
			use := UseCall
			if javaReflection[name] {
				sym := name
				if args := n.ChildByFieldName("arguments"); args != nil && args.NamedChildCount() > 0 {
					if a := args.NamedChild(0); a.Type() == "string_literal" {
						sym = strings.Trim(f.text(a), `"`)
					}
				}
				s.refs = append(s.refs, ref{name: sym, kind: kindString, use: UseReference, line: line(n), forced: true, word: "private (through reflection)"})
				return
			}
			s.refs = append(s.refs, ref{name: name, kind: kindMember, use: use, line: line(n)})
			recvs = append(recvs, pending{len(s.refs) - 1, javaReceiver(f, n.ChildByFieldName("object"))})
		case "field_access":
			use := UseReference
			if top.assert {
				use = UseAssert
			}
			s.refs = append(s.refs, ref{name: f.text(n.ChildByFieldName("field")), kind: kindMember, use: use, line: line(n)})
			recvs = append(recvs, pending{len(s.refs) - 1, javaReceiver(f, n.ChildByFieldName("object"))})
		case "type_identifier":
			if par.typ == "object_creation_expression" || (par.typ == "generic_type" && parent(st, 2).typ == "object_creation_expression") {
				return // recorded as a construction
			}
			use := UseReference
			if top.assert {
				use = UseAssert
			}
			s.refs = append(s.refs, ref{name: f.text(n), kind: kindType, use: use, line: line(n)})
		}
	})
	// Receivers are resolved once every declaration is known.
	for _, p := range recvs {
		r := &s.refs[p.i]
		switch {
		case p.recv == "":
		case p.recv == "this" || p.recv == "super":
			r.recvType = p.recv
		case varTypes[p.recv] != "":
			if t := varTypes[p.recv]; t != "?" {
				r.recvType = t
			}
		default:
			// An undeclared capitalised receiver is a class: Store.of().
			if c, _ := utf8.DecodeRuneInString(p.recv); unicode.IsUpper(c) {
				r.recvType = p.recv
			}
		}
	}
	return s
}

func orPkg(vis string, iface bool) string {
	if vis == "" {
		if iface {
			return "public"
		}
		return "package-private"
	}
	return vis
}

func firstNamedOfType(n *sitter.Node, typ string) *sitter.Node {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); c.Type() == typ {
			return c
		}
	}
	return nil
}

// javaReceiver names a call's or field access's receiver when it is a
// plain name, this or super; "" otherwise (no receiver, or an expression).
func javaReceiver(f *parsed, obj *sitter.Node) string {
	if obj == nil {
		return ""
	}
	switch obj.Type() {
	case "identifier", "this", "super":
		return f.text(obj)
	}
	return ""
}

// javaImport records `import a.b.C;` (a type) and `import static
// a.b.C.m;` (a member of C); wildcard imports name nothing.
func javaImport(f *parsed, s *scan, n *sitter.Node) {
	static := false
	var path *sitter.Node
	for i := 0; i < int(n.ChildCount()); i++ {
		c := n.Child(i)
		switch c.Type() {
		case "static":
			static = true
		case "asterisk":
			return
		case "scoped_identifier", "identifier":
			path = c
		}
	}
	if path == nil {
		return
	}
	p := f.text(path)
	name := lastName(p)
	kind := "type"
	if static {
		kind = "member"
	}
	s.refs = append(s.refs, ref{name: name, kind: kindImport, use: UseImport, line: line(n), recvType: kind})
}

func productJava(files []*scan) *symtab {
	st := &symtab{types: map[string]*sym{}, methods: map[string]*sym{}, fields: map[string]*sym{}, ctors: map[string]bool{}}
	ctors := &symtab{types: map[string]*sym{}}
	for _, s := range files {
		for _, d := range s.decls {
			if d.local {
				continue
			}
			word := d.Visibility
			switch d.Kind {
			case "type":
				st.add(st.types, d.Name, d.Exported, word)
			case "ctor":
				ctors.add(ctors.types, d.Name, d.Exported, word)
			case "method":
				st.add(st.methods, d.Name, d.Exported, word)
			default:
				st.add(st.fields, d.Name, d.Exported, word)
			}
		}
	}
	for name, x := range ctors.types {
		st.ctors[name] = !x.exported
	}
	st.ctorSyms = ctors.types
	return st
}

func internalJava(r ref, a *auditor) (bool, string) {
	if r.forced {
		return true, "private"
	}
	p := a.product
	if p == nil {
		return false, ""
	}
	switch r.kind {
	case kindType:
		if bad, w := p.lookup(p.types, r.name); bad {
			return true, w
		}
		if r.use == UseConstruct && p.ctors[r.name] {
			_, w := p.lookup(p.ctorSyms, r.name)
			return true, w + " constructor of"
		}
	case kindImport:
		if r.recvType == "member" {
			// A static import names a method or a field.
			if bad, w := p.lookup(p.methods, r.name); bad {
				if p.fields[r.name] == nil || !p.fields[r.name].exported {
					return true, w
				}
			} else if p.methods[r.name] == nil {
				return p.lookup(p.fields, r.name)
			}
			return false, ""
		}
		return p.lookup(p.types, r.name)
	case kindMember:
		if t := r.recvType; t != "" && t != "this" && t != "super" && p.types[t] == nil {
			return false, "" // a library type's member: List.add, String.length
		}
		if r.use == UseCall {
			return p.lookup(p.methods, r.name)
		}
		return p.lookup(p.fields, r.name)
	}
	return false, ""
}
