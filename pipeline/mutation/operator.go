package mutation

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/golang"
	"github.com/smacker/go-tree-sitter/java"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/smacker/go-tree-sitter/rust"
)

// Operator is one syntax operator: it finds the places of a parsed file
// where it applies and says what each mutation does. An operator is one
// file and one entry of Registry.
type Operator struct {
	// Name is the operator's id in mutant ids and records.
	Name string
	// Doc says what the operator does, for `lolbench mutate --help` and
	// the records.
	Doc string
	// Find returns the sites of the file. The caller keeps only sites
	// whose every line is an added line of the reference solution.
	Find func(s *Source) []Site
}

// Registry lists the syntax operators in the order their mutants are
// numbered.
var Registry = []*Operator{NegateCondition, FlipComparison, IntConstant, ReturnZero, DeleteCall, SwapIfElse}

// LookupOperator returns the operator with the name, or nil.
func LookupOperator(name string) *Operator {
	for _, op := range Registry {
		if op.Name == name {
			return op
		}
	}
	return nil
}

// Replace is one byte range of a source replaced by Text.
type Replace struct {
	Start, End uint32
	Text       string
}

// Site is one mutation an operator can make: the replacements (one, or
// two for a swap) and the record's behaviour fields.
type Site struct {
	Replace []Replace
	// StartLine and EndLine bound the lines the replacements touch.
	StartLine, EndLine int
	// Function is the first line of the named function the site is in, 0
	// at file level (OperatorSites sets it).
	Function int
	// Reference, Mutated, Scenario and Rationale fill the mutant's record
	// (see Mutant).
	Reference, Mutated, Scenario, Rationale string
}

// Apply returns src with the site's replacements made.
func (s Site) Apply(src []byte) []byte {
	rs := append([]Replace(nil), s.Replace...)
	sort.Slice(rs, func(i, j int) bool { return rs[i].Start < rs[j].Start })
	var b []byte
	pos := uint32(0)
	for _, r := range rs {
		if r.Start < pos || r.End < r.Start || int(r.End) > len(src) {
			return nil
		}
		b = append(b, src[pos:r.Start]...)
		b = append(b, r.Text...)
		pos = r.End
	}
	return append(b, src[pos:]...)
}

// Source is one parsed file for the operators.
type Source struct {
	Path, Language string
	Src            []byte
	Root           *sitter.Node
	// Syntax names the language's node types.
	Syntax *Syntax
}

// Text is a node's source text.
func (s *Source) Text(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	return string(s.Src[n.StartByte():n.EndByte()])
}

// Where is "path:line" of a node, for the records.
func (s *Source) Where(n *sitter.Node) string {
	return fmt.Sprintf("%s:%d", s.Path, int(n.StartPoint().Row)+1)
}

// Syntax is a language's grammar and the node types the operators use.
type Syntax struct {
	Language func() *sitter.Language
	// Conditions maps a node type to the field holding its condition
	// (if, while, elif, for).
	Conditions map[string]string
	// Not is how the language negates an expression: "!" or "not ".
	Not string
	// Binary is the binary-expression node type(s) whose operator token is
	// a comparison.
	Binary map[string]bool
	// Integer are the integer-literal node types.
	Integer map[string]bool
	// Return is the return-statement node type.
	Return string
	// Functions are the node types that a return belongs to.
	Functions map[string]bool
	// CallStatement is the expression-statement type; Calls the call
	// expression types it may hold.
	CallStatement string
	Calls         map[string]bool
	// If is the if-statement type.
	If string
	// Defs are the named function definitions (no lambdas), whose body
	// is the "body" field: sampling spreads over them and stub reverts
	// replace their bodies.
	Defs map[string]bool
	// Stub is a body that fails when called, for a stub revert; %s is
	// the message, a quoted string of the language.
	Stub string
}

// syntaxes are the languages the operators cover (pipeline/lang names).
var syntaxes = map[string]*Syntax{
	"Go": {
		Language:      golang.GetLanguage,
		Conditions:    map[string]string{"if_statement": "condition", "for_statement": "", "for_clause": "condition"},
		Not:           "!",
		Binary:        set("binary_expression"),
		Integer:       set("int_literal"),
		Return:        "return_statement",
		Functions:     set("function_declaration", "method_declaration", "func_literal"),
		CallStatement: "expression_statement",
		Calls:         set("call_expression"),
		If:            "if_statement",
		Defs:          set("function_declaration", "method_declaration"),
		Stub:          "{\n\tpanic(%s)\n}",
	},
	"Python": {
		Language:      python.GetLanguage,
		Conditions:    map[string]string{"if_statement": "condition", "elif_clause": "condition", "while_statement": "condition"},
		Not:           "not ",
		Binary:        set("comparison_operator"),
		Integer:       set("integer"),
		Return:        "return_statement",
		Functions:     set("function_definition", "lambda"),
		CallStatement: "expression_statement",
		Calls:         set("call"),
		If:            "if_statement",
		Defs:          set("function_definition"),
		Stub:          "raise NotImplementedError(%s)",
	},
	"Java": {
		Language:      java.GetLanguage,
		Conditions:    map[string]string{"if_statement": "condition", "while_statement": "condition", "do_statement": "condition", "for_statement": "condition"},
		Not:           "!",
		Binary:        set("binary_expression"),
		Integer:       set("decimal_integer_literal"),
		Return:        "return_statement",
		Functions:     set("method_declaration", "constructor_declaration", "lambda_expression"),
		CallStatement: "expression_statement",
		Calls:         set("method_invocation"),
		If:            "if_statement",
		Defs:          set("method_declaration", "constructor_declaration"),
		Stub:          "{ throw new UnsupportedOperationException(%s); }",
	},
	// Rust (issue 23): return-zero sees explicit returns only (a
	// function's value is mostly its block's last expression); if let
	// conditions are patterns and are not negated. A stub's
	// unimplemented!() has type !, which fits every result type. Go's
	// quoting of the message is a valid Rust string literal.
	"Rust": {
		Language:      rust.GetLanguage,
		Conditions:    map[string]string{"if_expression": "condition", "while_expression": "condition"},
		Not:           "!",
		Binary:        set("binary_expression"),
		Integer:       set("integer_literal"),
		Return:        "return_expression",
		Functions:     set("function_item", "closure_expression"),
		CallStatement: "expression_statement",
		Calls:         set("call_expression"),
		If:            "if_expression",
		Defs:          set("function_item"),
		Stub:          "{\n        unimplemented!(%s)\n    }",
	},
}

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// OperatorLanguages lists the languages the operators cover.
func OperatorLanguages() []string { return sortedKeys(syntaxes) }

// parseTimeout bounds one parse: sources are hostile.
const parseTimeout = 30 * time.Second

// Parse parses src for the operators. The caller closes the tree.
func Parse(ctx context.Context, path, language string, src []byte) (*Source, *sitter.Tree, error) {
	syn := syntaxes[language]
	if syn == nil {
		return nil, nil, fmt.Errorf("%s: no syntax operators for %s", path, language)
	}
	if len(src) > maxFile {
		return nil, nil, fmt.Errorf("%s: too large for mutation (%d bytes)", path, len(src))
	}
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(syn.Language())
	p.SetOperationLimit(int(parseTimeout.Microseconds()))
	tree, err := p.ParseCtx(ctx, nil, src)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: parse: %w", path, err)
	}
	return &Source{Path: path, Language: language, Src: src, Root: tree.RootNode(), Syntax: syn}, tree, nil
}

// walk visits every node of the tree in document order, without recursion
// (nesting depth is the input's to choose). visit returns false to skip a
// node's children.
func walk(root *sitter.Node, visit func(n *sitter.Node) bool) {
	stack := []*sitter.Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !visit(n) {
			continue
		}
		for i := int(n.ChildCount()) - 1; i >= 0; i-- {
			stack = append(stack, n.Child(i))
		}
	}
}

// nodes returns the named nodes of the given types, in document order,
// skipping nodes with syntax errors.
func nodes(s *Source, types map[string]bool) []*sitter.Node {
	var out []*sitter.Node
	walk(s.Root, func(n *sitter.Node) bool {
		if n.IsError() || n.IsMissing() {
			return false
		}
		if n.IsNamed() && types[n.Type()] && !n.HasError() {
			out = append(out, n)
		}
		return true
	})
	return out
}

// lines returns the 1-based first and last lines of a node.
func lines(n *sitter.Node) (int, int) {
	end := int(n.EndPoint().Row) + 1
	if n.EndPoint().Column == 0 && n.EndPoint().Row > n.StartPoint().Row {
		end-- // a node ending at the start of a line does not touch it
	}
	return int(n.StartPoint().Row) + 1, end
}

// site makes a one-replacement site over node n.
func site(n *sitter.Node, text string) Site {
	a, b := lines(n)
	return Site{Replace: []Replace{{n.StartByte(), n.EndByte(), text}}, StartLine: a, EndLine: b}
}

// enclosing returns the nearest ancestor of one of the types, or nil.
func enclosing(n *sitter.Node, types map[string]bool) *sitter.Node {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if types[p.Type()] {
			return p
		}
	}
	return nil
}

// snippet shortens code for a record: one line, at most 80 bytes.
func snippet(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return "`" + s + "`"
}

// OperatorSites returns the sites of every operator in a file, keeping
// only sites whose lines are all in added (the reference solution's added
// lines): operators mutate what the solution wrote, never the code it
// kept. The map is by operator name; each list is in document order.
func OperatorSites(ctx context.Context, ops []*Operator, path, language string, src []byte, added []int) (map[string][]Site, error) {
	s, tree, err := Parse(ctx, path, language, src)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	isAdded := map[int]bool{}
	for _, l := range added {
		isAdded[l] = true
	}
	defs := nodes(s, s.Syntax.Defs)
	out := map[string][]Site{}
	for _, op := range ops {
		for _, st := range op.Find(s) {
			ok := st.StartLine > 0 && st.EndLine >= st.StartLine
			for l := st.StartLine; ok && l <= st.EndLine; l++ {
				ok = isAdded[l]
			}
			if ok && st.Apply(src) != nil {
				if len(st.Replace) == 0 {
					continue
				}
				st.Function = innermost(defs, st.Replace[0].Start)
				out[op.Name] = append(out[op.Name], st)
			}
		}
	}
	return out, nil
}

// innermost returns the first line of the innermost definition (defs in
// document order) that contains the byte offset, 0 when none does.
func innermost(defs []*sitter.Node, at uint32) int {
	line := 0
	for _, d := range defs {
		if d.StartByte() > at {
			break
		}
		if at < d.EndByte() {
			line = int(d.StartPoint().Row) + 1
		}
	}
	return line
}
