package mapping

import (
	"reflect"
	"testing"

	"github.com/lolbench/lolbench/pipeline/lang"
)

func TestSectionIDs(t *testing.T) {
	tests := []struct {
		cell    string
		want    []string
		wantErr string
	}{
		{"-", nil, ""},
		{"", nil, ""},
		{" - ", nil, ""},
		{"2.1", []string{"2.1"}, ""},
		{"2, 2.1,3", []string{"2", "2.1", "3"}, ""},
		{"2,,3", nil, `section list "2,,3" has an empty element`},
		{"2.1 3", nil, `section list "2.1 3": "2.1 3" is not one section id (separate ids with commas)`},
	}
	for _, tt := range tests {
		got, err := SectionIDs(tt.cell)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("SectionIDs(%q) error %v, want %q", tt.cell, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("SectionIDs(%q) = %q, %v; want %q", tt.cell, got, err, tt.want)
		}
	}
}

func TestPercent(t *testing.T) {
	format := []struct {
		num, den int
		want     string
	}{
		{1, 3, "33.3%"}, {2, 3, "66.7%"}, {1, 16, "6.3%"}, {1, 8, "12.5%"},
		{3, 3, "100.0%"}, {0, 5, "0.0%"}, {1, 0, "0.0%"}, {1, 400, "0.3%"}, {1, 2000, "0.1%"},
	}
	for _, tt := range format {
		if got := FormatPercent(tt.num, tt.den); got != tt.want {
			t.Errorf("FormatPercent(%d, %d) = %q, want %q", tt.num, tt.den, got, tt.want)
		}
	}
	parse := []struct {
		s       string
		want    float64
		wantErr string
	}{
		{"66.7%", 66.7, ""},
		{" 50% ", 50, ""},
		{"66.7", 0, `percentage "66.7" does not end with %`},
		{"1e2%", 0, `percentage "1e2%" is not a decimal number`},
		{"-1.0%", 0, `percentage "-1.0%" is not a decimal number`},
		{"%", 0, `percentage "%" is not a decimal number`},
		{"NaN%", 0, `percentage "NaN%" is not a decimal number`},
	}
	for _, tt := range parse {
		got, err := ParsePercent(tt.s)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("ParsePercent(%q) error %v, want %q", tt.s, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParsePercent(%q) = %v, %v; want %v", tt.s, got, err, tt.want)
		}
	}
}

func TestFilesAccountedStat(t *testing.T) {
	m, err := Parse([]byte(readTestdata(t, "valid.md")))
	if err != nil {
		t.Fatal(err)
	}
	want := []FileRef{
		{Path: "Parser/pegen.c", Line: 16, Part: PartPFS},
		{Path: "Lib/test/test_peg.py", Line: 17, Part: PartPFS},
		{Path: "Doc/whatsnew.rst", Line: 18, Part: PartPFS},
		{Path: "Parser/pegen.c", Line: 36, Part: SubPartDirect, Block: 1},
		{Path: "Parser/pegen.c", Line: 44, Part: SubPartSummary, Block: 1},
		{Path: "Parser/pegen.c", Line: 58, Part: SubPartDirect, Block: 2},
		{Path: "Lib/test/test_peg.py", Line: 64, Part: SubPartAssociated, Block: 2},
		{Path: "Parser/pegen.c", Line: 68, Part: SubPartSummary, Block: 2},
		{Path: "Lib/test/test_peg.py", Line: 69, Part: SubPartSummary, Block: 2},
		{Path: "Doc/whatsnew.rst", Line: 81, Part: PartUnmappedFiles},
	}
	if got := m.Files(); !reflect.DeepEqual(got, want) {
		t.Errorf("Files():\n got %+v\nwant %+v", got, want)
	}
	if got := m.Blocks[1].Accounted(); !reflect.DeepEqual(got, []string{"Parser/pegen.c", "Lib/test/test_peg.py"}) {
		t.Errorf("Accounted() = %q", got)
	}
	if r, ok := m.Stat(MetricPRCoverage); !ok || r.Value != "66.7%" || r.Line != 96 {
		t.Errorf("Stat(%q) = %+v, %v", MetricPRCoverage, r, ok)
	}
	if _, ok := m.Stat("no such metric"); ok {
		t.Error("Stat of an unknown metric found a row")
	}
}

func TestVocabularies(t *testing.T) {
	if c, ok := ParseSectionCategory("evaluation"); !ok || c != Evaluation {
		t.Errorf("ParseSectionCategory(evaluation) = %q, %v", c, ok)
	}
	if _, ok := ParseSectionCategory("Evaluation"); ok {
		t.Error("section categories are case-sensitive")
	}
	if r, ok := ParseRole("associated"); !ok || r != RoleAssociated {
		t.Errorf("ParseRole(associated) = %q, %v", r, ok)
	}
	if r, ok := ParseReason("pre-existing"); !ok || r != ReasonPreExisting {
		t.Errorf("ParseReason(pre-existing) = %q, %v", r, ok)
	}
	if _, ok := ParseReason("unknown"); ok {
		t.Error("ParseReason accepted a word outside the vocabulary")
	}
	if len(SectionCategories) != 5 || len(Roles) != 3 || len(Reasons) != 8 {
		t.Errorf("vocabulary sizes %d, %d, %d; want 5, 3, 8", len(SectionCategories), len(Roles), len(Reasons))
	}
	for _, s := range []string{"yes", "no", "Yes", ""} {
		v, ok := ParseYesNo(s)
		if want := s == "yes" || s == "no"; ok != want || v != (s == "yes") {
			t.Errorf("ParseYesNo(%q) = %v, %v", s, v, ok)
		}
	}
	for _, c := range lang.Categories {
		if got, ok := MetricCategory(CategoryMetric(c)); !ok || got != c {
			t.Errorf("MetricCategory(CategoryMetric(%q)) = %q, %v", c, got, ok)
		}
	}
	if _, ok := MetricCategory(MetricPRFiles); ok {
		t.Errorf("%q is not a per-category metric", MetricPRFiles)
	}
}

// TestColumnsMatchSpecs: the exported canonical columns are the ones the
// parser binds and Render writes.
func TestColumnsMatchSpecs(t *testing.T) {
	pairs := []struct {
		exported, bound []string
	}{
		{SCSColumns, columnNames(scsCols)},
		{PFSColumns, columnNames(pfsCols)},
		{DirectColumns, columnNames(directCols)},
		{AssociatedColumns, columnNames(associatedCols)},
		{UnmappedSectionColumns, columnNames(unmappedSectionCols)},
		{UnmappedFileColumns, columnNames(unmappedFileCols)},
		{StatColumns, columnNames(statCols)},
	}
	for _, p := range pairs {
		if !reflect.DeepEqual(p.exported, p.bound) {
			t.Errorf("exported columns %q, parser binds %q", p.exported, p.bound)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	src := []byte(docExample(b))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRender(b *testing.B) {
	m, err := Parse([]byte(docExample(b)))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		Render(m)
	}
}
