// Command lolbench builds long-horizon coding-agent benchmarks from
// enhancement proposals and the pull requests that implemented them.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
)

// exitInternal is the exit status of a bug: a panic. Go's runtime would
// exit with 2, which here means bad input.
const exitInternal = 3

// reportURL is where a bug is reported.
const reportURL = "https://github.com/lolbench/lolbench/issues"

func main() {
	// A panic no deferred recover sees (in a goroutine of a library) or a
	// fatal runtime error aborts the process (SIGABRT, status 134 in a
	// shell) with every goroutine's stack, instead of exiting with 2.
	debug.SetTraceback("crash")
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := guarded(ctx, os.Args[1:], NewFactory())
	stop()
	os.Exit(code)
}

// guarded runs one command line like run, and turns a panic into exit
// status 3 with the stack and where to report it.
func guarded(ctx context.Context, args []string, f *Factory) (code int) {
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(f.IO.ErrOut, "lolbench: %v\n", internalError(fmt.Sprintf("panic: %v", v), debug.Stack()))
			code = exitInternal
		}
	}()
	return run(ctx, args, f)
}

// internalError is the error of a bug, with exit status 3: what happened,
// the goroutine's stack, and where to report it.
func internalError(what string, stack []byte) error {
	return &exitError{code: exitInternal, err: errors.New("internal error: " + what + "\n\n" + string(stack) +
		"\nThis is a bug in lolbench. Please report it at " + reportURL + " with the command line and the output above.")}
}
