package mapping

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func readTestdata(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// smallModel is testdata/small.md, written out by hand.
func smallModel() *Mapping {
	return &Mapping{
		Title:     "demo",
		TitleLine: 1,
		PartLines: map[string]int{
			PartSCS: 3, PartPFS: 9, PartMappedSections: 15,
			PartUnmappedSections: 39, PartUnmappedFiles: 43, PartStats: 47,
		},
		SCS: Table[SCSRow]{Line: 5, Columns: SCSColumns, Rows: []SCSRow{{
			RowBase: RowBase{Line: 7}, Index: "1", Section: "1", Title: "Motivation",
			Implementable: "yes", Category: "implementation", Mapped: "yes",
		}}},
		PFS: Table[PFSRow]{Line: 11, Columns: PFSColumns, Rows: []PFSRow{{
			RowBase: RowBase{Line: 13}, Index: "1", Path: "a.go", Category: "source", Role: "direct",
			DirectSections: "1", AssociatedSections: "-",
		}}},
		Blocks: []Block{{
			Line: 17, Number: 1, Section: "1", Title: "Motivation",
			Quote:       Quote{Line: 19, Raw: "> Make it so.", Text: "Make it so."},
			Requirement: Requirement{Line: 21, Text: "Make it so."},
			Counts: Counts{Line: 23, Direct: 1, DirectPercent: "100.0%", Associated: 0, AssociatedPercent: "0.0%",
				Accounted: 1, AccountedPercent: "100.0%", PRFiles: 1},
			Direct: Table[CodeRow]{Line: 27, Columns: DirectColumns, Rows: []CodeRow{{
				RowBase: RowBase{Line: 29}, Path: "a.go", Class: "-", Function: "run",
			}}},
			Associated: Table[CodeRow]{Line: 33, None: true, Rows: []CodeRow{}},
			Summary:    Summary{Line: 37, Items: []SummaryItem{{Line: 37, Path: "a.go", Text: "Adds run."}}},
		}},
		UnmappedSections: Table[UnmappedSectionRow]{Line: 41, None: true, Rows: []UnmappedSectionRow{}},
		UnmappedFiles:    Table[UnmappedFileRow]{Line: 45, None: true, Rows: []UnmappedFileRow{}},
		Stats: Table[StatRow]{Line: 49, Columns: StatColumns, Rows: []StatRow{{
			RowBase: RowBase{Line: 51}, Metric: "PR files", Value: "1",
		}}},
	}
}

func TestParseSmall(t *testing.T) {
	m, err := Parse([]byte(readTestdata(t, "small.md")))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if want := smallModel(); !reflect.DeepEqual(m, want) {
		t.Errorf("Parse:\n got %s\nwant %s", mustJSON(t, m), mustJSON(t, want))
	}
}

// TestParseValidVariants covers accepted spellings that differ from the
// canonical form: each edits small.md and the expected model.
func TestParseValidVariants(t *testing.T) {
	small := readTestdata(t, "small.md")
	tests := []struct {
		name     string
		old, new string
		edit     func(m *Mapping)
	}{
		{
			name: "requirement and counts in one paragraph",
			old:  "Make it so.\n\n**Files:**", new: "Make it so.\n**Files:**",
			edit: func(m *Mapping) { shiftFrom(m, 23, -1) },
		},
		{
			name: "requirement over two lines",
			old:  "**Requirement:** Make it so.", new: "**Requirement:** Make it\n  so.",
			edit: func(m *Mapping) { shiftFrom(m, 22, 1) },
		},
		{
			name: "paths without backticks, identifiers in double backticks",
			old:  "| `a.go` | - | `run` |", new: "| a.go |  | ``run`` |",
			edit: func(m *Mapping) { m.Blocks[0].Direct.Rows[0].Class = "" },
		},
		{
			name: "escaped pipe in a cell",
			old:  "| `a.go` | - | `run` |", new: "| `a.go` | - | `a\\|b` |",
			edit: func(m *Mapping) { m.Blocks[0].Direct.Rows[0].Function = "a|b" },
		},
		{
			name: "HTML comments are ignored",
			old:  "| `a.go` | - | `run` |", new: "| `a.go` | - | `run` | <!-- want R07 \"x\" -->\n\n<!-- a note\non two lines -->",
			edit: func(m *Mapping) { shiftFrom(m, 30, 3) },
		},
		{
			name: "quote with lazy continuation and blank marker lines",
			old:  "> Make it so.", new: ">\n> Make it\nso.\n>",
			edit: func(m *Mapping) {
				m.Blocks[0].Quote = Quote{Line: 19, Raw: ">\n> Make it\nso.\n>", Text: "Make it\nso."}
				shiftFrom(m, 20, 3)
			},
		},
		{
			name: "summary without backticks and a loose list",
			old:  "- `a.go`: Adds run.", new: "- a.go: Adds run.\n\n- b.go:",
			edit: func(m *Mapping) {
				shiftFrom(m, 38, 2)
				m.Blocks[0].Summary.Items = append(m.Blocks[0].Summary.Items, SummaryItem{Line: 39, Path: "b.go", Text: ""})
			},
		},
		{
			name: "renamed and extra columns are kept for rule 4",
			old:  "| Metric | Value |\n|--------|-------|\n| PR files | 1 |",
			new:  "| metric | Amount | Note |\n|---|---|---|\n| PR files | 1 | x |",
			edit: func(m *Mapping) {
				m.Stats.Columns = []string{"metric", "Amount", "Note"}
				m.Stats.Rows[0].Value = ""
				m.Stats.Rows[0].Extra = map[string]string{"Amount": "1", "Note": "x"}
			},
		},
		{
			name: "no mapped sections",
			old:  small[strings.Index(small, "### 1."):strings.Index(small, "## Unmapped Implementable")],
			new:  "None.\n\n",
			edit: func(m *Mapping) {
				m.Blocks = []Block{}
				shiftFrom(m, 39, -20)
			},
		},
		{
			name: "table with a header only",
			old:  "| 1 | 1 | Motivation | yes | implementation | yes |\n", new: "",
			edit: func(m *Mapping) {
				m.SCS.Rows = []SCSRow{}
				shiftFrom(m, 8, -1)
			},
		},
		{
			name: "CRLF line endings",
			old:  "\n", new: "\r\n",
			edit: func(m *Mapping) {},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := small
			if !strings.Contains(src, tt.old) {
				t.Fatalf("small.md has no %q", tt.old)
			}
			src = strings.ReplaceAll(src, tt.old, tt.new)
			m, err := Parse([]byte(src))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			want := smallModel()
			tt.edit(want)
			if !reflect.DeepEqual(m, want) {
				t.Errorf("Parse:\n got %s\nwant %s", mustJSON(t, m), mustJSON(t, want))
			}
		})
	}
}

// shiftFrom moves every line >= from by delta, as an edit of the source
// above them does.
func shiftFrom(m *Mapping, from, delta int) {
	walkLines(reflect.ValueOf(m), func(l *int) {
		if *l >= from {
			*l += delta
		}
	})
}

// walkLines calls f on every line field of the model: ints named Line or
// TitleLine and the values of PartLines.
func walkLines(v reflect.Value, f func(*int)) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			walkLines(v.Elem(), f)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			name := v.Type().Field(i).Name
			fv := v.Field(i)
			switch {
			case (name == "Line" || name == "TitleLine") && fv.Kind() == reflect.Int:
				f(fv.Addr().Interface().(*int))
			case name == "PartLines":
				for _, k := range fv.MapKeys() {
					l := int(fv.MapIndex(k).Int())
					f(&l)
					fv.SetMapIndex(k, reflect.ValueOf(l))
				}
			default:
				walkLines(fv, f)
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			walkLines(v.Index(i), f)
		}
	}
}

// TestParseMissingPart: a part left out is readable input, read as empty
// (rule 4 reports it with every other violation, issue 25 §3); Fix leaves
// it to the curator.
func TestParseMissingPart(t *testing.T) {
	small := readTestdata(t, "small.md")
	src := strings.Replace(small, "## Unmapped PR Files\n\nNone.\n\n", "", 1)
	if src == small {
		t.Fatal("small.md has no empty Unmapped PR Files part")
	}
	m, err := Parse([]byte(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if line, ok := m.PartLines[PartUnmappedFiles]; ok || m.UnmappedFiles.Line != 0 || len(m.UnmappedFiles.Rows) != 0 {
		t.Errorf("missing part read as line %d (%v), table %+v", line, ok, m.UnmappedFiles)
	}
	if len(m.PartLines) != len(Parts)-1 {
		t.Errorf("parts %v", m.PartLines)
	}
	// Fix changes what it changes in the whole artifact, and adds no part.
	full, _, err := Fix([]byte(small), Totals{EPSections: 1, PRFiles: 1})
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := Fix([]byte(src), Totals{EPSections: 1, PRFiles: 1})
	if want := strings.Replace(string(full), "## Unmapped PR Files\n\nNone.\n\n", "", 1); err != nil || string(out) != want {
		t.Errorf("Fix: err %v, output:\n%s\nwant:\n%s", err, out, want)
	}
}

func TestParseErrors(t *testing.T) {
	small := readTestdata(t, "small.md")
	tests := []struct {
		name string
		src  string
		want []Error
	}{
		{"empty", "", []Error{
			{1, `the artifact is empty; it must open with the title "# Mapping: <candidate id>"`},
		}},
		{"no title", strings.Replace(small, "# Mapping: demo\n\n", "", 1), []Error{
			{1, `the artifact must open with the title "# Mapping: <candidate id>", found a heading "## Section Classification Summary"`},
		}},
		{"bad title", strings.Replace(small, "# Mapping: demo", "# Map demo", 1), []Error{
			{1, `title "# Map demo" must read "# Mapping: <candidate id>"`},
		}},
		{"text before the first part", strings.Replace(small, "\n\n## Section", "\n\nNotes.\n\n## Section", 1), []Error{
			{3, `unexpected paragraph before the first part "## Section Classification Summary"`},
		}},
		{"unknown part", small + "\n## Notes\n\ntext\n", []Error{
			{53, `unknown part "## Notes"; the parts are "## Section Classification Summary", "## PR File Summary", "## Mapped Sections", "## Unmapped Implementable Sections", "## Unmapped PR Files", "## Global Statistics"`},
		}},
		{"duplicate part", small + "\n## PR File Summary\n\nNone.\n", []Error{
			{53, `duplicate part "## PR File Summary" (first at line 9)`},
		}},
		{"second title", small + "\n# Mapping: again\n", []Error{
			{53, `unexpected second title "# Mapping: again"; parts are level-2 headings`},
		}},
		{"paragraph for a table", strings.Replace(small, "| # | Section | Title | Implementable | Category | Mapped |\n|---|---------|-------|---------------|----------|--------|\n| 1 | 1 | Motivation | yes | implementation | yes |", "See below.", 1), []Error{
			{5, `part "## Section Classification Summary" must hold a table or "None.", found a paragraph`},
		}},
		{"table without delimiter row", strings.Replace(small, "|---|---------|-------|---------------|----------|--------|\n", "", 1), []Error{
			{5, `part "## Section Classification Summary" must hold a table or "None.", found a paragraph`},
		}},
		{"empty part", strings.Replace(small, "## Unmapped PR Files\n\nNone.\n", "## Unmapped PR Files\n", 1), []Error{
			{43, `part "## Unmapped PR Files" is empty; write its table, or "None." when it has no rows`},
		}},
		{"paragraph after a table", strings.Replace(small, "| yes |\n", "| yes |\n\nTrailing.\n", 1), []Error{
			{9, `unexpected paragraph in part "## Section Classification Summary", which holds one table`},
		}},
		{"short row", strings.Replace(small, "| direct | 1 | - |", "| direct | 1 |", 1), []Error{
			{13, `part "## PR File Summary": row has 5 cells, the header has 6`},
		}},
		{"long row", strings.Replace(small, "| direct | 1 | - |", "| direct | 1 | - | x |", 1), []Error{
			{13, `part "## PR File Summary": row has 7 cells, the header has 6`},
		}},
		{"row that is not a row", strings.Replace(small, "| 1 | 1 | Motivation | yes | implementation | yes |\n", "| 1 | 1 | Motivation | yes | implementation | yes |\nNone.\n", 1), []Error{
			{8, `part "## Section Classification Summary": row has 1 cell, the header has 6`},
		}},
		{"duplicate column", strings.Replace(small, "| File | Class | Function |", "| File | Class | file |", 1), []Error{
			{27, `block 1 "#### Direct modifications": columns 1 and 3 are both named "file"`},
		}},
		{"bad block heading", strings.Replace(small, "### 1. Section 1: Motivation", "### Section 1 - Motivation", 1), []Error{
			{17, `block heading "### Section 1 - Motivation" must read "### <n>. Section <id>: <title>"`},
		}},
		{"text before the first block", strings.Replace(small, "## Mapped Sections\n", "## Mapped Sections\n\nNone.\n", 1), []Error{
			{17, `unexpected "None." in part "## Mapped Sections"; a block starts with the heading "### <n>. Section <id>: <title>"`},
		}},
		{"empty mapped sections", strings.Replace(small, small[strings.Index(small, "### 1."):strings.Index(small, "## Unmapped Impl")], "", 1), []Error{
			{15, `part "## Mapped Sections" is empty; write its blocks, or "None." when no section is mapped`},
		}},
		{"missing quote", strings.Replace(small, "> Make it so.\n\n", "", 1), []Error{
			{17, `block 1: missing block quote`},
		}},
		{"duplicate quote", strings.Replace(small, "> Make it so.\n", "> Make it so.\n\n> Again.\n", 1), []Error{
			{21, `block 1: duplicate block quote (first at line 19)`},
		}},
		{"requirement continues the quote", strings.Replace(small, "> Make it so.\n\n", "> Make it so.\n", 1), []Error{
			{20, `block 1: the "**Requirement:**" line continues the block quote; leave a blank line after the quote`},
		}},
		{"unlabelled paragraph", strings.Replace(small, "**Requirement:** Make it so.", "Requirement: Make it so.", 1), []Error{
			{17, `block 1: missing "**Requirement:**" paragraph`},
			{21, `block 1: unexpected paragraph; expected "**Requirement:**" paragraph next`},
		}},
		{"unreadable counts", strings.Replace(small, "**Files:** 1 direct (100.0%), 0 associated (0.0%), 1 accounted (100.0%) of 1 PR files", "**Files:** 1 direct, 0 associated of 1", 1), []Error{
			{23, `block 1: cannot read the counts line "**Files:** 1 direct, 0 associated of 1"; it must read "**Files:** <n> direct (<p>%), <n> associated (<p>%), <n> accounted (<p>%) of <n> PR files"`},
		}},
		{"counts before requirement", strings.Replace(small, "**Requirement:** Make it so.\n\n**Files:** 1 direct (100.0%), 0 associated (0.0%), 1 accounted (100.0%) of 1 PR files", "**Files:** 1 direct (100.0%), 0 associated (0.0%), 1 accounted (100.0%) of 1 PR files\n\n**Requirement:** Make it so.", 1), []Error{
			{23, `block 1: "**Requirement:**" paragraph must come before "**Files:**" counts line`},
		}},
		{"code block in a block", strings.Replace(small, "**Requirement:** Make it so.\n", "```\ncode\n```\n\n**Requirement:** Make it so.\n", 1), []Error{
			{21, `block 1: unexpected code block; expected "**Requirement:**" paragraph next`},
		}},
		{"missing sub-part", strings.Replace(small, "#### Associated changes\n\nNone.\n\n", "", 1), []Error{
			{17, `block 1: missing "#### Associated changes"`},
		}},
		{"sub-parts out of order", strings.Replace(small, "#### Associated changes\n\nNone.\n\n#### Modification summary\n\n- `a.go`: Adds run.\n", "#### Modification summary\n\n- `a.go`: Adds run.\n\n#### Associated changes\n\nNone.\n", 1), []Error{
			{35, `block 1: "#### Associated changes" must come before "#### Modification summary"`},
		}},
		{"empty sub-part", strings.Replace(small, "#### Associated changes\n\nNone.\n", "#### Associated changes\n", 1), []Error{
			{31, `block 1: "#### Associated changes" is empty; it must hold a table or "None."`},
		}},
		{"unknown sub-part", strings.Replace(small, "#### Associated changes", "#### Tests", 1), []Error{
			{17, `block 1: missing "#### Associated changes"`},
			{31, `block 1: unknown sub-part "#### Tests"; the sub-parts are "#### Direct modifications", "#### Associated changes" and "#### Modification summary", in this order`},
		}},
		{"paragraph for a sub-part table", strings.Replace(small, "#### Associated changes\n\nNone.", "#### Associated changes\n\nNothing here.", 1), []Error{
			{33, `block 1: "#### Associated changes" must hold a table or "None.", found a paragraph`},
		}},
		{"second table in a sub-part", strings.Replace(small, "| `a.go` | - | `run` |\n", "| `a.go` | - | `run` |\n\n| File |\n|---|\n", 1), []Error{
			{31, `block 1: unexpected table; expected "#### Associated changes" next`},
		}},
		{"numbered summary", strings.Replace(small, "- `a.go`: Adds run.", "1. `a.go`: Adds run.", 1), []Error{
			{37, "block 1: \"#### Modification summary\" must be a bullet list \"- `path`: text\", found a numbered list"},
		}},
		{"summary bullet without a colon", strings.Replace(small, "- `a.go`: Adds run.", "- `a.go` Adds run.", 1), []Error{
			{37, "block 1: summary bullet \"- `a.go` Adds run.\" must read \"- `path`: text\""},
		}},
		{"nested list in a summary bullet", strings.Replace(small, "- `a.go`: Adds run.", "- `a.go`: Adds run.\n  - nested", 1), []Error{
			{38, "block 1: a summary bullet holds text only, found a bullet list"},
		}},
		{"level-5 heading in a block", strings.Replace(small, "#### Associated changes", "##### Note\n\n#### Associated changes", 1), []Error{
			{31, `block 1: unexpected heading "##### Note"; expected "#### Associated changes" next`},
		}},
		{"nesting too deep", strings.Replace(small, "> Make it so.", strings.Repeat(">", 101)+" x", 1), []Error{
			{17, `block 1: missing block quote`},
			{19, `the line opens 101 nested block quotes or list items; the mapping format needs a few at most`},
		}},
		{"unterminated comment", small + "\n<!-- note\n", []Error{
			{53, `unterminated HTML comment: "<!--" has no closing "-->"`},
			{53, `unexpected HTML block in part "## Global Statistics", which holds one table`},
		}},
		{"errors are all reported, in line order", strings.NewReplacer(
			"# Mapping: demo", "# Map demo",
			"| direct | 1 | - |", "| direct | 1 |",
			"#### Associated changes", "#### Tests",
		).Replace(small), []Error{
			{1, `title "# Map demo" must read "# Mapping: <candidate id>"`},
			{13, `part "## PR File Summary": row has 5 cells, the header has 6`},
			{17, `block 1: missing "#### Associated changes"`},
			{31, `block 1: unknown sub-part "#### Tests"; the sub-parts are "#### Direct modifications", "#### Associated changes" and "#### Modification summary", in this order`},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.src))
			list, ok := errors.AsType[*ErrorList](err)
			if !ok {
				t.Fatalf("Parse error = %v, want an *ErrorList", err)
			}
			if !reflect.DeepEqual(list.Errors, tt.want) {
				t.Errorf("errors:\n got %s\nwant %s", fmtErrors(list.Errors), fmtErrors(tt.want))
			}
		})
	}
}

func fmtErrors(errs []Error) string {
	var b strings.Builder
	for _, e := range errs {
		b.WriteString("\n  " + e.Error())
	}
	return b.String()
}

func TestParseFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mapping.md")
	if err := os.WriteFile(path, []byte("# Mapping: x\n\n## Notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ParseFile(path)
	want := strings.Join([]string{
		path + `:3: unknown part "## Notes"; the parts are "## Section Classification Summary", "## PR File Summary", "## Mapped Sections", "## Unmapped Implementable Sections", "## Unmapped PR Files", "## Global Statistics"`,
	}, "\n")
	if err == nil || err.Error() != want {
		t.Errorf("ParseFile error:\n got %v\nwant %s", err, want)
	}

	_, err = ParseFile(filepath.Join(dir, "absent.md"))
	if err == nil || !strings.HasPrefix(err.Error(), "read mapping "+filepath.Join(dir, "absent.md")+": ") || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ParseFile of a missing file: %v", err)
	}
}
