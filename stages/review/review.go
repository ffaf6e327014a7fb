// Package review holds the expert-review record of a retained candidate
// (paper, section 3.2: candidates that pass both validation gates with
// Q >= 8.0 are reviewed by an expert before tasks are built from them) and
// the gate stage that holds a candidate until that record says accepted.
package review

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/rank"
)

// Decision is an expert's verdict.
type Decision string

// The two decisions.
const (
	Accepted Decision = "accepted"
	Rejected Decision = "rejected"
)

// Record is review.json.
type Record struct {
	Candidate string   `json:"candidate"`
	Decision  Decision `json:"decision"`
	Note      string   `json:"note"`
	Reviewer  string   `json:"reviewer,omitempty"`
	// Q and MappingSHA256 are those of the rank.json the expert reviewed,
	// so a later rerank with another mapping is seen to need a new review.
	Q             *rank.Tenths `json:"q"`
	MappingSHA256 string       `json:"mapping_sha256"`
	ReviewedAt    time.Time    `json:"reviewed_at"`
}

// ErrNotRetained says a candidate is not waiting for a review.
var ErrNotRetained = errors.New("not retained by the rank stage")

// New builds the record of decision on a candidate after checking that its
// rank.json retained it. The note is required: a review says why.
func New(c *pipeline.Candidate, d Decision, note, reviewer string, now time.Time) (*Record, error) {
	if d != Accepted && d != Rejected {
		return nil, fmt.Errorf("review %s: decision %q is neither %q nor %q", c.ID, d, Accepted, Rejected)
	}
	if strings.TrimSpace(note) == "" {
		return nil, fmt.Errorf("review %s: a note saying why is required", c.ID)
	}
	rep, err := rank.Load(c)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("review %s: no %s; run lolbench rank %s first", c.ID, pipeline.RankFile, c.ID)
	}
	if err != nil {
		return nil, fmt.Errorf("review %s: %w", c.ID, err)
	}
	if !rep.Retained {
		return nil, fmt.Errorf("review %s: %w (%s)", c.ID, ErrNotRetained, rep.Summary())
	}
	return &Record{
		Candidate: c.ID, Decision: d, Note: strings.TrimSpace(note), Reviewer: reviewer,
		Q: rep.Q, MappingSHA256: rep.MappingSHA256, ReviewedAt: now.UTC(),
	}, nil
}

// Save writes review.json atomically.
func Save(c *pipeline.Candidate, r *Record) error {
	p, err := c.Path(pipeline.ReviewFile)
	if err != nil {
		return err
	}
	return workspace.WriteJSON(p, r)
}

// Load reads review.json; a missing file is an error wrapping
// os.ErrNotExist.
func Load(c *pipeline.Candidate) (*Record, error) {
	return pipeline.ReadArtifact[Record](c, pipeline.ReviewFile)
}

// Stage is the review gate, a pipeline.CandidateStage placed after rank:
// it passes a candidate an expert accepted and stops every other one. A
// candidate without a review is held (recorded as rejected with the reason
// "awaiting expert review", which names the command to run); because
// review.json is one of its inputs, recording a review reruns the gate.
// With IncludeUnreviewed a candidate awaiting review goes on, skipped: the
// build marks its task unreviewed.
type Stage struct {
	IncludeUnreviewed bool
}

var _ pipeline.CandidateStage = Stage{}

// Name is the command name.
func (Stage) Name() string { return "review" }

// String is the log title.
func (Stage) String() string { return "checking expert reviews" }

// Inputs are rank.json and review.json.
func (Stage) Inputs(env *pipeline.Env, c *pipeline.Candidate) (pipeline.Inputs, error) {
	return pipeline.Inputs{Files: []string{pipeline.RankFile, pipeline.ReviewFile}}, nil
}

// Run applies the gate.
func (s Stage) Run(ctx context.Context, env *pipeline.Env, c *pipeline.Candidate) error {
	rep, err := rank.Load(c)
	if errors.Is(err, os.ErrNotExist) {
		return pipeline.Skip("no %s; run lolbench rank %s first", pipeline.RankFile, c.ID)
	}
	if err != nil {
		return err
	}
	if !rep.Retained {
		return pipeline.Reject("not retained by the rank stage: %s", rep.Summary())
	}
	rec, err := Load(c)
	if errors.Is(err, os.ErrNotExist) {
		if s.IncludeUnreviewed {
			return pipeline.Skip("%s: built unreviewed (--include-unreviewed); review it with lolbench review %s", rank.ReviewAwaiting, c.ID)
		}
		return pipeline.Reject("%s: run lolbench review %s --accept|--reject --note \"...\"", rank.ReviewAwaiting, c.ID)
	}
	if err != nil {
		return err
	}
	if rec.MappingSHA256 != rep.MappingSHA256 {
		return pipeline.Reject("the review is of another mapping.md; review again: lolbench review %s --accept|--reject --note \"...\"", c.ID)
	}
	if rec.Decision != Accepted {
		return pipeline.Reject("the expert rejected it: %s", rec.Note)
	}
	return nil
}
