package registry

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// shape checks a YAML node against the Go type it will be decoded into
// and records every mismatch with its field path and line: a key the type
// does not have, a scalar of the wrong kind (a fractional value for an
// integer, "lots" for a number), a mapping where a list belongs. The
// decoder would stop at the first; shape goes on, so that one run reports
// them all (docs/projects.md). Each bad node is cut out of the tree (an
// unknown key removed, a bad value made null), so that the rest decodes
// and is validated too.
type shape struct {
	errs []*Error
	// bad are the field paths with a structural error; the validation of
	// the pruned tree stays silent on them and below them.
	bad map[string]bool
}

func (s *shape) fail(field string, n ast.Node, format string, args ...any) {
	e := &Error{Field: field, Msg: fmt.Sprintf(format, args...)}
	if tk := n.GetToken(); tk != nil && tk.Position != nil {
		e.Line = tk.Position.Line
	}
	s.errs = append(s.errs, e)
	s.bad[field] = true
}

// silenced reports whether field is, or is below, a field with a
// structural error.
func (s *shape) silenced(field string) bool {
	for f := field; f != ""; {
		if s.bad[f] {
			return true
		}
		i := strings.LastIndexAny(f, ".[")
		if i < 0 {
			return false
		}
		f = f[:i]
	}
	return false
}

var unmarshalerType = reflect.TypeFor[interface{ UnmarshalYAML([]byte) error }]()

// check returns the node to keep in n's place: n itself, or a null node
// when n does not fit t.
func (s *shape) check(field string, n ast.Node, t reflect.Type) ast.Node {
	if n == nil {
		return nil
	}
	if tag, ok := n.(*ast.TagNode); ok {
		tag.Value = s.check(field, tag.Value, t)
		return n
	}
	if _, ok := n.(*ast.NullNode); ok {
		return n
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		if _, ok := n.(ast.ScalarNode); !ok {
			return s.mismatch(field, n, "a number or a string")
		}
		return n
	}
	switch t.Kind() {
	case reflect.Struct:
		values, ok := mappingValues(n)
		if !ok {
			return s.mismatch(field, n, "a mapping")
		}
		fields := yamlFields(t)
		kept := values[:0]
		for _, mv := range values {
			key := keyString(mv.Key)
			child := join(field, key)
			f, ok := fields[key]
			if !ok {
				s.fail(child, mv.Key, "unknown field %q", key)
				continue
			}
			mv.Value = s.check(child, mv.Value, f.Type)
			kept = append(kept, mv)
		}
		if m, ok := n.(*ast.MappingNode); ok {
			m.Values = kept
		}
		return n
	case reflect.Map:
		values, ok := mappingValues(n)
		if !ok {
			return s.mismatch(field, n, "a mapping")
		}
		for _, mv := range values {
			mv.Value = s.check(join(field, keyString(mv.Key)), mv.Value, t.Elem())
		}
		return n
	case reflect.Slice, reflect.Array:
		seq, ok := n.(*ast.SequenceNode)
		if !ok {
			return s.mismatch(field, n, "a list")
		}
		for i, item := range seq.Values {
			seq.Values[i] = s.check(fmt.Sprintf("%s[%d]", field, i), item, t.Elem())
		}
		return n
	case reflect.String:
		if _, ok := n.(ast.ScalarNode); !ok {
			return s.mismatch(field, n, "a string")
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if _, ok := n.(*ast.IntegerNode); !ok {
			// A fractional value is not silently cut: "9.99" is not 9.
			return s.mismatch(field, n, "an integer")
		}
	case reflect.Float32, reflect.Float64:
		switch n.(type) {
		case *ast.IntegerNode, *ast.FloatNode:
		default:
			return s.mismatch(field, n, "a number")
		}
	case reflect.Bool:
		if _, ok := n.(*ast.BoolNode); !ok {
			return s.mismatch(field, n, "true or false")
		}
	}
	return n
}

// mismatch records that n is not what the field wants and returns the
// null node that replaces it.
func (s *shape) mismatch(field string, n ast.Node, want string) ast.Node {
	s.fail(field, n, "want %s, got %s", want, describe(n))
	return ast.Null(token.New("null", "null", n.GetToken().Position))
}

// describe names a node as a registry author wrote it: a scalar by its
// text (a string quoted), anything else by its kind.
func describe(n ast.Node) string {
	switch n := n.(type) {
	case *ast.StringNode:
		return strconv.Quote(n.Value)
	case *ast.LiteralNode:
		return "a block of text"
	case ast.ScalarNode:
		if tk := n.GetToken(); tk != nil {
			return tk.Value
		}
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	}
	return "a " + strings.ToLower(n.Type().String())
}

func mappingValues(n ast.Node) ([]*ast.MappingValueNode, bool) {
	switch n := n.(type) {
	case *ast.MappingNode:
		return n.Values, true
	case *ast.MappingValueNode:
		return []*ast.MappingValueNode{n}, true
	}
	return nil, false
}

// yamlFields maps the YAML keys of a struct type to its fields.
func yamlFields(t reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = strings.ToLower(f.Name)
		}
		out[name] = f
	}
	return out
}

func join(field, key string) string {
	if field == "" {
		return key
	}
	return field + "." + key
}
