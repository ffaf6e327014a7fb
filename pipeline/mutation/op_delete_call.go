package mutation

import (
	"bytes"
	"fmt"

	sitter "github.com/smacker/go-tree-sitter"
)

// DeleteCall deletes a statement that is only a call, as SWE-smith's
// "remove a function call" modifier; in Python the statement becomes
// pass, so that the block stays valid.
var DeleteCall = &Operator{
	Name: "delete-call",
	Doc:  "delete a statement that is only a call (Python: replace it with pass)",
	Find: findDeleteCall,
}

func findDeleteCall(s *Source) []Site {
	var out []Site
	for _, n := range nodes(s, map[string]bool{s.Syntax.CallStatement: true}) {
		if n.NamedChildCount() != 1 || !s.Syntax.Calls[n.NamedChild(0).Type()] {
			continue
		}
		var st Site
		if s.Language == "Python" {
			st = site(n, "pass")
		} else if p := n.Parent(); (s.Language == "C" || s.Language == "C++" || s.Language == "C/C++ Header") && p != nil && p.Type() != "compound_statement" || nodeBodyStatement(s, n) {
			// The body of a for, while or if without braces: an empty
			// statement keeps the next statement out of it.
			st = site(n, ";")
		} else {
			st = deleteStatement(s, n)
		}
		where := s.Where(n)
		st.Reference = fmt.Sprintf("calls %s (%s)", snippet(s.Text(n.NamedChild(0))), where)
		st.Mutated = "does not make the call"
		st.Scenario = fmt.Sprintf("an execution that reaches %s where the call's effect (a state change, an output, a registration, an error it raises) is observed afterwards", where)
		st.Rationale = "The call is gone, so its side effects never happen; the mutant is equivalent only if the call has no observable effect."
		out = append(out, st)
	}
	return out
}

// deleteStatement removes a statement; when it is alone on its lines, the
// lines go too (indentation and line break).
func deleteStatement(s *Source, n *sitter.Node) Site {
	start, end := n.StartByte(), n.EndByte()
	ls := bytes.LastIndexByte(s.Src[:start], '\n') + 1
	le := bytes.IndexByte(s.Src[end:], '\n')
	if le < 0 {
		le = len(s.Src) - int(end)
	}
	if len(bytes.TrimSpace(s.Src[ls:start])) == 0 && len(bytes.TrimSpace(s.Src[end:int(end)+le])) == 0 {
		lineEnd := uint32(int(end) + le)
		if int(lineEnd) < len(s.Src) {
			lineEnd++ // the line break
		}
		a, b := lines(n)
		return Site{Replace: []Replace{{uint32(ls), lineEnd, ""}}, StartLine: a, EndLine: b}
	}
	return site(n, "")
}
