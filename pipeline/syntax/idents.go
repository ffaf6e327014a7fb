package syntax

import (
	"context"
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// Ident is one identifier a file uses: its name and 1-based line.
type Ident struct {
	Name string `json:"name"`
	Line int    `json:"line"`
}

// Identifiers parses src as language and returns the identifiers on the
// given lines (all lines when lines is nil), in source order: the leaves
// whose node type names an identifier in the grammar ("identifier",
// "type_identifier", "field_identifier", "property_identifier", ...), so
// that names inside comments and string literals are not counted, nor
// the module path of a qualified name (Rust's std::cmp in std::cmp::max,
// but Op in Op::Exact) or a macro's name (matches!), which name no definition of the file's
// project. The
// section dependency graph reads which definitions a section's added
// lines use (issue 35, producer–consumer evidence).
func (p *Parser) Identifiers(ctx context.Context, language string, src []byte, lines map[int]bool) ([]Ident, error) {
	t, err := p.parseFile(ctx, language, src)
	if err != nil {
		return nil, err
	}
	defer t.tree.Close()
	var out []Ident
	var walk func(n *sitter.Node, field string)
	walk = func(n *sitter.Node, field string) {
		start, end := int(n.StartPoint().Row)+1, int(n.EndPoint().Row)+1
		if lines != nil && !anyLine(lines, start, end) {
			return
		}
		// A qualified name's path is modules (snake_case in Rust, by the
		// compiler's lints) unless it is a single type name (Op::Exact).
		if field == "macro" || field == "path" && !(n.ChildCount() == 0 && startsUpper(n.Content(src))) {
			return
		}
		if n.ChildCount() == 0 {
			if strings.HasSuffix(n.Type(), "identifier") && n.Type() != "shorthand_property_identifier_pattern" {
				out = append(out, Ident{Name: n.Content(src), Line: start})
			}
			return
		}
		for i := 0; i < int(n.ChildCount()); i++ {
			walk(n.Child(i), n.FieldNameForChild(i))
		}
	}
	walk(t.tree.RootNode(), "")
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out, nil
}

func startsUpper(s string) bool { return s != "" && s[0] >= 'A' && s[0] <= 'Z' }

// anyLine reports whether lines holds a line of [start, end].
func anyLine(lines map[int]bool, start, end int) bool {
	if end-start < len(lines) {
		for l := start; l <= end; l++ {
			if lines[l] {
				return true
			}
		}
		return false
	}
	for l := range lines {
		if l >= start && l <= end {
			return true
		}
	}
	return false
}
