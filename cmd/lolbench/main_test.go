package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline/workspace"
)

// A panic is a bug: exit status 3 (not 2, bad input), the stack, and
// where to report it.
func TestPanicExitsWithInternalError(t *testing.T) {
	var out, errOut bytes.Buffer
	f := &Factory{
		IO:     &IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut},
		Getenv: func(string) string { panic("boom") },
	}
	code := guarded(context.Background(), []string{"run", "--workspace", t.TempDir(), "--executor", "local"}, f)
	got := errOut.String()
	if code != exitInternal || code == exitBadInput ||
		!strings.HasPrefix(got, "lolbench: internal error: panic: boom\n\ngoroutine ") ||
		!strings.Contains(got, "lolbench.optionalLLM(") ||
		!strings.HasSuffix(got, "\nThis is a bug in lolbench. Please report it at https://github.com/lolbench/lolbench/issues with the command line and the output above.\n") {
		t.Fatalf("code %d, stderr:\n%s", code, got)
	}
}

// A second run on a workspace in use exits with a message naming the
// holder, instead of doing the work twice.
func TestRunRefusesABusyWorkspace(t *testing.T) {
	ws, err := workspace.Open(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	lock, err := ws.LockRun("")
	if err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runCLI(t, "run", "--workspace", ws.Root, "--executor", "local")
	lock.Release()
	host, _ := os.Hostname()
	prefix := "lolbench: the workspace is in use by another lolbench run: " + ws.Root + " is locked by pid "
	suffix := " on " + host + " since "
	if code != exitBadInput || !strings.HasPrefix(errOut, prefix) || !strings.Contains(errOut, suffix) ||
		!strings.HasSuffix(errOut, " ("+filepath.Join(ws.Root, "locks", "run.lock")+"); wait for it to finish\n") {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
}

// A run removes what the writes of a killed run left behind, before any
// stage (or the export) reads the workspace.
func TestRunRemovesStaleTemporaryFiles(t *testing.T) {
	ws, err := workspace.Open(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(ws.Root, "collect", "demo", ".funnel.json.tmp-123456")
	os.MkdirAll(filepath.Dir(stale), 0o755)
	os.WriteFile(stale, []byte("half"), 0o644)
	_, errOut, code := runCLI(t, "run", "--workspace", ws.Root, "--executor", "local", "--to", "map")
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatalf("stale file still there: %v", err)
	}
	if code != 0 || errOut != "removed 1 temporary file left by an interrupted run\n" {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
}
