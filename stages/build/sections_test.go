package build

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// TestF2PSectionsTinykv: a test that a block's Associated changes name
// gets that block's sections, any other the sections of its file.
// snapshot_test.go serves 3.4 and 4; only TestRoundTrip, named by no
// block, keeps both.
func TestF2PSectionsTinykv(t *testing.T) {
	ws, err := workspace.Open(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	c := sampleCandidate(t, ws, "tinykv", "tinykv-tkep-0002", "ep.md", nil)
	m, err := mapping.ParseFile(filepath.Join(c.Dir, "mapping.md"))
	if err != nil {
		t.Fatal(err)
	}
	repo, err := diff.Open(filepath.Join(ws.Root, "repos", c.ID))
	if err != nil {
		t.Fatal(err)
	}
	head, err := repo.Resolve("head")
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"server/server_test.go", "snapshot/snapshot_test.go", "store/expiry_test.go", "store/store_test.go"}
	f2p := []string{
		"example.com/tinykv/server.TestHandle", "example.com/tinykv/server.TestSetexAndTTL",
		"example.com/tinykv/snapshot.TestExpiryRoundTrip", "example.com/tinykv/snapshot.TestLoadSkipsExpired",
		"example.com/tinykv/snapshot.TestLoadVersion1", "example.com/tinykv/snapshot.TestRoundTrip",
		"example.com/tinykv/store.TestSetWithTTLExpires", "example.com/tinykv/store.TestStartSweeperStops",
		"example.com/tinykv/store.TestSweepRemovesExpired/expired", "example.com/tinykv/store.TestNowhere",
	}
	got := F2PSections(repo, head, m, "go-json", files, f2p)
	want := map[string][]string{
		"example.com/tinykv/server.TestHandle": {"3.3"}, "example.com/tinykv/server.TestSetexAndTTL": {"3.3"},
		"example.com/tinykv/snapshot.TestExpiryRoundTrip": {"3.4"}, "example.com/tinykv/snapshot.TestLoadSkipsExpired": {"3.4"},
		"example.com/tinykv/snapshot.TestLoadVersion1": {"4"}, "example.com/tinykv/snapshot.TestRoundTrip": {"3.4", "4"},
		"example.com/tinykv/store.TestSetWithTTLExpires": {"3.1"}, "example.com/tinykv/store.TestStartSweeperStops": {"3.2"},
		// A subtest is its function's.
		"example.com/tinykv/store.TestSweepRemovesExpired/expired": {"3.2"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("F2PSections:\n got %v\nwant %v", got, want)
	}
}

// TestF2PSectionsByClass: pytest ids carry the class, which must match
// the row's; a file with direct sections only is read in Direct
// modifications; a test file no PR File Summary row names has no sections.
func TestF2PSectionsByClass(t *testing.T) {
	m := &mapping.Mapping{
		PFS: mapping.Table[mapping.PFSRow]{Rows: []mapping.PFSRow{
			{Path: "tests/test_metadata.py", DirectSections: "9", AssociatedSections: "8.2, 8.2.1, 8.2.2"},
			{Path: "tests/test_licenses.py", DirectSections: "8.1", AssociatedSections: "-"},
		}},
		Blocks: []mapping.Block{
			{Section: "8.2.1", Associated: mapping.Table[mapping.CodeRow]{Rows: []mapping.CodeRow{
				{Path: "tests/test_metadata.py", Class: "TestMetadata", Function: "test_invalid_license_expression"},
				{Path: "tests/test_metadata.py", Class: "-", Function: "test_module_level"},
			}}},
			{Section: "8.2.2", Associated: mapping.Table[mapping.CodeRow]{Rows: []mapping.CodeRow{
				{Path: "tests/test_metadata.py", Class: "TestMetadata", Function: "test_license_files"},
				{Path: "tests/test_metadata.py", Class: "TestMetadata", Function: "test_invalid_license_expression"},
			}}},
			{Section: "8.1", Direct: mapping.Table[mapping.CodeRow]{Rows: []mapping.CodeRow{
				{Path: "tests/test_licenses.py", Class: "-", Function: "test_canonicalize"},
			}}},
			// Test plan rows in Direct modifications of a file read in
			// Associated changes: not used.
			{Section: "9", Direct: mapping.Table[mapping.CodeRow]{Rows: []mapping.CodeRow{
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
	got := F2PSections(nil, "", m, "pytest-ra", files, f2p)
	want := map[string][]string{
		"tests/test_metadata.py::TestMetadata::test_invalid_license_expression[MIT or]": {"8.2.1", "8.2.2"},
		"tests/test_metadata.py::TestMetadata::test_license_files":                      {"8.2.2"},
		"tests/test_metadata.py::test_module_level":                                     {"8.2.1"},
		"tests/test_metadata.py::TestOther::test_license_files":                         {"8.2", "8.2.1", "8.2.2"},
		"tests/test_licenses.py::test_canonicalize":                                     {"8.1"},
		"tests/test_licenses.py::test_other":                                            {"8.1"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("F2PSections:\n got %v\nwant %v", got, want)
	}
}
