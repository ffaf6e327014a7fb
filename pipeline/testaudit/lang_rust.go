package testaudit

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/rust"
)

// Rust is the Rust rule: a function, method, type, constant or field of
// the product is internal when it is not plainly pub (private, pub(crate),
// pub(super), pub(in path)); methods of a trait implementation and of a
// trait are as public as the trait. Rust declares visibility, so the rule
// reads the product's declarations (Input.Product), and a name is internal
// only when no product declaration of it is pub. A unit test inside the
// crate (use super::*) can call the crate's private functions; an agent's
// solution need not have them. Macro arguments (assert_eq!(...)) are
// token trees, not syntax: their identifiers are read as names.
var Rust = &Language{
	Name:     "Rust",
	Doc:      "items of the product that are not plainly pub (private, pub(crate), pub(super), pub(in path)): functions, methods, types, constants and struct fields",
	grammar:  rust.GetLanguage,
	scan:     scanRust,
	internal: internalRust,
	product:  productRust,
}

// rustVisibility is a declaration's visibility word: "pub", "pub(crate)",
// ..., or "private" when it has none.
func rustVisibility(f *parsed, decl *sitter.Node) string {
	for i := 0; i < int(decl.NamedChildCount()); i++ {
		if c := decl.NamedChild(i); c.Type() == "visibility_modifier" {
			return strings.Join(strings.Fields(f.text(c)), "")
		}
	}
	return "private"
}

// rustIsTest reports whether a function item carries #[test] (or a
// test-like attribute: #[tokio::test], #[test_case(...)]) in the
// attribute items just before it.
func rustIsTest(f *parsed, fn *sitter.Node) bool {
	for p := fn.PrevNamedSibling(); p != nil && p.Type() == "attribute_item"; p = p.PrevNamedSibling() {
		t := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(f.text(p), "#["), "]"))
		if t == "test" || strings.HasSuffix(t, "::test") || strings.HasPrefix(t, "test_case") || strings.HasPrefix(t, "rstest") {
			return true
		}
	}
	return false
}

// scanRust reads a Rust file. The frame's scope is "impl" inside an
// inherent impl, "pub" inside a trait or a trait implementation (members
// as public as the trait), "" elsewhere.
func scanRust(f *parsed) *scan {
	s := &scan{}
	declare := func(name, kind, vis string, n *sitter.Node, local bool, scope string) {
		if name == "" {
			return
		}
		exported := vis == "pub" || scope == "pub"
		s.decls = append(s.decls, Decl{Name: name, Kind: kind, Exported: exported, Visibility: vis, Line: line(n), local: local})
	}
	walk(f.root, func(st []frame) {
		top := &st[len(st)-1]
		par := parent(st, 1)
		n := top.n
		switch top.typ {
		case "impl_item":
			top.scope = "impl"
			if n.ChildByFieldName("trait") != nil {
				top.scope = "pub"
			}
		case "trait_item":
			declare(f.text(n.ChildByFieldName("name")), "type", rustVisibility(f, n), n, top.local, "")
			top.scope = "pub"
		case "function_item":
			kind := "func"
			if top.scope != "" {
				kind = "method"
			}
			name := f.text(n.ChildByFieldName("name"))
			declare(name, kind, rustVisibility(f, n), n, top.local, top.scope)
			if !top.local && rustIsTest(f, n) {
				s.tests = append(s.tests, TestFunc{Name: name, Line: line(n), Fingerprint: fingerprint(f, n, n.ChildByFieldName("name"))})
			}
		case "struct_item", "enum_item", "union_item", "type_item", "mod_item":
			declare(f.text(n.ChildByFieldName("name")), "type", rustVisibility(f, n), n, top.local, "")
		case "const_item", "static_item":
			declare(f.text(n.ChildByFieldName("name")), "const", rustVisibility(f, n), n, top.local, top.scope)
		case "field_declaration":
			declare(f.text(n.ChildByFieldName("name")), "field", rustVisibility(f, n), n, top.local, "")
		case "enum_variant":
			// Variants are as public as their enum.
			declare(f.text(n.ChildByFieldName("name")), "const", "pub", n, top.local, "")
		case "block", "closure_expression":
			top.local = true
		case "parameter":
			rustPatternNames(f, n.ChildByFieldName("pattern"), func(id *sitter.Node) {
				s.decls = append(s.decls, Decl{Name: f.text(id), Kind: "var", Line: line(id), local: true})
			})
		case "let_declaration", "for_expression", "closure_parameters", "match_arm", "if_let_expression", "let_condition":
			p := n.ChildByFieldName("pattern")
			if top.typ == "closure_parameters" || p == nil {
				p = n
			}
			if top.typ == "match_arm" {
				p = n.ChildByFieldName("pattern")
			}
			rustPatternNames(f, p, func(id *sitter.Node) {
				s.decls = append(s.decls, Decl{Name: f.text(id), Kind: "var", Line: line(id), local: true})
			})
		case "macro_invocation":
			if m := n.ChildByFieldName("macro"); m != nil && hasAssertPrefix(lastRustName(f.text(m))) {
				top.assert = true
			}
		case "use_declaration":
			rustUse(f, s, n)
		case "call_expression":
			fn := n.ChildByFieldName("function")
			switch {
			case fn == nil:
			case fn.Type() == "identifier":
				s.refs = append(s.refs, ref{name: f.text(fn), kind: kindName, use: UseCall, line: line(n)})
			case fn.Type() == "scoped_identifier":
				s.refs = append(s.refs, ref{name: f.text(fn.ChildByFieldName("name")), kind: kindName, use: UseCall, line: line(n)})
			case fn.Type() == "field_expression":
				s.refs = append(s.refs, ref{name: f.text(fn.ChildByFieldName("field")), kind: kindMember, use: UseCall, line: line(n)})
			}
		case "field_expression":
			if par.typ == "call_expression" && top.field == "function" {
				return
			}
			use := UseReference
			if top.assert {
				use = UseAssert
			}
			s.refs = append(s.refs, ref{name: f.text(n.ChildByFieldName("field")), kind: kindMember, use: use, line: line(n)})
		case "struct_expression":
			if t := n.ChildByFieldName("name"); t != nil {
				s.refs = append(s.refs, ref{name: lastRustName(f.text(t)), kind: kindType, use: UseConstruct, line: line(n)})
			}
		case "type_identifier":
			if par.typ == "struct_expression" || rustDeclName(par, top) {
				return
			}
			s.refs = append(s.refs, ref{name: f.text(n), kind: kindType, use: UseReference, line: line(n)})
		case "scoped_identifier":
			if par.typ == "call_expression" && top.field == "function" || par.typ == "use_declaration" || par.typ == "scoped_identifier" || par.typ == "use_list" || par.typ == "scoped_use_list" || par.typ == "use_as_clause" {
				return
			}
			use := UseReference
			if top.assert {
				use = UseAssert
			}
			s.refs = append(s.refs, ref{name: f.text(n.ChildByFieldName("name")), kind: kindName, use: use, line: line(n)})
		case "identifier":
			// Macro arguments are token trees: their identifiers are names.
			if par.typ != "token_tree" {
				return
			}
			use := UseReference
			if top.assert {
				use = UseAssert
			}
			if next := n.NextSibling(); next != nil && next.Type() == "token_tree" && strings.HasPrefix(f.text(next), "(") {
				use = UseCall
			}
			kind := kindName
			if prev := n.PrevSibling(); prev != nil && prev.Type() == "." {
				kind = kindMember
			}
			s.refs = append(s.refs, ref{name: f.text(n), kind: kind, use: use, line: line(n)})
		}
	})
	return s
}

// rustDeclName reports whether a type identifier is the name a
// declaration introduces (struct Foo, impl Foo is a use).
func rustDeclName(par frame, top *frame) bool {
	if top.field != "name" {
		return false
	}
	switch par.typ {
	case "struct_item", "enum_item", "union_item", "type_item", "trait_item":
		return true
	}
	return false
}

// rustPatternNames calls fn for each identifier a pattern binds.
func rustPatternNames(f *parsed, p *sitter.Node, fn func(*sitter.Node)) {
	if p == nil {
		return
	}
	stack := []*sitter.Node{p}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch n.Type() {
		case "identifier":
			fn(n)
			continue
		case "block", "closure_expression", "call_expression", "scoped_identifier", "type_identifier":
			continue
		}
		for i := int(n.NamedChildCount()) - 1; i >= 0; i-- {
			stack = append(stack, n.NamedChild(i))
		}
	}
}

// lastRustName is the last segment of a path: Op for crate::req::Op.
func lastRustName(s string) string {
	if i := strings.LastIndex(s, "::"); i >= 0 {
		return s[i+2:]
	}
	return s
}

// rustUse records the names a use declaration imports (their last
// segments; a glob imports no name).
func rustUse(f *parsed, s *scan, n *sitter.Node) {
	stack := []*sitter.Node{n.ChildByFieldName("argument")}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if c == nil {
			continue
		}
		switch c.Type() {
		case "identifier", "scoped_identifier":
			name := lastRustName(f.text(c))
			if name != "self" && name != "super" && name != "crate" {
				s.refs = append(s.refs, ref{name: name, kind: kindImport, use: UseImport, line: line(c)})
			}
		case "use_as_clause":
			stack = append(stack, c.ChildByFieldName("path"))
		case "scoped_use_list":
			stack = append(stack, c.ChildByFieldName("list"))
		case "use_list":
			for i := 0; i < int(c.NamedChildCount()); i++ {
				stack = append(stack, c.NamedChild(i))
			}
		}
	}
}

func productRust(files []*scan) *symtab {
	st := &symtab{types: map[string]*sym{}, methods: map[string]*sym{}, fields: map[string]*sym{}, ctors: map[string]bool{}}
	for _, s := range files {
		for _, d := range s.decls {
			if d.local {
				continue
			}
			word := d.Visibility
			switch d.Kind {
			case "type":
				st.add(st.types, d.Name, d.Exported, word)
			case "field":
				st.add(st.fields, d.Name, d.Exported, word)
			default:
				st.add(st.methods, d.Name, d.Exported, word)
			}
		}
	}
	return st
}

func internalRust(r ref, a *auditor) (bool, string) {
	p := a.product
	if p == nil {
		return false, ""
	}
	switch r.kind {
	case kindType:
		return p.lookup(p.types, r.name)
	case kindMember:
		if r.use == UseCall {
			return p.lookup(p.methods, r.name)
		}
		if bad, w := p.lookup(p.fields, r.name); bad {
			return true, w
		}
		return false, ""
	default:
		// A bare or imported name: a function, a constant or a type.
		if bad, w := p.lookup(p.methods, r.name); bad && p.types[r.name] == nil {
			return true, w
		}
		if bad, w := p.lookup(p.types, r.name); bad && p.methods[r.name] == nil {
			return true, w
		}
	}
	return false, ""
}
