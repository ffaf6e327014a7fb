package augment

import (
	"context"
	"os"
	"reflect"
	"testing"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/sectionmap"
)

// TestMapInput: the calc fixture's evidence, as the stage gathers it. The
// executable added lines go to the sections whose blocks list their
// functions (calc.go's file-level row, 1.2.2, owns the bound check); the
// reverts that passed the P2P tests are 1.2.2's and 1.2.1's stub. TestClamp,
// the only FAIL_TO_PASS test (TestAdd is PASS_TO_PASS: its package only
// failed to build before the solution), kills 1.2.1's stub revert; a revert
// that kills every judged test is dependency-only evidence, so its mapping
// row decides: 1.2.1. 1.2.3 (Describe), which no test runs, and 1.2.2 are
// untested. An added test that kills 1.2.2's revert and one that runs
// Describe's lines complete the task.
func TestMapInput(t *testing.T) {
	ws, c := calcCopy(t)
	tk, err := loadTask(context.Background(), &pipeline.Env{Workspace: ws, Getenv: os.Getenv}, c)
	if err != nil {
		t.Fatal(err)
	}
	in := tk.mapInput(tk.rec.Report.FailToPass, nil)
	wantOwned := map[string]coverage.Lines{
		"1.2.1": {"calc/calc.go": {21, 22, 24, 25, 27, 32, 33, 34, 35, 36, 38, 40}},
		"1.2.2": {"calc/calc.go": {14, 15, 17}},
		"1.2.3": {"calc/describe.go": {7, 8, 9, 10, 12, 13, 15, 16, 17, 19, 20, 22}},
	}
	if !reflect.DeepEqual(in.Owned, wantOwned) {
		t.Errorf("owned:\n got %v\nwant %v", in.Owned, wantOwned)
	}
	if want := map[string]string{"revert-1.2.2": "1.2.2", "revert-1.2.1-stub": "1.2.1"}; !reflect.DeepEqual(in.Reverts, want) {
		t.Errorf("reverts %v", in.Reverts)
	}
	m := sectionmap.Compute("augment", in)
	// TestAdd is PASS_TO_PASS (its package only failed to build before the
	// solution). TestClamp's stub-revert kill is dependency-only evidence (it
	// kills every judged F2P test), so its mapping row decides.
	want := []sectionmap.Test{
		{Test: calcPkg + "TestClamp", Sections: []string{"1.2.1"}, Evidence: []string{"row of block 1"}},
	}
	if !reflect.DeepEqual(m.Tests, want) || !reflect.DeepEqual(m.Untested, []string{"1.2.2", "1.2.3"}) {
		t.Errorf("map %+v untested %v", m.Tests, m.Untested)
	}
	if m.Sections[1].Untested != "no FAIL_TO_PASS test fails on its revert (revert-1.2.2), no FAIL_TO_PASS test runs the lines it owns and no mapping row names a FAIL_TO_PASS test for it" ||
		m.Sections[2].Untested != "no FAIL_TO_PASS test runs the lines it owns and no mapping row names a FAIL_TO_PASS test for it" {
		t.Errorf("why: %q, %q", m.Sections[1].Untested, m.Sections[2].Untested)
	}

	added := []*Candidate{
		{Tests: []string{calcPkg + "TestClampRejectsReversedBounds"}, Kills: []string{"revert-1.2.2"}, Covered: coverage.Lines{"calc/calc.go": {14, 15}}},
		{Tests: []string{calcPkg + "TestDescribeSmall"}, Covered: coverage.Lines{"calc/describe.go": {7, 8}}},
	}
	f2p := append(append([]string{}, tk.rec.Report.FailToPass...), calcPkg+"TestClampRejectsReversedBounds", calcPkg+"TestDescribeSmall")
	m = sectionmap.Compute("augment", tk.mapInput(f2p, added))
	wantAdded := []sectionmap.Test{
		{Test: calcPkg + "TestClampRejectsReversedBounds", Sections: []string{"1.2.2"}, Evidence: []string{"killed revert-1.2.2"}},
		{Test: calcPkg + "TestDescribeSmall", Sections: []string{"1.2.3"}, Evidence: []string{"reached 1.2.3's lines (2 lines)"}},
	}
	if !reflect.DeepEqual(m.Tests[1:], wantAdded) || !m.Ready() {
		t.Errorf("with added tests: %+v, %s", m.Tests, m.NotReady())
	}
}
