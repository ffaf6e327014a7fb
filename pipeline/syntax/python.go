package syntax

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/python"
)

// pythonGrammar: classes and (async) functions; decorators widen the
// definition they decorate; lambdas are not named.
func pythonGrammar() *grammar {
	return &grammar{
		lang: python.GetLanguage(),
		source: `
(class_definition) @def
(function_definition) @def
(decorated_definition) @hook
`,
		bodyFields: []string{"body"},
		describe:   describePython,
		hook: func(x *extraction, n *sitter.Node) *def {
			// Decorators belong to the definition they decorate.
			if d := n.ChildByFieldName("definition"); d != nil {
				x.def(d).widen(n)
			}
			return nil
		},
	}
}

func describePython(x *extraction, d *def) bool {
	d.name = x.text(d.node.ChildByFieldName("name"))
	switch x.typ(d.node) {
	case "class_definition":
		d.kind, d.isClass = "class", true
	default:
		d.kind = "function"
		if d.name == "__init__" {
			d.kind = "constructor"
		}
	}
	d.vis = visPrivate
	if pythonPublic(d.name) {
		d.vis = visPublic
	}
	return true
}

// pythonPublic follows PEP 8: a leading underscore marks a private name,
// except dunder names, which are part of the public protocol.
func pythonPublic(name string) bool {
	if strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__") && len(name) > 4 {
		return true
	}
	return !strings.HasPrefix(name, "_")
}
