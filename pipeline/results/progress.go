package results

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"sync"
)

// Counter counts finished tests in a test command's output while it
// streams, for progress display only (issue 13 §3): it never decides a
// status, so a forged line can only make a bar move. It reads what every
// format's command prints as it goes, whatever the recipe's result format
// (pytest writing JUnit XML still prints its progress lines):
//
//   - go test -json: one "pass", "fail" or "skip" event of a test;
//   - cargo test: one "test NAME ... ok|FAILED|ignored" line; "running N
//     tests" adds N to the tests known;
//   - pytest: one status letter of a progress line ("tests/x.py ..F.s
//     [ 40%]", or its wrapped continuation), or one verbose line
//     ("tests/x.py::test_a PASSED [ 40%]"); "collected N items" sets the
//     tests known. The -rA summary's lines ("PASSED tests/x.py::test_a")
//     count apart, and the larger count wins: a run that prints only the
//     summary is counted, one that prints both is not counted twice.
//
// It is safe for one writer and concurrent readers.
type Counter struct {
	mu    sync.Mutex
	line  []byte
	cut   bool // the line is longer than maxCounterLine: not a progress line
	done  int
	known int
	// summary counts -rA summary lines, which repeat the progress lines.
	summary int
}

// maxCounterLine caps the part of a line the counter keeps: progress and
// event lines are short, a test's own output may not be.
const maxCounterLine = 64 << 10

// Write implements io.Writer; it never fails.
func (c *Counter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			c.keep(p)
			break
		}
		c.keep(p[:i])
		if !c.cut {
			c.count(c.line)
		}
		c.line, c.cut = c.line[:0], false
		p = p[i+1:]
	}
	return n, nil
}

func (c *Counter) keep(p []byte) {
	if len(c.line)+len(p) > maxCounterLine {
		c.cut = true
		return
	}
	c.line = append(c.line, p...)
}

// Counts returns the tests finished so far and the tests the output
// announced (0 when it announced none).
func (c *Counter) Counts() (done, known int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return max(c.done, c.summary), c.known
}

var (
	pytestCollected = regexp.MustCompile(`^collect(?:ed|ing) (\d+) items?`)
	pytestDots      = regexp.MustCompile(`^(?:\S+\.py )?\s*([.FEsxX]+)\s*(?:\[\s*\d+%\])?$`)
	pytestSummary   = regexp.MustCompile(`^(?:PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) \S`)
	pytestVerbose   = regexp.MustCompile(`^\S+::\S.* (?:PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)(?:\s+\[\s*\d+%\])?$`)
	cargoRunningN   = regexp.MustCompile(`^running (\d+) tests?$`)
	cargoTestLine   = regexp.MustCompile(`^test \S.* \.\.\. (?:ok|FAILED|ignored)`)
)

func (c *Counter) count(raw []byte) {
	line := bytes.TrimRight(stripANSI(nil, raw), " \r\t")
	if len(line) == 0 {
		return
	}
	if line[0] == '{' {
		var ev struct{ Action, Test string }
		if bytes.Contains(line, []byte(`"Test"`)) && json.Unmarshal(line, &ev) == nil && ev.Test != "" {
			switch ev.Action {
			case "pass", "fail", "skip":
				c.done++
			}
		}
		return
	}
	switch {
	case cargoTestLine.Match(line):
		c.done++
	case pytestVerbose.Match(line):
		c.done++
	case pytestSummary.Match(line):
		c.summary++
	default:
		if m := pytestDots.FindSubmatch(line); m != nil {
			c.done += len(m[1])
		} else if m := pytestCollected.FindSubmatch(line); m != nil {
			c.known, _ = strconv.Atoi(string(m[1]))
		} else if m := cargoRunningN.FindSubmatch(line); m != nil {
			k, _ := strconv.Atoi(string(m[1]))
			c.known += k
		}
	}
}
