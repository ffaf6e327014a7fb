package build

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/results"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/sectionmap"
	"github.com/lolbench/lolbench/pipeline/testid"
)

// A build is honest when its lists say what the PR's tests say of the
// reference solution (issue 36 §2). On grpc-go #6241 a build passed with 6
// fail-to-pass tests that were so only because their package did not
// compile before the solution, while 14 of the PR's 20 tests failed after
// it (no localhost in the sandbox) and dropped out of every list. The
// checks here find both.

// testChanges is what the test patch adds or changes: whole files, and
// the (file, class, function) scopes of changed lines in the others.
type testChanges struct {
	added  map[string]bool
	scopes map[[3]string]bool
}

// changedTests resolves the scopes the test patch changes in the PR's
// test files, as the mapping's scaffold resolves them (tree-sitter).
func changedTests(ctx context.Context, repoDir string, ch *diff.Change, testFiles []string) (*testChanges, error) {
	want := map[string]bool{}
	for _, f := range testFiles {
		want[f] = true
	}
	sub := diff.Change{Base: ch.Base, Head: ch.Head}
	tc := &testChanges{added: map[string]bool{}, scopes: map[[3]string]bool{}}
	for _, f := range ch.Files {
		if !want[f.Path()] {
			continue
		}
		if f.Status == diff.Added {
			tc.added[f.Path()] = true
			continue
		}
		sub.Files = append(sub.Files, f)
	}
	if len(sub.Files) == 0 {
		return tc, nil
	}
	res, err := mapping.ScaffoldScopes(ctx, repoDir, &sub)
	if err != nil {
		return nil, fmt.Errorf("scopes of the test patch: %w", err)
	}
	for _, s := range res.Scopes {
		tc.scopes[[3]string{s.File, s.Class, s.Function}] = true
	}
	for _, s := range res.Skipped {
		// A file tree-sitter could not read: every test in it counts as
		// changed, so that none is taken for an unchanged one.
		tc.added[s.File] = true
	}
	return tc, nil
}

// changes reports whether the test patch adds or changes the test ref.
func (tc *testChanges) changes(ref testid.Ref) bool {
	return tc.added[ref.File] || tc.scopes[[3]string{ref.File, ref.Class, ref.Func}]
}

// unitMarker names the error entry a test's unit gets when it fails as a
// whole ("pkg [package]" for go test), or "" when the format has none.
func unitMarker(format, id string) string {
	if format != "go-json" {
		return ""
	}
	if pkg, ok := goPackageOf(id); ok {
		return pkg + results.PackageMarker
	}
	return ""
}

// goPackageOf is the import path of a go-json test id,
// "example.com/m/store.TestX/sub": what precedes the first "." that starts
// a test function's name.
func goPackageOf(id string) (string, bool) {
	for i := 1; i < len(id); i++ {
		if id[i-1] != '.' {
			continue
		}
		rest := id[i:]
		for _, p := range []string{"Test", "Example", "Fuzz"} {
			if strings.HasPrefix(rest, p) && (len(rest) == len(p) || !(rest[len(p)] >= 'a' && rest[len(p)] <= 'z')) {
				return id[:i-1], true
			}
		}
	}
	return "", false
}

// notBuiltBefore returns the fail-to-pass tests that are so only because
// their unit did not build before the solution: absent in every run
// before, their unit's error entry present in one, and their own code
// not changed by the test patch (a file the PR does not touch, or a
// function in it the patch leaves alone). Such a test says nothing of the
// solution: on grpc-go #6241 the older tests of the balancer's package
// did not compile once the PR's new test file referred to what the
// solution adds.
func notBuiltBefore(rep *sandbox.Report, format string, src *testid.Source, tc *testChanges) []string {
	failedUnits := map[string]bool{}
	seen := map[string]bool{}
	for _, run := range rep.Before.Runs {
		for _, r := range run.Results {
			seen[r.Name] = true
			if sandbox.IsMarker(r.Name) && r.Status != results.Passed {
				failedUnits[r.Name] = true
			}
		}
	}
	var out []string
	for _, id := range rep.FailToPass {
		u := unitMarker(format, id)
		if u == "" || !failedUnits[u] || seen[id] {
			continue
		}
		if ref, ok := testid.Locate(format, id, src); ok && tc.changes(ref) {
			continue
		}
		out = append(out, id)
	}
	return out
}

// regradeNotBuilt moves the tests notBuiltBefore finds from FAIL_TO_PASS
// to PASS_TO_PASS: they passed after the solution and nothing shows them
// failing before it but the build of their unit, so they are regression
// checks, not evidence for the proposal.
func regradeNotBuilt(rep *sandbox.Report, ids []string) {
	if len(ids) == 0 {
		return
	}
	move := map[string]bool{}
	for _, id := range ids {
		move[id] = true
	}
	f2p := rep.FailToPass[:0:0]
	for _, id := range rep.FailToPass {
		if !move[id] {
			f2p = append(f2p, id)
		}
	}
	rep.FailToPass = f2p
	rep.PassToPass = append(rep.PassToPass, ids...)
	sort.Strings(rep.PassToPass)
	rep.NotBuiltBefore = append([]string(nil), ids...)
}

// failingPRTests lists the PR's own tests that do not pass after the
// reference solution in any run: tests of the PR's test files that fail
// on both sides, that were absent before and fail after, or that the
// solution breaks; and the error entries of units holding a PR test file
// that failed as a whole after it (a package that does not compile).
// Flaky tests are reported apart.
func failingPRTests(rep *sandbox.Report, format string, src *testid.Source) []string {
	var out []string
	for _, list := range [][]string{rep.FailBoth, rep.FailAfter, rep.Broken} {
		for _, id := range list {
			if _, ok := testid.Locate(format, id, src); ok {
				out = append(out, id)
			}
		}
	}
	if format == "go-json" {
		dirs := map[string]bool{}
		for _, f := range src.Files {
			if d := path.Dir(f); d != "." {
				dirs[d] = true
			}
		}
		for _, m := range failedEverywhere(rep.After) {
			pkg, ok := strings.CutSuffix(m, results.PackageMarker)
			if !ok {
				continue
			}
			for d := range dirs {
				if strings.HasSuffix(pkg, "/"+d) {
					out = append(out, m)
					break
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// failedEverywhere lists the unit error entries present in every run of
// a side.
func failedEverywhere(s sandbox.Side) []string {
	count := map[string]int{}
	for _, run := range s.Runs {
		for _, r := range run.Results {
			if sandbox.IsMarker(r.Name) && r.Status != results.Passed {
				count[r.Name]++
			}
		}
	}
	var out []string
	for m, n := range count {
		if n == len(s.Runs) {
			out = append(out, m)
		}
	}
	sort.Strings(out)
	return out
}

// listSome names up to max items of a list, then how many more.
func listSome(ids []string, max int) string {
	if len(ids) <= max {
		return strings.Join(ids, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(ids[:max], ", "), len(ids)-max)
}

// excludedLines says, one line per reason, which tests the build left out
// of both lists, so that none drops out silently.
func excludedLines(rep *sandbox.Report) []string {
	var out []string
	add := func(what string, ids []string) {
		if len(ids) > 0 {
			out = append(out, fmt.Sprintf("%d %s: %s", len(ids), what, listSome(ids, 8)))
		}
	}
	var flaky []string
	for _, f := range rep.Flaky {
		flaky = append(flaky, f.Name+" ("+f.Side+")")
	}
	add("excluded as flaky", flaky)
	add("excluded, broken by the reference solution", rep.Broken)
	add("excluded, failing on both sides", rep.FailBoth)
	add("excluded, absent before and failing after the reference solution", rep.FailAfter)
	add("excluded, skipped", rep.Skipped)
	add("graded as pass-to-pass, fail-to-pass only because their package did not build before the solution", rep.NotBuiltBefore)
	return out
}

// withoutKnown drops the recipe's known failures from a list of ids.
func withoutKnown(ids, known []string) []string {
	k := map[string]bool{}
	for _, id := range known {
		k[id] = true
	}
	var out []string
	for _, id := range ids {
		if !k[id] {
			out = append(out, id)
		}
	}
	return out
}

// completesNothing says why a task whose reference solution completes
// none of its sections is rejected, or "" when it completes one: its
// fail-to-pass tests test nothing of the proposal as far as the map can
// tell (issue 36 §2: on grpc-go, 6 tests unrelated to A58 and 0 of 8
// sections).
func completesNothing(smap *sectionmap.Map, f2p []string) string {
	if smap.Reference.Total == 0 || smap.Reference.Completed > 0 {
		return ""
	}
	return fmt.Sprintf("the reference solution completes none of the task's %d sections: no fail-to-pass test is mapped to any of them (%d fail-to-pass: %s); name the tests that assert each section in its block's rows",
		smap.Reference.Total, len(f2p), listSome(f2p, 10))
}
