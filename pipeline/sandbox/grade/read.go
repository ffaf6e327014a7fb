package grade

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/lolbench/lolbench/pipeline/results"
)

// Files of a guarded run's folder (issue 11). The verifier inside the
// sandbox writes them as root, out of the tested code's reach, after every
// process of the test run is dead; the host grades from them.
const (
	RunJSON    = "run.json"
	RunLog     = "test-output.log"
	RunReports = "results"
)

// Canary is one planted test that must fail (issue 11, "detect what
// cannot be prevented"). Its name is random per run.
type Canary struct {
	// Dir is the folder it was planted in, File its path; both relative
	// to the repository.
	Dir  string `json:"dir"`
	File string `json:"file"`
	// Name is the test function's name, unique in the run; a result is
	// the canary's when its id ends in it.
	Name string `json:"name"`
	// Unit is what a whole-unit failure is reported as (a Go package's
	// import path, for "pkg [package]"); empty where no such entry exists.
	Unit string `json:"unit,omitempty"`
	// Last is set on a canary that runs after the unit's other tests (Go):
	// a crash of the unit may keep it from running.
	Last bool `json:"last,omitempty"`
}

// Reset says what the verifier put back before a run.
type Reset struct {
	Removed  []string `json:"removed,omitempty"`
	Restored []string `json:"restored,omitempty"`
	Sections []string `json:"sections,omitempty"`
	Synced   []string `json:"synced,omitempty"`
}

// RunRecord is run.json: how one guarded run went.
type RunRecord struct {
	N int `json:"n"`
	// Exit is the test command's exit status as the verifier saw it; 124
	// when it was killed at its deadline.
	Exit     int           `json:"exit_code"`
	TimedOut bool          `json:"timed_out,omitempty"`
	Duration time.Duration `json:"duration_ns"`
	// LogTruncated is set when the output passed the cap and was cut.
	LogTruncated bool     `json:"log_truncated,omitempty"`
	Canaries     []Canary `json:"canaries"`
	// CanaryGap says why no canary was planted, when none was.
	CanaryGap string `json:"canary_gap,omitempty"`
	// Strays are processes found, and killed, before the run (an agent's
	// leftovers); Leftovers those killed after the command ended;
	// Survivors those still alive after that.
	Strays    int      `json:"strays_killed"`
	Leftovers int      `json:"leftovers_killed"`
	Survivors []string `json:"survivors,omitempty"`
	Reset     Reset    `json:"reset"`
	// Isolated is false for the local executor: the tests ran as the
	// grader's own user.
	Isolated bool `json:"isolated"`
	// Error is set when the run could not happen; nothing else counts.
	Error string `json:"error,omitempty"`
}

// maxRunJSON caps run.json; a real one is kilobytes.
const maxRunJSON = 64 << 20

// LoadRun reads run.json from a run folder.
func LoadRun(dir string) (*RunRecord, error) {
	f, err := os.Open(filepath.Join(dir, RunJSON))
	if err != nil {
		return nil, fmt.Errorf("verifier output: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxRunJSON+1))
	if err != nil {
		return nil, fmt.Errorf("verifier output: %w", err)
	}
	if len(data) > maxRunJSON {
		return nil, fmt.Errorf("verifier output %s: larger than %d bytes", f.Name(), maxRunJSON)
	}
	var rec RunRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, fmt.Errorf("verifier output %s: %w", f.Name(), err)
	}
	return &rec, nil
}

// RunResults parses a run folder's results: the report files when the
// recipe names them (results != ""), else the output.
func RunResults(format, dir string, reports bool) ([]results.Result, error) {
	resDir := ""
	if reports {
		resDir = filepath.Join(dir, RunReports)
	}
	return ReadResults(format, filepath.Join(dir, RunLog), resDir)
}

// ReadResults parses a run's results: the files of resDir when it holds
// any (a report glob), else the log, in the given format. Files are read in
// name order and merged (worst status wins), and Go tests that have
// subtests give way to their subtests (results.Leaves), a parent's own
// failure passed down to them: this is where every run is read, by the
// build's classification, the verifier, verify, eval and the mutants' runs
// alike, so all of them grade the same leaves.
func ReadResults(format, logPath, resDir string) ([]results.Result, error) {
	var files []string
	if resDir != "" {
		entries, _ := os.ReadDir(resDir)
		for _, e := range entries {
			if e.Type().IsRegular() {
				files = append(files, filepath.Join(resDir, e.Name()))
			}
		}
		sort.Strings(files)
		if len(files) == 0 {
			if _, err := results.Lookup(format); err != nil {
				return nil, err
			}
			return nil, nil
		}
	} else {
		files = []string{logPath}
	}
	var lists [][]results.Result
	var firstErr error
	for _, f := range files {
		res, err := results.ParseFile(format, f)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		lists = append(lists, res)
	}
	return results.Leaves(format, results.Merge(lists...)), firstErr
}

// ExitOf turns a test command's exit status, as the verifier script saw
// it, into results.Exit: 124 is `timeout`'s "timed out", 128+N a signal.
func ExitOf(code int) results.Exit {
	e := results.Exit{Code: code}
	switch {
	case code == 124:
		e.TimedOut = true
	case code > 128 && code < 160:
		e.Killed = true
	}
	return e
}
