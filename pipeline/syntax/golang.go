package syntax

import (
	"unicode"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/golang"
)

// goGrammar: struct and interface types are classes; a method's class is
// its receiver's base type; interface methods are functions of their
// interface; function literals are not named.
func goGrammar() *grammar {
	return &grammar{
		lang: golang.GetLanguage(),
		source: `
(function_declaration) @def
(method_declaration) @def
(type_spec type: [(struct_type) (interface_type)]) @def
(method_elem) @def
`,
		bodyFields: []string{"body"},
		describe:   describeGo,
	}
}

func describeGo(x *extraction, d *def) bool {
	n := d.node
	d.name = x.text(n.ChildByFieldName("name"))
	d.vis = visPrivate
	if goExported(d.name) {
		d.vis = visPublic
	}
	switch x.typ(n) {
	case "type_spec":
		d.isClass = true
		d.kind = "struct"
		t := n.ChildByFieldName("type")
		if t != nil && x.typ(t) == "interface_type" {
			d.kind = "interface"
		}
		// "type Name[T any] struct": the body is inside the type node.
		head := "type " + x.text(n.ChildByFieldName("name"))
		if tp := n.ChildByFieldName("type_parameters"); tp != nil {
			head += x.text(tp)
		}
		d.sig = head + " " + d.kind
	case "method_elem":
		d.kind, d.decl = "method", true
	case "method_declaration":
		d.kind = "method"
		recv := goReceiver(x, n.ChildByFieldName("receiver"))
		if recv == "" {
			return false
		}
		d.qual, d.hasQual = []string{recv}, true
		if !goExported(recv) {
			d.vis = visPrivate
		}
	default:
		d.kind = "function"
	}
	return true
}

// goReceiver returns the base type name of a receiver list: "(s *Server)"
// and "(s Server)" give Server, "(l *List[T])" gives List.
func goReceiver(x *extraction, list *sitter.Node) string {
	if list == nil {
		return ""
	}
	var t *sitter.Node
	for i := 0; i < int(list.NamedChildCount()) && i < 8; i++ {
		if c := list.NamedChild(i); x.typ(c) == "parameter_declaration" {
			t = c.ChildByFieldName("type")
			break
		}
	}
	// Peel pointers, parentheses and type arguments; bounded, because a
	// hostile receiver can nest them arbitrarily.
	for i := 0; t != nil && i < 16; i++ {
		switch x.typ(t) {
		case "type_identifier":
			return x.text(t)
		case "pointer_type", "parenthesized_type":
			t = t.NamedChild(0)
		case "generic_type":
			t = t.ChildByFieldName("type")
		case "qualified_type":
			t = t.ChildByFieldName("name")
		default:
			return ""
		}
	}
	return ""
}

// goExported follows the Go rule: an upper-case first letter exports.
func goExported(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return unicode.IsUpper(r)
}
