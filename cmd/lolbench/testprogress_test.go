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

// plainProgress drives testProgress on a non-terminal with a fake clock
// and an injected ticker.
type plainProgress struct {
	t     *testing.T
	out   syncBuffer
	clock time.Time
	tick  chan time.Time
	tp    *testProgress
	lines int
}

func newPlainProgress(t *testing.T) *plainProgress {
	pp := &plainProgress{t: t, clock: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC), tick: make(chan time.Time)}
	pp.tp = newTestProgress(&pp.out, nil, func() time.Time { return pp.clock }, pp.tick)
	return pp
}

// tickAt moves the clock and ticks, then waits for the tick's lines.
func (pp *plainProgress) tickAt(d time.Duration, want int) {
	pp.t.Helper()
	pp.clock = pp.clock.Add(d)
	pp.tick <- pp.clock
	pp.lines += want
	for deadline := time.Now().Add(5 * time.Second); strings.Count(pp.out.String(), "\n") < pp.lines; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			pp.t.Fatalf("no tick lines after %v:\n%s", d, pp.out.String())
		}
	}
}

// up passes an update that prints want lines.
func (pp *plainProgress) up(id string, p sandbox.TestProgress, want int) {
	pp.tp.update(id, p)
	pp.lines += want
}

// check closes the progress and compares every line printed.
func (pp *plainProgress) check(want string) {
	pp.t.Helper()
	pp.tp.close()
	if got := pp.out.String(); got != want {
		pp.t.Errorf("lines:\n%s\nwant:\n%s", got, want)
	}
}

// TestTestProgressLines: on a non-terminal, a line when a run starts and
// when it ends, and one per running side at every tick (every 30 s in the
// commands), with the run's own elapsed time.
func TestTestProgressLines(t *testing.T) {
	pp := newPlainProgress(t)
	const a, b = "tinykv-tkep-0002", "unitconv-ucep-0004"
	pp.up(a, sandbox.TestProgress{Side: "before", Run: 1, Runs: 3, Known: 57}, 1)
	pp.tickAt(30*time.Second, 1)
	pp.up(a, sandbox.TestProgress{Side: "before", Run: 1, Runs: 3, Done: 20, Known: 57}, 0)
	pp.up(b, sandbox.TestProgress{Side: "after", Run: 2, Runs: 2, Done: 3}, 1)
	pp.tickAt(30*time.Second, 2)
	pp.up(a, sandbox.TestProgress{Side: "before", Run: 1, Runs: 3, Done: 57, Known: 57, Ended: true}, 1)
	pp.clock = pp.clock.Add(5 * time.Second)
	// A run seen only once it had ended (the poll missed it) prints its end.
	pp.up(a, sandbox.TestProgress{Side: "before", Run: 3, Runs: 3, Done: 60, Known: 57, Ended: true, Over: true}, 1)
	pp.up(b, sandbox.TestProgress{Side: "after", Run: 2, Runs: 2, Done: 9, Known: 0, Ended: true, Over: true}, 1)
	// Nothing runs: a tick is silent.
	pp.tickAt(30*time.Second, 0)
	pp.check(`tinykv-tkep-0002: tests before the reference solution, run 1 of 3: 0/57 done, 0s
tinykv-tkep-0002: tests before the reference solution, run 1 of 3: 0/57 done, 30s
unitconv-ucep-0004: tests after the reference solution, run 2 of 2: 3 done, 0s
tinykv-tkep-0002: tests before the reference solution, run 1 of 3: 20/57 done, 1m0s
unitconv-ucep-0004: tests after the reference solution, run 2 of 2: 3 done, 30s
tinykv-tkep-0002: tests before the reference solution, run 1 of 3: 57/57 done, 1m0s, ended
tinykv-tkep-0002: tests before the reference solution, run 3 of 3: 60 done, 0s, ended
unitconv-ucep-0004: tests after the reference solution, run 2 of 2: 9 done, 35s, ended
`)
}

// TestTestProgressCoverageAndVerify: mutate's coverage run and lolbench
// verify's run of a solution talk as the build's runs do (issue 25 §2:
// they were silent for 575 s and 102 s): a line when they start and end,
// and one every tick while they run, even when nothing moved.
func TestTestProgressCoverageAndVerify(t *testing.T) {
	pp := newPlainProgress(t)
	const a, b = "packaging-pep-0639", "tinykv-tkep-0002"
	pp.up(a, sandbox.TestProgress{Side: sandbox.CoverageSide, Run: 1, Runs: 1, Known: 26921}, 1)
	pp.up(b, sandbox.TestProgress{Side: sandbox.SolutionSide, Run: 1, Runs: 1, Known: 16}, 1)
	pp.tickAt(30*time.Second, 2)
	pp.up(a, sandbox.TestProgress{Side: sandbox.CoverageSide, Run: 1, Runs: 1, Done: 4100, Known: 26921}, 0)
	pp.up(b, sandbox.TestProgress{Side: sandbox.SolutionSide, Run: 1, Runs: 1, Done: 16, Known: 16, Ended: true, Over: true}, 1)
	pp.tickAt(30*time.Second, 1)
	pp.tickAt(30*time.Second, 1)
	pp.up(a, sandbox.TestProgress{Side: sandbox.CoverageSide, Run: 1, Runs: 1, Done: 26921, Known: 26921, Ended: true, Over: true}, 1)
	pp.check(`packaging-pep-0639: tests under coverage, run 1 of 1: 0/26921 done, 0s
tinykv-tkep-0002: tests of the solution, run 1 of 1: 0/16 done, 0s
packaging-pep-0639: tests under coverage, run 1 of 1: 0/26921 done, 30s
tinykv-tkep-0002: tests of the solution, run 1 of 1: 0/16 done, 30s
tinykv-tkep-0002: tests of the solution, run 1 of 1: 16/16 done, 30s, ended
packaging-pep-0639: tests under coverage, run 1 of 1: 4100/26921 done, 1m0s
packaging-pep-0639: tests under coverage, run 1 of 1: 4100/26921 done, 1m30s
packaging-pep-0639: tests under coverage, run 1 of 1: 26921/26921 done, 1m30s, ended
`)
}

// TestTestProgressMutants: each mutant job of mutate talks as a side of
// its own (issue 36 §5: a job was silent for up to a minute).
func TestTestProgressMutants(t *testing.T) {
	pp := newPlainProgress(t)
	const a = "grpc-go-a58"
	side := sandbox.MutantSide("revert-4.5")
	pp.up(a, sandbox.TestProgress{Side: side, Run: 1, Runs: 1, Known: 20}, 1)
	pp.tickAt(30*time.Second, 1)
	pp.up(a, sandbox.TestProgress{Side: side, Run: 1, Runs: 1, Done: 20, Known: 20, Ended: true, Over: true}, 1)
	pp.check(`grpc-go-a58: tests on mutant revert-4.5, run 1 of 1: 0/20 done, 0s
grpc-go-a58: tests on mutant revert-4.5, run 1 of 1: 0/20 done, 30s
grpc-go-a58: tests on mutant revert-4.5, run 1 of 1: 20/20 done, 30s, ended
`)
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
	// The coverage run's bar says what it is.
	tp.update("tinykv-tkep-0002", sandbox.TestProgress{Side: sandbox.CoverageSide, Run: 1, Runs: 1, Done: 5, Known: 16})
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(out.String(), "tinykv-tkep-0002 tests under coverage, run 1/1"); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no coverage bar:\n%q", out.String())
		}
	}
	if !strings.Contains(out.String(), "5/16 done, 0s") {
		t.Errorf("the coverage bar lacks its counts:\n%q", out.String())
	}
	tp.update("tinykv-tkep-0002", sandbox.TestProgress{Side: sandbox.CoverageSide, Run: 1, Runs: 1, Done: 16, Known: 16, Ended: true, Over: true})
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
