package mutation

import "fmt"

// FlipComparison flips one comparison operator: the boundary of an
// ordering (< and <=, > and >=) or an equality (== and !=), PIT's
// "conditionals boundary" and "negate conditionals".
var FlipComparison = &Operator{
	Name: "flip-comparison",
	Doc:  "flip a comparison: < and <=, > and >= swap their boundary; == and != swap",
	Find: findFlipComparison,
}

var flipped = map[string]string{"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}

func findFlipComparison(s *Source) []Site {
	var out []Site
	for _, n := range nodes(s, s.Syntax.Binary) {
		// Python chains comparisons (a < b < c): each operator is a site.
		for i := 0; i < int(n.ChildCount()); i++ {
			tok := n.Child(i)
			if tok.IsNamed() {
				continue
			}
			op := s.Text(tok)
			to, ok := flipped[op]
			if !ok {
				continue
			}
			left, right := tok.PrevNamedSibling(), tok.NextNamedSibling()
			if left == nil || right == nil {
				continue
			}
			st := site(tok, to)
			st.StartLine, st.EndLine = lines(n)
			where := s.Where(tok)
			l, r := s.Text(left), s.Text(right)
			st.Reference = fmt.Sprintf("compares %s (%s)", snippet(l+" "+op+" "+r), where)
			st.Mutated = fmt.Sprintf("compares %s", snippet(l+" "+to+" "+r))
			switch op {
			case "==", "!=", "===", "!==":
				st.Scenario = fmt.Sprintf("any execution that reaches %s: the comparison's result is inverted", where)
				st.Rationale = "Equality and inequality are complements, so the result differs on every evaluation."
			default:
				st.Scenario = fmt.Sprintf("an execution that reaches %s with %s equal to %s: the reference's %s and the mutant's %s disagree there",
					where, snippet(l), snippet(r), snippet(op), snippet(to))
				st.Rationale = "The two operators differ exactly when both sides are equal; the mutant is equivalent only if that boundary value can never reach the comparison or never changes an outcome."
			}
			out = append(out, st)
		}
	}
	return out
}
