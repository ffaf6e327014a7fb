package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/lolbench/lolbench/pipeline/workspace"
)

// StageStatus is what status.json records for one stage of a candidate.
type StageStatus struct {
	Result Result `json:"result"`
	Reason string `json:"reason,omitempty"`
	// Fingerprint is the hash of the stage's inputs, of the fingerprint of
	// the stage before it and of the tool version: a stage is up to date
	// while it is unchanged, and a change anywhere upstream reruns every
	// later stage (make semantics).
	Fingerprint string    `json:"fingerprint"`
	Finished    time.Time `json:"finished"`
}

// Status is status.json: per stage, the last outcome.
type Status struct {
	Stages map[string]*StageStatus `json:"stages"`
}

// LoadStatus reads the candidate's status; a missing file is an empty
// status.
func (c *Candidate) LoadStatus() (*Status, error) {
	st := &Status{Stages: map[string]*StageStatus{}}
	err := workspace.ReadJSON(filepath.Join(c.Dir, StatusFile), st)
	if errors.Is(err, os.ErrNotExist) {
		return &Status{Stages: map[string]*StageStatus{}}, nil
	}
	if st.Stages == nil {
		st.Stages = map[string]*StageStatus{}
	}
	return st, err
}

// SaveStatus writes status.json atomically.
func (c *Candidate) SaveStatus(st *Status) error {
	return workspace.WriteJSON(filepath.Join(c.Dir, StatusFile), st)
}

// Fingerprint hashes a stage's inputs together with the previous stage's
// fingerprint and the tool version. File contents are hashed, so touching
// a file without changing it keeps the stage up to date.
func Fingerprint(version, stage, previous string, c *Candidate, in Inputs) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "lolbench %s\x00stage %s\x00after %s\x00", version, stage, previous)
	for _, p := range in.Params {
		fmt.Fprintf(h, "param %d %s\x00", len(p), p)
	}
	for _, f := range in.Files {
		path := f
		if !filepath.IsAbs(f) {
			var err error
			if path, err = c.Path(f); err != nil {
				return "", err
			}
		}
		file, err := os.Open(path)
		if errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(h, "file %s absent\x00", f)
			continue
		}
		if err != nil {
			return "", fmt.Errorf("fingerprint %s: %w", path, err)
		}
		fh := sha256.New()
		_, err = io.Copy(fh, file)
		file.Close()
		if err != nil {
			return "", fmt.Errorf("fingerprint %s: %w", path, err)
		}
		fmt.Fprintf(h, "file %s %x\x00", f, fh.Sum(nil))
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// RunCandidate runs stages in order on one candidate, like make: a stage
// whose fingerprint is unchanged since it last passed, skipped or rejected
// is not run again. A rejection stops the candidate; a skip does not, so
// that the deterministic stages still run without an LLM endpoint. It
// returns the outcome of each stage in order.
func RunCandidate(ctx context.Context, env *Env, c *Candidate, stages []CandidateStage) ([]StageOutcome, error) {
	return runCandidate(ctx, env, c, stages, 0, nil)
}

// runCandidate runs stages[first:]; the stages before first are not run,
// but their recorded fingerprints carry the chain (lolbench run --from).
func runCandidate(ctx context.Context, env *Env, c *Candidate, stages []CandidateStage, first int, observe func(Event)) ([]StageOutcome, error) {
	st, err := c.LoadStatus()
	if err != nil {
		return nil, err
	}
	var out []StageOutcome
	previous := ""
	for i, s := range stages {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		if i < first {
			if old := st.Stages[s.Name()]; old != nil {
				if old.Result == Rejected {
					out = append(out, StageOutcome{Stage: s.Name(), Result: old.Result, Reason: old.Reason, UpToDate: true})
					return out, nil
				}
				previous = old.Fingerprint
				continue
			}
		}
		in, err := s.Inputs(env, c)
		if err != nil {
			return out, fmt.Errorf("%s: %s: %w", c.ID, s.Name(), err)
		}
		fp, err := Fingerprint(env.Version, s.Name(), previous, c, in)
		if err != nil {
			return out, fmt.Errorf("%s: %s: %w", c.ID, s.Name(), err)
		}
		previous = fp
		if i < first {
			continue // never run: the chain goes on from its inputs
		}
		if old := st.Stages[s.Name()]; !env.Force && old != nil && old.Fingerprint == fp && old.Result != Failed {
			o := StageOutcome{Stage: s.Name(), Result: old.Result, Reason: old.Reason, UpToDate: true}
			out = append(out, o)
			notify(observe, Event{Candidate: c.ID, Stage: s, Done: &o})
			if old.Result == Rejected {
				return out, nil
			}
			continue
		}
		notify(observe, Event{Candidate: c.ID, Stage: s})
		started := time.Now()
		runErr := s.Run(ctx, env, c)
		if ctx.Err() != nil {
			// An interrupted stage records nothing: it reruns next time.
			return out, ctx.Err()
		}
		res, reason := Classify(runErr)
		st.Stages[s.Name()] = &StageStatus{Result: res, Reason: reason, Fingerprint: fp, Finished: time.Now().UTC()}
		if err := c.SaveStatus(st); err != nil {
			return out, err
		}
		o := StageOutcome{Stage: s.Name(), Result: res, Reason: reason, Duration: time.Since(started)}
		out = append(out, o)
		notify(observe, Event{Candidate: c.ID, Stage: s, Done: &o})
		if res == Rejected || res == Failed {
			return out, nil
		}
	}
	return out, nil
}

// Event reports a stage starting (Done is nil) or finishing on a candidate.
type Event struct {
	Candidate string
	Stage     Stage
	Done      *StageOutcome
}

func notify(observe func(Event), e Event) {
	if observe != nil {
		observe(e)
	}
}

// StageOutcome is one line of a run's summary.
type StageOutcome struct {
	Stage    string `json:"stage"`
	Result   Result `json:"result"`
	Reason   string `json:"reason,omitempty"`
	UpToDate bool   `json:"up_to_date,omitempty"`
	// Duration is how long the stage ran; zero when it was up to date.
	Duration time.Duration `json:"duration_ns,omitempty"`
}
