package languages

import (
	"testing"

	"github.com/lolbench/lolbench/pipeline/baseimage"
)

// The semkit sample's task, as the build finds it: the test programs of
// the two files the PR leaves alone or only extends build on both sides;
// the three new programs do not build before the solution (they call what
// SKEP-2 adds), so their tests are absent, that is FAIL_TO_PASS, as are
// compare_test's new tests.
var (
	semkitF2P = []string{
		"Bump.Major", "Bump.Minor", "Bump.PatchOfAPreReleaseDropsTheTag", "Bump.PatchOfARelease",
		"Compare.PreReleaseIdentifiers", "Compare.PreReleaseIsLowerThanRelease", "Library.ReportsItsVersion",
		"Range.AllComparatorsMustHold", "Range.EveryOperator", "Range.RefusesBadRanges",
	}
	semkitP2P = []string{
		"Compare.EqualVersions", "Compare.OrdersByNumbers", "Parse.ReadsAPreRelease", "Parse.ReadsTheThreeNumbers",
		"Parse.RefusesBadText", "Parse.RoundTrips",
	}
	// The implementable sections whose section revert (or its stub
	// revert) must be killed: every one with source lines.
	semkitReverted = []string{"3.1", "3.2", "3.3", "4"}
)

// TestCxxSample runs every stage on the C++ sample (issue 23), with
// per-test gcov coverage; one canary, in the one test folder.
func TestCxxSample(t *testing.T) {
	testSample(t, sampleTask{
		language: "C++", id: "semkit-skep-0002", image: baseimage.CFamily,
		f2p: semkitF2P, p2p: semkitP2P, sections: semkitReverted,
		adapter: "gcov", killed: semkitReverted, canaries: 1,
	})
}

// The inikit sample's task, as the build finds it: the three new test
// programs do not build before the solution (they include inikit/doc.h
// or call what IKEP-2 changes), so their tests are absent, that is
// FAIL_TO_PASS, as are test_parse's two new tests of comments; its test
// of the marks kept inside words passes on both sides.
var (
	inikitF2P = []string{
		"test_doc.gets_values_by_section", "test_doc.later_value_wins", "test_doc.load_refuses_long_text",
		"test_doc.load_refuses_too_many_pairs", "test_doc.missing_key_is_null",
		"test_parse.strips_comment_after_section", "test_parse.strips_inline_comments",
		"test_typed.missing_keys_are_reported", "test_typed.reads_bool_words", "test_typed.reads_longs",
		"test_typed.refuses_bad_bools", "test_typed.refuses_bad_longs",
		"test_version.reports_version_1_1_0",
	}
	inikitP2P = []string{
		"test_parse.handler_stops_the_parse", "test_parse.keeps_marks_inside_words", "test_parse.reads_pairs_in_order",
		"test_parse.reads_sections", "test_parse.reports_the_bad_line", "test_parse.skips_blank_and_comment_lines",
	}
	inikitSections = []string{"3.1", "3.2", "3.3", "4"}
)

// TestCSample runs every stage on the C sample (issue 23): cmocka tests,
// each function a CTest test of its own, per-test gcov coverage, and the
// cmocka canary in the one test folder. The build runs each side twice:
// the second run's make must rebuild the library the first built, from
// object files put back as old as the image made them (no test of
// ini.c's sections may turn flaky, as they did when the restore gave
// them the time of the restore).
func TestCSample(t *testing.T) {
	testSample(t, sampleTask{
		language: "C", id: "inikit-ikep-0002", image: baseimage.CFamily,
		f2p: inikitF2P, p2p: inikitP2P, sections: inikitSections,
		adapter: "gcov", killed: inikitSections, canaries: 1, runs: 2,
	})
}
