package mutation

import (
	"fmt"

	sitter "github.com/smacker/go-tree-sitter"
)

// SwapIfElse swaps the bodies of an if with an else (not an else-if): the
// code meant for one outcome of the condition runs for the other.
var SwapIfElse = &Operator{
	Name: "swap-if-else",
	Doc:  "swap the bodies of an if/else (not if/else-if chains)",
	Find: findSwapIfElse,
}

func findSwapIfElse(s *Source) []Site {
	var out []Site
	for _, n := range nodes(s, map[string]bool{s.Syntax.If: true}) {
		then, els := ifBodies(s, n)
		if then == nil || els == nil {
			continue
		}
		a, b := s.Text(then), s.Text(els)
		if a == b {
			continue
		}
		st := Site{Replace: []Replace{{then.StartByte(), then.EndByte(), b}, {els.StartByte(), els.EndByte(), a}}}
		st.StartLine, _ = lines(then)
		_, st.EndLine = lines(els)
		cond := n.ChildByFieldName("condition")
		where := s.Where(n)
		st.Reference = fmt.Sprintf("runs %s when %s holds and %s otherwise (%s)", snippet(a), snippet(s.Text(cond)), snippet(b), where)
		st.Mutated = fmt.Sprintf("runs %s when it holds and %s otherwise", snippet(b), snippet(a))
		st.Scenario = fmt.Sprintf("any execution that reaches the if at %s: the mutant runs the other branch's code", where)
		st.Rationale = "The branches are exchanged, so every execution that reaches the if runs the code meant for the other outcome; the mutant is equivalent only if both bodies have the same effect."
		out = append(out, st)
	}
	return out
}

// ifBodies returns the then and else bodies of an if/else, or nils when
// there is no plain else (an else-if, an elif, or none).
func ifBodies(s *Source, n *sitter.Node) (*sitter.Node, *sitter.Node) {
	then := n.ChildByFieldName("consequence")
	if then == nil {
		return nil, nil
	}
	switch s.Language {
	case "Python":
		var els *sitter.Node
		for i := 0; i < int(n.NamedChildCount()); i++ {
			switch c := n.NamedChild(i); c.Type() {
			case "elif_clause":
				return nil, nil
			case "else_clause":
				els = c.ChildByFieldName("body")
			}
		}
		return then, els
	case "Rust":
		// else_clause holds a block, or the if of an else-if.
		c := n.ChildByFieldName("alternative")
		if c == nil || c.NamedChildCount() != 1 || c.NamedChild(0).Type() != "block" {
			return nil, nil
		}
		return then, c.NamedChild(0)
	case "JavaScript", "TypeScript":
		if els := nodeElse(n); els != nil {
			return then, els
		}
		return nil, nil
	default:
		els := n.ChildByFieldName("alternative")
		if els != nil && els.Type() == "else_clause" && els.NamedChildCount() == 1 {
			els = els.NamedChild(0) // C and C++: "else" and its statement
		}
		if els == nil || els.Type() == "if_statement" {
			return nil, nil
		}
		return then, els
	}
}
