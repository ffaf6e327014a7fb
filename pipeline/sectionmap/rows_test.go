package sectionmap_test

import (
	"reflect"
	"testing"

	"github.com/lolbench/lolbench/internal/testrepo"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/sectionmap"
)

// TestRowsOfByClass: pytest ids carry the class, which must match the
// row's; a row naming a test in two blocks names it in both, under Direct
// modifications or Associated changes alike; a test file no PR File
// Summary row names has no rows.
func TestRowsOfByClass(t *testing.T) {
	m := &mapping.Mapping{
		PFS: mapping.Table[mapping.PFSRow]{Rows: []mapping.PFSRow{
			{Path: "tests/test_metadata.py", DirectSections: "9", AssociatedSections: "8.2, 8.2.1, 8.2.2"},
			{Path: "tests/test_licenses.py", DirectSections: "8.1", AssociatedSections: "-"},
		}},
		Blocks: []mapping.Block{
			{Number: 1, Section: "8.2.1", Associated: mapping.Table[mapping.CodeRow]{Rows: []mapping.CodeRow{
				{Path: "tests/test_metadata.py", Class: "TestMetadata", Function: "test_invalid_license_expression"},
				{Path: "tests/test_metadata.py", Class: "-", Function: "test_module_level"},
			}}},
			{Number: 2, Section: "8.2.2", Associated: mapping.Table[mapping.CodeRow]{Rows: []mapping.CodeRow{
				{Path: "tests/test_metadata.py", Class: "TestMetadata", Function: "test_license_files"},
				{Path: "tests/test_metadata.py", Class: "TestMetadata", Function: "test_invalid_license_expression"},
			}}},
			{Number: 3, Section: "8.1", Direct: mapping.Table[mapping.CodeRow]{Rows: []mapping.CodeRow{
				{Path: "tests/test_licenses.py", Class: "-", Function: "test_canonicalize"},
			}}},
			// The test plan's block owns a test under Direct
			// modifications: it names it too (a test plan is no task
			// section, so the map leaves it out).
			{Number: 4, Section: "9", Direct: mapping.Table[mapping.CodeRow]{Rows: []mapping.CodeRow{
				{Path: "tests/test_metadata.py", Class: "TestMetadata", Function: "test_license_files"},
			}}},
		},
	}
	f2p := []string{
		"tests/test_metadata.py::TestMetadata::test_invalid_license_expression[MIT or]",
		"tests/test_metadata.py::TestMetadata::test_license_files",
		"tests/test_metadata.py::test_module_level",
		// The same name in another class: the file's sections.
		"tests/test_metadata.py::TestOther::test_license_files",
		"tests/test_licenses.py::test_canonicalize",
		"tests/test_licenses.py::test_other",
		"tests/test_unnamed.py::test_x",
	}
	files := []string{"tests/test_metadata.py", "tests/test_licenses.py", "tests/test_unnamed.py"}
	got := sectionmap.RowsOf(nil, "", m, "pytest-ra", files, f2p)
	meta := []string{"8.2", "8.2.1", "8.2.2", "9"}
	const mp, lp = "tests/test_metadata.py", "tests/test_licenses.py"
	want := map[string]sectionmap.Rows{
		f2p[0]: {Named: map[string]int{"8.2.1": 1, "8.2.2": 2}, File: meta, FilePath: mp},
		f2p[1]: {Named: map[string]int{"8.2.2": 2, "9": 4}, File: meta, FilePath: mp},
		f2p[2]: {Named: map[string]int{"8.2.1": 1}, File: meta, FilePath: mp},
		f2p[3]: {File: meta, FilePath: mp},
		f2p[4]: {Named: map[string]int{"8.1": 3}, File: []string{"8.1"}, FilePath: lp},
		f2p[5]: {File: []string{"8.1"}, FilePath: lp},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("RowsOf:\n got %v\nwant %v", got, want)
	}
}

// TestRowsOfGoSubtests: grpc-go's shape (gRFC A58 x grpc-go #6241), a
// runner Test that runs the methods of s as subtests. Two blocks naming
// two methods of one runner map each subtest to its own section; a row
// naming a table-driven subtest by its path names that subtest alone, a
// row naming the test function all its subtests; a row naming the runner
// names every method it runs.
func TestRowsOfGoSubtests(t *testing.T) {
	const dir, runner, wrr, table = "balancer/weightedroundrobin", "balancer/weightedroundrobin/balancer_test.go",
		"balancer/weightedroundrobin/wrr_test.go", "balancer/weightedroundrobin/table_test.go"
	files := map[string]string{
		runner: "package weightedroundrobin\n\ntype s struct{ grpctest.Tester }\n\nfunc Test(t *testing.T) { grpctest.RunSubTests(t, s{}) }\n",
		wrr: "package weightedroundrobin\n\nfunc (s) TestBalancer_OneAddress(t *testing.T) {}\n\nfunc (s) TestBalancer_TwoAddresses(t *testing.T) {}\n\n" +
			"func (s) TestBalancer_Blackout(t *testing.T) {}\n",
		table: "package weightedroundrobin\n\nfunc TestParseConfig(t *testing.T) {\n\tfor _, c := range cases {\n\t\tt.Run(c.name, func(t *testing.T) {})\n\t}\n}\n",
	}
	repoDir := t.TempDir()
	if err := testrepo.Build(repoDir, testrepo.Step{Files: files, Tag: "head"}); err != nil {
		t.Fatal(err)
	}
	repo, err := diff.Open(repoDir)
	if err != nil {
		t.Fatal(err)
	}
	row := func(path, class, fn string) mapping.CodeRow {
		return mapping.CodeRow{Path: path, Class: class, Function: fn}
	}
	m := &mapping.Mapping{
		PFS: mapping.Table[mapping.PFSRow]{Rows: []mapping.PFSRow{
			{Path: wrr, DirectSections: "-", AssociatedSections: "2.1, 2.2"},
			{Path: table, DirectSections: "-", AssociatedSections: "2.1, 2.3"},
			{Path: runner, DirectSections: "-", AssociatedSections: "2.4"},
		}},
		Blocks: []mapping.Block{
			{Number: 1, Section: "2.1", Associated: mapping.Table[mapping.CodeRow]{Rows: []mapping.CodeRow{
				row(wrr, "s", "TestBalancer_OneAddress"), row(table, "-", "TestParseConfig/zero_weight")}}},
			{Number: 2, Section: "2.2", Associated: mapping.Table[mapping.CodeRow]{Rows: []mapping.CodeRow{
				row(wrr, "s", "TestBalancer_TwoAddresses")}}},
			{Number: 3, Section: "2.3", Associated: mapping.Table[mapping.CodeRow]{Rows: []mapping.CodeRow{
				row(table, "-", "TestParseConfig")}}},
			{Number: 4, Section: "2.4", Associated: mapping.Table[mapping.CodeRow]{Rows: []mapping.CodeRow{
				row(runner, "-", "Test")}}},
		},
	}
	const pkg = "google.golang.org/grpc/" + dir + "."
	f2p := []string{
		pkg + "Test/Balancer_OneAddress",
		pkg + "Test/Balancer_TwoAddresses",
		pkg + "Test/Balancer_Blackout",
		pkg + "TestParseConfig/zero_weight",
		pkg + "TestParseConfig/negative_weight",
	}
	testFiles := []string{runner, wrr, table}
	wrrSecs, tableSecs := []string{"2.1", "2.2"}, []string{"2.1", "2.3"}
	// The two blocks of the methods alone: each subtest its own section.
	two := &mapping.Mapping{PFS: m.PFS, Blocks: m.Blocks[:2]}
	got := sectionmap.RowsOf(repo, "head", two, "go-json", testFiles, f2p)
	want := map[string]sectionmap.Rows{
		f2p[0]: {Named: map[string]int{"2.1": 1}, File: wrrSecs, FilePath: wrr},
		f2p[1]: {Named: map[string]int{"2.2": 2}, File: wrrSecs, FilePath: wrr},
		f2p[2]: {File: wrrSecs, FilePath: wrr},
		f2p[3]: {Named: map[string]int{"2.1": 1}, File: tableSecs, FilePath: table},
		f2p[4]: {File: tableSecs, FilePath: table},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("RowsOf, two blocks:\n got %v\nwant %v", got, want)
	}
	// With rows naming the whole table test and the whole runner.
	got = sectionmap.RowsOf(repo, "head", m, "go-json", testFiles, f2p)
	want = map[string]sectionmap.Rows{
		f2p[0]: {Named: map[string]int{"2.1": 1, "2.4": 4}, File: []string{"2.1", "2.2"}, FilePath: wrr},
		f2p[1]: {Named: map[string]int{"2.2": 2, "2.4": 4}, File: []string{"2.1", "2.2"}, FilePath: wrr},
		f2p[2]: {Named: map[string]int{"2.4": 4}, File: []string{"2.1", "2.2"}, FilePath: wrr},
		f2p[3]: {Named: map[string]int{"2.1": 1, "2.3": 3}, File: []string{"2.1", "2.3"}, FilePath: table},
		f2p[4]: {Named: map[string]int{"2.3": 3}, File: []string{"2.1", "2.3"}, FilePath: table},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("RowsOf:\n got %v\nwant %v", got, want)
	}
}

// TestRowsOfInherited: a unittest id names the class the test ran in
// (CPython regrtest's test.test_tarfile.Bz2MiscReadTest.test_extract_directory),
// which inherits the method the rows name on its base class; a subclass's
// own method is named only by rows that name it there.
