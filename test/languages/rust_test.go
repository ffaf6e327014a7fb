package languages

import (
	"testing"

	"github.com/lolbench/lolbench/pipeline/baseimage"
)

// The verso sample's task, as the build finds it: the unit tests of the
// version module and the integration tests of tests/parse.rs, which the
// PR leaves alone, pass on both sides (lolbench-cargo-test runs each
// target apart, so the targets that do not compile before the solution
// stop no other); every other test is FAIL_TO_PASS. Ids name the test
// binary (the crate for unit tests, the file for integration tests).
var (
	versoP2P = []string{
		"parse::orders_numerically",
		"parse::parses_and_prints",
		"parse::refuses_bad_versions",
		"verso::version::tests::bumps_reset_lower_parts",
		"verso::version::tests::numbers_refuse_leading_zeros",
		"verso::version::tests::splits_at_dots",
	}
	versoF2P = []string{
		"prerelease::build_metadata_is_ignored_in_precedence",
		"prerelease::parses_pre_release_and_build",
		"prerelease::pre_releases_bump_to_their_release",
		"prerelease::precedence_follows_the_specification",
		"prerelease::refuses_bad_pre_releases",
		"req::caret_keeps_the_leftmost_non_zero",
		"req::comparison_operators",
		"req::parses_comparators",
		"req::pre_releases_need_an_opt_in",
		"req::refuses_bad_requirements",
		"req::tilde_allows_patch_updates",
		"select::none_when_nothing_matches",
		"select::picks_the_highest_match",
		"select::skips_pre_releases_unless_asked",
		"verso::identifier::tests::numbers_sort_before_words",
		"verso::identifier::tests::numeric_identifiers_compare_as_numbers",
		"verso::identifier::tests::refuses_bad_identifiers",
		"verso::req::tests::caret_and_tilde_upper_bounds",
		"verso::req::tests::longest_operator_wins",
	}
	// The sections whose stub revert an F2P test must kill. 4.1's stub
	// revert does not compile (Version::new goes back to its base body,
	// without the new fields) and 4.2's breaks PASS_TO_PASS ordering tests
	// (its cmp panics): mutate drops both, as it drops every such mutant.
	versoKilled  = []string{"4.3", "4.4", "4.5"}
	versoDropped = map[string]string{"4.1": "compile", "4.2": "p2p"}
)

// TestRustSample runs every stage on the Rust sample (issue 23), with
// per-test llvm-cov coverage. The F2P tests leave a few executable added
// lines unrun (error paths no test takes); the exact count pins the
// executable-line rules and the lcov reading together. Six canaries: a
// target in tests/, one in each of its four files and one in src/lib.rs
// for the library's unit tests.
func TestRustSample(t *testing.T) {
	testSample(t, sampleTask{
		language: "Rust", id: "verso-vrfc-0002", image: baseimage.Rust,
		f2p: versoF2P, p2p: versoP2P,
		sections: []string{"4.1", "4.2", "4.3", "4.4", "4.5"},
		adapter:  "llvm-cov", covered: 94, executable: 101,
		killed: versoKilled, dropped: versoDropped, canaries: 6,
	})
}
