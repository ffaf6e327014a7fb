package results

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The statuses, short, for the tables.
const P, F, E, S = "passed", "failed", "error", "skipped"

// lr builds a result list name first: lr("a", P, "b", F).
func lr(pairs ...string) []Result {
	out := []Result{}
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, Result{Name: pairs[i], Status: Status(pairs[i+1])})
	}
	return out
}

func TestLeaves(t *testing.T) {
	tests := []struct {
		name   string
		format string
		in     []Result
		want   []Result
	}{
		{"parents whose subtests are graded are dropped", "go-json",
			lr("m/p.Test", F, "m/p.Test/A", P, "m/p.Test/B", F, "m/p.TestTable", P, "m/p.TestTable/zero", P, "m/p.TestTable/one_two", P, "m/p.TestLeaf", P),
			lr("m/p.Test/A", P, "m/p.Test/B", F, "m/p.TestLeaf", P, "m/p.TestTable/one_two", P, "m/p.TestTable/zero", P)},
		{"a parent's own failure goes down to every leaf", "go-json",
			lr("m/p.Test", F, "m/p.Test/A", P, "m/p.Test/A/x", P, "m/p.Test/B", S, "m/p.TestOther", P),
			lr("m/p.Test/A/x", F, "m/p.Test/B", F, "m/p.TestOther", P)},
		{"an errored parent (never finished) passes an error down", "go-json",
			lr("m/p.Test", E, "m/p.Test/A", P, "m/p.Test/B", F),
			lr("m/p.Test/A", P, "m/p.Test/B", F)},
		{"an errored parent with passing subtests", "go-json",
			lr("m/p.Test", E, "m/p.Test/A", P),
			lr("m/p.Test/A", E)},
		{"a failing middle level is its own, the top's failure is the middle's", "go-json",
			lr("m/p.Test", F, "m/p.Test/A", F, "m/p.Test/A/x", P, "m/p.Test/A/y", P, "m/p.Test/B", P),
			lr("m/p.Test/A/x", F, "m/p.Test/A/y", F, "m/p.Test/B", P)},
		{"a skipped or passing parent is dropped without effect", "go-json",
			lr("m/p.TestS", S, "m/p.TestS/a", P, "m/p.TestP", P, "m/p.TestP/a", S),
			lr("m/p.TestP/a", S, "m/p.TestS/a", P)},
		{"a missing middle level: the nearest result above is the parent", "go-json",
			lr("m/p.Test", F, "m/p.Test/A/x", P),
			lr("m/p.Test/A/x", F)},
		{"markers are never subtests", "go-json",
			lr("m", F, "m/p [package]", E),
			lr("m", F, "m/p [package]", E)},
		{"odd ids", "go-json",
			lr("Test/", P, "/x", P, "Test//a", F, "Test", P, "/", P, "", P),
			lr("/", P, "/x", P, "Test//a", F)},
		{"go-junit-report's junit", "junit",
			lr("example.com/m/store::TestX", F, "example.com/m/store::TestX/a", P, "example.com/m/store::TestX/b", P, "com.ex.FooTest::testBar", P, "com.ex.FooTest::testBar/x", P),
			lr("com.ex.FooTest::testBar", P, "com.ex.FooTest::testBar/x", P, "example.com/m/store::TestX/a", F, "example.com/m/store::TestX/b", F)},
		{"other formats are unchanged", "pytest-ra",
			lr("t.py::a", F, "t.py::a/b", P),
			lr("t.py::a", F, "t.py::a/b", P)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Leaves(tt.format, tt.in)
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Leaves:\n got %s\nwant %s", show(got), show(tt.want))
			}
		})
	}
	if got := Leaves("go-json", nil); got == nil || len(got) != 0 {
		t.Fatalf("Leaves(nil) = %#v, want an empty list", got)
	}
}

// TestLeavesKeepsFailures: whatever the ids, a list with a failing or
// errored result keeps one, and no status is upgraded.
func TestLeavesKeepsFailures(t *testing.T) {
	in := lr("a", F, "a/b", P, "a/b/c", S, "a/d", P)
	got := Leaves("go-json", in)
	want := lr("a/b/c", F, "a/d", F)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %s, want %s", show(got), show(want))
	}
}

func TestStatusOf(t *testing.T) {
	leaves := Leaves("go-json", lr("m.Test", F, "m.Test/A", P, "m.Test/B", F, "m.TestC", P, "m.TestD", P, "m.TestD/x", P, "m.TestD/y", S))
	for _, tt := range []struct {
		name string
		want Status
	}{
		{"m.Test/A", Passed}, {"m.Test/B", Failed}, {"m.Test", Failed}, {"m.TestC", Passed},
		{"m.TestD", Passed}, {"m.TestE", ""}, {"m.Tes", ""}, {"m.Test/", ""},
	} {
		if got := StatusOf("go-json", leaves, tt.name); got != tt.want {
			t.Errorf("StatusOf(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
	if got := StatusOf("pytest-ra", lr("t.py::a/b", "passed"), "t.py::a"); got != "" {
		t.Errorf("pytest-ra rolls up: %q", got)
	}
}

// TestLeavesHostileSizes: 100,000 subtests of one parent, ids nested as
// deep as an id may be long, and long shared prefixes stay fast (well
// under a second here; a walk that looked every prefix up took 45 s).
func TestLeavesHostileSizes(t *testing.T) {
	wide := []Result{{Name: "m.Test", Status: Failed}}
	for i := 0; i < 100000; i++ {
		wide = append(wide, Result{Name: fmt.Sprintf("m.Test/case_%06d", i), Status: Passed})
	}
	var deep []Result
	for i := 0; i < 4000; i++ {
		// 4,000 distinct ids, each 4,000 levels deep, none a parent of
		// another: the worst case for a walk that looked every prefix up.
		deep = append(deep, Result{Name: fmt.Sprintf("%04d", i) + strings.Repeat("/", maxName-8) + "x", Status: Passed})
	}
	var shared []Result // long common prefixes: the sort's worst case
	for i := 0; i < 10000; i++ {
		shared = append(shared, Result{Name: strings.Repeat("T/", (maxName-8)/2) + fmt.Sprintf("%05d", i), Status: Passed})
	}
	var chain []Result
	for n := 1; n <= maxName/2; n++ {
		chain = append(chain, Result{Name: strings.TrimSuffix(strings.Repeat("a/", n), "/"), Status: Failed})
	}
	start := time.Now()
	got := Leaves("go-json", wide)
	if len(got) != 100000 || got[0].Status != Failed || got[99999].Status != Failed {
		t.Fatalf("wide: %d leaves, first %+v", len(got), got[0])
	}
	if got := Leaves("go-json", deep); len(got) != 4000 {
		t.Fatalf("deep: %d leaves", len(got))
	}
	if got := Leaves("go-json", shared); len(got) != 10000 {
		t.Fatalf("shared: %d leaves", len(got))
	}
	if got := Leaves("go-json", chain); len(got) != 1 || got[0].Status != Failed || len(got[0].Name) != maxName-1 {
		t.Fatalf("chain: %d leaves", len(got))
	}
	t.Logf("%v for the four", time.Since(start))
}
