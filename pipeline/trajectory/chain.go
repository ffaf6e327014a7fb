package trajectory

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
)

// Totals are the tokens and cost of model calls, summed.
type Totals struct {
	Tokens    Tokens  `json:"tokens"`
	HasTokens bool    `json:"has_tokens"`
	CostUSD   float64 `json:"cost_usd"`
	HasCost   bool    `json:"has_cost"`
}

// Add adds o to t.
func (t *Totals) Add(o Totals) {
	if o.HasTokens {
		t.Tokens.Input += o.Tokens.Input
		t.Tokens.Cached += o.Tokens.Cached
		t.Tokens.Output += o.Tokens.Output
		t.HasTokens = true
	}
	if o.HasCost {
		t.CostUSD += o.CostUSD
		t.HasCost = true
	}
}

// AddStep adds one step's metrics, either of which may be nil.
func (t *Totals) AddStep(tk *Tokens, cost *float64) {
	if tk != nil {
		t.Add(Totals{Tokens: *tk, HasTokens: true})
	}
	if cost != nil {
		t.Add(Totals{CostUSD: *cost, HasCost: true})
	}
}

// Opener opens a file of a trajectory's folder, by its slash-separated
// name there, for reading. It must refuse what is not a regular file
// inside the folder (a link, a pipe, a path through a link); a file that
// is not there is an error that wraps fs.ErrNotExist.
type Opener func(name string) (io.ReadCloser, error)

// MaxRunFiles bounds the files one run's trajectory may span: the first,
// its continuations and the subagents' trajectories, together.
const MaxRunFiles = 64

// Run is one agent run's whole ATIF trajectory: the first file and the
// files that continue it (continued_trajectory_ref, written when context
// management split the run), and the subagent trajectories they refer to.
type Run struct {
	// Info is the first file's.
	Info *Info
	// Files are the chain of continuations, the first file first.
	Files []string
	// Final is the last file's final_metrics, which are cumulative over
	// the chain and include the model calls outside the steps (context
	// summarization, subagents); nil when that file has none.
	Final *FinalMetrics
	// Subagents totals the subagent trajectories that are in the folder
	// (SubagentFiles) or embedded in a file of the chain.
	Subagents     Totals
	SubagentFiles []string
	// Notes say what could not be followed: a continuation or a
	// subagent's file that is not in the folder.
	Notes []string
}

// ReadRun reads a run's trajectory starting at the ATIF file first: it
// passes the events of the chain's files to emit in order, each
// continuation's steps numbered on from the previous file's last step,
// then reads the totals of the subagent trajectories the chain refers to
// (their tokens and cost belong to the run; their steps are not the
// agent's turns). Every file is opened through open; dir names the folder
// in errors. A reference that leaves the folder, a cycle and a run longer
// than MaxRunFiles are errors; a continuation or subagent file that is
// missing is a note.
func ReadRun(dir string, open Opener, first string, emit func(*Event) error) (*Run, error) {
	run := &Run{}
	seen := map[string]bool{}
	var subs []subRef
	name, offset := first, 0
	for {
		seen[name] = true
		info, err := readATIFFile(dir, open, name, offset, emit)
		if err != nil {
			if name != first && errors.Is(err, fs.ErrNotExist) {
				run.Notes = append(run.Notes, fmt.Sprintf("continuation %s is not in the trial: the run's later steps are missing", name))
				break
			}
			return nil, err
		}
		if run.Info == nil {
			run.Info = info
		}
		run.Files = append(run.Files, name)
		run.Final = info.Final
		run.Subagents.Add(info.Embedded)
		offset = info.LastStep
		for _, ref := range info.Subagents {
			if ref.Path != "" {
				subs = append(subs, subRef{from: name, ref: ref.Path})
			}
		}
		if info.Continued == "" {
			break
		}
		next, err := refName(name, info.Continued)
		if err != nil {
			return nil, fmt.Errorf("%s: continued_trajectory_ref: %w", filepath.Join(dir, filepath.FromSlash(name)), err)
		}
		if seen[next] {
			return nil, fmt.Errorf("%s: continued_trajectory_ref %q comes back to a file already read", filepath.Join(dir, filepath.FromSlash(name)), info.Continued)
		}
		if len(seen) == MaxRunFiles {
			return nil, fmt.Errorf("%s: the run continues past %d files", filepath.Join(dir, filepath.FromSlash(name)), MaxRunFiles)
		}
		name = next
	}
	for len(subs) > 0 {
		s := subs[0]
		subs = subs[1:]
		p, err := refName(s.from, s.ref)
		if err != nil {
			run.Notes = append(run.Notes, fmt.Sprintf("subagent trajectory %q (in %s) is not a file of the trial: its tokens are not counted", s.ref, s.from))
			continue
		}
		if seen[p] {
			continue
		}
		if len(seen) == MaxRunFiles {
			return nil, fmt.Errorf("%s: the run's trajectory spans more than %d files", filepath.Join(dir, filepath.FromSlash(first)), MaxRunFiles)
		}
		seen[p] = true
		var steps Totals
		info, err := readATIFFile(dir, open, p, 0, func(e *Event) error {
			if e.Type == Message && e.Source == Agent {
				steps.AddStep(e.Tokens, e.CostUSD)
			}
			return nil
		})
		if errors.Is(err, fs.ErrNotExist) {
			run.Notes = append(run.Notes, fmt.Sprintf("subagent trajectory %s is not in the trial: its tokens are not counted", p))
			continue
		}
		if err != nil {
			return nil, err
		}
		run.SubagentFiles = append(run.SubagentFiles, p)
		// A subagent's own totals: its final metrics, else its steps and
		// the subagents it refers to in turn.
		if info.Final != nil {
			run.Subagents.Add(info.Final.Totals())
			continue
		}
		run.Subagents.Add(steps)
		run.Subagents.Add(info.Embedded)
		for _, ref := range info.Subagents {
			if ref.Path != "" {
				subs = append(subs, subRef{from: p, ref: ref.Path})
			}
		}
	}
	return run, nil
}

type subRef struct{ from, ref string }

func readATIFFile(dir string, open Opener, name string, offset int, emit func(*Event) error) (*Info, error) {
	display := filepath.Join(dir, filepath.FromSlash(name))
	f, err := open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadATIF(f, display, offset, emit)
}

// refName resolves a file reference made in file from: a relative path
// without "..", taken from from's folder.
func refName(from, ref string) (string, error) {
	switch {
	case ref == "":
		return "", errors.New("empty reference")
	case strings.Contains(ref, "://"), path.IsAbs(ref), strings.Contains(ref, `\`), strings.ContainsRune(ref, 0):
		return "", fmt.Errorf("%q leaves the trial's folder", ref)
	}
	for _, el := range strings.Split(ref, "/") {
		if el == ".." {
			return "", fmt.Errorf("%q leaves the trial's folder", ref)
		}
	}
	return path.Join(path.Dir(from), path.Clean(ref)), nil
}
