package augment_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/sectionmap"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/augment"
	"github.com/lolbench/lolbench/stages/build"
	"github.com/lolbench/lolbench/stages/export"
)

// TestExportUsesAddedTests: the SWE-bench export carries the added tests
// after the PR's, the longer FAIL_TO_PASS list and the test-to-section map.
func TestExportUsesAddedTests(t *testing.T) {
	ws, c := augment.CalcCopy(t)
	env := &pipeline.Env{Workspace: ws, Getenv: os.Getenv, Version: "test"}
	rec, err := build.LoadRecord(c)
	if err != nil {
		t.Fatal(err)
	}
	// As if a loop had kept one test: its patch, the report and the map.
	added := "diff --git a/calc/x_test.go b/calc/x_test.go\nnew file mode 100644\n--- /dev/null\n+++ b/calc/x_test.go\n@@ -0,0 +1 @@\n+package calc\n"
	if err := workspace.WriteFile(filepath.Join(c.Dir, augment.TestPatchFile), []byte(added), 0o644); err != nil {
		t.Fatal(err)
	}
	f2p := append(append([]string{}, rec.Report.FailToPass...), augment.CalcPkg+"TestX")
	rep := &augment.Report{Candidate: c.ID, OriginalF2P: rec.Report.FailToPass, FailToPass: f2p, Added: []string{augment.CalcPkg + "TestX"},
		TestPatch: augment.TestPatchFile, AddedFiles: []string{"calc/x_test.go"}}
	if err := workspace.WriteJSON(filepath.Join(c.Dir, augment.ReportFile), rep); err != nil {
		t.Fatal(err)
	}
	smap := sectionmap.Compute("augment", sectionmap.Input{Tests: f2p, Sections: []mapping.TaskSection{{ID: "1.2.1"}, {ID: "1.2.3"}},
		Rows: map[string]sectionmap.Rows{augment.CalcPkg + "TestClamp": {Named: map[string]int{"1.2.1": 1}}, augment.CalcPkg + "TestX": {Named: map[string]int{"1.2.3": 3}}}})
	if err := sectionmap.Save(c, smap, false); err != nil {
		t.Fatal(err)
	}
	st := &export.Stage{Format: export.SWEBench, Out: t.TempDir(), IncludeUnreviewed: true}
	if err := st.Run(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(st.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	if !sc.Scan() {
		t.Fatal("no instance")
	}
	var inst export.Instance
	if err := json.Unmarshal(sc.Bytes(), &inst); err != nil {
		t.Fatal(err)
	}
	// TestAdd is PASS_TO_PASS: its package only failed to build before the
	// solution.
	wantF2P := []string{augment.CalcPkg + "TestClamp", augment.CalcPkg + "TestX"}
	wantP2P := []string{augment.CalcPkg + "TestAdd"}
	wantMap := map[string][]string{augment.CalcPkg + "TestClamp": {"1.2.1"}, augment.CalcPkg + "TestX": {"1.2.3"}}
	if !reflect.DeepEqual(inst.FailToPass, wantF2P) || !reflect.DeepEqual(inst.PassToPass, wantP2P) || !reflect.DeepEqual(inst.F2PSections, wantMap) || !strings.HasSuffix(inst.TestPatch, "\n"+added) ||
		!strings.HasPrefix(inst.TestPatch, "diff --git a/calc/calc_test.go") {
		t.Errorf("instance: F2P %q P2P %q sections %v\ntest patch %q", inst.FailToPass, inst.PassToPass, inst.F2PSections, inst.TestPatch)
	}
}
