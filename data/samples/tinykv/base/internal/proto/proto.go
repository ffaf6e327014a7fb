// Package proto splits tinykv protocol lines into a command and arguments.
package proto

import (
	"errors"
	"strings"
)

// ErrEmpty is returned for a blank line.
var ErrEmpty = errors.New("empty command")

// Command is one parsed request line.
type Command struct {
	Name string
	Args []string
}

// Parse splits a request line on spaces. The command name is case-insensitive;
// the last argument of SET-like commands may contain spaces, so at most max
// fields are split off and the rest is kept whole.
func Parse(line string, max int) (Command, error) {
	line = strings.TrimRight(line, "\r\n")
	if strings.TrimSpace(line) == "" {
		return Command{}, ErrEmpty
	}
	fields := strings.SplitN(strings.TrimLeft(line, " "), " ", max)
	return Command{Name: strings.ToUpper(fields[0]), Args: fields[1:]}, nil
}
