package main

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vbauerster/mpb/v8"

	"github.com/lolbench/lolbench/pipeline/sandbox"
)

// syncBuffer is a strings.Builder the tick goroutine and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestTestProgressLines: on a non-terminal, a line when a run starts and
// when it ends, and one per running side at every tick (every 30 s in the
// commands), with the run's own elapsed time.
func TestTestProgressLines(t *testing.T) {
	var out syncBuffer
	clock := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	now := func() time.Time { return clock }
	tick := make(chan time.Time)
	tp := newTestProgress(&out, nil, now, tick)
	lines := 0
	// tickAt moves the clock and ticks, then waits for the tick's lines.
	tickAt := func(d time.Duration, want int) {
		t.Helper()
		clock = clock.Add(d)
		tick <- clock
		lines += want
		for deadline := time.Now().Add(5 * time.Second); strings.Count(out.String(), "\n") < lines; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("no tick lines after %v:\n%s", d, out.String())
			}
		}
	}
	up := func(id string, p sandbox.TestProgress, want int) {
		tp.update(id, p)
		lines += want
	}
	const a, b = "tinykv-tkep-0002", "unitconv-ucep-0004"
	up(a, sandbox.TestProgress{Side: "before", Run: 1, Runs: 3, Known: 57}, 1)
	tickAt(30*time.Second, 1)
	up(a, sandbox.TestProgress{Side: "before", Run: 1, Runs: 3, Done: 20, Known: 57}, 0)
	up(b, sandbox.TestProgress{Side: "after", Run: 2, Runs: 2, Done: 3}, 1)
	tickAt(30*time.Second, 2)
	up(a, sandbox.TestProgress{Side: "before", Run: 1, Runs: 3, Done: 57, Known: 57, Ended: true}, 1)
	clock = clock.Add(5 * time.Second)
	// A run seen only once it had ended (the poll missed it) prints its end.
	up(a, sandbox.TestProgress{Side: "before", Run: 3, Runs: 3, Done: 60, Known: 57, Ended: true, Over: true}, 1)
	up(b, sandbox.TestProgress{Side: "after", Run: 2, Runs: 2, Done: 9, Known: 0, Ended: true, Over: true}, 1)
	// Nothing runs: a tick is silent.
	tickAt(30*time.Second, 0)
	tp.close()
	want := `tinykv-tkep-0002: tests before the reference solution, run 1 of 3: 0/57 done, 0s
tinykv-tkep-0002: tests before the reference solution, run 1 of 3: 0/57 done, 30s
unitconv-ucep-0004: tests after the reference solution, run 2 of 2: 3 done, 0s
tinykv-tkep-0002: tests before the reference solution, run 1 of 3: 20/57 done, 1m0s
unitconv-ucep-0004: tests after the reference solution, run 2 of 2: 3 done, 30s
tinykv-tkep-0002: tests before the reference solution, run 1 of 3: 57/57 done, 1m0s, ended
tinykv-tkep-0002: tests before the reference solution, run 3 of 3: 60 done, 0s, ended
unitconv-ucep-0004: tests after the reference solution, run 2 of 2: 9 done, 35s, ended
`
	if got := out.String(); got != want {
		t.Errorf("lines:\n%s\nwant:\n%s", got, want)
	}
}

// TestTestProgressBars: on a terminal the sides are bars in the mpb
// container; a side that is over completes and leaves, and close returns
// (rendering never waits for an update).
func TestTestProgressBars(t *testing.T) {
	var out syncBuffer
	p := mpb.New(mpb.WithOutput(&out), mpb.WithWidth(60), mpb.WithAutoRefresh(), mpb.WithRefreshRate(time.Millisecond))
	clock := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	tp := newTestProgress(&out, p, func() time.Time { return clock }, nil)
	tp.own = true
	for i := 0; i <= 57; i += 3 {
		tp.update("tinykv-tkep-0002", sandbox.TestProgress{Side: "before", Run: 2, Runs: 3, Done: i, Known: 57})
		time.Sleep(time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond)
	if s := out.String(); !strings.Contains(s, "tinykv-tkep-0002 tests before, run 2/3") || !strings.Contains(s, "57/57 done, 0s") {
		t.Errorf("bar output lacks the side or its counts:\n%q", s)
	}
	tp.update("tinykv-tkep-0002", sandbox.TestProgress{Side: "before", Run: 3, Runs: 3, Done: 57, Known: 57, Ended: true, Over: true})
	tp.update("unitconv-ucep-0004", sandbox.TestProgress{Side: "after", Run: 1, Runs: 3, Done: 1})
	done := make(chan bool)
	go func() { tp.close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("close did not return")
	}
}
