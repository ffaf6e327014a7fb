package syntax

import (
	"github.com/smacker/go-tree-sitter/csharp"
)

// csharpGrammar: classes, structs, interfaces, enums and records are
// classes; methods, constructors (named like their class), destructors
// (~Name), properties and events (their get/set/add/remove accessors
// included, named by the property), indexers ("this"), operators
// ("operator+", "operator int") and local functions are functions;
// namespaces are not classes; lambdas and anonymous methods are not named.
func csharpGrammar() *grammar {
	return &grammar{
		lang: csharp.GetLanguage(),
		source: `
[(class_declaration) (struct_declaration) (interface_declaration) (enum_declaration) (record_declaration)] @def
[(method_declaration) (constructor_declaration) (destructor_declaration) (property_declaration) (indexer_declaration) (operator_declaration) (conversion_operator_declaration) (event_declaration) (local_function_statement)] @def
`,
		bodyFields: []string{"body", "accessors", "value"},
		describe:   describeCSharp,
	}
}

var csKinds = map[string]string{
	"class_declaration": "class", "struct_declaration": "struct",
	"interface_declaration": "interface", "enum_declaration": "enum",
	"record_declaration": "record",
	"method_declaration": "method", "constructor_declaration": "constructor",
	"destructor_declaration": "destructor", "property_declaration": "property",
	"indexer_declaration": "indexer", "operator_declaration": "operator",
	"conversion_operator_declaration": "operator", "event_declaration": "event",
	"local_function_statement": "function",
}

func describeCSharp(x *extraction, d *def) bool {
	n := d.node
	t := x.typ(n)
	d.kind = csKinds[t]
	switch t {
	case "indexer_declaration":
		d.name = "this"
	case "operator_declaration":
		d.name = "operator" + x.text(n.ChildByFieldName("operator"))
	case "conversion_operator_declaration":
		d.name = "operator " + x.text(n.ChildByFieldName("type"))
	case "destructor_declaration":
		d.name = "~" + x.text(n.ChildByFieldName("name"))
	default:
		d.name = x.text(n.ChildByFieldName("name"))
	}
	switch d.kind {
	case "class", "struct", "interface", "enum", "record":
		d.isClass = true
		// Interface members are implicitly public.
		d.members = d.kind == "interface"
	case "method":
		d.decl = n.ChildByFieldName("body") == nil
	}
	// Only public counts as public API; internal, protected and private
	// do not. Members without a modifier are private, except in
	// interfaces.
	d.vis = visInherit
	if t == "local_function_statement" {
		d.vis = visPrivate
	}
	for i := 0; i < int(n.ChildCount()) && i < maxChildren; i++ {
		c := n.Child(i)
		if c == nil || x.typ(c) != "modifier" {
			continue
		}
		switch x.text(c) {
		case "public":
			d.vis = visPublic
		case "private", "protected", "internal":
			d.vis = visPrivate
		}
	}
	return true
}
