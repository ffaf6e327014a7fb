package guard

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/lolbench/lolbench/pipeline/results"
)

// ProgressFile is written in Options.Out while the tests run (Options.
// Progress): how far the current run is, for the host to show (issue 13
// §3: long builds talk). It is informational: the tests' own output feeds
// the counts, and nothing grades from it.
const ProgressFile = "progress.json"

// Progress is ProgressFile.
type Progress struct {
	// Run is the current run, of Runs.
	Run  int `json:"run"`
	Runs int `json:"runs"`
	// Done counts the tests the run's output reported finished so far
	// (results.Counter).
	Done int `json:"done"`
	// Known is how many tests the run is expected to report: what its
	// output announced (pytest's "collected N items"), else what the run
	// before it reported; 0 when neither is known.
	Known int `json:"known"`
	// Ended is set once the run's tests are over.
	Ended bool `json:"ended,omitempty"`
}

// progressEvery is how often the file is rewritten while a run goes on,
// when its counts changed.
var progressEvery = time.Second

// progress keeps ProgressFile up to date for one invocation.
type progress struct {
	file string
	mu   sync.Mutex
	cur  Progress
	last Progress // as written
	prev int      // tests the previous run reported
	ctr  *results.Counter
	stop chan struct{}
	wg   sync.WaitGroup
}

func newProgress(out string, runs int) *progress {
	return &progress{file: filepath.Join(out, ProgressFile), cur: Progress{Runs: max(runs, 1)}}
}

// start begins run n; the returned writer feeds the counter and is meant
// to sit beside the run's log.
func (p *progress) start(n int) io.Writer {
	if p == nil {
		return io.Discard
	}
	p.mu.Lock()
	p.ctr = &results.Counter{}
	p.cur = Progress{Run: n, Runs: p.cur.Runs, Known: p.prev}
	p.write()
	p.mu.Unlock()
	p.stop = make(chan struct{})
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.mu.Lock()
				p.update()
				p.write()
				p.mu.Unlock()
			}
		}
	}()
	return p.ctr
}

// end closes run n: its final counts, marked ended.
func (p *progress) end() {
	if p == nil || p.stop == nil {
		return
	}
	close(p.stop)
	p.wg.Wait()
	p.stop = nil
	p.mu.Lock()
	defer p.mu.Unlock()
	p.update()
	p.cur.Ended = true
	if p.cur.Done > 0 {
		p.prev = p.cur.Done
	}
	p.write()
}

func (p *progress) update() {
	done, known := p.ctr.Counts()
	p.cur.Done = done
	if known > 0 {
		p.cur.Known = known
	}
}

// write replaces the file when the counts changed: a temporary file and a
// rename, so that a reader never sees half of it. Errors are dropped: the
// progress of a run never fails it.
func (p *progress) write() {
	if p.cur == p.last {
		return
	}
	data, err := json.Marshal(p.cur)
	if err != nil {
		return
	}
	tmp := p.file + ".tmp"
	if os.WriteFile(tmp, data, 0o600) == nil && os.Rename(tmp, p.file) == nil {
		p.last = p.cur
	}
}

// followEvery is how often FollowLog reads what its log gained.
var followEvery = 250 * time.Millisecond

// FollowLog keeps ProgressFile in out up to date from a test log that
// another process writes, as one run of one: the mutate stage's coverage
// run, whose test command writes its log itself (issue 25 §2: it ran
// silent for ten minutes). It reads what the log gains every followEvery
// into the counter the verifier's runs use, waiting for the log to
// appear, and once the file until exists (the writer is done: a file, not
// a signal, which could come before the process can catch it) or ctx is
// done, it reads the rest and marks the run ended. known is the caller's
// estimate of the tests the log will report (0: unknown); what the log
// announces wins. Like every progress count it is informational: the
// tests write the log.
func FollowLog(ctx context.Context, log, until, out string, known int) {
	p := newProgress(out, 1)
	p.prev = known
	w := p.start(1)
	defer p.end()
	var f *os.File
	buf := make([]byte, 64<<10)
	drain := func() {
		if f == nil {
			if f, _ = os.Open(log); f == nil {
				return
			}
		}
		for {
			n, err := f.Read(buf)
			w.Write(buf[:n])
			if err != nil || n == 0 {
				return
			}
		}
	}
	defer func() {
		if f != nil {
			f.Close()
		}
	}()
	t := time.NewTicker(followEvery)
	defer t.Stop()
	for {
		drain()
		if _, err := os.Stat(until); err == nil {
			drain()
			return
		}
		select {
		case <-ctx.Done():
			drain()
			return
		case <-t.C:
		}
	}
}
