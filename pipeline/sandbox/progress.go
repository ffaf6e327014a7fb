package sandbox

import (
	"archive/tar"
	"context"
	"encoding/json"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/moby/moby/client"

	"github.com/lolbench/lolbench/pipeline/sandbox/guard"
)

// TestProgress is how far the test runs of one side are (issue 13 §3:
// long builds talk). The verifier counts finished tests in the tests'
// output as it streams (guard.ProgressFile); the host reads it while the
// job runs.
type TestProgress struct {
	// Side is Before or After, or ReachSide, CoverageSide, SolutionSide or a
	// MutantSide.
	Side string
	// Run is the current run, of Runs.
	Run, Runs int
	// Done counts the tests the run reported finished so far; Known is how
	// many it is expected to report (what its output announced, else the
	// run before it, else the caller's estimate), 0 when unknown.
	Done, Known int
	// Ended is set when the run is over; Over when the whole side is.
	Ended, Over bool
}

// ProgressFunc receives a side's progress; it is called from one goroutine
// at a time per side, and only when something changed.
type ProgressFunc func(TestProgress)

// Sides of test runs besides the build's Before and After (issue 25 §2:
// every long test run talks): the coverage measurement's reach run (the
// whole suite, file-level coverage) and per-test run, and a solution's run
// in lolbench verify.
const (
	ReachSide    = "reach"
	CoverageSide = "coverage"
	SolutionSide = "solution"
)

// mutantSidePrefix starts the side of a mutant's job in the mutate stage.
const mutantSidePrefix = "mutant "

// MutantSide is the side of mutant id's job.
func MutantSide(id string) string { return mutantSidePrefix + id }

// MutantOf returns the mutant id of a MutantSide, and whether it is one.
func MutantOf(side string) (string, bool) { return strings.CutPrefix(side, mutantSidePrefix) }

// FollowProgress follows one side's test runs in a job: it sends the
// side's start at once (run 1 of runs, known tests estimated), and returns
// a context that asks the executor's Run to read the job's
// guard.ProgressFile every pollEvery and pass on its changes, and the
// function that sends the side's end once the job is over, from the
// file's last content as collected on the host (hostFile). file is where
// the job writes it: relative to the job's out/ folder, or an absolute
// path in the sandbox (a folder of Job.Collect).
func FollowProgress(ctx context.Context, fn ProgressFunc, side string, runs, known int, file string) (context.Context, func(hostFile string)) {
	sp := &sideProgress{side: side, runs: max(runs, 1), known: known, fn: fn}
	sp.send(TestProgress{Side: side, Run: 1, Runs: sp.runs, Known: known})
	return withWatch(ctx, file, sp.file), sp.over
}

// pollEvery is how often the host reads a running job's progress file: one
// small copy out of the container.
var pollEvery = 2 * time.Second

// maxProgressBytes caps a progress file read back; the verifier writes a
// line of JSON.
const maxProgressBytes = 64 << 10

// watch is what a caller asks an executor's Run to follow while a job
// runs: a file of the job's out/ folder, or an absolute path in the
// sandbox, read every pollEvery.
type watch struct {
	file string
	fn   func([]byte)
}

type watchKey struct{}

// withWatch asks Run to read file (relative to the job's out/ folder)
// while the job runs and hand each content to fn. A context carries it,
// as net/http/httptrace carries its hooks: only the callers that follow a
// job pay for it.
func withWatch(ctx context.Context, file string, fn func([]byte)) context.Context {
	return context.WithValue(ctx, watchKey{}, &watch{file: file, fn: fn})
}

// follow starts reading the watched file with read, when the context asks
// for it, and returns the function that stops it (and waits).
func follow(ctx context.Context, read func(file string) ([]byte, error)) (stop func()) {
	w, _ := ctx.Value(watchKey{}).(*watch)
	if w == nil {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(pollEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				if data, err := read(w.file); err == nil {
					w.fn(data)
				}
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// readLocal reads a file of a local job: relative to its out/ folder, or
// an absolute sandbox path, which is under the job's root folder (root;
// LOLBENCH_ROOT).
func readLocal(out, root string) func(string) ([]byte, error) {
	return func(file string) ([]byte, error) {
		p := filepath.Join(out, file)
		if filepath.IsAbs(file) {
			p = filepath.Join(root, file)
		}
		return readFile(p)
	}
}

// readFile reads a progress file on the host, capped.
func readFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxProgressBytes))
}

// readOut reads a file of a running container, relative to the job's
// out/ folder or at an absolute path: the first regular file of the
// archive the engine sends.
func (e *dockerEnv) readOut(ctx context.Context, id string) func(string) ([]byte, error) {
	return func(file string) ([]byte, error) {
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		src := JobDir + "/out/" + file
		if path.IsAbs(file) {
			src = file
		}
		res, err := e.d.cli.CopyFromContainer(cctx, id, client.CopyFromContainerOptions{SourcePath: src})
		if err != nil {
			return nil, err
		}
		defer res.Content.Close()
		tr := tar.NewReader(res.Content)
		for {
			h, err := tr.Next()
			if err != nil {
				return nil, err
			}
			if h.Typeflag == tar.TypeReg {
				return io.ReadAll(io.LimitReader(tr, maxProgressBytes))
			}
		}
	}
}

// sideProgress turns the verifier's progress file into a side's
// TestProgress and passes on the changes.
type sideProgress struct {
	mu    sync.Mutex
	side  string
	runs  int
	known int // the caller's estimate for the first run
	fn    ProgressFunc
	last  TestProgress
	sent  bool
}

func (s *sideProgress) send(p TestProgress) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sent && p == s.last {
		return
	}
	s.last, s.sent = p, true
	s.fn(p)
}

// file reads one content of guard.ProgressFile and passes it on.
func (s *sideProgress) file(data []byte) {
	if p, ok := s.parse(data); ok {
		s.send(p)
	}
}

// parse reads guard.ProgressFile; a torn or foreign content is not ok.
func (s *sideProgress) parse(data []byte) (TestProgress, bool) {
	var g guard.Progress
	if json.Unmarshal(data, &g) != nil || g.Run < 1 || g.Run > s.runs {
		return TestProgress{}, false
	}
	known := g.Known
	if known == 0 {
		known = s.known
	}
	return TestProgress{Side: s.side, Run: g.Run, Runs: s.runs, Done: g.Done, Known: known, Ended: g.Ended}, true
}

// over reports the end of the side, with the last state the job left in
// hostFile (its copy on the host; "" for none).
func (s *sideProgress) over(hostFile string) {
	s.mu.Lock()
	p := s.last
	s.mu.Unlock()
	if data, err := readFile(hostFile); err == nil {
		if f, ok := s.parse(data); ok {
			p = f
		}
	}
	if p.Run == 0 {
		p = TestProgress{Side: s.side, Run: 1, Runs: s.runs, Known: s.known}
	}
	p.Ended, p.Over = true, true
	s.send(p)
}
