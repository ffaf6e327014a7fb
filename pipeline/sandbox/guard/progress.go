package guard

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/lolbench/lolbench/pipeline/sandbox/results"
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
