package results

import (
	"slices"
	"testing"
)

// TestCTestJUnit: CTest's --output-junit names a test by its name in both
// attributes; the id is the name once. A program that did not build is a
// test CTest did not run (skipped), never a pass.
func TestCTestJUnit(t *testing.T) {
	doc := `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="(empty)" tests="3" failures="1" disabled="0" skipped="0" hostname="" time="0">
	<testcase name="Compare.Equal" classname="Compare.Equal" time="0.01" status="run"><system-out>[ OK ]</system-out></testcase>
	<testcase name="Compare.Pre" classname="Compare.Pre" time="0.01" status="fail"><failure message=""/></testcase>
	<testcase name="range_test_NOT_BUILT" classname="range_test_NOT_BUILT" time="0" status="notrun"><skipped message="Unable to find executable"/></testcase>
</testsuite>`
	res, err := JUnit{}.Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range res {
		got = append(got, r.Name+" "+string(r.Status))
	}
	want := []string{"Compare.Equal passed", "Compare.Pre failed", "range_test_NOT_BUILT skipped"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
