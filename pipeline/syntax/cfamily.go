package syntax

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/c"
	"github.com/smacker/go-tree-sitter/cpp"
)

// cGrammar: structs, unions and enums with a body are classes (a typedef
// names an anonymous one); function definitions and prototypes are
// functions; static ones are not exported.
func cGrammar() *grammar {
	return &grammar{
		lang: c.GetLanguage(),
		source: `
[(struct_specifier body: (_)) (union_specifier body: (_)) (enum_specifier body: (_))] @def
(type_definition) @hook
(function_definition) @def
(declaration) @def
`,
		bodyFields:    []string{"body"},
		describe:      describeCFamily,
		hook:          hookCFamily,
		bodilessTypes: map[string]bool{"declaration": true},
	}
}

// cppGrammar adds classes, member declarations, templates, access
// specifiers and namespaces to C.
func cppGrammar() *grammar {
	return &grammar{
		lang: cpp.GetLanguage(),
		source: `
[(class_specifier body: (_)) (struct_specifier body: (_)) (union_specifier body: (_)) (enum_specifier body: (_))] @def
(type_definition) @hook
(function_definition) @def
[(declaration) (field_declaration)] @def
(template_declaration) @hook
(namespace_definition) @hook
(access_specifier) @access
`,
		bodyFields:    []string{"body"},
		describe:      describeCFamily,
		hook:          hookCFamily,
		ctorByName:    true,
		bodilessTypes: map[string]bool{"declaration": true, "field_declaration": true},
	}
}

// hookCFamily names typedef'd anonymous structs, widens templated
// declarations to their template<...> line and collects namespace names.
func hookCFamily(x *extraction, n *sitter.Node) *def {
	switch x.typ(n) {
	case "type_definition":
		t := n.ChildByFieldName("type")
		if t == nil || cClassKinds[x.typ(t)] == "" || t.ChildByFieldName("body") == nil {
			return nil
		}
		d := x.def(t)
		if decl := n.ChildByFieldName("declarator"); decl != nil && x.typ(decl) == "type_identifier" && d.nameNode == nil {
			d.nameNode = decl
		}
		d.wrap(n)
	case "template_declaration":
		count := int(n.ChildCount())
		for i := 0; i < count && i < maxChildren; i++ {
			c := n.Child(i)
			switch x.typ(c) {
			case "function_definition", "class_specifier", "struct_specifier", "union_specifier", "declaration", "field_declaration":
				x.def(c).wrap(n)
				return nil
			}
		}
	case "namespace_definition":
		if x.namespaces == nil {
			x.namespaces = map[string]bool{}
		}
		for _, part := range strings.Split(x.text(n.ChildByFieldName("name")), "::") {
			x.namespaces[strings.TrimSpace(part)] = true
		}
	}
	return nil
}

var cClassKinds = map[string]string{
	"class_specifier": "class", "struct_specifier": "struct",
	"union_specifier": "union", "enum_specifier": "enum",
}

func describeCFamily(x *extraction, d *def) bool {
	n := d.node
	t := x.typ(n)
	if kind, ok := cClassKinds[t]; ok {
		d.kind, d.isClass = kind, true
		d.vis = visAccess
		d.access = "public"
		if kind == "class" {
			d.access = "private"
		}
		if n.ChildByFieldName("body") == nil {
			return false // a forward declaration or an elaborated type
		}
		name := n.ChildByFieldName("name")
		if name == nil && d.nameNode != nil {
			// typedef struct { ... } T;
			name = d.nameNode
			d.sig = "typedef " + kind + " " + x.text(name)
		}
		if name == nil {
			// An anonymous struct member ("struct { int x; } pos;") is
			// part of its container, not a class of its own.
			return false
		}
		parts := x.cppPath(name)
		if len(parts) == 0 {
			return false
		}
		d.name = parts[len(parts)-1]
		if len(parts) > 1 {
			d.qual, d.hasQual = parts[:len(parts)-1], true
		}
		return true
	}
	// A function: definition, prototype or member declaration.
	d.kind = "function"
	d.decl = t != "function_definition"
	name, isFunc := x.cDeclaratorName(n.ChildByFieldName("declarator"))
	if !isFunc || name == nil {
		return false
	}
	parts := x.cppPath(name)
	if len(parts) == 0 {
		return false
	}
	d.name = parts[len(parts)-1]
	if len(parts) > 1 {
		d.qual, d.hasQual = parts[:len(parts)-1], true
		// The namespace prefix of A::f is dropped when the file declares
		// the namespace; what remains is the class path.
		for len(d.qual) > 0 && x.namespaces[d.qual[0]] {
			d.qual = d.qual[1:]
		}
	}
	switch {
	case strings.HasPrefix(d.name, "~"):
		d.kind = "destructor"
	case strings.HasPrefix(d.name, "operator"):
		d.kind = "operator"
	}
	// Members follow the access specifier in effect; anything else is
	// exported unless static (internal linkage). The name pass decides
	// which applies, because only it knows the container.
	d.vis = visAccess
	if sc := x.childOfType(n, "storage_class_specifier"); sc != nil && x.text(sc) == "static" {
		d.static = true
	}
	return true
}

// cDeclaratorName descends a declarator to the declared name. isFunc tells
// whether the name is declared as a function (f() or *f()) rather than as
// a pointer to one ((*f)()).
func (x *extraction) cDeclaratorName(n *sitter.Node) (name *sitter.Node, isFunc bool) {
	for i := 0; n != nil && i < 32; i++ {
		switch x.typ(n) {
		case "function_declarator":
			isFunc = true
			n = n.ChildByFieldName("declarator")
		case "pointer_declarator", "reference_declarator", "attributed_declarator":
			isFunc = false
			if next := n.ChildByFieldName("declarator"); next != nil {
				n = next
			} else {
				n = lastNamedChild(n)
			}
		case "parenthesized_declarator":
			isFunc = false
			n = n.NamedChild(0)
		case "operator_cast":
			return n, true
		case "identifier", "field_identifier", "qualified_identifier", "destructor_name", "operator_name", "template_function":
			return n, isFunc
		default:
			return nil, false
		}
	}
	return nil, false
}

// lastNamedChild returns n's last named child.
func lastNamedChild(n *sitter.Node) *sitter.Node {
	if c := int(n.NamedChildCount()); c > 0 {
		return n.NamedChild(c - 1)
	}
	return nil
}

// cppPath splits a (possibly qualified) C++ name into its segments:
// ns::A<T>::f gives [ns A f], with template arguments dropped.
func (x *extraction) cppPath(n *sitter.Node) []string {
	var parts []string
	for i := 0; n != nil && i < 32; i++ {
		switch x.typ(n) {
		case "qualified_identifier":
			if s := n.ChildByFieldName("scope"); s != nil {
				if seg := x.cppSegment(s); seg != "" {
					parts = append(parts, seg)
				}
			}
			n = n.ChildByFieldName("name")
			continue
		case "nested_namespace_specifier":
			for _, seg := range strings.Split(x.text(n), "::") {
				if seg = strings.TrimSpace(seg); seg != "" {
					parts = append(parts, seg)
				}
			}
			return parts
		}
		if seg := x.cppSegment(n); seg != "" {
			parts = append(parts, seg)
		}
		return parts
	}
	return parts
}

// cppSegment names one segment of a qualified name.
func (x *extraction) cppSegment(n *sitter.Node) string {
	switch x.typ(n) {
	case "template_type", "template_function":
		return x.text(n.ChildByFieldName("name"))
	case "operator_name":
		return operatorName(x.text(n))
	case "operator_cast":
		return "operator " + collapse(x.text(n.ChildByFieldName("type")))
	case "destructor_name":
		return "~" + strings.TrimSpace(strings.TrimPrefix(collapse(x.text(n)), "~"))
	}
	return x.text(n)
}

// operatorName writes an operator without inner blanks: "operator ==" and
// "operator==" are both "operator==".
func operatorName(s string) string {
	rest := strings.TrimSpace(strings.TrimPrefix(collapse(s), "operator"))
	return "operator" + strings.ReplaceAll(rest, " ", "")
}
