package testaudit

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
)

// JavaScript and TypeScript share one rule (the TypeScript grammar adds
// types and member modifiers to the same node types). A module-level
// function, class, variable, type or enum of the product is internal when
// its module does not export it: no `export` on it, not in an `export
// { }` clause, not assigned to module.exports or exports.x. A class
// member is internal when it is a #private name, or TypeScript private or
// protected (a private constructor makes `new` internal). As in the Python
// rule, a name with a leading underscore is private by convention
// (`_cache`, `obj._state`); "_" alone (lodash) and names with two leading
// underscores (__dirname, __proto__, __esModule: the runtime's and the
// tools' names, not the project's) are not. An import through a module
// path with an underscore-led component ('./_impl') is internal too.
// A bare name the test does not declare or import is a global, never the
// product's. Like Python's, an imported name is the test's own once imported (the
// import is what is checked), so `new Range()` after `import { Range }`
// is not checked for a private constructor (tsc refuses it anyway);
// `new bk.Range()` through a namespace is.
// Tests are it(...) and test(...) calls with a string name; describe and
// suite calls name their group (TestFunc.Class, "outer › inner", as
// lolbench-node-test's reporter and pipeline/testid join them).
var JavaScript = &Language{
	Name:     "JavaScript",
	Doc:      nodeDoc,
	grammar:  javascript.GetLanguage,
	scan:     scanNode,
	internal: internalNode,
	product:  productNode,
}

// TypeScript is the JavaScript rule read with the TypeScript grammar
// (TSX for .tsx files: the TypeScript grammar refuses JSX).
var TypeScript = &Language{
	Name:        "TypeScript",
	Doc:         nodeDoc,
	grammar:     typescript.GetLanguage,
	pathGrammar: tsxGrammar,
	scan:        scanNode,
	internal:    internalNode,
	product:     productNode,
}

func tsxGrammar(path string) *sitter.Language {
	if strings.HasSuffix(strings.ToLower(path), ".tsx") {
		return tsx.GetLanguage()
	}
	return nil
}

const nodeDoc = "names the product's modules do not export (no export, not in module.exports or exports.x), #private, private and protected class members, names with a leading underscore (not __-led runtime names), and imports through a private module path"

// nodePrivate reports whether a name is private by the underscore
// convention.
func nodePrivate(name string) bool {
	return strings.HasPrefix(name, "_") && name != "_" && !strings.HasPrefix(name, "__")
}

// nodePrivatePath reports whether a module specifier has an
// underscore-led component: './_impl', 'pkg/_internal/x'.
func nodePrivatePath(p string) bool {
	for _, c := range strings.Split(p, "/") {
		if nodePrivate(c) {
			return true
		}
	}
	return false
}

// nodeAsserts are node:assert's functions that do not start with assert
// or expect (assert.strictEqual and plain strictEqual alike).
var nodeAsserts = map[string]bool{
	"ok": true, "equal": true, "notEqual": true, "strictEqual": true, "notStrictEqual": true,
	"deepEqual": true, "notDeepEqual": true, "deepStrictEqual": true, "notDeepStrictEqual": true,
	"throws": true, "doesNotThrow": true, "rejects": true, "doesNotReject": true, "match": true, "doesNotMatch": true,
}

// nodeScope is what the scan carries down in frame.scope: the innermost
// class and the enclosing describe names.
type nodeScope struct{ class, suite string }

func (s nodeScope) encode() string { return s.class + "\x00" + s.suite }

func decodeNodeScope(s string) nodeScope {
	c, su, _ := strings.Cut(s, "\x00")
	return nodeScope{class: c, suite: su}
}

// maxSuite caps the describe chain a test's Class carries (hostile
// nesting would otherwise copy a growing string at every level).
const maxSuite = 200

// nodeCallee returns a call's function name and, for a member call, its
// object's text: ("it", "") for it(...), ("only", "test") for
// test.only(...).
func nodeCallee(f *parsed, call *sitter.Node) (name, object string) {
	fn := call.ChildByFieldName("function")
	if fn == nil {
		return "", ""
	}
	switch fn.Type() {
	case "identifier":
		return f.text(fn), ""
	case "member_expression":
		o := fn.ChildByFieldName("object")
		obj := ""
		if o != nil && (o.Type() == "identifier" || o.Type() == "this") {
			obj = f.text(o)
		}
		return f.text(fn.ChildByFieldName("property")), obj
	}
	return "", ""
}

// nodeString is the text of a string or a template literal without
// substitutions, and whether the node is one.
func nodeString(f *parsed, n *sitter.Node) (string, bool) {
	if n == nil {
		return "", false
	}
	switch n.Type() {
	case "string":
		t := f.text(n)
		if len(t) >= 2 {
			return t[1 : len(t)-1], true
		}
	case "template_string":
		for i := 0; i < int(n.NamedChildCount()); i++ {
			if n.NamedChild(i).Type() == "template_substitution" {
				return "", false
			}
		}
		t := f.text(n)
		if len(t) >= 2 {
			return t[1 : len(t)-1], true
		}
	}
	return "", false
}

// nodeTestCall reports whether a call is a test (kind "test") or a group
// (kind "suite"), with its name argument.
func nodeTestCall(f *parsed, call *sitter.Node) (kind string, name *sitter.Node) {
	callee, obj := nodeCallee(f, call)
	word := callee
	if fn := call.ChildByFieldName("function"); fn != nil && fn.Type() == "member_expression" {
		if obj == "" {
			return "", nil // /x/.test(s), a.b.test(s)
		}
		// it.only, test.skip, describe.todo: the modifier is the property.
		switch callee {
		case "only", "skip", "todo", "concurrent":
			word = obj
		default:
			return "", nil
		}
	}
	switch word {
	case "it", "test":
		kind = "test"
	case "describe", "suite":
		kind = "suite"
	default:
		return "", nil
	}
	args := nodeArgs(call)
	if len(args) == 0 {
		return "", nil
	}
	first := args[0]
	if _, ok := nodeString(f, first); !ok {
		return "", nil
	}
	return kind, first
}

// nodeArgs are a call's arguments without comments.
func nodeArgs(call *sitter.Node) []*sitter.Node {
	a := call.ChildByFieldName("arguments")
	if a == nil {
		return nil
	}
	var out []*sitter.Node
	for i := 0; i < int(a.NamedChildCount()); i++ {
		if c := a.NamedChild(i); c.Type() != "comment" {
			out = append(out, c)
		}
	}
	return out
}

// nodeVisibility is a class member's declared visibility: "private",
// "protected", "public" (TypeScript's modifier) or "#private"; "" when
// none.
func nodeVisibility(f *parsed, member, name *sitter.Node) string {
	if name != nil && name.Type() == "private_property_identifier" {
		return "#private"
	}
	for i := 0; i < int(member.NamedChildCount()); i++ {
		if c := member.NamedChild(i); c.Type() == "accessibility_modifier" {
			return strings.TrimSpace(f.text(c))
		}
	}
	return ""
}

// nodeReadonly reports whether a constructor parameter is declared
// readonly, which makes it a (public) parameter property.
func nodeReadonly(p *sitter.Node) bool {
	for i := 0; i < int(p.ChildCount()); i++ {
		if p.Child(i).Type() == "readonly" {
			return true
		}
	}
	return false
}

// nodeExportedParent reports whether the declaration at the top of the
// stack sits in an export statement (export function f, export const x).
func nodeExportedParent(st []frame) bool {
	if parent(st, 1).typ == "export_statement" {
		return true
	}
	// variable_declarator <- lexical_declaration <- export_statement
	return st[len(st)-1].typ == "variable_declarator" && parent(st, 2).typ == "export_statement"
}

func scanNode(f *parsed) *scan {
	s := &scan{}
	exported := map[string]bool{}
	// namespaces are the names bound to a whole module.
	namespaces := map[string]bool{}
	declare := func(n *sitter.Node, kind, class, vis string, local, export bool) {
		name := f.text(n)
		if n == nil || name == "" {
			return
		}
		if export {
			exported[name] = true
		}
		s.decls = append(s.decls, Decl{Name: name, Kind: kind, Class: class, Visibility: vis, Line: line(n), local: local})
	}
	member := func(n *sitter.Node, kind, class, vis string, local bool) {
		name := f.text(n)
		if n == nil || name == "" {
			return
		}
		ok := vis != "private" && vis != "protected" && vis != "#private" && !nodePrivate(name)
		if vis == "" && !ok {
			vis = "private"
		}
		s.decls = append(s.decls, Decl{Name: name, Kind: kind, Class: class, Exported: ok, Visibility: vis, Line: line(n), local: local})
	}
	bindings := func(p *sitter.Node, local bool) {
		nodePatternNames(p, func(id *sitter.Node) { declare(id, "var", "", "", local, false) })
	}
	addRef := func(name string, kind refKind, use Use, n *sitter.Node, assert bool) {
		if use == UseReference && assert {
			use = UseAssert
		}
		s.refs = append(s.refs, ref{name: name, kind: kind, use: use, line: line(n)})
	}
	walk(f.root, func(st []frame) {
		top := &st[len(st)-1]
		par := parent(st, 1)
		n := top.n
		sc := decodeNodeScope(top.scope)
		switch top.typ {
		case "class_declaration", "abstract_class_declaration", "class":
			name := n.ChildByFieldName("name")
			if top.typ != "class" {
				declare(name, "type", "", "", top.local, nodeExportedParent(st))
			}
			sc.class = f.text(name)
			top.scope = sc.encode()
		case "interface_declaration", "type_alias_declaration", "enum_declaration":
			declare(n.ChildByFieldName("name"), "type", "", "", top.local, nodeExportedParent(st))
			// Interface and object type members are public.
			sc.class = f.text(n.ChildByFieldName("name"))
			top.scope = sc.encode()
		case "property_signature":
			member(n.ChildByFieldName("name"), "field", sc.class, nodeVisibility(f, n, n.ChildByFieldName("name")), top.local)
		case "method_signature", "abstract_method_signature":
			member(n.ChildByFieldName("name"), "method", sc.class, nodeVisibility(f, n, n.ChildByFieldName("name")), top.local)
		case "function_declaration", "generator_function_declaration", "function_signature":
			declare(n.ChildByFieldName("name"), "func", "", "", top.local, nodeExportedParent(st))
			top.local = true
		case "function_expression", "function", "generator_function", "arrow_function":
			top.local = true
		case "method_definition":
			name := n.ChildByFieldName("name")
			vis := nodeVisibility(f, n, name)
			if f.text(name) == "constructor" && sc.class != "" {
				// A constructor is declared under its class's name; its
				// parameter properties (private readonly x) are fields.
				ok := vis != "private" && vis != "protected"
				s.decls = append(s.decls, Decl{Name: sc.class, Kind: "ctor", Class: sc.class, Exported: ok, Visibility: vis, Line: line(n), local: top.local})
				if ps := n.ChildByFieldName("parameters"); ps != nil {
					for i := 0; i < int(ps.NamedChildCount()); i++ {
						p := ps.NamedChild(i)
						if v := nodeVisibility(f, p, nil); v != "" || nodeReadonly(p) {
							member(p.ChildByFieldName("pattern"), "field", sc.class, v, top.local)
						}
					}
				}
			} else {
				member(name, "method", sc.class, vis, top.local)
			}
			top.local = true
		case "field_definition", "public_field_definition":
			name := n.ChildByFieldName("property")
			if name == nil {
				name = n.ChildByFieldName("name")
			}
			member(name, "field", sc.class, nodeVisibility(f, n, name), top.local)
		case "formal_parameters":
			for i := 0; i < int(n.NamedChildCount()); i++ {
				p := n.NamedChild(i)
				if pat := p.ChildByFieldName("pattern"); pat != nil {
					p = pat
				}
				bindings(p, true)
			}
		case "variable_declarator":
			name := n.ChildByFieldName("name")
			// A require binds the test's (or the module's) own name, like
			// an import: never the product's declaration.
			v := n.ChildByFieldName("value")
			req := v != nil && v.Type() == "call_expression" && nodeRequire(f, s, v, name)
			if req && name != nil && name.Type() == "identifier" {
				namespaces[f.text(name)] = true
			}
			if name != nil && name.Type() == "identifier" {
				declare(name, "var", "", "", top.local || req, nodeExportedParent(st))
			} else {
				bindings(name, top.local || req)
			}
		case "for_in_statement", "catch_clause":
			field := "left"
			if top.typ == "catch_clause" {
				field = "parameter"
			}
			bindings(n.ChildByFieldName(field), true)
		case "import_statement":
			nodeImport(f, s, n)
			for i := 0; i < int(n.NamedChildCount()); i++ {
				if c := n.NamedChild(i); c.Type() == "import_clause" {
					for j := 0; j < int(c.NamedChildCount()); j++ {
						if ns := c.NamedChild(j); ns.Type() == "namespace_import" && ns.NamedChildCount() > 0 {
							namespaces[f.text(ns.NamedChild(0))] = true
						}
					}
				}
			}
		case "export_specifier":
			exported[f.text(n.ChildByFieldName("name"))] = true
			exported[f.text(n.ChildByFieldName("alias"))] = true
		case "export_statement":
			// export default name;
			if v := n.ChildByFieldName("value"); v != nil && v.Type() == "identifier" {
				exported[f.text(v)] = true
			}
		case "assignment_expression":
			nodeAssignment(f, s, n, sc.class, exported)
		case "call_expression":
			kind, name := nodeTestCall(f, n)
			text, _ := nodeString(f, name)
			switch kind {
			case "test":
				// The fingerprint is the last argument's, the test's body:
				// neither its name nor it/test changes it.
				args := nodeArgs(n)
				body := args[len(args)-1]
				s.tests = append(s.tests, TestFunc{Name: text, Class: sc.suite, Line: line(n), Fingerprint: fingerprint(f, body, nil)})
			case "suite":
				if sc.suite != "" {
					text = sc.suite + " › " + text
				}
				if len(text) <= maxSuite {
					sc.suite = text
					top.scope = sc.encode()
				}
			}
			if fn := n.ChildByFieldName("function"); fn != nil && fn.Type() == "identifier" {
				addRef(f.text(fn), kindName, UseCall, fn, false)
			}
		case "arguments":
			if par.typ == "call_expression" {
				callee, obj := nodeCallee(f, par.n)
				if hasAssertPrefix(callee) || nodeAsserts[callee] && (obj == "" || obj == "assert" || strings.HasSuffix(obj, "ssert")) {
					top.assert = true
				}
			}
		case "new_expression":
			c := n.ChildByFieldName("constructor")
			if c != nil && c.Type() == "member_expression" {
				c = c.ChildByFieldName("property")
			}
			if c != nil && (c.Type() == "identifier" || c.Type() == "property_identifier") {
				addRef(f.text(c), kindType, UseConstruct, c, false)
			}
		case "member_expression":
			p := n.ChildByFieldName("property")
			if p == nil || (p.Type() != "property_identifier" && p.Type() != "private_property_identifier") {
				return
			}
			if par.typ == "new_expression" && top.field == "constructor" {
				return
			}
			use := UseReference
			if par.typ == "call_expression" && top.field == "function" {
				use = UseCall
			}
			kind := kindMember
			if o := n.ChildByFieldName("object"); o != nil && o.Type() == "identifier" && namespaces[f.text(o)] {
				// ns.f through `import * as ns` or `const ns = require()`:
				// a module's name, as if imported.
				kind = kindImport
			}
			addRef(f.text(p), kind, use, p, top.assert)
		case "subscript_expression":
			// obj['_state'] reaches a private name by string.
			if text, ok := nodeString(f, n.ChildByFieldName("index")); ok && (nodePrivate(text) || strings.HasPrefix(text, "#")) {
				use := UseReference
				if top.assert {
					use = UseAssert
				}
				s.refs = append(s.refs, ref{name: text, kind: kindString, use: use, line: line(n), forced: true})
			}
		case "identifier", "shorthand_property_identifier":
			switch {
			case par.typ == "call_expression" && top.field == "function",
				par.typ == "new_expression" && top.field == "constructor",
				par.typ == "import_specifier", par.typ == "import_clause", par.typ == "namespace_import",
				par.typ == "export_specifier",
				nodeDeclName(par, top):
				return
			}
			addRef(f.text(n), kindName, UseReference, n, top.assert)
		case "type_identifier":
			if nodeDeclName(par, top) {
				return
			}
			addRef(f.text(n), kindType, UseReference, n, top.assert)
		}
	})
	for i := range s.decls {
		d := &s.decls[i]
		if !isMember(d.Kind) {
			d.Exported = exported[d.Name] && !d.local
			if !d.Exported && !d.local {
				d.Visibility = "unexported"
			}
		}
	}
	return s
}

// nodeDeclName reports whether a name is the one its declaration
// introduces (a function's, a class's, a variable's).
func nodeDeclName(par frame, top *frame) bool {
	if top.field != "name" {
		return false
	}
	switch par.typ {
	case "function_declaration", "generator_function_declaration", "function_signature", "function_expression", "function",
		"class_declaration", "abstract_class_declaration", "class", "interface_declaration", "type_alias_declaration",
		"enum_declaration", "variable_declarator":
		return true
	}
	return false
}

// nodePatternNames calls fn for each identifier a binding pattern binds
// (not default values, not property keys).
func nodePatternNames(p *sitter.Node, fn func(*sitter.Node)) {
	if p == nil {
		return
	}
	stack := []*sitter.Node{p}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == nil {
			continue
		}
		switch n.Type() {
		case "identifier", "shorthand_property_identifier_pattern":
			fn(n)
			continue
		case "pair_pattern":
			stack = append(stack, n.ChildByFieldName("value"))
			continue
		case "assignment_pattern", "object_assignment_pattern":
			stack = append(stack, n.ChildByFieldName("left"))
			continue
		case "object_pattern", "array_pattern", "rest_pattern", "required_parameter", "optional_parameter":
		default:
			continue
		}
		for i := int(n.NamedChildCount()) - 1; i >= 0; i-- {
			if c := n.NamedChild(i); c != nil {
				stack = append(stack, c)
			}
		}
	}
}

// nodeImport reads `import a, { b, c as d } from 'm'` and `import * as
// ns from 'm'`: the bindings are the test's own names, the imported names
// are references, and a private module path is internal.
func nodeImport(f *parsed, s *scan, n *sitter.Node) {
	if src, ok := nodeString(f, n.ChildByFieldName("source")); ok && nodePrivatePath(src) {
		s.refs = append(s.refs, ref{name: src, kind: kindImport, use: UseImport, line: line(n), forced: true, word: "private module"})
	}
	stack := []*sitter.Node{}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); c.Type() == "import_clause" {
			stack = append(stack, c)
		}
	}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch c.Type() {
		case "import_clause", "named_imports", "namespace_import":
			for i := 0; i < int(c.NamedChildCount()); i++ {
				stack = append(stack, c.NamedChild(i))
			}
		case "identifier":
			s.decls = append(s.decls, Decl{Name: f.text(c), Kind: "import", Line: line(c), local: true})
		case "import_specifier":
			name, bind := c.ChildByFieldName("name"), c.ChildByFieldName("alias")
			if bind == nil {
				bind = name
			}
			s.decls = append(s.decls, Decl{Name: f.text(bind), Kind: "import", Line: line(c), local: true})
			if name != nil && name.Type() == "identifier" {
				s.refs = append(s.refs, ref{name: f.text(name), kind: kindImport, use: UseImport, line: line(c)})
			}
		}
	}
}

// nodeRequire reads `const { a, b: c } = require('m')`: a and b are
// imported names; a private module path is internal.
func nodeRequire(f *parsed, s *scan, call, target *sitter.Node) bool {
	if fn := call.ChildByFieldName("function"); fn == nil || f.text(fn) != "require" {
		return false
	}
	args := call.ChildByFieldName("arguments")
	if args == nil || args.NamedChildCount() == 0 {
		return true
	}
	if src, ok := nodeString(f, args.NamedChild(0)); ok && nodePrivatePath(src) {
		s.refs = append(s.refs, ref{name: src, kind: kindImport, use: UseImport, line: line(call), forced: true, word: "private module"})
	}
	if target == nil || target.Type() != "object_pattern" {
		return true
	}
	for i := 0; i < int(target.NamedChildCount()); i++ {
		c := target.NamedChild(i)
		switch c.Type() {
		case "shorthand_property_identifier_pattern":
			s.refs = append(s.refs, ref{name: f.text(c), kind: kindImport, use: UseImport, line: line(c)})
		case "pair_pattern":
			if k := c.ChildByFieldName("key"); k != nil && k.Type() == "property_identifier" {
				s.refs = append(s.refs, ref{name: f.text(k), kind: kindImport, use: UseImport, line: line(c)})
			}
		}
	}
	return true
}

// nodeAssignment reads CommonJS exports (module.exports = { a, b: c },
// module.exports = a, module.exports.a = ..., exports.a = ...) and the
// fields a class or a test sets on this.
func nodeAssignment(f *parsed, s *scan, n *sitter.Node, class string, exported map[string]bool) {
	left, right := n.ChildByFieldName("left"), n.ChildByFieldName("right")
	if left == nil || left.Type() != "member_expression" {
		return
	}
	obj, prop := left.ChildByFieldName("object"), left.ChildByFieldName("property")
	switch o := f.text(obj); {
	case o == "this":
		if prop != nil && prop.Type() == "property_identifier" {
			name := f.text(prop)
			s.decls = append(s.decls, Decl{Name: name, Kind: "field", Class: class, Exported: !nodePrivate(name), Line: line(prop)})
		}
	case o == "module" && f.text(prop) == "exports":
		if right == nil {
			return
		}
		switch right.Type() {
		case "identifier":
			exported[f.text(right)] = true
		case "object":
			for i := 0; i < int(right.NamedChildCount()); i++ {
				c := right.NamedChild(i)
				switch c.Type() {
				case "shorthand_property_identifier":
					exported[f.text(c)] = true
				case "pair":
					exported[f.text(c.ChildByFieldName("key"))] = true
					exported[f.text(c.ChildByFieldName("value"))] = true
				}
			}
		}
	case o == "exports" || o == "module.exports":
		exported[f.text(prop)] = true
		if right != nil && right.Type() == "identifier" {
			exported[f.text(right)] = true
		}
	}
}

// productNode builds the product's table: module-level names in types,
// class members in methods (fields and methods alike: a JavaScript field
// may hold a function), constructors in ctors.
func productNode(files []*scan) *symtab {
	st := &symtab{types: map[string]*sym{}, methods: map[string]*sym{}, fields: map[string]*sym{}, ctors: map[string]bool{}}
	ctors := &symtab{types: map[string]*sym{}}
	for _, s := range files {
		for _, d := range s.decls {
			if d.local {
				continue
			}
			switch d.Kind {
			case "ctor":
				ctors.add(ctors.types, d.Name, d.Exported, d.Visibility)
			case "method", "field":
				st.add(st.methods, d.Name, d.Exported, d.Visibility)
			default:
				st.add(st.types, d.Name, d.Exported, d.Visibility)
			}
		}
	}
	for name, x := range ctors.types {
		st.ctors[name] = !x.exported
	}
	st.ctorSyms = ctors.types
	return st
}

func internalNode(r ref, a *auditor) (bool, string) {
	if r.forced {
		return true, "private"
	}
	if strings.HasPrefix(r.name, "#") {
		return true, "#private"
	}
	if nodePrivate(r.name) {
		return true, "private"
	}
	p := a.product
	if p == nil {
		return false, ""
	}
	switch r.kind {
	case kindMember:
		return p.lookup(p.methods, r.name)
	case kindType:
		if bad, w := p.lookup(p.types, r.name); bad {
			return true, w
		}
		if r.use == UseConstruct && p.ctors[r.name] {
			_, w := p.lookup(p.ctorSyms, r.name)
			return true, w + " constructor of"
		}
	case kindImport:
		return p.lookup(p.types, r.name)
	}
	// A bare name the test neither declares nor imports is a global
	// (describe, expect, process): a module's own names are out of reach.
	return false, ""
}
