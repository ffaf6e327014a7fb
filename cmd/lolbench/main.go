// Command lolbench builds long-horizon coding-agent benchmarks from
// enhancement proposals and the pull requests that implemented them.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], NewFactory())
	stop()
	os.Exit(code)
}
