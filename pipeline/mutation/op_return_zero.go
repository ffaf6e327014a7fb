package mutation

import (
	"fmt"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// ReturnZero replaces the value of a return with the zero value of the
// function's result type (PIT's "empty returns" and "null returns"):
// 0, "", false, nil, *new(T) for other Go types; None in Python; 0, false
// or null in Java; in Rust false, 0, String::new(), None or
// Default::default() (explicit returns only: a block's value is not one). A return that already gives the zero value is left
// alone, as are returns in Java lambdas (whose type is not written).
var ReturnZero = &Operator{
	Name: "return-zero",
	Doc:  "replace a returned value by its type's zero value (Go 0, \"\", false, nil, *new(T); Python None; Java 0, false, null; Rust false, 0, None, Default::default())",
	Find: findReturnZero,
}

func findReturnZero(s *Source) []Site {
	var out []Site
	for _, n := range nodes(s, map[string]bool{s.Syntax.Return: true}) {
		val := returnValue(n)
		if val == nil {
			continue
		}
		fn := enclosing(n, s.Syntax.Functions)
		if fn == nil {
			continue
		}
		zero, ok := zeroFor(s, fn)
		if !ok || zero == s.Text(val) {
			continue
		}
		st := site(val, zero)
		where := s.Where(n)
		st.Reference = fmt.Sprintf("returns %s (%s)", snippet(s.Text(val)), where)
		st.Mutated = fmt.Sprintf("returns the zero value %s", snippet(zero))
		st.Scenario = fmt.Sprintf("a call that returns at %s with a result other than the zero value: its caller sees %s instead", where, snippet(zero))
		st.Rationale = "The result is replaced by the zero value; the mutant is equivalent only if this return can only ever produce the zero value or its result is never used."
		out = append(out, st)
	}
	return out
}

// returnValue is the returned expression (list), or nil for a bare return.
func returnValue(n *sitter.Node) *sitter.Node {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); c.Type() != "comment" {
			return c
		}
	}
	return nil
}

// zeroFor writes the zero value of a function's results.
func zeroFor(s *Source, fn *sitter.Node) (string, bool) {
	switch s.Language {
	case "JavaScript", "TypeScript":
		return nodeZero(s, fn)
	case "Python":
		return "None", true
	case "Java":
		if fn.Type() != "method_declaration" {
			return "", false
		}
		t := fn.ChildByFieldName("type")
		if t == nil {
			return "", false
		}
		switch t.Type() {
		case "void_type":
			return "", false
		case "boolean_type":
			return "false", true
		case "integral_type", "floating_point_type":
			return "0", true
		}
		return "null", true
	case "Rust":
		// A closure's result type is seldom written. Types without a
		// Default (Result) give a mutant that does not compile, which the
		// build check drops.
		t := fn.ChildByFieldName("return_type")
		if fn.Type() != "function_item" || t == nil {
			return "", false
		}
		name := s.Text(t)
		switch {
		case name == "bool":
			return "false", true
		case name == "String":
			return "String::new()", true
		case strings.HasPrefix(name, "Option<"):
			return "None", true
		case t.Type() == "primitive_type" && name != "char" && name != "str":
			return "0 as " + name, true
		}
		return "Default::default()", true
	case "C", "C++":
		return cZero(s, fn)
	case "Go":
		res := fn.ChildByFieldName("result")
		if res == nil {
			return "", false
		}
		var types []*sitter.Node
		if res.Type() == "parameter_list" {
			for i := 0; i < int(res.NamedChildCount()); i++ {
				p := res.NamedChild(i)
				if p.Type() != "parameter_declaration" {
					continue
				}
				t := p.ChildByFieldName("type")
				names := 0
				for j := 0; j < int(p.NamedChildCount()); j++ {
					if p.NamedChild(j).Type() == "identifier" {
						names++
					}
				}
				for k := 0; k < max(names, 1); k++ {
					types = append(types, t)
				}
			}
		} else {
			types = append(types, res)
		}
		if len(types) == 0 {
			return "", false
		}
		zs := make([]string, len(types))
		for i, t := range types {
			if t == nil {
				return "", false
			}
			zs[i] = goZero(s, t)
		}
		return strings.Join(zs, ", "), true
	}
	return "", false
}

// goZero writes the zero value of a Go type: a literal for the predeclared
// types and the kinds whose zero is nil, *new(T) for any other type (valid
// for every type, named or not).
func goZero(s *Source, t *sitter.Node) string {
	switch t.Type() {
	case "pointer_type", "slice_type", "map_type", "channel_type", "function_type", "interface_type":
		return "nil"
	case "type_identifier":
		switch name := s.Text(t); name {
		case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr",
			"float32", "float64", "complex64", "complex128", "byte", "rune":
			return "0"
		case "string":
			return `""`
		case "bool":
			return "false"
		case "error", "any":
			return "nil"
		}
	}
	return "*new(" + s.Text(t) + ")"
}
