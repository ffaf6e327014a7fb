package syntax

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// memberGrammarNames maps language names to member grammars; the rules
// per language are in the package documentation (# Members).
var memberGrammarNames = map[string]func() *memberGrammar{
	"Python":     pythonMembers,
	"Go":         goMembers,
	"Java":       javaMembers,
	"Rust":       rustMembers,
	"TypeScript": tsMembers,
	"TSX":        tsMembers,
	"JavaScript": jsMembers,
	"C#":         csharpMembers,
}

// public reports whether a member (or class) of the given visibility is
// exported inside top.
func (f *mframe) public(v visibility) bool {
	switch v {
	case visPublic:
		return f.exported
	case visInherit:
		return f.exported && f.members
	}
	return false
}

// visIf is visPublic when public, else visPrivate.
func visIf(public bool) visibility {
	if public {
		return visPublic
	}
	return visPrivate
}

// pythonMembers: assignments and annotated assignments (x: T, x: T = v) at
// module level and in class bodies, if and try blocks included; every
// target of a chain (A = B = v) and of a tuple (A, B = v) is a member.
func pythonMembers() *memberGrammar {
	return &memberGrammar{
		source: `
(class_definition) @class
(function_definition) @block
(assignment) @member
`,
		class: func(x *extraction, n *sitter.Node, top *mframe) mframe {
			name := x.text(n.ChildByFieldName("name"))
			return classFrame(name, top, visIf(pythonPublic(name)), false)
		},
		member: memberPython,
	}
}

func memberPython(mx *memberExtraction, n *sitter.Node, top *mframe) {
	x := mx.x
	var targets []*sitter.Node
	value := n
	for i := 0; value != nil && x.typ(value) == "assignment" && i < maxChildren; i++ {
		targets = append(targets, value.ChildByFieldName("left"))
		value = value.ChildByFieldName("right")
	}
	decl := x.declaration(n.StartByte(), n.EndByte(), value)
	first := len(mx.out)
	defer func() {
		if doc := pythonAttributeDoc(x, n); doc > 0 {
			for i := first; i < len(mx.out); i++ {
				mx.docEnd[i] = doc
			}
		}
	}()
	for _, t := range targets {
		var names []*sitter.Node
		switch x.typ(t) {
		case "identifier":
			names = []*sitter.Node{t}
		case "pattern_list", "tuple_pattern", "list_pattern":
			names = x.childrenOfType(t, "identifier")
		}
		for _, nn := range names {
			name := x.text(nn)
			if dunder(name) {
				continue
			}
			kind := "field"
			if top.class == "" {
				kind = "variable"
				if constantName(name) {
					kind = "constant"
				}
			}
			mx.add(n, kind, top.class, name, top.exported && !strings.HasPrefix(name, "_"), decl)
		}
	}
}

// pythonAttributeDoc is the last line of an attribute docstring (PEP 257:
// a string statement right after the assignment's statement, on the next
// line), 0 for none.
func pythonAttributeDoc(x *extraction, assign *sitter.Node) int {
	st := assign.Parent()
	if st == nil || x.typ(st) != "expression_statement" {
		return 0
	}
	next := st.NextNamedSibling()
	if next == nil || x.typ(next) != "expression_statement" || next.NamedChildCount() != 1 || next.StartPoint().Row != st.EndPoint().Row+1 {
		return 0
	}
	if t := x.typ(next.NamedChild(0)); t != "string" && t != "concatenated_string" {
		return 0
	}
	sp, ep := next.StartPoint(), next.EndPoint()
	return endLine(sp.Row, ep.Row, ep.Column)
}

// goMembers: top-level const and var specs, and the fields of struct type
// declarations (embedded ones named by their type). Fields of anonymous
// structs are part of their field's or variable's declaration.
func goMembers() *memberGrammar {
	return &memberGrammar{
		source: `
(type_spec type: (struct_type)) @class
[(type_spec) (type_alias) (function_declaration) (method_declaration) (func_literal)] @block
[(const_spec) (var_spec) (field_declaration)] @member
`,
		class: func(x *extraction, n *sitter.Node, top *mframe) mframe {
			name := x.text(n.ChildByFieldName("name"))
			return classFrame(name, top, visIf(goExported(name)), false)
		},
		member: memberGo,
	}
}

func memberGo(mx *memberExtraction, n *sitter.Node, top *mframe) {
	x := mx.x
	switch t := x.typ(n); t {
	case "const_spec", "var_spec":
		if top.class != "" {
			return
		}
		kind, kw := "constant", "const "
		if t == "var_spec" {
			kind, kw = "variable", "var "
		}
		decl := kw + x.declaration(n.StartByte(), n.EndByte(), n.ChildByFieldName("value"))
		for _, nn := range x.childrenOfType(n, "identifier") {
			name := x.text(nn)
			mx.add(n, kind, "", name, top.exported && goExported(name), decl)
		}
	case "field_declaration":
		if top.class == "" {
			return
		}
		typ := n.ChildByFieldName("type")
		decl := x.declaration(n.StartByte(), n.EndByte(), typ)
		names := x.childrenOfType(n, "field_identifier")
		if len(names) == 0 {
			// An embedded field is named by its type's base name.
			if base := goTypeName(x, typ); base != nil {
				names = []*sitter.Node{base}
			}
		}
		for _, nn := range names {
			name := x.text(nn)
			mx.add(n, "field", top.class, name, top.exported && goExported(name), decl)
		}
	}
}

// goTypeName returns the name node of an embedded field's type: T, *T,
// pkg.T and T[U] give T.
func goTypeName(x *extraction, t *sitter.Node) *sitter.Node {
	for i := 0; t != nil && i < 16; i++ {
		switch x.typ(t) {
		case "type_identifier":
			return t
		case "pointer_type", "parenthesized_type":
			t = t.NamedChild(0)
		case "generic_type":
			t = t.ChildByFieldName("type")
		case "qualified_type":
			t = t.ChildByFieldName("name")
		default:
			return nil
		}
	}
	return nil
}

// javaMembers: fields, interface constants and enum constants of named
// classes; anonymous class bodies are inside a method, an initializer
// block or a member's value, which are blocks.
func javaMembers() *memberGrammar {
	return &memberGrammar{
		source: `
[(class_declaration) (interface_declaration) (enum_declaration) (record_declaration) (annotation_type_declaration)] @class
[(method_declaration) (constructor_declaration) (compact_constructor_declaration) (block)] @block
[(field_declaration) (constant_declaration) (enum_constant)] @member
`,
		class: func(x *extraction, n *sitter.Node, top *mframe) mframe {
			t := x.typ(n)
			return classFrame(x.text(n.ChildByFieldName("name")), top, javaVisibility(x, n),
				t == "interface_declaration" || t == "annotation_type_declaration")
		},
		member: memberJava,
	}
}

// javaVisibility reads a declaration's access modifier: public, private or
// protected (not public API), or none (visInherit: public in interfaces).
func javaVisibility(x *extraction, n *sitter.Node) visibility {
	mods := x.childOfType(n, "modifiers")
	switch {
	case mods == nil:
		return visInherit
	case x.childOfType(mods, "public") != nil:
		return visPublic
	case x.childOfType(mods, "private") != nil, x.childOfType(mods, "protected") != nil:
		return visPrivate
	}
	return visInherit
}

func memberJava(mx *memberExtraction, n *sitter.Node, top *mframe) {
	x := mx.x
	if top.class == "" {
		return
	}
	if x.typ(n) == "enum_constant" {
		end := n.EndByte()
		if body := n.ChildByFieldName("body"); body != nil {
			end = body.StartByte()
		}
		decl := x.declaration(n.StartByte(), end, n.ChildByFieldName("arguments"))
		mx.add(n, "enum constant", top.class, x.text(n.ChildByFieldName("name")), top.exported, decl)
		return
	}
	kind := "field"
	if mods := x.childOfType(n, "modifiers"); top.members || x.typ(n) == "constant_declaration" ||
		mods != nil && x.childOfType(mods, "static") != nil && x.childOfType(mods, "final") != nil {
		kind = "constant"
	}
	exported := top.public(javaVisibility(x, n))
	declarators := x.childrenOfType(n, "variable_declarator")
	values := make([]*sitter.Node, 0, len(declarators))
	for _, d := range declarators {
		values = append(values, d.ChildByFieldName("value"))
	}
	decl := x.declaration(n.StartByte(), n.EndByte(), values...)
	for _, d := range declarators {
		mx.add(n, kind, top.class, x.text(d.ChildByFieldName("name")), exported, decl)
	}
}

// rustMembers: const and static items (module level, in impl blocks and
// traits), named struct and union fields, and enum variants.
func rustMembers() *memberGrammar {
	return &memberGrammar{
		source: `
[(struct_item) (enum_item) (union_item) (trait_item) (impl_item)] @class
[(function_item) (function_signature_item)] @block
[(const_item) (static_item) (field_declaration) (enum_variant)] @member
`,
		class: func(x *extraction, n *sitter.Node, top *mframe) mframe {
			name := x.text(n.ChildByFieldName("name"))
			switch x.typ(n) {
			case "impl_item":
				// An impl block is as public as its type's members may be;
				// a trait impl's members are as public as the trait.
				trait := n.ChildByFieldName("trait") != nil
				return mframe{class: rustTypeName(x, n.ChildByFieldName("type")), exported: top.exported, members: trait}
			case "trait_item", "enum_item":
				return classFrame(name, top, rustVisibility(x, n), true)
			}
			return classFrame(name, top, rustVisibility(x, n), false)
		},
		member: memberRust,
	}
}

// rustVisibility: exactly pub is public; pub(crate) and the like are not;
// no modifier inherits (trait members, enum variants).
func rustVisibility(x *extraction, n *sitter.Node) visibility {
	if v := x.childOfType(n, "visibility_modifier"); v != nil {
		if x.text(v) == "pub" {
			return visPublic
		}
		return visPrivate
	}
	return visInherit
}

func memberRust(mx *memberExtraction, n *sitter.Node, top *mframe) {
	x := mx.x
	start, end := n.StartByte(), n.EndByte()
	name := x.text(n.ChildByFieldName("name"))
	switch x.typ(n) {
	case "const_item", "static_item":
		kind := "constant"
		if x.typ(n) == "static_item" {
			kind = "variable"
		}
		mx.add(n, kind, top.class, name, top.public(rustVisibility(x, n)), x.declaration(start, end, n.ChildByFieldName("value")))
	case "field_declaration":
		if top.class != "" {
			mx.add(n, "field", top.class, name, top.public(rustVisibility(x, n)), x.declaration(start, end, n.ChildByFieldName("type")))
		}
	case "enum_variant":
		if top.class != "" {
			mx.add(n, "variant", top.class, name, top.exported, x.declaration(start, end, n.ChildByFieldName("body"), n.ChildByFieldName("value")))
		}
	}
}

// jsBlocks are the TypeScript and JavaScript nodes nothing inside of which
// is a member: functions, methods and statement blocks.
const jsBlocks = `
[(function_declaration) (generator_function_declaration) (function_expression) (arrow_function) (generator_function) (method_definition) (statement_block)] @block
(export_statement) @wrap
`

// tsMembers: module-level const, let and var declarators (exported when an
// export statement wraps them), class fields, interface properties and
// enum members. Function values bound to a name are functions, not
// members; namespaces are blocks.
func tsMembers() *memberGrammar {
	return &memberGrammar{
		source: jsBlocks + `
[(class_declaration) (abstract_class_declaration) (class) (interface_declaration) (enum_declaration)] @class
[(method_signature) (abstract_method_signature) (function_signature) (internal_module) (module)] @block
[(lexical_declaration) (variable_declaration) (public_field_definition) (property_signature) (enum_body)] @member
`,
		class:  classJS,
		member: memberJS,
	}
}

// jsMembers: as TypeScript, without the type-only declarations.
func jsMembers() *memberGrammar {
	return &memberGrammar{
		source: jsBlocks + `
[(class_declaration) (class)] @class
[(lexical_declaration) (variable_declaration) (field_definition)] @member
`,
		class:  classJS,
		member: memberJS,
	}
}

// classJS: a class, interface or enum is exported when an export
// statement wraps it; its members are public unless private, protected or
// #private. An unnamed class expression is a block.
func classJS(x *extraction, n *sitter.Node, top *mframe) mframe {
	name := jsName(x.text(n.ChildByFieldName("name")))
	return mframe{class: name, exported: top.export, members: true}
}

func memberJS(mx *memberExtraction, n *sitter.Node, top *mframe) {
	x := mx.x
	start, end := n.StartByte(), n.EndByte()
	switch x.typ(n) {
	case "lexical_declaration", "variable_declaration":
		if top.class != "" {
			return
		}
		kind := "variable"
		if kw := n.Child(0); kw != nil && x.text(kw) == "const" {
			kind = "constant"
		}
		var names, values []*sitter.Node
		for _, d := range x.childrenOfType(n, "variable_declarator") {
			name, value := d.ChildByFieldName("name"), d.ChildByFieldName("value")
			values = append(values, value)
			if x.typ(name) == "identifier" && !x.jsFunctionValue(value) {
				names = append(names, name)
			}
		}
		decl := x.declaration(start, end, values...)
		for _, nn := range names {
			mx.add(n, kind, "", x.text(nn), top.export, decl)
		}
	case "public_field_definition", "field_definition":
		value := n.ChildByFieldName("value")
		if top.class == "" || x.jsFunctionValue(value) {
			return
		}
		name := n.ChildByFieldName("name")
		if name == nil {
			name = n.ChildByFieldName("property")
		}
		private := x.typ(name) == "private_property_identifier"
		if m := x.childOfType(n, "accessibility_modifier"); m != nil && x.text(m) != "public" {
			private = true
		}
		mx.add(n, "field", top.class, jsName(x.text(name)), top.exported && !private, x.declaration(start, end, value))
	case "property_signature":
		if top.class != "" {
			mx.add(n, "field", top.class, jsName(x.text(n.ChildByFieldName("name"))), top.exported, x.declaration(start, end))
		}
	case "enum_body":
		if top.class == "" {
			return
		}
		// An enum's members are the body's children: a name, or a name
		// and its value. A cursor walks them, however many there are.
		c := sitter.NewTreeCursor(n)
		defer c.Close()
		for ok := c.GoToFirstChild(); ok; ok = c.GoToNextSibling() {
			m := c.CurrentNode()
			var name *sitter.Node
			switch x.typ(m) {
			case "property_identifier", "string":
				name = m
			case "enum_assignment":
				name = m.ChildByFieldName("name")
			default:
				continue
			}
			mx.add(m, "enum constant", top.class, jsName(x.text(name)), top.exported,
				x.declaration(m.StartByte(), m.EndByte(), m.ChildByFieldName("value")))
		}
	}
}

// csharpMembers: fields, constants and event fields of classes, structs,
// records and interfaces, and enum members. Properties are functions
// (Entity kind "property").
func csharpMembers() *memberGrammar {
	return &memberGrammar{
		source: `
[(class_declaration) (struct_declaration) (interface_declaration) (enum_declaration) (record_declaration)] @class
[(method_declaration) (constructor_declaration) (destructor_declaration) (property_declaration) (indexer_declaration) (operator_declaration) (conversion_operator_declaration) (event_declaration) (local_function_statement)] @block
[(field_declaration) (event_field_declaration) (enum_member_declaration)] @member
`,
		class: func(x *extraction, n *sitter.Node, top *mframe) mframe {
			t := x.typ(n)
			return classFrame(x.text(n.ChildByFieldName("name")), top, csharpVisibility(x, n),
				t == "interface_declaration" || t == "enum_declaration")
		},
		member: memberCSharp,
	}
}

// csharpVisibility: only public is public API; internal, protected and
// private are not; no modifier inherits (public in interfaces).
func csharpVisibility(x *extraction, n *sitter.Node) visibility {
	v := visInherit
	for _, m := range x.childrenOfType(n, "modifier") {
		switch x.text(m) {
		case "public":
			v = visPublic
		case "private", "protected", "internal":
			return visPrivate
		}
	}
	return v
}

func memberCSharp(mx *memberExtraction, n *sitter.Node, top *mframe) {
	x := mx.x
	if top.class == "" {
		return
	}
	start, end := n.StartByte(), n.EndByte()
	if x.typ(n) == "enum_member_declaration" {
		mx.add(n, "enum constant", top.class, x.text(n.ChildByFieldName("name")), top.exported,
			x.declaration(start, end, n.ChildByFieldName("value")))
		return
	}
	kind := "field"
	mods := map[string]bool{}
	for _, m := range x.childrenOfType(n, "modifier") {
		mods[x.text(m)] = true
	}
	if mods["const"] || mods["static"] && mods["readonly"] {
		kind = "constant"
	}
	exported := top.public(csharpVisibility(x, n))
	vd := x.childOfType(n, "variable_declaration")
	if vd == nil {
		return
	}
	declarators := x.childrenOfType(vd, "variable_declarator")
	var values []*sitter.Node
	for _, d := range declarators {
		// The value follows "=" (or is an equals_value_clause).
		eq := false
		count := int(d.ChildCount())
		for i := 0; i < count && i < maxChildren; i++ {
			c := d.Child(i)
			switch {
			case x.typ(c) == "equals_value_clause":
				values = append(values, c)
			case x.typ(c) == "=":
				eq = true
			case eq && c.IsNamed():
				values = append(values, c)
				eq = false
			}
		}
	}
	decl := x.declaration(start, end, values...)
	for _, d := range declarators {
		mx.add(n, kind, top.class, x.text(d.ChildByFieldName("name")), exported, decl)
	}
}
