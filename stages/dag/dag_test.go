package dag

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/internal/testcand"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/sectiondag"
	"github.com/lolbench/lolbench/pipeline/sectionmap"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// sample builds a candidate of a bundled sample with its mapping.
func sample(t *testing.T, name string) (*pipeline.Env, *pipeline.Candidate) {
	t.Helper()
	s := testcand.Spec{Sample: filepath.Join("..", "..", "data", "samples", name), ID: name + "-ep-0002", EPFile: "ep.md", EPID: "EP 2", Title: name}
	ws, c, err := testcand.Build(t.TempDir(), s)
	if err != nil {
		t.Fatal(err)
	}
	if err := testcand.CopyMapping(s, c, "mapping.md"); err != nil {
		t.Fatal(err)
	}
	return &pipeline.Env{Workspace: ws}, c
}

// TestSamples: the graph of every bundled sample, edge by edge with the
// kinds of its evidence, checked by hand against the samples' code
// (docs/section-dag.md, "The samples"): for instance verso's 4.4
// (pre-release matching) uses the Op enum 4.3 (requirements) declares,
// and 4.3's re-export of 4.4's Matches closes a cycle that the weaker
// edge leaves. semkit has none: its ranges use compare, which the PR
// changes but does not introduce.
func TestSamples(t *testing.T) {
	for _, tc := range []struct {
		name    string
		edges   []string
		dropped []string
		layers  [][]string
	}{
		{"tinykv", []string{"3.1 -> 3.3: producer-consumer", "3.1 -> 3.4: producer-consumer"}, []string{}, [][]string{{"3.1", "3.2", "3.5", "4"}, {"3.3", "3.4"}}},
		{"unitconv", []string{"3.2 -> 3.1: producer-consumer", "3.3 -> 3.1: producer-consumer", "3.3 -> 3.2: producer-consumer"}, []string{}, [][]string{{"3", "3.3", "3.4", "3.5", "4"}, {"3.2"}, {"3.1"}}},
		{"envfile", []string{}, []string{}, [][]string{{"3.1", "3.2"}}},
		{"coinage", []string{"3.3 -> 4: structural-reuse"}, []string{}, [][]string{{"3.1", "3.2", "3.3", "3.4", "3.5"}, {"4"}}},
		{"verso", []string{"4.1 -> 4.2: producer-consumer structural-reuse", "4.1 -> 4.3: producer-consumer", "4.1 -> 4.4: producer-consumer", "4.3 -> 4.4: producer-consumer structural-reuse", "4.3 -> 4.5: producer-consumer structural-reuse", "4.4 -> 4.5: producer-consumer"}, []string{"4.4 -> 4.3", "4.5 -> 4.3"}, [][]string{{"4.1"}, {"4.2", "4.3"}, {"4.4"}, {"4.5"}}},
		{"bumpkit", []string{"3.1 -> 4: producer-consumer", "3.2 -> 4: producer-consumer", "3.3 -> 4: producer-consumer", "3.4 -> 4: producer-consumer"}, []string{}, [][]string{{"3.1", "3.2", "3.3", "3.4"}, {"4"}}},
		{"semkit", []string{}, []string{}, [][]string{{"3.1", "3.2", "3.3", "4"}}},
		{"inikit", []string{"3.2 -> 3.3: producer-consumer structural-reuse"}, []string{}, [][]string{{"3.1", "3.2", "4"}, {"3.3"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, c := sample(t, tc.name)
			r, err := Compute(context.Background(), env, c)
			if err != nil {
				t.Fatal(err)
			}
			edges, dropped := []string{}, []string{}
			for _, e := range r.Edges {
				kinds := map[string]bool{}
				for _, x := range e.Evidence {
					kinds[x.Kind] = true
				}
				var ks []string
				for k := range kinds {
					ks = append(ks, k)
				}
				sort.Strings(ks)
				edges = append(edges, fmt.Sprintf("%s -> %s: %s", e.From, e.To, strings.Join(ks, " ")))
			}
			for _, d := range r.Dropped {
				dropped = append(dropped, d.From+" -> "+d.To)
			}
			if !reflect.DeepEqual(edges, tc.edges) || !reflect.DeepEqual(dropped, tc.dropped) || !reflect.DeepEqual(r.Layers, tc.layers) {
				t.Errorf("edges %q\ndropped %q\nlayers %q", edges, dropped, r.Layers)
			}
			if !reflect.DeepEqual(r.Missing, []string{"test evidence: no test-to-section map; run lolbench build " + c.ID}) {
				t.Errorf("missing %q", r.Missing)
			}
			// dag.json holds what was printed.
			saved, err := sectiondag.Load(c)
			if err != nil || !reflect.DeepEqual(saved.Edges, r.Edges) {
				t.Errorf("dag.json: %v", err)
			}
		})
	}
}

// TestEvidenceDetails: unitconv's edges with their evidence, word for
// word; then, once a test-to-section map and a kill matrix exist, the
// test evidence joins them: reverting 3.3 (offset units) fails
// test_parse_expr, which the map gives to 3.1 (unit expressions) only;
// the revert of 3.1 fails only 3.1's own test, which is no evidence.
func TestEvidenceDetails(t *testing.T) {
	env, c := sample(t, "unitconv")
	r, err := Compute(context.Background(), env, c)
	if err != nil {
		t.Fatal(err)
	}
	pc := sectiondag.ProducerConsumer
	want := []sectiondag.Edge{
		{From: "3.2", To: "3.1", Evidence: []sectiondag.Evidence{
			{Kind: pc, Detail: "3.1 uses div (unitconv/parse.py:16, 2 uses), which 3.2 defines in unitconv/units.py:div"},
			{Kind: pc, Detail: "3.1 uses mul (unitconv/parse.py:16, 2 uses), which 3.2 defines in unitconv/units.py:mul"},
			{Kind: pc, Detail: "3.1 uses power (unitconv/parse.py:16, 2 uses), which 3.2 defines in unitconv/units.py:power"}}},
		{From: "3.3", To: "3.1", Evidence: []sectiondag.Evidence{
			{Kind: pc, Detail: "3.1 uses OffsetUnitError (unitconv/units.py:11), which 3.3 defines in unitconv/errors.py:OffsetUnitError"}}},
		{From: "3.3", To: "3.2", Evidence: []sectiondag.Evidence{
			{Kind: pc, Detail: "3.2 uses OffsetUnitError (unitconv/__init__.py:4), which 3.3 defines in unitconv/errors.py:OffsetUnitError"},
			{Kind: pc, Detail: "3.2 uses _check (unitconv/units.py:83, 3 uses), which 3.3 defines in unitconv/units.py:_check"}}},
	}
	if !reflect.DeepEqual(r.Edges, want) {
		t.Fatalf("edges\n%+v", r.Edges)
	}
	if r.Depth != 3 || r.Width != 5 {
		t.Errorf("depth %d width %d", r.Depth, r.Width)
	}

	smap := &sectionmap.Map{Sections: []sectionmap.Section{{ID: "3.1", Tests: []string{"tests/test_parse.py::test_parse_expr"}},
		{ID: "3.3", Tests: []string{"tests/test_offset.py::test_offset"}}}}
	if err := workspace.WriteJSON(filepath.Join(c.Dir, sectionmap.File), smap); err != nil {
		t.Fatal(err)
	}
	tests := []string{"tests/test_offset.py::test_offset", "tests/test_parse.py::test_parse_expr"}
	matrix := &mutation.Matrix{Tests: tests, Rows: []mutation.MatrixRow{
		{Mutant: "revert-3.3", Method: mutation.MappedRevert, Section: "3.3", Outcomes: []mutation.Outcome{mutation.OutcomeKilled, mutation.OutcomeKilled}},
		{Mutant: "revert-3.1", Method: mutation.MappedRevert, Section: "3.1", Outcomes: []mutation.Outcome{mutation.OutcomePassed, mutation.OutcomeKilled}},
	}}
	for f, v := range map[string]any{mutation.IndexFile: []*mutation.Mutant{}, mutation.MatrixFile: matrix, mutation.ReportFile: &mutation.Report{}} {
		if err := workspace.WriteJSON(filepath.Join(c.Dir, f), v); err != nil {
			t.Fatal(err)
		}
	}
	r, err = Compute(context.Background(), env, c)
	if err != nil {
		t.Fatal(err)
	}
	got := r.Edges[1]
	wantTest := sectiondag.Evidence{Kind: sectiondag.TestEvidence, Detail: "reverting 3.3 fails tests/test_parse.py::test_parse_expr, a test of 3.1"}
	if got.From != "3.3" || got.To != "3.1" || len(got.Evidence) != 2 || got.Evidence[1] != wantTest || len(r.Edges) != 3 {
		t.Errorf("with tests: %+v", r.Edges)
	}
	if len(r.Missing) != 0 || !reflect.DeepEqual(r.Sources, []string{"mapping rows", "scopes", "kill matrix"}) {
		t.Errorf("sources %q, missing %q", r.Sources, r.Missing)
	}
}
