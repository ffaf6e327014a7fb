package augment

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/internal/testcand"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/sandbox/harbor"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/build"
)

// calcMap: TestClamp runs lines of 1.2.1 and 1.2.2, and fails on the
// revert of 1.2.1 only, so it checks 1.2.1 alone (issue 12 §2).
var calcMap = map[string][]string{calcPkg + "TestClamp": {"1.2.1"}}

// TestNoEndpoint: without a model the loops skip with the one line that
// names the variables to set, and the map of the original tests is still
// written, to augment/test_sections.json and into the Harbor task.
func TestNoEndpoint(t *testing.T) {
	ws, c := calcCopy(t)
	var status bytes.Buffer
	env := &pipeline.Env{Workspace: ws, Status: &status, Getenv: os.Getenv, Version: "test"}
	outs, err := pipeline.RunCandidate(context.Background(), env, c, []pipeline.CandidateStage{&Stage{}})
	if err != nil {
		t.Fatal(err)
	}
	if o := outs[0]; o.Result != pipeline.Skipped || o.Reason != llm.ErrNoEndpoint.Error() {
		t.Errorf("outcome %+v", o)
	}
	var m SectionMap
	if err := workspace.ReadJSON(filepath.Join(c.Dir, SectionsFile), &m); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m.Tests, calcMap) || !reflect.DeepEqual(m.Broad, []string{calcPkg + "TestAdd"}) || !reflect.DeepEqual(m.Untested, []string{"1.2.2", "1.2.3"}) {
		t.Errorf("map %+v", m)
	}
	rep, err := LoadReport(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range rep.Loops {
		if l.Ran || l.Skipped != llm.ErrNoEndpoint.Error() {
			t.Errorf("loop %+v", l)
		}
	}
	if rep.MapSource != "kill matrix and per-test coverage" || len(rep.Added) != 0 || rep.TestPatch != "" {
		t.Errorf("report: source %q, added %v, patch %q", rep.MapSource, rep.Added, rep.TestPatch)
	}
	cfg, err := harbor.LoadConfig(filepath.Join(c.Dir, build.TaskDir))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cfg.Sections, calcMap) {
		t.Errorf("task sections %v", cfg.Sections)
	}
	if want := "calc-cep-0001: 2 F2P tests (2 original, 0 added: 0 mutation-guided, 0 coverage-guided); 1 test mapped to sections, 1 possibly overly broad, 2 untested sections\n"; status.String() != want {
		t.Errorf("status %q", status.String())
	}
	// The Final view the export reads.
	f, err := LoadFinal(c)
	if err != nil {
		t.Fatal(err)
	}
	orig, _ := os.ReadFile(filepath.Join(c.Dir, build.TestPatch))
	if !bytes.Equal(f.TestPatch, orig) || len(f.Added) != 0 || !reflect.DeepEqual(f.Sections, calcMap) || len(f.FailToPass) != 2 {
		t.Errorf("final %+v", f)
	}
	// A rebuilt task with another F2P list makes the report stale.
	rec, err := build.LoadRecord(c)
	if err != nil {
		t.Fatal(err)
	}
	rec.Report.FailToPass = rec.Report.FailToPass[:1]
	if err := workspace.WriteJSON(filepath.Join(c.Dir, build.RecordFile), rec); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadFinal(c); !errors.Is(err, ErrStale) || err.Error() != "candidate calc-cep-0001: the augment report is older than the task's build; run lolbench augment calc-cep-0001" {
		t.Errorf("stale: %v", err)
	}
}

// TestSkipReasons: each loop says why it does not run.
func TestSkipReasons(t *testing.T) {
	model := newFakeModel(t, map[string]map[int]string{})
	cases := []struct {
		name    string
		prepare func(c *pipeline.Candidate)
		stage   Stage
		want    []string
	}{
		{"coverage above the threshold", nil, Stage{Threshold: 10},
			[]string{"", "F2P ∪ P2P covers 18.5% of the reference solution's executable added lines, not below 10%"}},
		{"no mutate outputs", func(c *pipeline.Candidate) {
			os.RemoveAll(filepath.Join(c.Dir, mutation.Dir))
			os.RemoveAll(filepath.Join(c.Dir, coverage.Dir))
		}, Stage{},
			[]string{"no mutants: run lolbench mutate calc-cep-0001 first", "no coverage measurement: run lolbench mutate calc-cep-0001 first"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ws, c := calcCopy(t)
			if tc.prepare != nil {
				tc.prepare(c)
			}
			st := tc.stage
			st.LLM, st.Executor = model.client(t, ws), sandbox.NewLocal(io.Discard)
			// Only the skipped loops are asked for: no model call happens.
			for i, l := range Loops {
				if tc.want[i] != "" {
					st.Loops = append(st.Loops, l)
				}
			}
			env := &pipeline.Env{Workspace: ws, Status: io.Discard, Getenv: os.Getenv, Version: "test"}
			if err := st.Run(context.Background(), env, c); err != nil {
				t.Fatal(err)
			}
			rep, err := LoadReport(c)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range rep.Loops {
				got = append(got, l.Skipped)
			}
			var want []string
			for _, w := range tc.want {
				if w != "" {
					want = append(want, w)
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("skips %q, want %q", got, want)
			}
		})
	}
	if n := len(model.requests()); n != 0 {
		t.Errorf("%d model requests", n)
	}
}

// TestNotBuilt: a candidate without a kept task is skipped, and says
// what to run.
func TestNotBuilt(t *testing.T) {
	spec := testcand.Spec{Sample: filepath.Join("testdata", "calc"), ID: calcID, EPFile: "ep.md", EPID: "CEP 1", Title: "Clamping"}
	ws, c, err := testcand.Build(t.TempDir(), spec)
	if err != nil {
		t.Fatal(err)
	}
	env := &pipeline.Env{Workspace: ws, Getenv: os.Getenv}
	err = (&Stage{}).Run(context.Background(), env, c)
	var skip *pipeline.SkipError
	if !errors.As(err, &skip) || skip.Reason != "no task built: run lolbench build calc-cep-0001 first" {
		t.Errorf("err = %v", err)
	}
	if _, err := LoadFinal(c); err == nil || !strings.Contains(err.Error(), "augment.json") {
		t.Errorf("LoadFinal: %v", err)
	}
}

func TestParseLoops(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		err  string
	}{
		{"mutation,coverage", []string{"mutation", "coverage"}, ""},
		{" coverage , coverage", []string{"coverage"}, ""},
		{"mutation,ops", nil, `unknown loop "ops" (loops: mutation, coverage)`},
		{",", nil, "no loop given (loops: mutation, coverage)"},
	} {
		got, err := ParseLoops(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%q: err %v", tc.in, err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %v %v", tc.in, got, err)
		}
	}
}
