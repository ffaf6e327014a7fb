package coverage

import (
	"context"
	"fmt"
	"sort"
	"time"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/golang"
	"github.com/smacker/go-tree-sitter/java"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/smacker/go-tree-sitter/rust"
)

// parseTimeout bounds one parse: sources are hostile.
const parseTimeout = 30 * time.Second

// maxSource is the largest file analysed (2 MiB, as pipeline/syntax).
const maxSource = 2 << 20

// statementRules says, per language, which nodes are statements and where
// a statement counts: executable lines are the lines on which a counted
// statement starts.
type statementRules struct {
	lang       func() *sitter.Language
	statements map[string]bool
	// parents are the node types whose statement children count; a
	// statement elsewhere (a for header's init, an if's initializer) is
	// part of the statement around it.
	parents map[string]bool
	// bodyParents are compound statements whose body-like fields hold a
	// statement without braces (Java "for (...) h();").
	bodyParents map[string]bool
	// code tells a statement with code from one without (a bare string, a
	// local variable declaration without an initializer).
	code func(n *sitter.Node, src []byte) bool
}

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// Statement rules per pipeline/lang name. Go's statements are those of its
// function bodies (package-level declarations run no instrumented code);
// Python counts module- and class-level statements too, because they run
// on import, but not imports, definitions, global/nonlocal or bare strings
// (docstrings); Java counts statements of method, constructor, lambda and
// initializer bodies, and a local variable only with an initializer.
var statementRulesByLang = map[string]*statementRules{
	"Go": {
		lang: golang.GetLanguage,
		statements: set("expression_statement", "send_statement", "inc_statement", "dec_statement",
			"assignment_statement", "short_var_declaration", "return_statement", "go_statement",
			"defer_statement", "if_statement", "for_statement", "expression_switch_statement",
			"type_switch_statement", "select_statement", "fallthrough_statement", "break_statement",
			"continue_statement", "goto_statement", "var_declaration"),
		parents: set("block", "expression_case", "default_case", "type_case", "communication_case", "labeled_statement"),
		// "} else if b {": go tool cover gives the else-if its own block.
		bodyParents: set("if_statement"),
	},
	"Python": {
		lang: python.GetLanguage,
		statements: set("expression_statement", "return_statement", "pass_statement", "if_statement",
			"for_statement", "while_statement", "with_statement", "raise_statement", "assert_statement",
			"delete_statement", "break_statement", "continue_statement", "print_statement",
			"exec_statement", "match_statement", "elif_clause", "except_clause"),
		parents: set("block", "module", "if_statement", "try_statement"),
		code: func(n *sitter.Node, src []byte) bool {
			if n.Type() != "expression_statement" || n.NamedChildCount() != 1 {
				return true
			}
			t := n.NamedChild(0).Type()
			return t != "string" && t != "concatenated_string"
		},
	},
	"Java": {
		lang: java.GetLanguage,
		statements: set("expression_statement", "local_variable_declaration", "return_statement",
			"if_statement", "for_statement", "enhanced_for_statement", "while_statement", "do_statement",
			"throw_statement", "break_statement", "continue_statement", "switch_expression",
			"switch_statement", "synchronized_statement", "yield_statement", "assert_statement",
			"try_with_resources_statement", "explicit_constructor_invocation"),
		parents:     set("block", "constructor_body", "switch_block_statement_group", "switch_rule", "labeled_statement"),
		bodyParents: set("if_statement", "while_statement", "for_statement", "enhanced_for_statement", "do_statement"),
		code: func(n *sitter.Node, src []byte) bool {
			if n.Type() != "local_variable_declaration" {
				return true
			}
			for i := 0; i < int(n.NamedChildCount()); i++ {
				if c := n.NamedChild(i); c.Type() == "variable_declarator" && c.ChildByFieldName("value") != nil {
					return true
				}
			}
			return false
		},
	},
}

// rustTail are the expressions that can end a Rust block as its value (a
// block's statements are let declarations and expression statements; its
// last expression, without a semicolon, is neither) or be a match arm's
// value: llvm-cov counts them as run code.
var rustTail = []string{"call_expression", "macro_invocation", "match_expression", "if_expression",
	"if_let_expression", "binary_expression", "unary_expression", "struct_expression", "return_expression",
	"reference_expression", "field_expression", "index_expression", "try_expression", "tuple_expression",
	"array_expression", "closure_expression", "range_expression", "parenthesized_expression",
	"type_cast_expression", "identifier", "scoped_identifier", "self", "integer_literal", "float_literal",
	"string_literal", "boolean_literal", "char_literal", "unit_expression", "loop_expression",
	"while_expression", "while_let_expression", "for_expression", "break_expression", "continue_expression",
	"assignment_expression", "compound_assignment_expr", "await_expression"}

func init() {
	// Rust counts let declarations and expression statements of function
	// and closure bodies, and the value expression of a block or a match
	// arm (see rustTail); items, attributes and comments are not code.
	statementRulesByLang["Rust"] = &statementRules{
		lang:       rust.GetLanguage,
		statements: set(append([]string{"let_declaration", "expression_statement"}, rustTail...)...),
		parents:    set("block", "match_arm"),
		code: func(n *sitter.Node, src []byte) bool {
			// A match arm's pattern is no code; its value is.
			if p := n.Parent(); p != nil && p.Type() == "match_arm" {
				v := p.ChildByFieldName("value")
				return v != nil && v.Equal(n)
			}
			return true
		},
	}
}

// SupportedLanguage reports whether executable lines can be found in a
// language (a pipeline/lang name).
func SupportedLanguage(language string) bool { return statementRulesByLang[language] != nil }

// Executable returns the lines of src on which a statement starts, with the
// 1-based byte column of the first statement starting on each (see the
// package comment for what counts). language is a pipeline/lang name.
func Executable(ctx context.Context, language string, src []byte) (lines, columns []int, err error) {
	spans, err := statementSpans(ctx, language, src)
	if err != nil {
		return nil, nil, err
	}
	lines, columns = startLines(spans)
	return lines, columns, nil
}

// startLines returns the lines on which spans start, sorted, with the
// column of the first statement on each.
func startLines(spans []stmtSpan) (lines, columns []int) {
	first := map[int]int{}
	for _, sp := range spans {
		if c, ok := first[sp.start]; !ok || sp.col < c {
			first[sp.start] = sp.col
		}
	}
	for l := range first {
		lines = append(lines, l)
	}
	sort.Ints(lines)
	columns = make([]int, len(lines))
	for i, l := range lines {
		columns[i] = first[l]
	}
	return lines, columns
}

// stmtSpan is a counted statement: its first and last lines (1-based) and
// the byte column where it starts.
type stmtSpan struct{ start, end, col int }

// statementSpans returns the counted statements of src.
func statementSpans(ctx context.Context, language string, src []byte) ([]stmtSpan, error) {
	rules := statementRulesByLang[language]
	if rules == nil {
		return nil, fmt.Errorf("executable lines: no grammar for %s", language)
	}
	if len(src) > maxSource {
		return nil, fmt.Errorf("executable lines: %d bytes is over the %d-byte limit", len(src), maxSource)
	}
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(rules.lang())
	p.SetOperationLimit(int(parseTimeout.Microseconds()))
	tree, err := p.ParseCtx(ctx, nil, src)
	if err != nil {
		return nil, fmt.Errorf("executable lines: parse: %w", err)
	}
	if tree == nil {
		return nil, fmt.Errorf("executable lines: parse timed out")
	}
	defer tree.Close()
	var spans []stmtSpan
	// An explicit stack: nesting depth is the input's to choose.
	stack := []*sitter.Node{tree.RootNode()}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if rules.statements[n.Type()] && counts(rules, n, src) {
			end := n.EndPoint()
			last := int(end.Row) + 1
			if end.Column == 0 && end.Row > n.StartPoint().Row {
				last-- // the node ends with a newline
			}
			spans = append(spans, stmtSpan{start: int(n.StartPoint().Row) + 1, end: last, col: int(n.StartPoint().Column) + 1})
		}
		for i := int(n.NamedChildCount()) - 1; i >= 0; i-- {
			stack = append(stack, n.NamedChild(i))
		}
	}
	return spans, nil
}

// innerLines maps each of added that is not in executable but lies within
// a counted statement to the line that statement starts on, the innermost
// statement's: a multi-line return's later lines, an else: line. Only
// statements that start on an executable added line count, so that the
// statement line is a target line.
func innerLines(spans []stmtSpan, executable, added []int) [][2]int {
	exec := map[int]bool{}
	for _, l := range executable {
		exec[l] = true
	}
	var out [][2]int
	for _, l := range added {
		if exec[l] {
			continue
		}
		best := 0
		for _, sp := range spans {
			// Statements nest: the containing one that starts last is
			// the innermost.
			if sp.start < l && l <= sp.end && sp.start > best {
				best = sp.start
			}
		}
		if best > 0 && exec[best] {
			out = append(out, [2]int{l, best})
		}
	}
	return out
}

// counts reports whether statement n counts where it stands.
func counts(rules *statementRules, n *sitter.Node, src []byte) bool {
	if n.IsMissing() || n.HasError() && n.Type() == "ERROR" {
		return false
	}
	par := n.Parent()
	if par == nil {
		return false
	}
	ok := rules.parents[par.Type()]
	if !ok && rules.bodyParents[par.Type()] {
		for _, f := range []string{"body", "consequence", "alternative"} {
			if c := par.ChildByFieldName(f); c != nil && c.Equal(n) {
				ok = true
			}
		}
	}
	// Python's elif and except clauses sit under their if and try
	// statements; other children of those (the condition) are not
	// statements anyway.
	if !ok {
		return false
	}
	if rules.code != nil && !rules.code(n, src) {
		return false
	}
	return true
}

// SourceFile is one file of the reference solution, after the change.
type SourceFile struct {
	Path     string
	Language string
	Content  []byte
	// Added are the lines the solution adds (post-change numbering).
	Added []int
}

// NewTarget finds the executable added lines of the files. Files of a
// language without statement rules, and files that cannot be parsed, are
// listed in Skipped.
func NewTarget(ctx context.Context, files []SourceFile) *Target {
	t := &Target{Files: []FileTarget{}}
	for _, f := range files {
		if !SupportedLanguage(f.Language) {
			t.Skipped = append(t.Skipped, fmt.Sprintf("%s: no statement rules for %s", f.Path, orUnknown(f.Language)))
			continue
		}
		spans, err := statementSpans(ctx, f.Language, f.Content)
		if err != nil {
			t.Skipped = append(t.Skipped, fmt.Sprintf("%s: %v", f.Path, err))
			continue
		}
		lines, cols := startLines(spans)
		added := Lines{f.Path: append([]int(nil), f.Added...)}.Normalize()[f.Path]
		ft := FileTarget{Path: f.Path, Language: f.Language, Added: added, Executable: []int{}, Columns: []int{}}
		if ft.Added == nil {
			ft.Added = []int{}
		}
		for i, l := range lines {
			if (Lines{f.Path: added}).Has(f.Path, l) {
				ft.Executable = append(ft.Executable, l)
				ft.Columns = append(ft.Columns, cols[i])
			}
		}
		ft.Inner = innerLines(spans, ft.Executable, ft.Added)
		t.Files = append(t.Files, ft)
	}
	sort.Slice(t.Files, func(i, j int) bool { return t.Files[i].Path < t.Files[j].Path })
	return t
}

func orUnknown(s string) string {
	if s == "" {
		return "an unknown language"
	}
	return s
}
