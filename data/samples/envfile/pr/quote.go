package envfile

import (
	"errors"
	"strings"
)

// parseValue reads the value part of an assignment: a double-quoted value
// with escapes, a single-quoted value taken literally, or a bare value
// ending at a " #" comment.
func parseValue(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	switch s[0] {
	case '"':
		return unquoteDouble(s)
	case '\'':
		end := strings.IndexByte(s[1:], '\'')
		if end < 0 {
			return "", errors.New("unterminated single quote")
		}
		if err := trailing(s[end+2:]); err != nil {
			return "", err
		}
		return s[1 : end+1], nil
	}
	if i := strings.Index(s, " #"); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s, nil
}

// unquoteDouble reads a double-quoted value; \n, \t, \", \\ and \$ are its
// escapes.
func unquoteDouble(s string) (string, error) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			if err := trailing(s[i+1:]); err != nil {
				return "", err
			}
			return b.String(), nil
		case '\\':
			if i+1 == len(s) {
				return "", errors.New("unterminated double quote")
			}
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case '"', '\\', '$':
				b.WriteByte(s[i])
			default:
				return "", errors.New("unknown escape \\" + string(s[i]))
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", errors.New("unterminated double quote")
}

// trailing accepts what follows a closing quote: blanks, then an optional
// # comment.
func trailing(rest string) error {
	rest = strings.TrimSpace(rest)
	if rest != "" && rest[0] != '#' {
		return errors.New("text after closing quote")
	}
	return nil
}
