package sandbox

import (
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a writer two goroutines may use.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestHeartbeat: a long step says it is going on every period, and not
// once it is stopped (issue 36 §5).
func TestHeartbeat(t *testing.T) {
	var w lockedBuffer
	step := "install 2 of 3 (go build ./...)"
	stop := heartbeat(&w, 5*time.Millisecond, func(time.Duration) string { return "building x: at " + step })
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(w.String(), "\n") < 2 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	stop()
	got := w.String()
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) < 2 {
		t.Fatalf("heartbeat wrote %q", got)
	}
	for _, l := range lines {
		if l != "building x: at install 2 of 3 (go build ./...)" {
			t.Fatalf("line %q", l)
		}
	}
	time.Sleep(20 * time.Millisecond)
	if w.String() != got {
		t.Fatalf("lines after stop: %q", strings.TrimPrefix(w.String(), got))
	}
	heartbeat(nil, time.Millisecond, func(time.Duration) string { panic("no writer, no line") })()
}

// TestStepLogStep: the setup script's step under way is what the image
// build's progress line names; a failed step does not replace it.
func TestStepLogStep(t *testing.T) {
	var s stepLog
	for _, l := range []string{stepPrefix + "base commit", "some output", stepPrefix + "install 1 of 2 (go build ./...)", "compiling"} {
		s.add(l)
	}
	if s.step != "install 1 of 2 (go build ./...)" {
		t.Fatalf("step %q", s.step)
	}
	s.add(stepPrefix + "install 1 of 2 (go build ./...)" + stepFailed + "1")
	if s.step != "install 1 of 2 (go build ./...)" || s.failed == "" {
		t.Fatalf("step %q failed %q", s.step, s.failed)
	}
}
