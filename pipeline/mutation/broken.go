package mutation

import (
	"sort"
	"strings"

	"github.com/lolbench/lolbench/pipeline/results"
)

// BuildBroken returns, sorted, the units a test run reports as failed as a
// whole rather than test by test: the Go packages of go-json's
// "importpath [package]" error entries (results.PackageMarker), the
// Rust crates of cargo's "crate [build]" ones (results.BuildMarker), and
// the JUnit suites that failed outside every test ("[suite]": a Python
// test module that does not import, a Java class that does not load). A
// mutant that makes any of them broke compilation, and every test of the
// unit fails on it whatever the test asserts: the kill matrix marks them
// killed (OutcomeKilled counts absent tests), so a mutant with a broken
// unit tells nothing about which tests assert its section.
//
// For Go the marker is wider than a build failure: go-json also gives it
// to a package whose TestMain exited non-zero, or that failed in init or
// timed out before any test ran; in all of these no test of the package
// ran either. A test binary that died in the middle of a test (a panic)
// has no marker: the running test is an error and the later ones are
// absent.
func BuildBroken(rs []results.Result) []string {
	var out []string
	for _, r := range rs {
		if r.Status != results.Error {
			continue
		}
		for _, m := range []string{results.PackageMarker, results.BuildMarker, results.SuiteMarker} {
			if unit, ok := strings.CutSuffix(r.Name, m); ok && unit != "" {
				out = append(out, unit)
			}
		}
	}
	sort.Strings(out)
	return out
}
