package mapping_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline/mapping"
)

// wrongChanges are the changes Fix makes to testdata/fix/wrong.md, a
// mapping whose every kind of computed cell is wrong somewhere.
var wrongChanges = []string{
	"wrong.md:8: section 2: #: 3 -> 2",
	"wrong.md:8: section 2: Mapped: no -> yes",
	"wrong.md:10: section 3: Mapped: yes -> no",
	"wrong.md:17: file `a.go`: Role: associated -> direct",
	"wrong.md:17: file `a.go`: Direct sections: 2.1 -> 2",
	"wrong.md:17: file `a.go`: Associated sections: - -> 2.1",
	"wrong.md:18: file `a_test.go`: Direct sections: 2 -> 2.1",
	"wrong.md:18: file `a_test.go`: Associated sections: 2.1, 2 -> 2",
	"wrong.md:19: file `b.go`: Role: direct -> unmapped",
	"wrong.md:19: file `b.go`: Direct sections: 3 -> -",
	"wrong.md:20: file `README.md`: Role: direct -> unmapped",
	"wrong.md:24: block 1 (section 2): number: 2 -> 1",
	"wrong.md:30: block 1 (section 2): Files: 3 direct (75.0%), 1 associated (25.0%), 4 accounted (100.0%) of 4 PR files -> 1 direct (25.0%), 1 associated (25.0%), 2 accounted (50.0%) of 4 PR files",
	"wrong.md:48: block 2 (section 2.1): number: 7 -> 2",
	"wrong.md:54: block 2 (section 2.1): Files: 1 direct (25.0%), 0 associated (0.0%), 1 accounted (25.0%) of 4 PR files -> 1 direct (25.0%), 1 associated (25.0%), 2 accounted (50.0%) of 4 PR files",
	"wrong.md:76: Unmapped Implementable Sections: section 3: (absent) -> 3 | Formatting | TODO",
	"wrong.md:77: Unmapped Implementable Sections: section 2: 2 | Specification | deferred -> (removed)",
	"wrong.md:83: Unmapped PR Files: file `b.go`: (absent) -> b.go | source | TODO",
	"wrong.md:84: Unmapped PR Files: file `README.md`: (absent) -> README.md | documentation | TODO",
	"wrong.md:92: Global Statistics: Mapped implementable sections: 3 -> 2",
	"wrong.md:93: Global Statistics: Unmapped implementable sections: (absent) -> 2",
	"wrong.md:94: Global Statistics: EP-section coverage: 75.0% -> 50.0%",
	"wrong.md:96: Global Statistics: Direct files: 3 -> 2",
	"wrong.md:98: Global Statistics: Unmapped files: 0 -> 2",
	"wrong.md:99: Global Statistics: PR-file coverage: 100.0% -> 50.0%",
	"wrong.md:101: Global Statistics: test files: (absent) -> 1",
	"wrong.md:102: Global Statistics: Test files: 1 -> (removed)",
	"wrong.md:102: Global Statistics: data files: 1 -> (removed)",
}

func formatChanges(changes []mapping.Change) []string {
	out := []string{}
	for _, c := range changes {
		out = append(out, c.Format("wrong.md"))
	}
	return out
}

// TestFixWrongMapping checks the exact change list and the exact fixed
// artifact (testdata/fix/wrong.fixed.md: only the changed lines differ,
// the curator's comment and the judgement cells stay), with LF and CRLF
// line ends, and that a second Fix changes nothing.
func TestFixWrongMapping(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "fix", "wrong.md"))
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "fix", "wrong.fixed.md")
	totals := mapping.Totals{EPSections: 5, PRFiles: 4}
	out, changes, err := mapping.Fix(src, totals)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(golden, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := formatChanges(changes); !slices.Equal(got, wrongChanges) {
		t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wrongChanges, "\n"))
	}
	if string(out) != string(want) {
		t.Errorf("fixed artifact differs from %s:\n%s", golden, out)
	}
	again, changes, err := mapping.Fix(out, totals)
	if err != nil || len(changes) != 0 || string(again) != string(out) {
		t.Errorf("second Fix: err %v, changes %v", err, formatChanges(changes))
	}

	crlf := []byte(strings.ReplaceAll(string(src), "\n", "\r\n"))
	out, changes, err = mapping.Fix(crlf, totals)
	if err != nil {
		t.Fatal(err)
	}
	if got := formatChanges(changes); !slices.Equal(got, wrongChanges) {
		t.Errorf("CRLF changes:\n%s", strings.Join(got, "\n"))
	}
	if string(out) != strings.ReplaceAll(string(want), "\n", "\r\n") {
		t.Errorf("CRLF fixed artifact:\n%q", out)
	}
}

// TestFixSamples: the curated sample mappings are right, so Fix leaves
// them alone.
func TestFixSamples(t *testing.T) {
	for _, tc := range []struct {
		name   string
		totals mapping.Totals
	}{
		{"tinykv", mapping.Totals{EPSections: 14, PRFiles: 14}},
		{"unitconv", mapping.Totals{EPSections: 14, PRFiles: 16}},
	} {
		src, err := os.ReadFile(filepath.Join("..", "..", "data", "samples", tc.name, "mapping.md"))
		if err != nil {
			t.Fatal(err)
		}
		out, changes, err := mapping.Fix(src, tc.totals)
		if err != nil || len(changes) != 0 || string(out) != string(src) {
			t.Errorf("%s: err %v, changes %v", tc.name, err, formatChanges(changes))
		}
	}
}

// small is a one-block mapping; its parts are replaced per case.
const small = `# Mapping: small

## Section Classification Summary

| # | Section | Title | Implementable | Category | Mapped |
|---|---------|-------|---------------|----------|--------|
| 1 | 1 | Spec | yes | implementation | yes |

## PR File Summary

| # | File | Category | Role | Direct sections | Associated sections |
|---|------|----------|------|-----------------|---------------------|
| 1 | ` + "`a.go`" + ` | source | direct | 1 | - |

## Mapped Sections

### 1. Section 1: Spec

> Do it.

**Requirement:** Do it.

**Files:** 1 direct (100.0%), 0 associated (0.0%), 1 accounted (100.0%) of 1 PR file

#### Direct modifications

| File | Class | Function |
|------|-------|----------|
| ` + "`a.go`" + ` | - | ` + "`Do`" + ` |

#### Associated changes

None.

#### Modification summary

- ` + "`a.go`" + `: Does it.

## Unmapped Implementable Sections

UNMAPPED

## Unmapped PR Files

None.

## Global Statistics

STATS
`

const smallStats = `| Metric | Value |
|--------|-------|
| EP sections | 1 |
| Implementable sections | 1 |
| Mapped implementable sections | 1 |
| Unmapped implementable sections | 0 |
| EP-section coverage | 100.0% |
| PR files | 1 |
| Direct files | 1 |
| Associated files | 0 |
| Unmapped files | 0 |
| PR-file coverage | 100.0% |
| source files | 1 |`

func smallMapping(unmapped, stats string) string {
	return strings.NewReplacer("UNMAPPED", unmapped, "STATS", stats).Replace(small)
}

// TestFixTables covers the table edits: a table emptied becomes "None.",
// "None." becomes a canonical table, a comment inside a cell survives,
// and the "PR file" spelling of a right counts line is left alone.
func TestFixTables(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    string
		changes []string
	}{
		{
			name: "emptied table becomes None",
			in: smallMapping("| Section | Title | Reason |\n|---|---|---|\n| 1 | Spec | deferred |\n| 1 | Spec | deferred |",
				smallStats),
			want: smallMapping("None.", smallStats),
			changes: []string{
				"wrong.md:42: Unmapped Implementable Sections: section 1: 1 | Spec | deferred -> (removed)",
				"wrong.md:42: Unmapped Implementable Sections: section 1: 1 | Spec | deferred -> (removed)",
			},
		},
		{
			// The parser reads a lone CR as a blank; so does Fix.
			name:    "a lone CR before a row",
			in:      smallMapping("None.", strings.Replace(smallStats, "| PR files | 1 |", "\r| PR files | 4 |", 1)),
			want:    smallMapping("None.", strings.Replace(smallStats, "| PR files | 1 |", "\r| PR files | 1 |", 1)),
			changes: []string{"wrong.md:56: Global Statistics: PR files: 4 -> 1"},
		},
		{
			name:    "a table with a header and no rows is left alone",
			in:      smallMapping("| Section | Title | Reason |\n|---|---|---|", smallStats),
			want:    smallMapping("| Section | Title | Reason |\n|---|---|---|", smallStats),
			changes: []string{},
		},
		{
			name: "None becomes the canonical table",
			in:   smallMapping("None.", "None."),
			want: smallMapping("None.", smallStats),
			changes: []string{
				"wrong.md:51: Global Statistics: EP sections: (absent) -> 1",
				"wrong.md:52: Global Statistics: Implementable sections: (absent) -> 1",
				"wrong.md:53: Global Statistics: Mapped implementable sections: (absent) -> 1",
				"wrong.md:54: Global Statistics: Unmapped implementable sections: (absent) -> 0",
				"wrong.md:55: Global Statistics: EP-section coverage: (absent) -> 100.0%",
				"wrong.md:56: Global Statistics: PR files: (absent) -> 1",
				"wrong.md:57: Global Statistics: Direct files: (absent) -> 1",
				"wrong.md:58: Global Statistics: Associated files: (absent) -> 0",
				"wrong.md:59: Global Statistics: Unmapped files: (absent) -> 0",
				"wrong.md:60: Global Statistics: PR-file coverage: (absent) -> 100.0%",
				"wrong.md:61: Global Statistics: source files: (absent) -> 1",
			},
		},
		{
			name: "comment in a cell and an empty cell",
			in: smallMapping("None.", strings.NewReplacer("| EP sections | 1 |", "| EP sections | 7 <!-- counted by hand --> |",
				"| Direct files | 1 |", "| Direct files |  |").Replace(smallStats)),
			want: smallMapping("None.", strings.NewReplacer("| EP sections | 1 |", "| EP sections | 1 <!-- counted by hand --> |").Replace(smallStats)),
			changes: []string{
				`wrong.md:51: Global Statistics: EP sections: 7 -> 1`,
				`wrong.md:57: Global Statistics: Direct files: "" -> 1`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, changes, err := mapping.Fix([]byte(tt.in), mapping.Totals{EPSections: 1, PRFiles: 1})
			if err != nil {
				t.Fatal(err)
			}
			if got := formatChanges(changes); !slices.Equal(got, tt.changes) {
				t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.changes, "\n"))
			}
			if string(out) != tt.want {
				t.Errorf("fixed:\n%s\nwant:\n%s", out, tt.want)
			}
		})
	}
}

// TestFixUnparseable: an artifact the parser rejects is returned as it is,
// with the parse errors.
func TestFixUnparseable(t *testing.T) {
	src := []byte("# Mapping: x\n\n## Surprise\n")
	out, changes, err := mapping.Fix(src, mapping.Totals{})
	list, ok := errors.AsType[*mapping.ErrorList](err)
	if !ok || len(list.Errors) != 1 || string(out) != string(src) || changes != nil {
		t.Fatalf("err %v, out %q, changes %v", err, out, changes)
	}
}

// TestFixTodoCounts: a block's Files line left as TODO is a computed cell
// validate --fix fills, not a parse error (a curator writing blocks by
// hand leaves it so).
func TestFixTodoCounts(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "fix", "wrong.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	if !strings.HasPrefix(lines[29], "**Files:** ") {
		t.Fatalf("line 30 is %q", lines[29])
	}
	lines[29] = "**Files:** TODO"
	out, changes, err := mapping.Fix([]byte(strings.Join(lines, "\n")), mapping.Totals{EPSections: 5, PRFiles: 4})
	if err != nil {
		t.Fatal(err)
	}
	want := "wrong.md:30: block 1 (section 2): Files: TODO -> 1 direct (25.0%), 1 associated (25.0%), 2 accounted (50.0%) of 4 PR files"
	if got := formatChanges(changes); !slices.Contains(got, want) {
		t.Fatalf("changes %q lack %q", got, want)
	}
	if !strings.Contains(string(out), "\n**Files:** 1 direct (25.0%), 1 associated (25.0%), 2 accounted (50.0%) of 4 PR files\n") {
		t.Fatal("the Files line was not rewritten")
	}
}
