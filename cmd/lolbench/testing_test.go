package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// runCLI runs one command line with buffered streams.
func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	f := &Factory{
		IO:     &IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut},
		Getenv: func(string) string { return "" },
	}
	code = run(context.Background(), args, f)
	return out.String(), errOut.String(), code
}

func TestVersion(t *testing.T) {
	out, _, code := runCLI(t, "version")
	if code != 0 || !strings.HasPrefix(out, "lolbench dev (go") {
		t.Fatalf("version: code %d, out %q", code, out)
	}
}

func TestUnknownCommandIsUsageError(t *testing.T) {
	_, errOut, code := runCLI(t, "no-such-command")
	if code != exitBadInput || !strings.Contains(errOut, `unknown command "no-such-command"`) {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
}
