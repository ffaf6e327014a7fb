package mutation

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
)

// JavaScript and TypeScript (issue 23) share tree-sitter's node types: the
// TypeScript grammar extends the JavaScript one. A stub revert's body
// throws, which type-checks whatever a function declares it returns.
func init() {
	for name, lang := range map[string]func() *sitter.Language{"JavaScript": javascript.GetLanguage, "TypeScript": typescript.GetLanguage} {
		syntaxes[name] = &Syntax{
			Language: lang,
			// A for statement's condition is an expression statement
			// ("i < n;"), which no negation can wrap.
			Conditions:    map[string]string{"if_statement": "condition", "while_statement": "condition", "do_statement": "condition"},
			Not:           "!",
			Binary:        set("binary_expression"),
			Integer:       set("number"),
			Return:        "return_statement",
			Functions:     set("function_declaration", "generator_function_declaration", "method_definition", "function", "arrow_function"),
			CallStatement: "expression_statement",
			Calls:         set("call_expression"),
			If:            "if_statement",
			Defs:          set("function_declaration", "generator_function_declaration", "method_definition"),
			Stub:          "{\n  throw new Error(%s);\n}",
		}
	}
	// Strict equality flips as loose equality does.
	flipped["==="], flipped["!=="] = "!==", "==="
}

// nodeElse returns the statement of an if statement's else clause, or nil
// for none and for an else-if.
func nodeElse(n *sitter.Node) *sitter.Node {
	els := n.ChildByFieldName("alternative")
	if els == nil || els.Type() != "else_clause" {
		return els
	}
	for i := 0; i < int(els.NamedChildCount()); i++ {
		if c := els.NamedChild(i); c.Type() != "comment" {
			if c.Type() == "if_statement" {
				return nil
			}
			return c
		}
	}
	return nil
}

// nodeZero is the value a return-zero mutant returns: undefined in
// JavaScript; in TypeScript the zero of a declared number, boolean or
// string result, else undefined cast to any, so that the mutant still
// type-checks. A function that declares void or no result, or a
// constructor, has none.
func nodeZero(s *Source, fn *sitter.Node) (string, bool) {
	if fn.Type() == "method_definition" {
		if n := fn.ChildByFieldName("name"); n != nil && s.Text(n) == "constructor" {
			return "", false
		}
	}
	if s.Language == "JavaScript" {
		return "undefined", true
	}
	rt := fn.ChildByFieldName("return_type")
	if rt == nil {
		return "", false
	}
	switch t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s.Text(rt)), ":")); t {
	case "void", "never":
		return "", false
	case "number":
		return "0", true
	case "boolean":
		return "false", true
	case "string":
		return "''", true
	}
	return "undefined as any", true
}

// nodeBodyStatement reports whether a JavaScript or TypeScript statement is
// the whole body of a loop or an if ("while (x) f();"): deleting it would
// make the next statement the body, so it becomes an empty statement.
func nodeBodyStatement(s *Source, n *sitter.Node) bool {
	if s.Language != "JavaScript" && s.Language != "TypeScript" {
		return false
	}
	p := n.Parent()
	return p != nil && p.Type() != "statement_block" && p.Type() != "program" && p.Type() != "switch_case" && p.Type() != "switch_default"
}
