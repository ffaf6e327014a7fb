package registry

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// maxDepth bounds the nesting of the registry; real entries are about six
// levels deep, recipes a few more.
const maxDepth = 32

// maxDoubleStars bounds "**" segments in a glob, whose matching is
// backtracking.
const maxDoubleStars = 3

// walker records, for every field of the registry, its path
// ("projects[0].eps.glob") and line, so that problems found after decoding
// still name their place. It refuses aliases and anchors: an alias can
// expand a small file into an exponential value (the "billion laughs"), and
// a registry has no need of them.
type walker struct {
	lines map[string]int
	nodes map[string]ast.Node
	pos   []posField // key and value tokens, for decoder errors

	errLine  int
	errField string
}

type posField struct {
	line, col int
	field     string
}

func (w *walker) fail(field string, n ast.Node, format string, args ...any) error {
	w.errField = field
	if tk := n.GetToken(); tk != nil && tk.Position != nil {
		w.errLine = tk.Position.Line
	}
	return fmt.Errorf(format, args...)
}

func (w *walker) record(field string, n ast.Node) {
	if n == nil {
		return
	}
	if _, ok := w.lines[field]; !ok {
		if tk := n.GetToken(); tk != nil && tk.Position != nil {
			w.lines[field] = tk.Position.Line
			w.pos = append(w.pos, posField{tk.Position.Line, tk.Position.Column, field})
		}
	}
	w.nodes[field] = n
}

func (w *walker) walk(field string, n ast.Node, depth int) error {
	if n == nil {
		return nil
	}
	if depth > maxDepth {
		return w.fail(field, n, "nested more than %d levels", maxDepth)
	}
	switch v := n.(type) {
	case *ast.AliasNode:
		return w.fail(field, n, "YAML aliases are not allowed in a registry; repeat the value instead")
	case *ast.AnchorNode:
		return w.fail(field, n, "YAML anchors are not allowed in a registry; repeat the value instead")
	case *ast.TagNode:
		return w.walk(field, v.Value, depth+1)
	case *ast.MappingNode:
		for _, mv := range v.Values {
			if err := w.walk(field, mv, depth+1); err != nil {
				return err
			}
		}
	case *ast.MappingValueNode:
		key := keyString(v.Key)
		if key == "<<" {
			return w.fail(field, n, "YAML merge keys are not allowed in a registry")
		}
		child := key
		if field != "" {
			child = field + "." + key
		}
		w.record(child, v.Key)
		if v.Value != nil {
			if tk := v.Value.GetToken(); tk != nil && tk.Position != nil {
				w.pos = append(w.pos, posField{tk.Position.Line, tk.Position.Column, child})
			}
			w.nodes[child] = v.Value
		}
		return w.walk(child, v.Value, depth+1)
	case *ast.SequenceNode:
		for i, item := range v.Values {
			child := fmt.Sprintf("%s[%d]", field, i)
			w.record(child, item)
			if err := w.walk(child, item, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

func keyString(k ast.MapKeyNode) string {
	if k == nil {
		return ""
	}
	if s, ok := k.(ast.ScalarNode); ok {
		if v := s.GetValue(); v != nil {
			return fmt.Sprint(v)
		}
	}
	return strings.TrimSpace(k.String())
}

// fieldAt returns the deepest field whose key or value token starts at the
// position, or the last one before it on the same line.
func (w *walker) fieldAt(line, col int) string {
	best := ""
	for _, p := range w.pos {
		if p.line == line && p.col <= col && len(p.field) >= len(best) {
			best = p.field
		}
	}
	return best
}

var errDoubleStars = errors.New("too many ** segments")

// pathMatch is path.Match for one segment; "**" is handled by MatchGlob.
func pathMatch(pattern, name string) (bool, error) {
	return path.Match(pattern, name)
}

func countDoubleStars(g string) int {
	n := 0
	for _, seg := range strings.Split(g, "/") {
		if seg == "**" {
			n++
		}
	}
	return n
}
