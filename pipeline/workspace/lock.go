package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// LockDir is the workspace folder of the run locks.
const LockDir = "locks"

// ErrBusy is wrapped by LockRun's error when another run holds the lock.
var ErrBusy = errors.New("the workspace is in use by another lolbench run")

// Lock is a held run lock; Release gives it back. The operating system
// also releases it when the process dies, so a killed run never leaves the
// workspace locked.
type Lock struct {
	files []*os.File
	owner *os.File // the file naming the holder, truncated on release
}

// Release gives the lock back.
func (l *Lock) Release() {
	if l == nil {
		return
	}
	if l.owner != nil {
		l.owner.Truncate(0)
	}
	for i := len(l.files) - 1; i >= 0; i-- {
		unlock(l.files[i])
		l.files[i].Close()
	}
	l.files = nil
}

// LockRun takes the lock of one run over the workspace, so that two runs
// never do the same work at once. A run of the whole workspace (shard "")
// holds locks/run.lock exclusively. A sharded run ("3/8") holds it shared,
// so that the n workers of a sharded job run side by side, and holds its
// shard's own lock file exclusively, so that the same shard never runs
// twice. It never waits: a busy workspace is an error wrapping ErrBusy
// that names the holder.
func (w *Workspace) LockRun(shard string) (*Lock, error) {
	dir, err := w.Path(LockDir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("workspace lock: %w", err)
	}
	l := &Lock{}
	main := filepath.Join(dir, "run.lock")
	if shard == "" {
		f, err := take(main, true)
		if err != nil {
			return nil, w.busy(err, main, "")
		}
		l.files = append(l.files, f)
		l.owner = f
	} else {
		f, err := take(main, false)
		if err != nil {
			return nil, w.busy(err, main, "")
		}
		f.Truncate(0) // no writer holds it: what it says is stale
		l.files = append(l.files, f)
		name := filepath.Join(dir, "run-shard-"+strings.ReplaceAll(shard, "/", "-of-")+".lock")
		g, err := take(name, true)
		if err != nil {
			l.Release()
			return nil, w.busy(err, name, shard)
		}
		l.files = append(l.files, g)
		l.owner = g
	}
	l.owner.Truncate(0)
	host, _ := os.Hostname()
	fmt.Fprintf(l.owner, "pid %d on %s since %s\n", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339))
	l.owner.Sync()
	return l, nil
}

// take opens path and locks it without waiting.
func take(path string, exclusive bool) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := lock(f, exclusive); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// busy turns a failed lock into the message a user acts on.
func (w *Workspace) busy(err error, path, shard string) error {
	if !errors.Is(err, errLocked) {
		return fmt.Errorf("workspace lock %s: %w", path, err)
	}
	holder := "sharded runs (--shard)"
	if data, rerr := os.ReadFile(path); rerr == nil && strings.TrimSpace(string(data)) != "" {
		holder = strings.TrimSpace(string(data))
	}
	next := "wait for it to finish"
	if shard != "" {
		next += ", or run another shard"
	}
	return fmt.Errorf("%w: %s is locked by %s (%s); %s", ErrBusy, w.Root, holder, path, next)
}
