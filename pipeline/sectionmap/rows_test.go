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

// TestRowsOfInherited: a unittest id names the class the test ran in
// (CPython regrtest's test.test_tarfile.Bz2MiscReadTest.test_extract_directory),
// which inherits the method the rows name on its base class; a subclass's
// own method is named only by rows that name it there.
func TestRowsOfInherited(t *testing.T) {
	dir := t.TempDir()
	src := "import unittest\n\nclass MiscReadTestBase(ReadTest):\n    def test_extract_directory(self): ...\n    def test_other(self): ...\n\n" +
		"class Bz2MiscReadTest(Bz2Test, MiscReadTestBase, unittest.TestCase):\n    def test_other(self): ...\n\n" +
		"class Unrelated(unittest.TestCase):\n    def test_extract_directory(self): ...\n"
	if err := testrepo.Build(dir, testrepo.Step{Files: map[string]string{"Lib/test/test_tarfile.py": src}, Tag: "head", Message: "tests"}); err != nil {
		t.Fatal(err)
	}
	repo, err := diff.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	head, _ := repo.Resolve("head")
	const tf = "Lib/test/test_tarfile.py"
	m := &mapping.Mapping{
		PFS: mapping.Table[mapping.PFSRow]{Rows: []mapping.PFSRow{{Path: tf, DirectSections: "-", AssociatedSections: "4.1, 4.2"}}},
		Blocks: []mapping.Block{
			{Number: 2, Section: "4.2", Associated: mapping.Table[mapping.CodeRow]{Rows: []mapping.CodeRow{
				{Path: tf, Class: "MiscReadTestBase", Function: "test_extract_directory"},
				{Path: tf, Class: "MiscReadTestBase", Function: "test_other"},
			}}},
		},
	}
	f2p := []string{
		"test.test_tarfile.Bz2MiscReadTest.test_extract_directory",
		"test.test_tarfile.MiscReadTestBase.test_extract_directory",
		// Bz2MiscReadTest defines its own test_other: the base's row
		// does not name it.
		"test.test_tarfile.Bz2MiscReadTest.test_other",
		"test.test_tarfile.Unrelated.test_extract_directory",
	}
	got := sectionmap.RowsOf(repo, head, m, "junit", []string{tf}, f2p)
	file := []string{"4.1", "4.2"}
	want := map[string]sectionmap.Rows{
		f2p[0]: {Named: map[string]int{"4.2": 2}, File: file, FilePath: tf},
		f2p[1]: {Named: map[string]int{"4.2": 2}, File: file, FilePath: tf},
		f2p[2]: {File: file, FilePath: tf},
		f2p[3]: {File: file, FilePath: tf},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("RowsOf:\n got %v\nwant %v", got, want)
	}
}
