package collect

import (
	"testing"
	"time"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/gh"
	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/registry"
)

// stats builds diff.Stats for the size and test criteria.
func stats(inserted, deleted, files int, share float64, tests int) diff.Stats {
	s := diff.Stats{Files: files, Inserted: inserted, Deleted: deleted, SourceShare: share,
		Categories: map[lang.Category]*diff.CategoryStats{}}
	for _, c := range lang.Categories {
		s.Categories[c] = &diff.CategoryStats{}
	}
	s.Categories[lang.Test].Files = tests
	return s
}

// The paper's defaults at their boundaries (section 3.1).
func TestDefaultThresholds(t *testing.T) {
	d := registry.Defaults()
	tests := []struct {
		name string
		got  pipeline.Check
		want pipeline.Check
	}{
		{"loc 50,000 passes", CheckLoC(50_000, d), pipeline.Check{Criterion: CritLoC, Passed: true, Value: "50000 source LoC", Threshold: ">= 50000"}},
		{"loc 49,999 fails", CheckLoC(49_999, d), pipeline.Check{Criterion: CritLoC, Value: "49999 source LoC", Threshold: ">= 50000",
			Reason: "49999 source LoC at the base commit, fewer than 50000"}},
		{"size at every limit", CheckSize(stats(600, 400, 10, 0.501, 1), d), pipeline.Check{Criterion: CritSize, Passed: true,
			Value: "1000 changed lines in 10 files, source share 0.501", Threshold: ">= 1000 lines, >= 10 files, source share > 0.5"}},
		{"999 lines", CheckSize(stats(599, 400, 10, 0.9, 1), d), pipeline.Check{Criterion: CritSize,
			Value: "999 changed lines in 10 files, source share 0.900", Threshold: ">= 1000 lines, >= 10 files, source share > 0.5",
			Reason: "999 changed lines, fewer than 1000"}},
		{"9 files", CheckSize(stats(5000, 0, 9, 0.9, 1), d), pipeline.Check{Criterion: CritSize,
			Value: "5000 changed lines in 9 files, source share 0.900", Threshold: ">= 1000 lines, >= 10 files, source share > 0.5",
			Reason: "9 files changed, fewer than 10"}},
		{"share exactly one half fails: over half is needed", CheckSize(stats(1000, 0, 10, 0.5, 1), d), pipeline.Check{Criterion: CritSize,
			Value: "1000 changed lines in 10 files, source share 0.500", Threshold: ">= 1000 lines, >= 10 files, source share > 0.5",
			Reason: "source share 0.500, not above 0.5"}},
		{"every size condition fails", CheckSize(stats(3, 2, 1, 0, 0), d), pipeline.Check{Criterion: CritSize,
			Value: "5 changed lines in 1 files, source share 0.000", Threshold: ">= 1000 lines, >= 10 files, source share > 0.5",
			Reason: "5 changed lines, fewer than 1000; 1 files changed, fewer than 10; source share 0.000, not above 0.5"}},
		{"one test file", CheckTests(stats(0, 0, 0, 0, 1), d), pipeline.Check{Criterion: CritTests, Passed: true, Value: "1 test files", Threshold: ">= 1"}},
		{"no test file", CheckTests(stats(0, 0, 0, 0, 0), d), pipeline.Check{Criterion: CritTests, Value: "0 test files", Threshold: ">= 1",
			Reason: "0 changed test files, fewer than 1"}},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.name, tt.got, tt.want)
		}
	}
}

func TestThresholdsApply(t *testing.T) {
	loc, share := int64(10), 0.25
	got := registry.Defaults().Apply(registry.Overrides{MinLoC: &loc}).Apply(registry.Overrides{MinSourceShare: &share})
	want := registry.Thresholds{MinLoC: 10, MinChangedLines: 1000, MinFiles: 10, MinSourceShare: 0.25, MinTestFiles: 1}
	if got != want {
		t.Fatalf("Apply = %+v, want %+v", got, want)
	}
}

func TestCheckPredates(t *testing.T) {
	day := func(s string) time.Time { t, _ := time.Parse("2006-01-02", s); return t }
	at := func(s string) time.Time { t, _ := time.Parse(time.RFC3339, s); return t }
	const th = "EP created before the PR's first commit and its creation"
	tests := []struct {
		name               string
		ep, created, first time.Time
		passed             bool
		reason, value      string
	}{
		{"before both", day("2020-03-24"), at("2020-04-22T10:00:00Z"), at("2020-04-01T09:00:00Z"), true, "",
			"EP created 2020-03-24; PR opened 2020-04-22T10:00:00Z, first commit 2020-04-01T09:00:00Z"},
		{"same day as the first commit passes", day("2020-04-01"), at("2020-04-22T10:00:00Z"), at("2020-04-01T09:00:00Z"), true, "",
			"EP created 2020-04-01; PR opened 2020-04-22T10:00:00Z, first commit 2020-04-01T09:00:00Z"},
		{"after the first commit", day("2020-04-02"), at("2020-04-22T10:00:00Z"), at("2020-04-01T09:00:00Z"), false,
			"the EP (created 2020-04-02) does not predate the PR (started 2020-04-01T09:00:00Z)",
			"EP created 2020-04-02; PR opened 2020-04-22T10:00:00Z, first commit 2020-04-01T09:00:00Z"},
		{"after the creation, no commits known", day("2020-04-23"), at("2020-04-22T10:00:00Z"), time.Time{}, false,
			"the EP (created 2020-04-23) does not predate the PR (started 2020-04-22T10:00:00Z)",
			"EP created 2020-04-23; PR opened 2020-04-22T10:00:00Z, first commit unknown"},
		{"no EP date", time.Time{}, at("2020-04-22T10:00:00Z"), time.Time{}, false, "the EP has no created date",
			"EP created unknown; PR opened 2020-04-22T10:00:00Z, first commit unknown"},
	}
	for _, tt := range tests {
		got := CheckPredates(tt.ep, tt.created, tt.first)
		want := pipeline.Check{Criterion: CritPredates, Passed: tt.passed, Value: tt.value, Threshold: th, Reason: tt.reason}
		if got != want {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.name, got, want)
		}
	}
}

func TestCheckOnePR(t *testing.T) {
	tests := []struct {
		merged, open []int
		want         pipeline.Check
	}{
		{[]int{7}, nil, pipeline.Check{Criterion: CritOnePR, Passed: true, Value: "merged: #7; open: none", Threshold: "exactly 1 merged PR, 0 open PRs"}},
		{[]int{7, 9}, nil, pipeline.Check{Criterion: CritOnePR, Value: "merged: #7, #9; open: none", Threshold: "exactly 1 merged PR, 0 open PRs",
			Reason: "2 merged PRs reference PEP 8 (#7, #9)"}},
		{[]int{7}, []int{12}, pipeline.Check{Criterion: CritOnePR, Value: "merged: #7; open: #12", Threshold: "exactly 1 merged PR, 0 open PRs",
			Reason: "open PRs also reference PEP 8 (#12)"}},
	}
	for _, tt := range tests {
		if got := CheckOnePR("PEP 8", tt.merged, tt.open); got != tt.want {
			t.Errorf("CheckOnePR(%v, %v):\n got %+v\nwant %+v", tt.merged, tt.open, got, tt.want)
		}
	}
}

func TestComma(t *testing.T) {
	for n, want := range map[int]string{0: "0", 170: "170", 1000: "1,000", 29782: "29,782", 1234567: "1,234,567", -4200: "-4,200"} {
		if got := Comma(n); got != want {
			t.Errorf("Comma(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestRefMatcher(t *testing.T) {
	pr := &projectRun{}
	tests := []struct {
		pattern, n, text string
		want             bool
	}{
		{"PEP {n}", "617", "Implement PEP 617: new parser", true},
		{"PEP {n}", "617", "bpo-40334: PEP-0617 parser", true},
		{"PEP {n}", "617", "pep617", true},
		{"PEP {n}", "617", "see PEP 6170", false},
		{"PEP {n}", "617", "PEP 61", false},
		{"PEP {n}", "617", "PEP\n617", false},
		{"PEP {n}", "617", "REPEP 617", false},
		{"KEP-{n}", "1287", "KEP-1287: in-place resize", true},
		{"KEP-{n}", "1287", "[KEP 1287] resize", true},
		{"rfcs#{n}", "2580", "implements rust-lang/rfcs#2580.", true},
		{"RFC {n} part", "9", "RFC 9 part two", true},
		{"RFC {n} part", "9", "RFC 9 partial", false},
	}
	for _, tt := range tests {
		if got := pr.matcher(tt.pattern).matches(tt.n, tt.text); got != tt.want {
			t.Errorf("%q with n=%s on %q = %v, want %v", tt.pattern, tt.n, tt.text, got, tt.want)
		}
	}
}

func TestChangeFromGitHub(t *testing.T) {
	// GitHub's statuses and paths become the same categories as a local diff.
	c := changeFromGitHub([]gh.File{
		{Path: "Lib/parser.py", Status: "modified", Additions: 30, Deletions: 10},
		{Path: "Lib/test/test_parser.py", Status: "added", Additions: 50},
		{Path: "Doc/whatsnew.rst", Status: "modified", Additions: 5, Deletions: 5},
		{Path: "Parser/new.c", PreviousPath: "Parser/old.c", Status: "renamed", Additions: 1, Deletions: 1},
		{Path: "Parser/gone.c", Status: "removed", Deletions: 9},
	})
	s := c.Stats()
	if s.Files != 5 || s.Inserted != 86 || s.Deleted != 25 {
		t.Fatalf("stats = %d files +%d -%d", s.Files, s.Inserted, s.Deleted)
	}
	if got := s.Categories[lang.Test].Files; got != 1 {
		t.Errorf("test files = %d, want 1", got)
	}
	if got := s.Categories[lang.Source]; got.Files != 3 || got.Inserted != 31 || got.Deleted != 20 {
		t.Errorf("source = %+v, want 3 files +31 -20", *got)
	}
	want := 51.0 / 111.0
	if s.SourceShare != want {
		t.Errorf("source share = %v, want %v", s.SourceShare, want)
	}
	if c.Files[3].OldPath != "Parser/gone.c" || c.Files[3].NewPath != "" || c.Files[3].Status != diff.Deleted {
		t.Errorf("removed file = %+v", c.Files[3])
	}
	if c.Files[4].OldPath != "Parser/old.c" || c.Files[4].Status != diff.Renamed {
		t.Errorf("renamed file = %+v", c.Files[4])
	}
}
