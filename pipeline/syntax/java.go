package syntax

import (
	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/java"
)

// javaGrammar: classes, interfaces, enums, records and annotation types are
// classes; methods and constructors (compact record constructors too) are
// functions. Anonymous class bodies and enum-constant bodies are not named:
// their lines belong to the enclosing named method. Lambdas are not named.
func javaGrammar() *grammar {
	return &grammar{
		lang: java.GetLanguage(),
		source: `
[(class_declaration) (interface_declaration) (enum_declaration) (record_declaration) (annotation_type_declaration)] @def
[(method_declaration) (constructor_declaration) (compact_constructor_declaration)] @def
(object_creation_expression) @hook
(enum_constant) @hook
`,
		bodyFields: []string{"body"},
		describe:   describeJava,
		hook:       hookJava,
	}
}

// hookJava marks anonymous class bodies.
func hookJava(x *extraction, n *sitter.Node) *def {
	var body *sitter.Node
	if x.typ(n) == "enum_constant" {
		body = n.ChildByFieldName("body")
	} else {
		body = x.childOfType(n, "class_body")
	}
	if body != nil {
		x.item(body, roleAnon)
	}
	return nil
}

var javaKinds = map[string]string{
	"class_declaration":               "class",
	"interface_declaration":           "interface",
	"enum_declaration":                "enum",
	"record_declaration":              "record",
	"annotation_type_declaration":     "interface",
	"method_declaration":              "method",
	"constructor_declaration":         "constructor",
	"compact_constructor_declaration": "constructor",
}

func describeJava(x *extraction, d *def) bool {
	n := d.node
	t := x.typ(n)
	d.kind = javaKinds[t]
	d.name = x.text(n.ChildByFieldName("name"))
	d.isClass = t != "method_declaration" && t != "constructor_declaration" && t != "compact_constructor_declaration"
	if d.isClass {
		// Members of interfaces and annotation types are implicitly public.
		d.members = d.kind == "interface"
	} else if n.ChildByFieldName("body") == nil {
		d.decl = true
	}
	d.vis = visInherit
	if mods := x.childOfType(n, "modifiers"); mods != nil {
		switch {
		case x.childOfType(mods, "public") != nil:
			d.vis = visPublic
		case x.childOfType(mods, "private") != nil, x.childOfType(mods, "protected") != nil:
			d.vis = visPrivate
		}
	}
	return true
}
