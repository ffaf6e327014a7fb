package sectionmap_test

import (
	"reflect"
	"testing"

	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/sectionmap"
)

// TestRowsOfByClass: pytest ids carry the class, which must match the
// row's; a row naming a test in two blocks names it in both; a file with
// direct sections only is read in Direct modifications; a test file no PR
// File Summary row names has no rows.
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
			// Test plan rows in Direct modifications of a file read in
			// Associated changes: not used.
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
	meta := []string{"8.2", "8.2.1", "8.2.2"}
	const mp, lp = "tests/test_metadata.py", "tests/test_licenses.py"
	want := map[string]sectionmap.Rows{
		f2p[0]: {Named: map[string]int{"8.2.1": 1, "8.2.2": 2}, File: meta, FilePath: mp},
		f2p[1]: {Named: map[string]int{"8.2.2": 2}, File: meta, FilePath: mp},
		f2p[2]: {Named: map[string]int{"8.2.1": 1}, File: meta, FilePath: mp},
		f2p[3]: {File: meta, FilePath: mp},
		f2p[4]: {Named: map[string]int{"8.1": 3}, File: []string{"8.1"}, FilePath: lp},
		f2p[5]: {File: []string{"8.1"}, FilePath: lp},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("RowsOf:\n got %v\nwant %v", got, want)
	}
}
