package build

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/results"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/sectionmap"
	"github.com/lolbench/lolbench/pipeline/testid"
)

func run(rs ...results.Result) sandbox.Run { return sandbox.Run{Results: rs} }

// TestHonestLists checks the build's honesty rules on a crafted report of
// a Go task: an old test of a package that did not build before is no
// fail-to-pass test; the PR's own tests that fail after the reference are
// named, with their package's build failure.
func TestHonestLists(t *testing.T) {
	const pkg = "example.com/m/wrr"
	declares := func(file, name string) bool {
		return map[string]bool{
			"wrr/balancer_test.go Test": true, "wrr/balancer_test.go TestNew": true,
			"wrr/old_test.go TestOld": true, "wrr/edited_test.go TestEdited": true, "wrr/edited_test.go TestKept": true,
		}[file+" "+name]
	}
	files := []string{"wrr/balancer_test.go", "wrr/edited_test.go"}
	tc := &testChanges{added: map[string]bool{"wrr/balancer_test.go": true},
		scopes: map[[3]string]bool{{"wrr/edited_test.go", "", "TestEdited"}: true}}
	rep := &sandbox.Report{}
	rep.Before.Runs = []sandbox.Run{run(results.Result{Name: pkg + results.PackageMarker, Status: results.Error},
		results.Result{Name: "example.com/m/other.TestElsewhere", Status: results.Failed})}
	rep.FailToPass = []string{pkg + ".Test/New", pkg + ".TestEdited", pkg + ".TestKept", pkg + ".TestOld", "example.com/m/other.TestElsewhere"}
	rep.PassToPass = []string{"example.com/m/other.TestZ"}
	src := &testid.Source{Files: files, Declares: declares}
	got := notBuiltBefore(rep, "go-json", src, tc)
	// TestKept sits in an edited file but its function is unchanged;
	// TestOld's file is not the PR's; TestElsewhere failed before by
	// itself; Test/New and TestEdited are the PR's.
	want := []string{pkg + ".TestKept", pkg + ".TestOld"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("notBuiltBefore = %q, want %q", got, want)
	}
	regradeNotBuilt(rep, got)
	if !reflect.DeepEqual(rep.FailToPass, []string{pkg + ".Test/New", pkg + ".TestEdited", "example.com/m/other.TestElsewhere"}) ||
		!reflect.DeepEqual(rep.PassToPass, []string{"example.com/m/other.TestZ", pkg + ".TestKept", pkg + ".TestOld"}) ||
		!reflect.DeepEqual(rep.NotBuiltBefore, want) {
		t.Fatalf("regraded: %+v", rep.Classification)
	}
	// Another format has no unit entries to go by: nothing is regraded.
	if got := notBuiltBefore(rep, "junit", src, tc); got != nil {
		t.Fatalf("junit: %q", got)
	}

	rep.FailBoth = []string{pkg + ".TestEdited", "example.com/m/other.TestElsewhere"}
	rep.FailAfter = []string{pkg + ".Test/New"}
	rep.After.Runs = []sandbox.Run{
		run(results.Result{Name: "example.com/m/wrr/sub [package]", Status: results.Error}, results.Result{Name: "example.com/m/wrr [package]", Status: results.Error}),
		run(results.Result{Name: "example.com/m/wrr [package]", Status: results.Error}),
	}
	if got, want := failingPRTests(rep, "go-json", src), []string{pkg + " [package]", pkg + ".Test/New", pkg + ".TestEdited"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("failingPRTests = %q, want %q", got, want)
	}
	if got := withoutKnown([]string{"a", "b", "c"}, []string{"b"}); !reflect.DeepEqual(got, []string{"a", "c"}) {
		t.Fatalf("withoutKnown = %q", got)
	}
	rep.Flaky = []sandbox.Flaky{{Name: "x.TestF", Side: "after"}}
	wantLines := []string{
		"1 excluded as flaky: x.TestF (after)",
		"2 excluded, failing on both sides: example.com/m/wrr.TestEdited, example.com/m/other.TestElsewhere",
		"1 excluded, absent before and failing after the reference solution: example.com/m/wrr.Test/New",
		"2 graded as pass-to-pass, fail-to-pass only because their package did not build before the solution: example.com/m/wrr.TestKept, example.com/m/wrr.TestOld",
	}
	if got := excludedLines(rep); !reflect.DeepEqual(got, wantLines) {
		t.Fatalf("excludedLines:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantLines, "\n"))
	}
	if got := listSome([]string{"a", "b", "c"}, 2); got != "a, b and 1 more" {
		t.Fatalf("listSome = %q", got)
	}
}

// TestCompletesNothing: a map under which the reference solution
// completes no section rejects the build; one section is enough.
func TestCompletesNothing(t *testing.T) {
	secs := []mapping.TaskSection{{ID: "4.1", Title: "Weights"}, {ID: "4.5", Title: "Blackout period"}}
	none := sectionmap.Compute(Name, sectionmap.Input{Tests: []string{"m.TestOld"}, Sections: secs})
	want := "the reference solution completes none of the task's 2 sections: no fail-to-pass test is mapped to any of them (1 fail-to-pass: m.TestOld); name the tests that assert each section in its block's rows"
	if got := completesNothing(none, []string{"m.TestOld"}); got != want {
		t.Fatalf("completesNothing = %q\nwant %q", got, want)
	}
	one := sectionmap.Compute(Name, sectionmap.Input{Tests: []string{"m.TestBlackout"}, Sections: secs,
		Rows: map[string]sectionmap.Rows{"m.TestBlackout": {Named: map[string]int{"4.5": 2}}}})
	if got := completesNothing(one, []string{"m.TestBlackout"}); got != "" || one.Reference != (sectionmap.Figures{Completed: 1, Total: 2}) {
		t.Fatalf("one section: %q, %v", got, one.Reference)
	}
	if got := completesNothing(&sectionmap.Map{}, nil); got != "" {
		t.Fatalf("no task sections: %q", got)
	}
}

// TestBuildRejectsFailingPRTest: a test the PR adds that fails after the
// reference solution rejects the build, named, unless the recipe lists it
// as a known failure; build --check names it too. The local executor
// runs the tinykv sample on the host's Go.
func TestBuildRejectsFailingPRTest(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("SKIPPING: no go on this host")
	}
	env := newEnv(t)
	c := sampleCandidate(t, env.Workspace, "tinykv", "tinykv-tkep-0002", "ep.md", func(repo string) string {
		script := `set -e
cat >>server/pyclient_test.go <<'EOF'

func TestNeedsTheNetwork(t *testing.T) { t.Fatal("no route to example.org") }
EOF
git -c user.name=x -c user.email=x@y commit -qam "a test that cannot pass"
git tag failing`
		cmd := exec.Command("sh", "-c", script)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return "failing"
	})
	st := &Stage{IncludeUnreviewed: true, Executor: localExecutor(), Runs: 1}
	o := runBuild(t, env, st, c)
	want := "1 of the PR's tests do not pass after the reference solution in any run: example.com/tinykv/server.TestNeedsTheNetwork (logs in " +
		filepath.ToSlash(filepath.Join(c.Dir, LogDir, sandbox.After)) + "; a test that cannot pass in the sandbox whatever the solution goes in the recipe's test.known_failures)"
	if o.Result != pipeline.Rejected || o.Reason != want {
		t.Fatalf("outcome %+v\nwant reason %q", o, want)
	}
	res, err := st.Check(context.Background(), env, c)
	if err != nil {
		t.Fatal(err)
	}
	wantProblem := "1 tests of server/pyclient_test.go do not pass after the reference solution: example.com/tinykv/server.TestNeedsTheNetwork (log build/check/after/run-1/test-output.log)"
	if res.OK || !reflect.DeepEqual(res.Problems, []string{wantProblem}) {
		t.Fatalf("check problems %q\nwant %q", res.Problems, wantProblem)
	}
	recipeYAML, _ := os.ReadFile(filepath.Join(c.Dir, RecipeFile))
	known := strings.Replace(string(recipeYAML), "  format: go-json\n", "  format: go-json\n  known_failures: [example.com/tinykv/server.TestNeedsTheNetwork]\n", 1)
	if known == string(recipeYAML) {
		t.Fatal("no format line in the recipe")
	}
	os.WriteFile(filepath.Join(c.Dir, RecipeFile), []byte(known), 0o644)
	if o := runBuild(t, env, st, c); o.Result != pipeline.Passed {
		t.Fatalf("with the known failure: %+v", o)
	}
	rec, _ := LoadRecord(c)
	if !reflect.DeepEqual(rec.Report.FailAfter, []string{"example.com/tinykv/server.TestNeedsTheNetwork"}) || len(rec.Report.FailToPass) != 11 {
		t.Fatalf("lists: %+v", rec.Report.Classification)
	}
}
