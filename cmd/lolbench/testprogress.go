package main

import (
	"fmt"
	"io"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"

	"github.com/lolbench/lolbench/pipeline/sandbox"
)

// quietLimit is the longest a non-terminal goes without a progress line
// while tests run (issue 13 §3): a CI log that says nothing for 12
// minutes looks hung.
const quietLimit = 30 * time.Second

// testProgress shows long test runs: the build's, mutate's coverage run
// and lolbench verify's (issue 25 §2): tests done of tests known, the time
// the current run has taken and which run of how many.
// On a terminal it is one bar per candidate and side in the mpb container
// the command already shows (lolbench run's stage bars) or its own; on
// anything else it is a line when a run starts and when it ends, and one
// per running side at every tick (quietLimit).
type testProgress struct {
	mu   sync.Mutex
	w    io.Writer
	p    *mpb.Progress // nil: plain lines
	own  bool          // p is this value's own, waited for on close
	now  func() time.Time
	runs map[string]*testRun // candidate+side -> its current run
	bars map[string]*sideBar
	stop chan struct{}
	done chan struct{}
}

// testRun is the current run of one candidate's side.
type testRun struct {
	id    string
	p     sandbox.TestProgress
	start time.Time // when this run was first seen
}

// newTestProgress starts showing test progress on w. p is the terminal's
// bar container, nil on a non-terminal; tick, on a non-terminal, prints
// the running sides (time.Tick(quietLimit) in the commands, a channel
// under the test's control in tests).
func newTestProgress(w io.Writer, p *mpb.Progress, now func() time.Time, tick <-chan time.Time) *testProgress {
	t := &testProgress{w: w, p: p, now: now, runs: map[string]*testRun{}, bars: map[string]*sideBar{},
		stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(t.done)
		for {
			select {
			case <-t.stop:
				return
			case <-tick:
				t.tick()
			}
		}
	}()
	return t
}

// newCommandTestProgress is the commands' test progress: bars in p (or
// in a container of its own) on a terminal, lines every quietLimit
// otherwise.
func newCommandTestProgress(w io.Writer, tty bool, p *mpb.Progress) *testProgress {
	if !tty {
		tk := time.NewTicker(quietLimit)
		t := newTestProgress(w, nil, time.Now, tk.C)
		go func() { <-t.done; tk.Stop() }()
		return t
	}
	own := p == nil
	if own {
		p = mpb.New(mpb.WithOutput(w), mpb.WithAutoRefresh(), mpb.WithRefreshRate(150*time.Millisecond))
	}
	t := newTestProgress(w, p, time.Now, nil)
	t.own = own
	return t
}

// status is where status lines go while the bars show: above them on a
// terminal, else the plain writer.
func (t *testProgress) status() io.Writer {
	if t.p != nil {
		return t.p
	}
	return t.w
}

// update takes a side's progress (build.Stage.Progress).
func (t *testProgress) update(id string, p sandbox.TestProgress) {
	t.mu.Lock()
	defer t.mu.Unlock()
	key := id + " " + p.Side
	r := t.runs[key]
	if r == nil || r.p.Run != p.Run {
		r = &testRun{id: id, start: t.now()}
		t.runs[key] = r
		if t.p == nil && !p.Ended {
			r.p = p
			fmt.Fprintln(t.w, r.line(t.now()))
		}
	}
	ended := p.Ended && !r.p.Ended
	r.p = p
	if t.p != nil {
		t.bar(key, r)
	} else if ended {
		fmt.Fprintln(t.w, r.line(t.now()))
	}
	if p.Over {
		delete(t.runs, key)
	}
}

// tick prints every running side, in a stable order.
func (t *testProgress) tick() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.p != nil {
		return
	}
	keys := make([]string, 0, len(t.runs))
	for k, r := range t.runs {
		if !r.p.Ended {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintln(t.w, t.runs[k].line(t.now()))
	}
}

// line is the plain form: "tinykv-tkep-0002: tests before the reference
// solution, run 2 of 3: 12/57 done, 1m30s".
func (r *testRun) line(now time.Time) string {
	s := fmt.Sprintf("%s: tests %s, run %d of %d: %s, %s", r.id, sideTitle(r.p.Side, true), r.p.Run, r.p.Runs,
		counts(r.p), now.Sub(r.start).Round(time.Second))
	if r.p.Ended {
		s += ", ended"
	}
	return s
}

// sideTitle says which test run a side is, at length for a line ("before
// the reference solution") or short for a bar ("before").
func sideTitle(side string, long bool) string {
	switch side {
	case sandbox.Before, sandbox.After:
		if long {
			return side + " the reference solution"
		}
		return side
	case sandbox.ReachSide:
		if long {
			return "under coverage, to find the tests that run a changed file"
		}
		return "reach"
	case sandbox.CoverageSide:
		return "under coverage"
	case sandbox.SolutionSide:
		return "of the solution"
	}
	if id, ok := sandbox.MutantOf(side); ok {
		return "on mutant " + id
	}
	return side
}

// counts is "12/57 done", or "12 done" while the total is unknown (and
// when the run reports more than expected).
func counts(p sandbox.TestProgress) string {
	if p.Known > 0 && p.Done <= p.Known {
		return fmt.Sprintf("%d/%d done", p.Done, p.Known)
	}
	return fmt.Sprintf("%d done", p.Done)
}

// sideBar is a terminal bar and what its decorators show: a copy of the
// side's run, swapped whole, so that rendering never waits for update
// (which holds testProgress.mu while it moves the bar).
type sideBar struct {
	b   *mpb.Bar
	cur atomic.Pointer[testRun]
}

// bar moves the terminal bar of a side; it completes with the side.
func (t *testProgress) bar(key string, r *testRun) {
	sb := t.bars[key]
	snap := *r
	if sb == nil {
		sb = &sideBar{}
		sb.cur.Store(&snap)
		now := t.now
		sb.b = t.p.AddBar(0, mpb.BarRemoveOnComplete(),
			mpb.PrependDecorators(decor.Any(func(decor.Statistics) string {
				c := sb.cur.Load()
				return fmt.Sprintf("%s tests %s, run %d/%d", c.id, sideTitle(c.p.Side, false), c.p.Run, c.p.Runs)
			}, decor.WCSyncSpaceR)),
			mpb.AppendDecorators(decor.Any(func(decor.Statistics) string {
				c := sb.cur.Load()
				return counts(c.p) + ", " + now().Sub(c.start).Round(time.Second).String()
			})))
		t.bars[key] = sb
	}
	sb.cur.Store(&snap)
	p := r.p
	if p.Over {
		sb.b.SetTotal(-1, true)
		delete(t.bars, key)
		return
	}
	sb.b.SetTotal(int64(max(p.Known, p.Done+1)), false)
	sb.b.SetCurrent(int64(p.Done))
}

// close stops the ticks and the bars this value owns; bars of sides that
// never ended (a failed build) are dropped.
func (t *testProgress) close() {
	close(t.stop)
	<-t.done
	t.mu.Lock()
	for k, b := range t.bars {
		b.b.Abort(true)
		delete(t.bars, k)
	}
	t.mu.Unlock()
	if t.own {
		t.p.Wait()
	}
}
