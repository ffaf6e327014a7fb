package envfile

import (
	"fmt"
	"strings"
)

// UndefinedError is a reference to a variable that is neither assigned
// earlier in the file nor known to the lookup function.
type UndefinedError struct {
	Line int
	Name string
}

func (e *UndefinedError) Error() string {
	return fmt.Sprintf("line %d: undefined variable %s", e.Line, e.Name)
}

// Expand returns the entries with every ${NAME} in their values replaced
// by NAME's value: an earlier entry of the file first, then lookup (nil
// means none). A "${" without a closing brace is kept as it is.
func Expand(entries []Entry, lookup func(string) (string, bool)) ([]Entry, error) {
	seen := map[string]string{}
	out := make([]Entry, 0, len(entries))
	for _, e := range entries {
		v, err := expandValue(e, seen, lookup)
		if err != nil {
			return nil, err
		}
		e.Value = v
		seen[e.Key] = v
		out = append(out, e)
	}
	return out, nil
}

func expandValue(e Entry, seen map[string]string, lookup func(string) (string, bool)) (string, error) {
	var b strings.Builder
	s := e.Value
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		name := s[i+2 : i+end]
		v, ok := seen[name]
		if !ok && lookup != nil {
			v, ok = lookup(name)
		}
		if !ok {
			return "", &UndefinedError{Line: e.Line, Name: name}
		}
		b.WriteString(s[:i])
		b.WriteString(v)
		s = s[i+end+1:]
	}
}
