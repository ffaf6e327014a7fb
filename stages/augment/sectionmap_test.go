package augment

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/mapping"
)

// TestBuildMap: the map is exact on a fixture that exercises each source
// of evidence: a kill of a revert mutant without coverage evidence, a kill
// of another mutant (no evidence), coverage of a section's lines without a
// kill of its revert (not enough), a kill confirmed by coverage, coverage
// of a section that has no revert mutant (the fallback), coverage of
// unowned lines, and no evidence at all.
func TestBuildMap(t *testing.T) {
	in := MapInput{
		Tests:    []string{"t1", "t2", "t3", "t4", "t5", "t6"},
		Sections: []Section{{ID: "2.1", Title: "A"}, {ID: "2.2", Title: "B"}, {ID: "2.3", Title: "C"}, {ID: "2.4", Title: "D"}},
		Reverts:  map[string]string{"revert-2.1": "2.1", "revert-2.2": "2.2", "revert-9": "9"},
		Kills: map[string][]string{
			"t1": {"op-negate-001", "revert-2.1"},
			"t2": {"op-negate-001"},
			"t3": {"revert-2.2", "revert-9"},
			"t5": {},
			"t6": {"revert-2.1"},
		},
		Covered: map[string]coverage.Lines{
			"t2": {"a.go": {10, 11, 40}},
			"t3": {"a.go": {12, 40}},
			"t4": {"b.go": {1, 2}},
			"t6": {"a.go": {11}, "c.go": {5}},
		},
		Owned: map[string]coverage.Lines{
			"2.1": {"a.go": {10, 11, 12}},
			"2.2": {"a.go": {40, 41}},
			"2.3": {"c.go": {5, 6}},
		},
	}
	got := BuildMap(in)
	want := &SectionMap{
		Tests: map[string][]string{"t1": {"2.1"}, "t3": {"2.2"}, "t6": {"2.1", "2.3"}},
		Evidence: []TestEvidence{
			{Test: "t1", Sections: []string{"2.1"}, Kills: []string{"revert-2.1 (2.1)"}},
			{Test: "t2", Sections: []string{}, Reaches: []string{"2.1 (2 lines)", "2.2 (1 line)"}},
			{Test: "t3", Sections: []string{"2.2"}, Kills: []string{"revert-2.2 (2.2)"}, Reaches: []string{"2.1 (1 line)", "2.2 (1 line)"}},
			{Test: "t4", Sections: []string{}},
			{Test: "t5", Sections: []string{}},
			{Test: "t6", Sections: []string{"2.1", "2.3"}, Kills: []string{"revert-2.1 (2.1)"}, Reaches: []string{"2.1 (1 line)", "2.3 (1 line)"}, CoverageOnly: []string{"2.3"}},
		},
		Sections: []SectionTests{{ID: "2.1", Title: "A", Tests: []string{"t1", "t6"}}, {ID: "2.2", Title: "B", Tests: []string{"t3"}},
			{ID: "2.3", Title: "C", Tests: []string{"t6"}}, {ID: "2.4", Title: "D", Tests: []string{}}},
		Broad:    []string{"t2", "t4", "t5"},
		Untested: []string{"2.4"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("map:\n got %+v\nwant %+v", got, want)
	}
}

// TestOwnedLines: the calc fixture's executable added lines go to the
// sections whose blocks list their functions; calc.go's file-level row
// (section 1.2.2) owns no executable line, since a package-level variable
// is not one. Ownership is pipeline/mutation's.
func TestOwnedLines(t *testing.T) {
	ws, c := calcCopy(t)
	tk, err := loadTask(context.Background(), &pipeline.Env{Workspace: ws, Getenv: os.Getenv}, c)
	if err != nil {
		t.Fatal(err)
	}
	got := OwnedLines(tk.owners, tk.sections, &tk.cov.Target)
	want := map[string]coverage.Lines{
		"1.2.1": {"calc/calc.go": {21, 22, 24, 25, 27, 32, 33, 34, 35, 36, 38, 40}},
		"1.2.2": {"calc/calc.go": {14, 15, 17}},
		"1.2.3": {"calc/describe.go": {7, 8, 9, 10, 12, 13, 15, 16, 17, 19, 20, 22}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("owned:\n got %v\nwant %v", got, want)
	}
	if got := ImplementableSections(tk.mapping); !reflect.DeepEqual(got, []Section{
		{ID: "1.2.1", Title: "Clamping", Requirement: "Clamp returns x limited to [lo, hi]."},
		{ID: "1.2.2", Title: "Bounds", Requirement: "Clamp rejects lo > hi with ErrRange."},
		{ID: "1.2.3", Title: "Describing numbers", Requirement: "Describe names the size and sign of x."},
	}) {
		t.Errorf("sections: %+v", got)
	}
	if got := Reverts(tk.mutants); !reflect.DeepEqual(got, map[string]string{"revert-1.2.2": "1.2.2", "revert-1.2.1-stub": "1.2.1"}) {
		t.Errorf("reverts: %v", got)
	}
}

// TestImplementableSections: the tinykv mapping's implementable sections,
// without the test plan (evaluation) and the deferred eviction section
// (unmapped).
func TestImplementableSections(t *testing.T) {
	m, err := mapping.ParseFile(filepath.Join("..", "..", "data", "samples", "tinykv", "mapping.md"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range ImplementableSections(m) {
		got = append(got, s.ID+" "+s.Title)
	}
	want := []string{"3.1 Store API", "3.2 Background sweeper", "3.3 Protocol commands", "3.4 Snapshot format", "3.5 Python client", "4 Backwards Compatibility"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q", got)
	}
}
