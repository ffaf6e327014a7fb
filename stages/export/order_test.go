package export

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/internal/testcand"
	"github.com/lolbench/lolbench/stages/dag"
)

// tinykvOrder is the tinykv sample's section graph as an instruction
// section (stages/dag checks the graph).
const tinykvOrder = `

---

## Order of the sections

The proposal's sections that this task grades, in an order that takes each after the sections it builds on:

1. 3.1 Store API
2. 3.2 Background sweeper
3. 3.5 Python client
4. 4 Backwards Compatibility
5. 3.3 Protocol commands
6. 3.4 Snapshot format
`

// TestExportSectionOrder: --section-order needs dag.json, then appends the
// order to the plain and the spec Harbor instructions and to the SWE-bench
// problem statement; without it nothing changes.
func TestExportSectionOrder(t *testing.T) {
	env, c := builtTinykv(t)
	out := t.TempDir()
	st := &Stage{Format: Harbor, Out: out, IncludeUnreviewed: true, SectionOrder: true}
	if err := st.Run(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{c.ID: "no section graph (dag.json) for --section-order; run lolbench dag " + c.ID}; len(st.Exported) != 0 || !reflect.DeepEqual(st.Skipped, want) {
		t.Fatalf("without dag.json: exported %v, skipped %v", st.Exported, st.Skipped)
	}
	if err := testcand.CopyMapping(testcand.Tinykv(filepath.Join("..", "..")), c, "mapping.md"); err != nil {
		t.Fatal(err)
	}
	if _, err := dag.Compute(context.Background(), env, c); err != nil {
		t.Fatal(err)
	}
	built := read(t, filepath.Join(c.Dir, "task", "instruction.md"))
	for _, variant := range []string{Plain, Spec} {
		st := &Stage{Format: Harbor, Variant: variant, Out: out, IncludeUnreviewed: true, SectionOrder: true}
		if err := st.Run(context.Background(), env); err != nil {
			t.Fatal(err)
		}
		got := read(t, filepath.Join(st.Path, st.Exported[0], "instruction.md"))
		if !strings.HasSuffix(got, tinykvOrder) || !strings.HasPrefix(got, strings.TrimRight(built, "\n")) {
			t.Errorf("%s instruction ends:\n%s", variant, got[max(0, len(got)-600):])
		}
	}
	// Off, the instruction is as built.
	plain := &Stage{Format: Harbor, Out: t.TempDir(), IncludeUnreviewed: true}
	if err := plain.Run(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(plain.Path, c.ID, "instruction.md")); got != built {
		t.Error("the default export changed the instruction")
	}
	sw := &Stage{Format: SWEBench, Out: t.TempDir(), IncludeUnreviewed: true, SectionOrder: true}
	if err := sw.Run(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	var inst Instance
	if err := json.Unmarshal([]byte(read(t, sw.Path)), &inst); err != nil || !strings.HasSuffix(inst.ProblemStatement, tinykvOrder) {
		t.Errorf("problem statement: %v\n%s", err, inst.ProblemStatement)
	}
}
