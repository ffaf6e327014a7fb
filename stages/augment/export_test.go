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
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/augment"
	"github.com/lolbench/lolbench/stages/export"
)

// TestExportUsesAddedTests: the SWE-bench export carries the added tests
// after the PR's, the longer FAIL_TO_PASS list and the test-to-section map.
func TestExportUsesAddedTests(t *testing.T) {
	ws, c := augment.CalcCopy(t)
	env := &pipeline.Env{Workspace: ws, Getenv: os.Getenv, Version: "test"}
	if _, err := pipeline.RunCandidate(context.Background(), env, c, []pipeline.CandidateStage{&augment.Stage{}}); err != nil {
		t.Fatal(err)
	}
	// As if a loop had kept one test.
	rep, err := augment.LoadReport(c)
	if err != nil {
		t.Fatal(err)
	}
	added := "diff --git a/calc/x_test.go b/calc/x_test.go\nnew file mode 100644\n--- /dev/null\n+++ b/calc/x_test.go\n@@ -0,0 +1 @@\n+package calc\n"
	if err := workspace.WriteFile(filepath.Join(c.Dir, augment.TestPatchFile), []byte(added), 0o644); err != nil {
		t.Fatal(err)
	}
	rep.TestPatch = augment.TestPatchFile
	rep.FailToPass = append(rep.FailToPass, augment.CalcPkg+"TestX")
	rep.Map.Tests[augment.CalcPkg+"TestX"] = []string{"1.2.3"}
	if err := workspace.WriteJSON(filepath.Join(c.Dir, augment.ReportFile), rep); err != nil {
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
	wantF2P := []string{augment.CalcPkg + "TestAdd", augment.CalcPkg + "TestClamp", augment.CalcPkg + "TestX"}
	wantMap := map[string][]string{augment.CalcPkg + "TestClamp": {"1.2.1"}, augment.CalcPkg + "TestX": {"1.2.3"}}
	if !reflect.DeepEqual(inst.FailToPass, wantF2P) || !reflect.DeepEqual(inst.F2PSections, wantMap) || !strings.HasSuffix(inst.TestPatch, "\n"+added) ||
		!strings.HasPrefix(inst.TestPatch, "diff --git a/calc/calc_test.go") {
		t.Errorf("instance: F2P %q sections %v\ntest patch %q", inst.FailToPass, inst.F2PSections, inst.TestPatch)
	}
}
