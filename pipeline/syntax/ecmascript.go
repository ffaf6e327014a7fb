package syntax

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
)

// jsCommon are the patterns TypeScript and JavaScript share: classes,
// functions, methods, object literals (their methods are never exported),
// and the nodes whose hook finds function values bound to names and export
// wrappers.
const jsCommon = `
(class_declaration) @def
(class) @def
[(function_declaration) (generator_function_declaration)] @def
(method_definition) @def
(object) @object
[(export_statement) (variable_declarator) (lexical_declaration) (variable_declaration) (assignment_expression) (pair)] @hook
`

// typescriptGrammar: classes (abstract ones too), interfaces and enums are
// classes; functions, overload signatures, methods, interface method
// signatures, getters and setters are functions; arrow functions and
// function expressions bound to a name (const foo = () => {}, foo =
// function() {}, exports.foo = ..., class fields handler = () => {}, object
// members) are functions of that name; other arrow functions are not named;
// namespaces are not classes.
func typescriptGrammar() *grammar { return tsGrammar(false) }

// tsxGrammar is TypeScript with JSX, for .tsx files.
func tsxGrammar() *grammar { return tsGrammar(true) }

func tsGrammar(jsx bool) *grammar {
	g := &grammar{
		lang: typescript.GetLanguage(),
		source: jsCommon + `
[(abstract_class_declaration) (interface_declaration) (enum_declaration)] @def
[(function_signature) (method_signature) (abstract_method_signature)] @def
(public_field_definition) @hook
((decorator)+ @outer . [(method_definition) (method_signature) (abstract_method_signature)] @def)
((decorator)+ @outer . (public_field_definition) @hook)
`,
		bodyFields: []string{"body"},
		describe:   describeJS,
		hook:       hookJS,
	}
	if jsx {
		g.lang = tsx.GetLanguage()
	}
	return g
}

// javascriptGrammar: as TypeScript, without the type-only declarations.
// JavaScript decorators are children of what they decorate.
func javascriptGrammar() *grammar {
	return &grammar{
		lang: javascript.GetLanguage(),
		source: jsCommon + `
(field_definition) @hook
`,
		bodyFields: []string{"body"},
		describe:   describeJS,
		hook:       hookJS,
	}
}

// jsFunctionValue reports whether n is a value that takes the name it is
// bound to.
func (x *extraction) jsFunctionValue(n *sitter.Node) bool {
	if n == nil {
		return false
	}
	switch x.typ(n) {
	case "arrow_function", "function_expression", "generator_function", "class":
		return true
	}
	return false
}

// hookJS binds function values to names and applies export wrappers.
func hookJS(x *extraction, n *sitter.Node) *def {
	switch x.typ(n) {
	case "export_statement":
		decl := n.ChildByFieldName("declaration")
		if decl == nil {
			return nil
		}
		if t := x.typ(decl); t == "lexical_declaration" || t == "variable_declaration" {
			jsDeclarators(x, decl, func(d *def) { d.exportWrap = true; d.wrap(n) })
			return nil
		}
		d := x.def(decl)
		d.exportWrap = true
		d.wrap(n)
	case "lexical_declaration", "variable_declaration":
		jsDeclarators(x, n, func(d *def) { d.wrap(n) })
	case "variable_declarator":
		name, value := n.ChildByFieldName("name"), n.ChildByFieldName("value")
		if name != nil && x.typ(name) == "identifier" && x.jsFunctionValue(value) {
			d := x.def(value)
			d.setName(name)
			d.wrap(n)
		}
	case "assignment_expression":
		left, right := n.ChildByFieldName("left"), n.ChildByFieldName("right")
		if left == nil || !x.jsFunctionValue(right) {
			return nil
		}
		d := x.def(right)
		switch x.typ(left) {
		case "identifier":
			d.setName(left)
		case "member_expression":
			d.setName(left.ChildByFieldName("property"))
			if d.ownerNode == nil {
				d.ownerNode = left.ChildByFieldName("object")
			}
		default:
			return nil
		}
		d.wrap(n)
	case "pair":
		if value := n.ChildByFieldName("value"); x.jsFunctionValue(value) {
			d := x.def(value)
			d.setName(n.ChildByFieldName("key"))
			d.local = true
			d.wrap(n)
		}
	case "public_field_definition", "field_definition":
		value := n.ChildByFieldName("value")
		if !x.jsFunctionValue(value) {
			return nil
		}
		d := x.def(value)
		if x.typ(n) == "field_definition" {
			d.setName(n.ChildByFieldName("property"))
		} else {
			d.setName(n.ChildByFieldName("name"))
		}
		if m := x.childOfType(n, "accessibility_modifier"); m != nil && x.text(m) != "public" {
			d.private = true
		}
		d.wrap(n)
		return d
	}
	return nil
}

// jsDeclarators applies f to the function values of a declaration's
// declarators.
func jsDeclarators(x *extraction, decl *sitter.Node, f func(*def)) {
	count := int(decl.ChildCount())
	for i := 0; i < count && i < maxChildren; i++ {
		c := decl.Child(i)
		if x.typ(c) != "variable_declarator" {
			continue
		}
		name, value := c.ChildByFieldName("name"), c.ChildByFieldName("value")
		if name != nil && x.typ(name) == "identifier" && x.jsFunctionValue(value) {
			f(x.def(value))
		}
	}
}

var jsKinds = map[string]string{
	"class_declaration": "class", "class": "class", "abstract_class_declaration": "class",
	"interface_declaration": "interface", "enum_declaration": "enum",
}

func describeJS(x *extraction, d *def) bool {
	n := d.node
	t := x.typ(n)
	// A name from outside (const foo = ...) wins over the value's own.
	name := d.nameNode
	if name == nil {
		name = n.ChildByFieldName("name")
	}
	d.name = jsName(x.text(name))
	if kind, ok := jsKinds[t]; ok {
		d.kind, d.isClass = kind, true
		if d.name == "" {
			// An unnamed class expression: its methods are not named.
			d.anon = true
			return true
		}
		d.vis = jsVisibility(d)
		d.members = true
		return true
	}
	d.kind = "function"
	switch t {
	case "arrow_function", "function_expression", "generator_function", "function_declaration", "generator_function_declaration", "function_signature":
	case "method_definition", "method_signature", "abstract_method_signature":
	default:
		// Any other exported declaration (const x = 1, namespace N).
		return false
	}
	if d.private {
		d.vis = visPrivate
		return true
	}
	switch t {
	case "method_definition", "method_signature", "abstract_method_signature":
		d.kind = "method"
		if d.name == "constructor" {
			d.kind = "constructor"
		}
		d.decl = n.ChildByFieldName("body") == nil
		// Class members are public unless private, protected or #private.
		d.vis = visPublic
		if m := x.childOfType(n, "accessibility_modifier"); m != nil && x.text(m) != "public" {
			d.vis = visPrivate
		}
		if strings.HasPrefix(d.name, "#") {
			d.vis = visPrivate
		}
		return true
	case "function_signature":
		d.decl = true
	}
	d.vis = jsVisibility(d)
	if d.ownerNode != nil {
		// CommonJS: exports.foo = ... and module.exports.foo = ... export.
		if o := x.text(d.ownerNode); o == "exports" || o == "module.exports" {
			d.vis = visPublic
		}
	}
	return true
}

// jsVisibility: a declaration is exported when an export statement wraps
// it; a function-valued class field is as public as its class's members.
func jsVisibility(d *def) visibility {
	if d.exportWrap {
		return visPublic
	}
	return visInherit
}

// jsName normalises a property name: quotes of string keys are dropped.
func jsName(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}
