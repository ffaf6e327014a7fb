package mutation

import (
	"fmt"

	sitter "github.com/smacker/go-tree-sitter"
)

// NegateCondition negates the condition of an if, else-if, while or for
// (PIT's "negate conditionals" at the statement level): a condition that
// is already a negation loses it.
var NegateCondition = &Operator{
	Name: "negate-condition",
	Doc:  "negate the condition of an if, elif, while or for: c becomes !c (not c), and !c becomes c",
	Find: findNegateCondition,
}

func findNegateCondition(s *Source) []Site {
	var out []Site
	types := map[string]bool{}
	for t := range s.Syntax.Conditions {
		types[t] = true
	}
	for _, n := range nodes(s, types) {
		cond := conditionOf(s, n)
		if cond == nil || cond.HasError() {
			continue
		}
		// Rust's "if let P = e" binds a pattern: it has no negation.
		if t := cond.Type(); t == "let_condition" || t == "let_chain" {
			continue
		}
		// Java's, C's and JavaScript's conditions are parenthesized, C++'s
		// a condition clause: negate what is inside (not a C++
		// "if (T x = f())").
		if (cond.Type() == "parenthesized_expression" || cond.Type() == "condition_clause") && parenthesized[s.Language] {
			if cond.NamedChildCount() != 1 || cond.NamedChild(0).Type() == "declaration" || cond.NamedChild(0).Type() == "init_statement" {
				continue
			}
			cond = cond.NamedChild(0)
		}
		text := negate(s, cond)
		st := site(cond, text)
		where := s.Where(cond)
		st.Reference = fmt.Sprintf("%s takes its branch when %s holds (%s)", keyword(s, n), snippet(s.Text(cond)), where)
		st.Mutated = fmt.Sprintf("it takes the branch when %s holds instead", snippet(text))
		st.Scenario = fmt.Sprintf("any execution that reaches %s: the mutant takes the other branch than the reference", where)
		st.Rationale = "The condition is negated, so every evaluation that reaches it branches the other way; the mutant is equivalent only if both ways behave the same for every input that reaches it."
		out = append(out, st)
	}
	return out
}

// parenthesized are the languages whose conditions carry their
// parentheses in the condition node.
var parenthesized = map[string]bool{"Java": true, "C": true, "C++": true, "C/C++ Header": true, "JavaScript": true, "TypeScript": true}

// conditionOf returns a statement's condition node. Go's "for cond {}"
// holds its condition as a plain child.
func conditionOf(s *Source, n *sitter.Node) *sitter.Node {
	field := s.Syntax.Conditions[n.Type()]
	if field != "" {
		return n.ChildByFieldName(field)
	}
	if s.Language == "Go" && n.Type() == "for_statement" {
		for i := 0; i < int(n.NamedChildCount()); i++ {
			c := n.NamedChild(i)
			switch c.Type() {
			case "for_clause", "range_clause", "block", "comment":
			default:
				return c
			}
		}
	}
	return nil
}

// negate writes the negation of an expression: the operand of a negation,
// "!x" for a primary expression, "!(x)" otherwise (Python: "not x", "not
// (x)").
func negate(s *Source, e *sitter.Node) string {
	switch e.Type() {
	case "unary_expression":
		if op := e.ChildByFieldName("operator"); op != nil && s.Text(op) == "!" {
			if a := e.ChildByFieldName("operand"); a != nil {
				return s.Text(a)
			}
			return s.Text(e.ChildByFieldName("argument")) // JavaScript's field
		}
	case "not_operator":
		if a := e.ChildByFieldName("argument"); a != nil {
			return s.Text(a)
		}
	}
	text := s.Text(e)
	switch e.Type() {
	case "identifier", "call_expression", "call", "method_invocation", "selector_expression", "attribute",
		"field_access", "parenthesized_expression", "true", "false", "index_expression", "subscript",
		"field_expression", "boolean_literal":
		return s.Syntax.Not + text
	}
	return s.Syntax.Not + "(" + text + ")"
}

// keyword names a conditional statement for a record.
func keyword(s *Source, n *sitter.Node) string {
	switch n.Type() {
	case "elif_clause":
		return "elif"
	case "while_statement", "do_statement":
		return "the loop"
	case "for_statement", "for_clause":
		return "the loop"
	}
	return "the if"
}
