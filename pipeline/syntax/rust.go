package syntax

import (
	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/rust"
)

// rustGrammar: structs, enums, unions and traits are classes; an impl block
// is a class named by its self type (impl Foo, impl Trait for Foo: Foo);
// functions in a trait (default methods and required signatures) have the
// trait as class; modules are namespaces, not classes; closures are not
// named. Outer attributes (#[...]) widen the item they precede.
func rustGrammar() *grammar {
	return &grammar{
		lang: rust.GetLanguage(),
		source: `
[(struct_item) (enum_item) (union_item) (trait_item) (impl_item)] @def
[(function_item) (function_signature_item)] @def
((attribute_item)+ @outer . [(struct_item) (enum_item) (union_item) (trait_item) (impl_item) (function_item) (function_signature_item)] @def)
`,
		bodyFields: []string{"body"},
		describe:   describeRust,
	}
}

var rustKinds = map[string]string{
	"struct_item": "struct", "enum_item": "enum", "union_item": "union",
	"trait_item": "trait", "impl_item": "impl",
	"function_item": "function", "function_signature_item": "function",
}

func describeRust(x *extraction, d *def) bool {
	n := d.node
	t := x.typ(n)
	d.kind = rustKinds[t]
	d.isClass = d.kind != "function"
	d.decl = t == "function_signature_item"
	d.vis = visInherit
	if v := x.childOfType(n, "visibility_modifier"); v != nil {
		// Only plain pub is public API; pub(crate) and pub(super) are not.
		d.vis = visPrivate
		if x.text(v) == "pub" {
			d.vis = visPublic
		}
	}
	switch t {
	case "impl_item":
		d.name = rustTypeName(x, n.ChildByFieldName("type"))
		// An inherent impl adds methods as public as each one says; an impl
		// of a trait makes its methods as public as the trait. The impl
		// itself is no symbol: it is public when its methods may be.
		isTrait := n.ChildByFieldName("trait") != nil
		d.members = isTrait
		d.vis = visPublic
	case "trait_item":
		d.name = x.text(n.ChildByFieldName("name"))
		d.members = true
	default:
		d.name = x.text(n.ChildByFieldName("name"))
	}
	return true
}

// rustTypeName returns the base name of an impl's self type: Foo for Foo,
// Foo<T>, crate::a::Foo, &Foo and &mut Foo<T>.
func rustTypeName(x *extraction, t *sitter.Node) string {
	for i := 0; t != nil && i < 16; i++ {
		switch x.typ(t) {
		case "type_identifier", "primitive_type":
			return x.text(t)
		case "generic_type", "reference_type", "pointer_type":
			t = t.ChildByFieldName("type")
		case "scoped_type_identifier":
			t = t.ChildByFieldName("name")
		default:
			// Tuples, arrays, dyn Trait: the type's text is its name.
			return x.text(t)
		}
	}
	return ""
}
