package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/mattn/go-isatty"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// IOStreams are the standard streams of one command run. Results go to Out;
// progress and status go to ErrOut (GitHub CLI habit).
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// ErrTTY reports whether ErrOut is a terminal, so that progress bars
	// are drawn only there and plain lines are written otherwise.
	ErrTTY bool
}

// Factory holds the dependencies that commands share. Tests build their own
// with buffers in place of the standard streams.
type Factory struct {
	IO     *IOStreams
	Getenv func(string) string
}

// NewFactory returns the Factory for a real process.
func NewFactory() *Factory {
	return &Factory{
		IO: &IOStreams{
			In:     os.Stdin,
			Out:    os.Stdout,
			ErrOut: os.Stderr,
			ErrTTY: isatty.IsTerminal(os.Stderr.Fd()),
		},
		Getenv: os.Getenv,
	}
}

// Exit codes shared by every command (docs/design.md, "Exit codes").
const (
	exitOK       = 0
	exitFindings = 1 // the check ran and found problems
	exitBadInput = 2 // bad input, usage or environment
)

// exitError carries the exit status a command wants.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// findings marks an error as "the check found problems" (exit 1).
func findings(format string, args ...any) error {
	return &exitError{code: exitFindings, err: fmt.Errorf(format, args...)}
}

// silentFindings is exit 1 with the report already printed.
var silentFindings = &exitError{code: exitFindings, err: errors.New("")}

func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return exitBadInput
}

// printJSON writes v as indented JSON with a final newline, the one JSON
// form of every --json output.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
