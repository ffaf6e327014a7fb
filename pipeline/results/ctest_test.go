package results

import (
	"slices"
	"testing"
)

// TestCTestJUnit: CTest's --output-junit names a test by its name in both
// attributes; the id is the name once. A test CTest could not start (its
// program did not build, a required file or a fixture is missing) failed,
// though CTest calls it skipped; a test the project skips or disabled is
// skipped.
func TestCTestJUnit(t *testing.T) {
	doc := `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="(empty)" tests="7" failures="1" disabled="1" skipped="5" hostname="" time="0">
	<testcase name="Compare.Equal" classname="Compare.Equal" time="0.01" status="run"><system-out>[ OK ]</system-out></testcase>
	<testcase name="Compare.Pre" classname="Compare.Pre" time="0.01" status="fail"><failure message=""/></testcase>
	<testcase name="range_test_NOT_BUILT" classname="range_test_NOT_BUILT" time="0" status="notrun"><skipped message="Unable to find executable"/></testcase>
	<testcase name="needs.file" classname="needs.file" time="0" status="notrun"><skipped message="Required files missing"/></testcase>
	<testcase name="after.setup" classname="after.setup" time="0" status="notrun"><skipped message="Fixture dependency failed"/></testcase>
	<testcase name="skips.itself" classname="skips.itself" time="0" status="notrun"><skipped message="SKIP_RETURN_CODE=77"/></testcase>
	<testcase name="turned.off" classname="turned.off" time="0" status="disabled"><skipped message="Disabled"/></testcase>
</testsuite>`
	res, err := JUnit{}.Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range res {
		got = append(got, r.Name+" "+string(r.Status))
	}
	want := []string{"Compare.Equal passed", "Compare.Pre failed", "after.setup error", "needs.file error", "range_test_NOT_BUILT error",
		"skips.itself skipped", "turned.off skipped"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
