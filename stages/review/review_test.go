package review

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/rank"
)

func candidate(t *testing.T, rep *rank.Report) *pipeline.Candidate {
	t.Helper()
	ws, err := workspace.Open(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	c, err := pipeline.OpenCandidate(ws, "x")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if rep != nil {
		if err := workspace.WriteJSON(filepath.Join(c.Dir, pipeline.RankFile), rep); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

func q(t rank.Tenths) *rank.Tenths { return &t }

func gate(c *pipeline.Candidate) (pipeline.Result, string) {
	return pipeline.Classify(Stage{}.Run(context.Background(), nil, c))
}

func TestReview(t *testing.T) {
	now := time.Date(2026, 4, 1, 10, 0, 0, 0, time.FixedZone("CEST", 7200))
	retained := &rank.Report{Candidate: "x", MappingSHA256: "abc", Q: q(86), Threshold: 80, Retained: true, Review: rank.ReviewAwaiting,
		Sections: []rank.SectionRow{}, Exchanges: []string{}, QExact: "8.5531"}
	c := candidate(t, retained)

	if res, reason := gate(c); res != pipeline.Rejected || reason != `awaiting expert review: run lolbench review x --accept|--reject --note "..."` {
		t.Fatalf("before review: %s %q", res, reason)
	}
	if _, err := New(c, Accepted, "  ", "ada", now); err == nil || err.Error() != "review x: a note saying why is required" {
		t.Fatalf("empty note: %v", err)
	}
	if _, err := New(c, "maybe", "n", "ada", now); err == nil || err.Error() != `review x: decision "maybe" is neither "accepted" nor "rejected"` {
		t.Fatalf("bad decision: %v", err)
	}
	rec, err := New(c, Accepted, " maps cleanly ", "ada", now)
	if err != nil {
		t.Fatal(err)
	}
	want := Record{Candidate: "x", Decision: Accepted, Note: "maps cleanly", Reviewer: "ada", Q: q(86), MappingSHA256: "abc", ReviewedAt: now.UTC()}
	if *rec.Q != *want.Q || rec.Candidate != want.Candidate || rec.Decision != want.Decision || rec.Note != want.Note || rec.Reviewer != want.Reviewer ||
		rec.MappingSHA256 != want.MappingSHA256 || !rec.ReviewedAt.Equal(want.ReviewedAt) || rec.ReviewedAt.Location() != time.UTC {
		t.Fatalf("record %+v", rec)
	}
	if err := Save(c, rec); err != nil {
		t.Fatal(err)
	}
	back, err := Load(c)
	if err != nil || *back.Q != 86 || back.Note != "maps cleanly" || !back.ReviewedAt.Equal(now) {
		t.Fatalf("load %+v %v", back, err)
	}
	if res, reason := gate(c); res != pipeline.Passed || reason != "" {
		t.Fatalf("accepted: %s %q", res, reason)
	}
	rec.Decision, rec.Note = Rejected, "section 4 is only tested"
	Save(c, rec)
	if res, reason := gate(c); res != pipeline.Rejected || reason != "the expert rejected it: section 4 is only tested" {
		t.Fatalf("rejected: %s %q", res, reason)
	}
	// A rerank of another mapping needs a new review.
	retained.MappingSHA256 = "def"
	workspace.WriteJSON(filepath.Join(c.Dir, pipeline.RankFile), retained)
	if res, reason := gate(c); res != pipeline.Rejected || reason != `the review is of another mapping.md; review again: lolbench review x --accept|--reject --note "..."` {
		t.Fatalf("stale review: %s %q", res, reason)
	}
}

func TestReviewNeedsARetainedCandidate(t *testing.T) {
	c := candidate(t, nil)
	if _, err := New(c, Accepted, "n", "", time.Now()); err == nil || err.Error() != "review x: no rank.json; run lolbench rank x first" {
		t.Fatalf("no rank: %v", err)
	}
	if res, reason := gate(c); res != pipeline.Skipped || reason != "no rank.json; run lolbench rank x first" {
		t.Fatalf("gate without rank: %s %q", res, reason)
	}
	c = candidate(t, &rank.Report{Candidate: "x", Q: q(76), Threshold: 80, Reason: "section 3.4 is mapped to the wrong layer",
		Sections: []rank.SectionRow{}, Exchanges: []string{}, QExact: "7.6"})
	if _, err := New(c, Accepted, "n", "", time.Now()); err == nil || err.Error() != "review x: not retained by the rank stage (Q 7.6 < 8.0: section 3.4 is mapped to the wrong layer)" {
		t.Fatalf("not retained: %v", err)
	}
	if res, reason := gate(c); res != pipeline.Rejected || reason != "not retained by the rank stage: Q 7.6 < 8.0: section 3.4 is mapped to the wrong layer" {
		t.Fatalf("gate: %s %q", res, reason)
	}
}
