package report

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/internal/testcand"
	"github.com/lolbench/lolbench/internal/testrepo"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/diff"
)

func TestMentions(t *testing.T) {
	for _, tc := range []struct {
		text, class string
		want        bool
	}{
		{"the Table type", "Table", true},
		{"Table", "Table", true},
		{"`Table.Lookup`", "Table", true},
		{"Tables of codes", "Table", false},
		{"a TableRow", "Table", false},
		{"my_Table", "Table", false},
		{"the table", "Table", false},
		{"Outer and Inner", "Outer.Inner", true},
		{"only Outer", "Outer.Inner", false},
		{"Store::new", "store::Store", true},
		{"Tablé", "Table", false},
		{"ÉTable", "Table", false},
		{"x", "", false},
		{"x", "a.", false},
		{"TableTable Table", "Table", true},
	} {
		if got := Mentions(tc.text, tc.class); got != tc.want {
			t.Errorf("Mentions(%q, %q) = %v, want %v", tc.text, tc.class, got, tc.want)
		}
	}
}

func TestSummarize(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want Summary
		text string
	}{
		{nil, Summary{}, "–"},
		{[]float64{47}, Summary{N: 1, Mean: 47, Median: 47}, "47.0 (47.0)"},
		{[]float64{3, 1, 2}, Summary{N: 3, Mean: 2, Median: 2}, "2.0 (2.0)"},
		{[]float64{1, 2, 3, 10}, Summary{N: 4, Mean: 4, Median: 2.5}, "4.0 (2.5)"},
		{[]float64{1234.56, 98765.44}, Summary{N: 2, Mean: 50000, Median: 50000}, "50,000.0 (50,000.0)"},
	} {
		got := Summarize(tc.in)
		if got != tc.want || got.Format(1) != tc.text {
			t.Errorf("Summarize(%v) = %+v %q, want %+v %q", tc.in, got, got.Format(1), tc.want, tc.text)
		}
	}
}

func TestFormatNumber(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		d    int
		want string
	}{
		{0, 0, "0"}, {999, 0, "999"}, {1000, 0, "1,000"}, {1234567.891, 2, "1,234,567.89"},
		{241.6667, 0, "242"}, {0.05, 1, "0.1"}, {-1234.5, 1, "-1,234.5"}, {0.018, 1, "0.0"},
	} {
		if got := formatNumber(tc.v, tc.d); got != tc.want {
			t.Errorf("formatNumber(%g, %d) = %q, want %q", tc.v, tc.d, got, tc.want)
		}
	}
}

func TestTableRow(t *testing.T) {
	a := &Stats{RepoLoC: 120000, SolutionLoC: 1500, SolutionFiles: 12, Classes: []string{"a: A", "b: B"},
		Functions: []string{"a: A.f"}, Members: []string{"a: A.x", "a: A.y", "b: B.z", "b: LIMIT"}, ClassNames: []string{"A", "B"}, Mentioned: []string{"A"}}
	b := &Stats{RepoLoC: 60000, SolutionLoC: 900, SolutionFiles: 10, Classes: []string{}, Functions: []string{"c: g", "c: h", "c: i"},
		Members: []string{"c: X"}, ClassNames: []string{"C"}, Mentioned: []string{"C"}}
	r := newTableRow("p", []statsEntry{{"Go", a}, {"Python", b}, {"Go", nil}})
	got := []string{r.Label, r.RepoKLoC.Format(1), r.SolutionLoC.Format(0), r.Files.Format(1), r.Classes.Format(1), r.Functions.Format(1), r.Members.Format(1), r.MentionedPercent()}
	want := []string{"p", "90.0 (90.0)", "1,200 (1,200)", "11.0 (11.0)", "1.0 (1.0)", "2.0 (2.0)", "2.5 (2.5)", "66.7%"}
	if !slices.Equal(got, want) || r.Tasks != 3 || r.Measured != 2 || !slices.Equal(r.Languages, []string{"Go", "Python"}) {
		t.Fatalf("row %+v\n got %q\nwant %q", r, got, want)
	}
	if e := newTableRow("none", nil); e.MentionedPercent() != "–" || e.RepoKLoC.Format(1) != "–" || e.Tasks != 0 {
		t.Fatalf("empty row %+v", e)
	}
}

func TestNoteFor(t *testing.T) {
	st := &pipeline.Status{Stages: map[string]*pipeline.StageStatus{
		"audit":    {Result: pipeline.Skipped, Reason: "no LLM endpoint configured; set LOLBENCH_LLM_BASE_URL"},
		"validate": {Result: pipeline.Rejected, Reason: "mapping.md cannot be parsed: 1 parse error: line 1: x"},
		"build":    {Result: pipeline.Failed, Reason: "docker: no engine"},
		"rank":     {Result: pipeline.Passed},
	}}
	for _, tc := range []struct {
		stage string
		want  Note
	}{
		{"map", Note{"absent", "not run yet"}},
		{"audit", Note{"skipped", "skipped: no LLM endpoint configured; set LOLBENCH_LLM_BASE_URL"}},
		{"validate", Note{"rejected", "rejected: mapping.md cannot be parsed: 1 parse error: line 1: x"}},
		{"build", Note{"failed", "failed: docker: no engine"}},
		{"rank", Note{"absent", "rank passed, but rank.json is missing"}},
	} {
		if got := noteFor(st, tc.stage, tc.stage+".json"); got != tc.want {
			t.Errorf("noteFor(%s) = %+v, want %+v", tc.stage, got, tc.want)
		}
	}
	if got := noteFor(nil, "map", "x"); got.Text != "not run yet" {
		t.Errorf("nil status: %+v", got)
	}
}

func TestStageRows(t *testing.T) {
	s := func(r pipeline.Result, reason string) *pipeline.StageStatus {
		return &pipeline.StageStatus{Result: r, Reason: reason}
	}
	for _, tc := range []struct {
		name     string
		stages   map[string]*pipeline.StageStatus
		state    Note
		last     string
		rejected bool
		order    string
	}{
		{"nothing", nil, Note{"absent", "collected"}, "", false, "collect map validate audit rank review build mutate augment export"},
		{"passed then skipped", map[string]*pipeline.StageStatus{"validate": s(pipeline.Passed, ""), "audit": s(pipeline.Skipped, "no LLM")},
			Note{"passed", "passed validate"}, "validate", false, ""},
		{"only skipped", map[string]*pipeline.StageStatus{"validate": s(pipeline.Skipped, "no mapping")},
			Note{"skipped", "skipped validate"}, "", false, ""},
		{"rejected wins", map[string]*pipeline.StageStatus{"validate": s(pipeline.Passed, ""), "rank": s(pipeline.Rejected, "Q 7.0 < 8.0"), "build": s(pipeline.Passed, "")},
			Note{"rejected", "rejected at rank: Q 7.0 < 8.0"}, "build", true, ""},
		{"failed", map[string]*pipeline.StageStatus{"build": s(pipeline.Failed, "boom")},
			Note{"failed", "failed at build: boom"}, "", false, ""},
		{"unknown stages last, sorted", map[string]*pipeline.StageStatus{"zz": s(pipeline.Passed, ""), "aa": s(pipeline.Passed, "")},
			Note{"passed", "passed zz"}, "zz", false, "collect map validate audit rank review build mutate augment export aa zz"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &pipeline.Status{Stages: tc.stages}
			if st.Stages == nil {
				st.Stages = map[string]*pipeline.StageStatus{}
			}
			rows, state, last, rejected := stageRows(st)
			if state != tc.state || last != tc.last || rejected != tc.rejected {
				t.Fatalf("state %+v last %q rejected %v", state, last, rejected)
			}
			var names []string
			for _, r := range rows {
				names = append(names, r.Stage)
			}
			if tc.order != "" && strings.Join(names, " ") != tc.order {
				t.Fatalf("order %q", strings.Join(names, " "))
			}
		})
	}
}

// TestComputeStatsMembers checks the modified classes and the new public
// members (issue 12 §1) of the bundled samples and of a change shaped like
// PEP 639's packaging PR (pypa/packaging#828, pipeline/syntax's member
// fixtures): unexported members (Go's value fields, Python's _Validator
// raw_name) and changed old ones (_STRING_FIELDS) are not new members.
func TestComputeStatsMembers(t *testing.T) {
	root := filepath.Join("..", "..")
	unitconv := testcand.Spec{Sample: filepath.Join(root, "data", "samples", "unitconv"), ID: "unitconv-ucep-0004",
		EPFile: "ep.md", EPID: "UCEP 4", Title: "Offset units"}
	for _, tc := range []struct {
		name             string
		repo             func(t *testing.T) string
		classes, members []string
	}{
		{"tinykv", func(t *testing.T) string { return sampleRepo(t, testcand.Tinykv(root)) },
			[]string{"clients/python/tinykv/client.py: Client", "server/server.go: Server", "snapshot/snapshot.go: entry",
				"store/expiry.go: Store", "store/store.go: Item", "store/store.go: Store", "store/store.go: value"},
			[]string{"store/store.go: ErrInvalidTTL", "store/store.go: Item.ExpiresAt", "store/store.go: Missing", "store/store.go: NoExpiry"}},
		{"unitconv", func(t *testing.T) string { return sampleRepo(t, unitconv) },
			[]string{"unitconv/errors.py: OffsetUnitError", "unitconv/quantity.py: Quantity", "unitconv/units.py: Unit"},
			[]string{"unitconv/units.py: ONE", "unitconv/units.py: Unit.display", "unitconv/units.py: Unit.offset", "unitconv/units.py: Unit.terms"}},
		{"PEP 639", pep639Repo,
			[]string{"packaging/metadata.py: Metadata", "packaging/metadata.py: RawMetadata", "packaging/metadata.py: _Validator"},
			[]string{"packaging/licenses/_spdx.py: EXCEPTIONS", "packaging/licenses/_spdx.py: LICENSES", "packaging/licenses/_spdx.py: VERSION",
				"packaging/metadata.py: Metadata.license_expression", "packaging/metadata.py: Metadata.license_files",
				"packaging/metadata.py: RawMetadata.license_expression", "packaging/metadata.py: RawMetadata.license_files"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo, err := diff.Open(tc.repo(t))
			if err != nil {
				t.Fatal(err)
			}
			st, err := ComputeStats(context.Background(), repo, "base", "head", nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(st.Classes, tc.classes) || !slices.Equal(st.Members, tc.members) {
				t.Fatalf("classes %q\nmembers %q", st.Classes, st.Members)
			}
		})
	}
}

// sampleRepo builds a sample's repository (tags base and head) and returns
// its folder.
func sampleRepo(t *testing.T, s testcand.Spec) string {
	t.Helper()
	ws, c, err := testcand.Build(t.TempDir(), s)
	if err != nil {
		t.Fatal(err)
	}
	info, err := c.LoadInfo()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := info.RepoPath(ws)
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// pep639Repo builds a repository whose change is shaped like PEP 639's
// packaging PR from pipeline/syntax's member fixtures: metadata.py gains
// fields of RawMetadata and validators of Metadata, and a new
// licenses/_spdx.py holds the SPDX tables. It returns its folder.
func pep639Repo(t *testing.T) string {
	t.Helper()
	fixtures := filepath.Join("..", "..", "pipeline", "syntax", "testdata", "members")
	tmp := t.TempDir()
	for _, f := range []struct{ step, path, fixture string }{
		{"base", "packaging/metadata.py", "metadata_base.py"},
		{"head", "packaging/metadata.py", "metadata_head.py"},
		{"head", "packaging/licenses/_spdx.py", "spdx.py"},
	} {
		src, err := os.ReadFile(filepath.Join(fixtures, f.fixture))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(tmp, f.step, filepath.FromSlash(f.path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(tmp, "repo")
	if err := testrepo.Build(dir, testrepo.Step{Overlay: filepath.Join(tmp, "base"), Tag: "base"},
		testrepo.Step{Overlay: filepath.Join(tmp, "head"), Tag: "head"}); err != nil {
		t.Fatal(err)
	}
	return dir
}
