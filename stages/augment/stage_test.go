package augment

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/internal/testcand"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/harbor"
	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/sectionmap"
	"github.com/lolbench/lolbench/stages/build"
)

// TestNoEndpoint: without a model the loops cannot run, and the stage
// changes nothing: it skips with the one line that names the variables to
// set and the untested sections a model would target first (those of the
// map the build left), writes no report and leaves the map and the task
// as they were.
func TestNoEndpoint(t *testing.T) {
	ws, c := calcCopy(t)
	files := []string{sectionmap.File, filepath.Join(build.TaskDir, filepath.FromSlash(harbor.ConfigJSON)), filepath.Join(build.TaskDir, harbor.Readme)}
	before := map[string]string{}
	for _, f := range files {
		before[f] = readFile(t, filepath.Join(c.Dir, f))
	}
	var status bytes.Buffer
	env := &pipeline.Env{Workspace: ws, Status: &status, Getenv: os.Getenv, Version: "test"}
	outs, err := pipeline.RunCandidate(context.Background(), env, c, []pipeline.CandidateStage{&Stage{}})
	if err != nil {
		t.Fatal(err)
	}
	if o := outs[0]; o.Result != pipeline.Skipped || o.Reason != llm.ErrNoEndpoint.Error()+"; untested sections it would target first: 1.2.2, 1.2.3" {
		t.Errorf("outcome %+v", o)
	}
	for _, f := range files {
		if got := readFile(t, filepath.Join(c.Dir, f)); got != before[f] {
			t.Errorf("%s changed", f)
		}
	}
	if _, err := os.Stat(filepath.Join(c.Dir, ReportFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a skipped stage wrote %s: %v", ReportFile, err)
	}
	if status.Len() != 0 {
		t.Errorf("status %q", status.String())
	}
	// The export finds no augmentation.
	if _, err := LoadFinal(c); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("LoadFinal: %v", err)
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
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
		// Above the threshold, and no untested section left whose lines
		// the loop could target first.
		{"coverage above the threshold", func(c *pipeline.Candidate) {
			m := sectionmap.Compute("mutate", sectionmap.Input{Tests: []string{calcPkg + "TestClamp"}, Sections: []mapping.TaskSection{{ID: "1.2.1"}},
				Rows: map[string]sectionmap.Rows{calcPkg + "TestClamp": {Named: map[string]int{"1.2.1": 1}}}})
			if err := sectionmap.Save(c, m, false); err != nil {
				t.Fatal(err)
			}
		}, Stage{Threshold: 10},
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

// TestCoverageLoopTargetsUntested: above the coverage threshold, the
// coverage loop still runs when an untested section owns uncovered lines
// (the build's map leaves 1.2.3, Describe, untested, and no test runs
// it), and its spans come first.
func TestCoverageLoopTargetsUntested(t *testing.T) {
	ws, c := calcCopy(t)
	tk, err := loadTask(context.Background(), &pipeline.Env{Workspace: ws, Getenv: os.Getenv}, c)
	if err != nil {
		t.Fatal(err)
	}
	a := &augmenter{s: &Stage{Threshold: 10, Loops: []string{LoopCoverage}}, t: tk, rep: &Report{}}
	if run := a.plan(); !reflect.DeepEqual(run, []string{LoopCoverage}) {
		t.Fatalf("loops %v: %+v", run, a.rep.Loops)
	}
	// Describe (1.2.3) and the bound check (1.2.2); not ClampAll's span
	// nor line 22, which 1.2.1 owns.
	want := []coverage.Span{{File: "calc/describe.go", Start: 7, End: 22, Lines: 12}, {File: "calc/calc.go", Start: 15, End: 15, Lines: 1}}
	if got := tk.untestedSpans(); !reflect.DeepEqual(got, want) {
		t.Errorf("untested spans %+v", got)
	}
}

// TestNoNewTestRuleSkipsLoops: a language whose new test files augment
// cannot place (C++: CMake must list a new file) runs no loop, and the
// report says why, from the declared gap (issue 34 §4: no silent fallback).
func TestNoNewTestRuleSkipsLoops(t *testing.T) {
	ws, c := calcCopy(t)
	tk, err := loadTask(context.Background(), &pipeline.Env{Workspace: ws, Getenv: os.Getenv}, c)
	if err != nil {
		t.Fatal(err)
	}
	tk.language = "C++"
	a := &augmenter{s: &Stage{Threshold: 10, Loops: []string{LoopCoverage}}, t: tk, rep: &Report{}}
	want := []LoopReport{{Loop: LoopCoverage, Skipped: "no rule for where a new C++ test file goes (NewTest, pipeline/lang/table.go): " +
		"a new C or C++ test file is built only once the project's build (CMake) lists it, and augment adds new files, never edits one"}}
	if run := a.plan(); len(run) != 0 || !reflect.DeepEqual(a.rep.Loops, want) {
		t.Fatalf("loops %v: %+v", run, a.rep.Loops)
	}
}
