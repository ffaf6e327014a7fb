package mutation

import (
	sitter "github.com/smacker/go-tree-sitter"

	"github.com/smacker/go-tree-sitter/c"
	"github.com/smacker/go-tree-sitter/cpp"
)

// C and C++ (issue 23) are registered from here, so that each language's
// grammar names sit in a file of their own. tree-sitter's C++ grammar
// extends C's, so the node types are shared; C++ adds lambdas and
// range-for loops. number_literal covers floats too: the int-constant
// operator skips what is not a decimal integer. A stub throws a string in
// C++ (no header needed; a test expecting a std:: exception still fails)
// and traps in C, which has no exception: the test program dies, and CTest
// runs each test in a process of its own.
func init() {
	common := func(lang *Syntax) *Syntax {
		lang.Conditions = map[string]string{"if_statement": "condition", "while_statement": "condition", "do_statement": "condition", "for_statement": "condition"}
		lang.Not = "!"
		lang.Binary = set("binary_expression")
		lang.Integer = set("number_literal")
		lang.Return = "return_statement"
		lang.CallStatement = "expression_statement"
		lang.Calls = set("call_expression")
		lang.If = "if_statement"
		lang.Defs = set("function_definition")
		return lang
	}
	syntaxes["C"] = common(&Syntax{Language: c.GetLanguage, Functions: set("function_definition"),
		Stub: "{\n    (void)%s;\n    __builtin_trap();\n}"})
	syntaxes["C++"] = common(&Syntax{Language: cpp.GetLanguage, Functions: set("function_definition", "lambda_expression"),
		Stub: "{\n  throw %s;\n}"})
	// Headers parse as C++, as their scopes do (pipeline/syntax): inline
	// functions and templates.
	syntaxes["C/C++ Header"] = common(&Syntax{Language: cpp.GetLanguage, Functions: set("function_definition", "lambda_expression"),
		Stub: "{\n  throw %s;\n}"})
}

// cZero writes the zero value of a C or C++ function's result: 0 for
// numbers and (in C) pointers, false for bool, nullptr for C++ pointers,
// {} (value-initialized) for other C++ types; none for void, lambdas and
// references.
func cZero(s *Source, fn *sitter.Node) (string, bool) {
	if fn.Type() != "function_definition" {
		return "", false
	}
	t, d := fn.ChildByFieldName("type"), fn.ChildByFieldName("declarator")
	if t == nil || d == nil {
		return "", false
	}
	switch d.Type() {
	case "pointer_declarator":
		if s.Language != "C" {
			return "nullptr", true
		}
		return "0", true
	case "reference_declarator":
		return "", false
	}
	switch tt := s.Text(t); {
	case tt == "void":
		return "", false
	case tt == "bool" || tt == "_Bool":
		return "false", true
	case t.Type() == "primitive_type" || t.Type() == "sized_type_specifier":
		return "0", true
	case s.Language != "C" && t.Type() != "placeholder_type_specifier":
		return "{}", true
	}
	return "", false
}

// cDeclaratorName is the name a C or C++ function definition declares:
// its declarator's innermost function declarator's ("f", "V::f",
// "operator==", "~V"), through pointer and reference declarators.
func cDeclaratorName(d *sitter.Node) *sitter.Node {
	n := d.ChildByFieldName("declarator")
	for depth := 0; n != nil && depth < 16; depth++ {
		switch n.Type() {
		case "identifier", "qualified_identifier", "field_identifier", "destructor_name", "operator_name", "template_function":
			return n
		}
		n = n.ChildByFieldName("declarator")
	}
	return nil
}
