package mutation

import (
	"fmt"
	"strconv"
	"strings"
)

// IntConstant changes a decimal integer constant by one: n+1, and n-1 when
// n is positive (PIT's "inline constant").
var IntConstant = &Operator{
	Name: "int-constant",
	Doc:  "change a decimal integer constant by one: n+1, and n-1 when n > 0",
	Find: findIntConstant,
}

func findIntConstant(s *Source) []Site {
	var out []Site
	for _, n := range nodes(s, s.Syntax.Integer) {
		// An array type's length is part of the type ([T; 7], [7]T): a
		// new length does not compile against the array's elements.
		if p := n.Parent(); p != nil && p.Type() == "array_type" {
			continue
		}
		text := s.Text(n)
		digits, suffix := text, ""
		if i := strings.IndexAny(text, "lLjJ"); i >= 0 {
			digits, suffix = text[:i], text[i:]
		}
		if strings.EqualFold(suffix, "j") {
			continue // a Python imaginary literal
		}
		clean := strings.ReplaceAll(digits, "_", "")
		if clean == "" || len(clean) > 1 && clean[0] == '0' {
			continue // octal, hex, binary, or not decimal
		}
		v, err := strconv.ParseInt(clean, 10, 64)
		if err != nil {
			continue // not decimal, or beyond int64
		}
		where := s.Where(n)
		deltas := []int64{1}
		if v > 0 {
			deltas = append(deltas, -1)
		}
		for _, d := range deltas {
			if d > 0 && v == 1<<63-1 {
				continue
			}
			to := strconv.FormatInt(v+d, 10) + suffix
			st := site(n, to)
			st.Reference = fmt.Sprintf("uses the constant %s (%s)", snippet(text), where)
			st.Mutated = fmt.Sprintf("uses %s instead", snippet(to))
			st.Scenario = fmt.Sprintf("an execution that reaches %s where the constant's exact value shows: a boundary it sets, a count, a size or a value returned or printed", where)
			st.Rationale = "The constant differs by one; the mutant is equivalent only if the exact value never affects an observable result."
			out = append(out, st)
		}
	}
	return out
}
