package rules

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/mapping"
)

func TestTidyPathAndNearMiss(t *testing.T) {
	tests := []struct {
		got, file string
		tidy      string
		near      bool
	}{
		{"greet.go", "greet.go", "greet.go", true},
		{"./greet.go", "greet.go", "greet.go", true},
		{"/tools//greet.py", "tools/greet.py", "tools/greet.py", true},
		{"`tools/./greet.py`", "tools/greet.py", "tools/greet.py", true},
		{"Greet.go", "greet.go", "Greet.go", true},
		{"tool/greet.py", "tools/greet.py", "tool/greet.py", true},
		{"lib/greet.py", "tools/greet.py", "lib/greet.py", true}, // same name, other folder
		{"docs/greetings.md", "greet.go", "docs/greetings.md", false},
		{"README", "README.md", "README", false}, // three edits
		{"", "greet.go", "", false},
		{".", "greet.go", "", false},
		{" - ", "greet.go", "-", false},
	}
	for _, tt := range tests {
		if got := tidyPath(tt.got); got != tt.tidy {
			t.Errorf("tidyPath(%q) = %q, want %q", tt.got, got, tt.tidy)
		}
		if got := nearMiss(tt.got, tt.file); got != tt.near {
			t.Errorf("nearMiss(%q, %q) = %v, want %v", tt.got, tt.file, got, tt.near)
		}
	}
}

func TestNamedRoles(t *testing.T) {
	tests := []struct {
		cell string
		want []mapping.Role
	}{
		{"direct", []mapping.Role{mapping.RoleDirect}},
		{"associated, direct", []mapping.Role{mapping.RoleDirect, mapping.RoleAssociated}},
		{"Direct/Unmapped", []mapping.Role{mapping.RoleDirect, mapping.RoleUnmapped}},
		{"direct and direct", []mapping.Role{mapping.RoleDirect}},
		{"primary", nil},
		{"indirect", nil}, // a word, not a substring
		{"", nil},
	}
	for _, tt := range tests {
		if got := namedRoles(tt.cell); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("namedRoles(%q) = %q, want %q", tt.cell, got, tt.want)
		}
	}
}

func TestAggregateCovers(t *testing.T) {
	f := NewFacts(&Input{Mapping: &mapping.Mapping{}, Change: &diff.Change{Files: []diff.File{
		{NewPath: "tools/greet.py"}, {NewPath: "tools/test_greet.py"}, {NewPath: "greet.go"},
	}}})
	tests := []struct {
		entry, file string
		want        bool
	}{
		{"tools/", "tools/greet.py", true},
		{"tools", "tools/test_greet.py", true}, // a folder of PR files
		{"tools/", "greet.go", false},
		{"*.go", "greet.go", true},
		{"tools/*.py", "tools/greet.py", true},
		{"tools/*.py", "greet.go", false},
		{"greet.go, tools/greet.py", "tools/greet.py", true},
		{"greet.go, tools/greet.py", "tools/test_greet.py", false},
		{"greet.go and 2 more", "tools/test_greet.py", true}, // cannot tell which: covers all
		{"greet.go", "greet.go", false},                      // a plain path is no aggregate
		{"", "greet.go", false},
	}
	for _, tt := range tests {
		if got := aggregateCovers(tt.entry, f.AggregatePath(tt.entry), tt.file); got != tt.want {
			t.Errorf("aggregateCovers(%q, %q) = %v, want %v", tt.entry, tt.file, got, tt.want)
		}
	}
}

// TestAggregateKinds: the fast path agrees with Facts.AggregatePath, which
// rule 20 uses, on every kind of entry.
func TestAggregateKinds(t *testing.T) {
	f := NewFacts(&Input{Mapping: &mapping.Mapping{}, Change: &diff.Change{Files: []diff.File{
		{NewPath: "tools/greet.py"}, {NewPath: "a/b/c.go"}, {NewPath: "greet.go"}, {NewPath: "a/b"},
	}}})
	k := newAggregateKinds(f)
	for _, p := range []string{"tools", "tools/", "a", "a/b", "a/b/", "a/b/c.go", "greet.go", "gree", "*.go",
		"a/[bc]", "greet.go, a/b/c.go", "greet.go ...", "and 2 more", "", "/", "tools/greet.py/", "x/y"} {
		if got, want := k.kind(p), f.AggregatePath(p); got != want {
			t.Errorf("kind(%q) = %q, AggregatePath says %q", p, got, want)
		}
	}
}

// TestR01R02R04Synthetic covers what the fixture project cannot: a renamed
// and a deleted file, and an artifact built in code with no parts.
func TestR01R02R04Synthetic(t *testing.T) {
	change := &diff.Change{Files: []diff.File{
		{OldPath: "gone.go", Status: diff.Deleted, Category: lang.Source},
		{OldPath: "old.go", NewPath: "new.go", Status: diff.Renamed, Category: lang.Source},
	}}
	pfs := func(rows ...mapping.PFSRow) mapping.Table[mapping.PFSRow] {
		return mapping.Table[mapping.PFSRow]{Line: 3, Columns: mapping.PFSColumns, Rows: rows}
	}
	row := func(line int, path, role string) mapping.PFSRow {
		return mapping.PFSRow{RowBase: mapping.RowBase{Line: line}, Path: path, Category: "source", Role: role, DirectSections: "-", AssociatedSections: "-"}
	}
	allParts := map[string]int{}
	for i, p := range mapping.Parts {
		allParts[p] = i + 1
	}
	tests := []struct {
		name string
		m    *mapping.Mapping
		want []Violation
	}{
		{"deleted file by its old path, renamed file by its new path", &mapping.Mapping{PartLines: allParts,
			PFS: pfs(row(5, "gone.go", "unmapped"), row(6, "new.go", "unmapped"))}, nil},
		{"renamed file by its old path", &mapping.Mapping{PartLines: allParts,
			PFS: pfs(row(5, "gone.go", "unmapped"), row(6, "old.go", "unmapped"))},
			[]Violation{{2, "file `old.go`", 6, "`old.go` (PR File Summary row 2) is not a file the PR changes; the PR renames it to `new.go`: write the path after the change, `new.go`"}}},
		{"renamed file missing", &mapping.Mapping{PartLines: allParts, PFS: pfs(row(5, "gone.go", "unmapped"))},
			[]Violation{{1, "file `new.go`", 0, "the PR changes `new.go` (renamed, source) but the PR File Summary has no row for it; add a row for it with role unmapped, since no block names the file (and list it in Unmapped PR Files)"}}},
		{"glob row: rule 20's, files not missing", &mapping.Mapping{PartLines: allParts, PFS: pfs(row(5, "*.go", "unmapped"))}, nil},
		{"no parts", &mapping.Mapping{PFS: pfs(row(5, "gone.go", "unmapped"), row(6, "new.go", "unmapped"))}, func() []Violation {
			var v []Violation
			for _, p := range []string{mapping.PartStats, mapping.PartMappedSections, mapping.PartPFS, mapping.PartSCS, mapping.PartUnmappedSections, mapping.PartUnmappedFiles} {
				v = append(v, Violation{4, p, 0, `the part "## ` + p + `" is missing; add it in its place (docs/mapping-format.md), with "None." when it has no rows`})
			}
			return v
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := Run(&Input{Change: change, Mapping: tt.m}, []*Rule{R01, R02, R04})
			if err != nil {
				t.Fatal(err)
			}
			got := rep.Violations
			if len(got) == 0 {
				got = nil
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("violations:\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestR07WithoutChange: with no PR change the PR file count falls back to
// the PR File Summary, so a lone artifact can still be checked.
func TestR07WithoutChange(t *testing.T) {
	m := &mapping.Mapping{
		PFS: mapping.Table[mapping.PFSRow]{Rows: []mapping.PFSRow{{Path: "a.go"}, {Path: "b.go"}, {Path: "a.go"}}},
		Blocks: []mapping.Block{{Number: 1, Section: "1",
			Counts:     mapping.Counts{Line: 9, Direct: 1, DirectPercent: "50.0%", Associated: 0, AssociatedPercent: "0.0%", Accounted: 1, AccountedPercent: "50.0%", PRFiles: 2},
			Direct:     mapping.Table[mapping.CodeRow]{Rows: []mapping.CodeRow{{Path: "a.go"}, {Path: "a.go", Function: "f"}}},
			Associated: mapping.Table[mapping.CodeRow]{Rows: []mapping.CodeRow{{Path: "a.go", Function: "g"}}},
		}},
	}
	rep, err := Run(&Input{Mapping: m}, []*Rule{R07})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Violations) != 0 {
		t.Errorf("a file in both tables counts once, as direct: %+v", rep.Violations)
	}
	m.Blocks[0].Counts.Accounted, m.Blocks[0].Counts.AccountedPercent = 2, "100.0%"
	rep, _ = Run(&Input{Mapping: m}, []*Rule{R07})
	want := []Violation{{7, "section 1", 9, "the Files line of block 1 disagrees with its tables: it says 2 accounted but the two tables together name 1 file (`a.go`); write \"**Files:** 1 direct (50.0%), 0 associated (0.0%), 1 accounted (50.0%) of 2 PR files\""}}
	if !slices.Equal(rep.Violations, want) {
		t.Errorf("violations:\n got %+v\nwant %+v", rep.Violations, want)
	}
}

// BenchmarkR01toR09Hostile runs rules 1 to 9 on a large hostile artifact:
// thousands of misspelt PR File Summary rows and a reversed summary, where
// naive near-miss matching or ordering would be quadratic or worse.
func BenchmarkR01toR09Hostile(b *testing.B) {
	const files, rows = 2000, 5000
	change := &diff.Change{}
	for i := range files {
		change.Files = append(change.Files, diff.File{NewPath: fmt.Sprintf("pkg%03d/file%04d.go", i%100, i), Status: diff.Added, Category: lang.Source})
	}
	m := &mapping.Mapping{PartLines: map[string]int{}, PFS: mapping.Table[mapping.PFSRow]{Columns: mapping.PFSColumns}, SCS: mapping.Table[mapping.SCSRow]{Columns: mapping.SCSColumns}}
	doc := &ep.Document{}
	for i := range rows {
		m.PFS.Rows = append(m.PFS.Rows, mapping.PFSRow{RowBase: mapping.RowBase{Line: i + 1}, Path: fmt.Sprintf("pkg%03d/fiel%04d.go", i%100, i), Role: "direct, associated", Category: "source", DirectSections: "1", AssociatedSections: "-"})
		id := fmt.Sprint(i + 1)
		doc.Sections = append(doc.Sections, &ep.Section{ID: id, Level: 1, Title: "T" + id})
		m.SCS.Rows = append(m.SCS.Rows, mapping.SCSRow{RowBase: mapping.RowBase{Line: i + 1}, Index: id, Section: fmt.Sprint(rows - i), Title: "T", Implementable: "yes", Category: "implementation", Mapped: "no"})
	}
	in := &Input{EP: doc, Change: change, Mapping: m}
	rules := []*Rule{R01, R02, R03, R04, R05, R06, R07, R08, R09}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Run(in, rules); err != nil {
			b.Fatal(err)
		}
	}
}
