package registry

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
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
// a registry has no need of them. It also finds duplicate keys, which the
// parser is told to let through so that each one is named by its field.
// Every problem is recorded and the walk goes on, except below a node
// nested too deep.
type walker struct {
	lines map[string]int
	nodes map[string]ast.Node
	pos   []posField // key and value tokens, for decoder errors
	errs  []*Error
}

type posField struct {
	line, col int
	field     string
}

func (w *walker) fail(field string, n ast.Node, format string, args ...any) {
	e := &Error{Field: field, Msg: fmt.Sprintf(format, args...)}
	if tk := n.GetToken(); tk != nil && tk.Position != nil {
		e.Line = tk.Position.Line
	}
	w.errs = append(w.errs, e)
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

func (w *walker) walk(field string, n ast.Node, depth int) {
	if n == nil {
		return
	}
	if depth > maxDepth {
		w.fail(field, n, "nested more than %d levels", maxDepth)
		return
	}
	switch v := n.(type) {
	case *ast.AliasNode:
		w.fail(field, n, "YAML aliases are not allowed in a registry; repeat the value instead")
	case *ast.AnchorNode:
		w.fail(field, n, "YAML anchors are not allowed in a registry; repeat the value instead")
	case *ast.TagNode:
		w.walk(field, v.Value, depth+1)
	case *ast.MappingNode:
		seen := map[string]int{}
		for _, mv := range v.Values {
			key := keyString(mv.Key)
			if first, dup := seen[key]; dup && key != "<<" {
				w.fail(join(field, key), mv.Key, "duplicate key; first defined at line %d", first)
				continue
			}
			if tk := mv.Key.GetToken(); tk != nil && tk.Position != nil {
				seen[key] = tk.Position.Line
			}
			w.walk(field, mv, depth+1)
		}
	case *ast.MappingValueNode:
		key := keyString(v.Key)
		if key == "<<" {
			w.fail(field, n, "YAML merge keys are not allowed in a registry")
			return
		}
		child := join(field, key)
		w.record(child, v.Key)
		if v.Value != nil {
			if tk := v.Value.GetToken(); tk != nil && tk.Position != nil {
				w.pos = append(w.pos, posField{tk.Position.Line, tk.Position.Column, child})
			}
			w.nodes[child] = v.Value
		}
		w.walk(child, v.Value, depth+1)
	case *ast.SequenceNode:
		for i, item := range v.Values {
			child := fmt.Sprintf("%s[%d]", field, i)
			w.record(child, item)
			w.walk(child, item, depth+1)
		}
	}
}

// prune removes what walk refused (duplicate keys, merge keys, anchors,
// aliases), so that the rest of the tree can be decoded and validated.
func prune(n ast.Node) ast.Node {
	switch v := n.(type) {
	case *ast.AliasNode, *ast.AnchorNode:
		return ast.Null(token.New("null", "null", n.GetToken().Position))
	case *ast.TagNode:
		v.Value = prune(v.Value)
	case *ast.MappingNode:
		seen := map[string]bool{}
		kept := v.Values[:0]
		for _, mv := range v.Values {
			key := keyString(mv.Key)
			if seen[key] || key == "<<" {
				continue
			}
			seen[key] = true
			mv.Value = prune(mv.Value)
			kept = append(kept, mv)
		}
		v.Values = kept
	case *ast.MappingValueNode:
		v.Value = prune(v.Value)
	case *ast.SequenceNode:
		for i, item := range v.Values {
			v.Values[i] = prune(item)
		}
	}
	return n
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
