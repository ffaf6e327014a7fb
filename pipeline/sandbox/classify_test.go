package sandbox

import (
	"reflect"
	"testing"

	"github.com/lolbench/lolbench/pipeline/results"
)

func run(pairs ...string) []results.Result {
	var out []results.Result
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, results.Result{Name: pairs[i], Status: results.Status(pairs[i+1])})
	}
	return out
}

func TestClassify(t *testing.T) {
	const P, F, E, S = "passed", "failed", "error", "skipped"
	before := [][]results.Result{
		run("new", E, "old", P, "flip", P, "broken", P, "bothfail", F, "skip", S, "pkg [package]", E, "mixed", F, "gone", F),
		run("new", E, "old", P, "flip", F, "broken", P, "bothfail", F, "skip", S, "pkg [package]", E, "mixed", E, "gone", F),
		run("old", P, "flip", P, "broken", P, "bothfail", E, "skip", S, "pkg [package]", E, "gone", F),
	}
	after := [][]results.Result{
		run("new", P, "old", P, "flip", P, "broken", F, "bothfail", F, "skip", P, "mixed", P, "added", P, "afterflip", P),
		run("new", P, "old", P, "flip", F, "broken", F, "bothfail", F, "skip", P, "mixed", P, "added", P, "afterflip", F),
		run("new", P, "old", P, "flip", P, "broken", E, "bothfail", F, "skip", P, "mixed", P, "added", P, "afterflip", P),
	}
	got := Classify(before, after)
	want := Classification{
		// "new" is absent in run 3 before: absent and error are both "not
		// passing", so it is not flaky.
		FailToPass: []string{"added", "mixed", "new"},
		PassToPass: []string{"old"},
		Flaky: []Flaky{
			{Name: "afterflip", Side: "after", Statuses: []results.Status{P, F, P}},
			{Name: "flip", Side: "before", Statuses: []results.Status{P, F, P}},
		},
		Broken:    []string{"broken"},
		FailBoth:  []string{"bothfail"},
		FailAfter: []string{},
		Skipped:   []string{"skip"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
}

func TestClassifyEmpty(t *testing.T) {
	got := Classify(nil, nil)
	if got.FailToPass == nil || got.PassToPass == nil || got.Flaky == nil || len(got.FailToPass)+len(got.PassToPass)+len(got.Flaky) != 0 {
		t.Fatalf("empty classification: %+v (lists must be empty, not null, in JSON)", got)
	}
}

// TestClassifyPassOnceIsFlaky: a test that passed in one run and was
// absent in another (its binary crashed) is flaky, not fail-to-pass.
func TestClassifyPassOnceIsFlaky(t *testing.T) {
	got := Classify([][]results.Result{run("t", "failed"), run("t", "failed")}, [][]results.Result{run("t", "passed"), run()})
	want := []Flaky{{Name: "t", Side: "after", Statuses: []results.Status{"passed", Absent}}}
	if !reflect.DeepEqual(got.Flaky, want) || len(got.FailToPass) != 0 {
		t.Fatalf("got %+v", got)
	}
}
