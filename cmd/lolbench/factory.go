package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/mattn/go-isatty"
	"github.com/spf13/pflag"

	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/workspace"
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

// Executor names, as --executor takes them. Auto is only run's: docker
// when an engine answers, else local.
const (
	executorDocker = "docker"
	executorLocal  = "local"
	executorAuto   = "auto"
)

// Executor opens the executor a command was asked for, the one place
// every command builds it (verify, build, eval, mutate, augment, run). The
// caller closes it with the returned func. "auto" says so on ErrOut when
// it falls back to local.
func (f *Factory) Executor(ctx context.Context, name string) (sandbox.Executor, func(), error) {
	switch name {
	case executorLocal:
		return sandbox.NewLocal(f.IO.ErrOut), func() {}, nil
	case executorDocker, executorAuto:
		d, err := sandbox.NewDocker(ctx)
		if err == nil {
			return d, func() { d.Close() }, nil
		}
		if name == executorDocker {
			return nil, nil, err
		}
		fmt.Fprintf(f.IO.ErrOut, "no Docker engine answers (%v); using the local executor\n", err)
		return sandbox.NewLocal(f.IO.ErrOut), func() {}, nil
	}
	return nil, nil, fmt.Errorf("unknown executor %q", name)
}

// executorValue is the --executor flag: the name is checked when the
// flag is parsed, once for every command that takes it.
type executorValue struct {
	p     *string
	names []string
}

func (v *executorValue) String() string { return *v.p }
func (v *executorValue) Type() string   { return "string" }

func (v *executorValue) Set(s string) error {
	if !slices.Contains(v.names, s) {
		n := len(v.names)
		return fmt.Errorf("want %s or %s", strings.Join(v.names[:n-1], ", "), v.names[n-1])
	}
	*v.p = s
	return nil
}

// addExecutorFlag adds --executor to fl, storing into p: docker (the
// default) or local; run also takes auto (its default).
func addExecutorFlag(fl *pflag.FlagSet, p *string, usage string, auto bool) {
	v := &executorValue{p: p, names: []string{executorDocker, executorLocal}}
	*p = executorDocker
	if auto {
		v.names = append(v.names, executorAuto)
		*p = executorAuto
	}
	fl.Var(v, "executor", usage)
}

// LLM opens the LLM client, the one place every command builds it. The
// configuration is resolved from the file, the environment and the flags
// (over), in that order of precedence from last to first; every exchange
// is recorded in ws. Without an endpoint the error wraps
// llm.ErrNoEndpoint, whose one line names the variables to set: a command
// that needs the model returns it (exit 2), one that can go without
// checks it with errors.Is and runs its other parts.
func (f *Factory) LLM(ws *workspace.Workspace, file string, over llm.Config) (*llm.Client, error) {
	getenv := f.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	cfg, err := llm.Resolve(file, getenv, over)
	if err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	logf := func(format string, args ...any) { fmt.Fprintf(f.IO.ErrOut, "warning: "+format+"\n", args...) }
	return llm.New(cfg, llm.Options{Workspace: ws, Logf: logf})
}

// optionalLLM is Factory.LLM for a command that runs without a model: no
// endpoint is no client and no error.
func optionalLLM(f *Factory, ws *workspace.Workspace, file string, over llm.Config) (*llm.Client, error) {
	c, err := f.LLM(ws, file, over)
	if errors.Is(err, llm.ErrNoEndpoint) {
		return nil, nil
	}
	return c, err
}
