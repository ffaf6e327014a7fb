package results

import (
	"sort"
	"strings"
)

// Leaves replaces every Go test that has subtests in the results by its
// subtests (issue 36 §3): go test reports a parent as failed whenever one
// of its subtests fails, so a graded parent would tie every subtest's
// outcome to every other's (a solution missing one section of a suite
// fails the runner `Test`, which stands for all of them). Only the leaves
// are graded, and the fail-to-pass and pass-to-pass lists name leaves.
//
// A parent's own failure is not lost: a parent that failed or errored
// while none of its subtests did (an assertion outside t.Run, a panic in
// its setup or teardown, a timeout) passes that status down to every leaf
// below it, which counts as failed (or errored) in that run, so a solution
// cannot score by failing parent-level checks only. When a subtest failed
// too, the parent's failure is read as that subtest's, as go test would
// report it either way. Subtests that never ran because the parent
// stopped early are absent, which counts as failing already.
//
// A result is a parent when another result's id extends it by "/" and a
// subtest path ("pkg.TestX" of "pkg.TestX/case"). It applies to go-json
// ids, and to junit ids of go-junit-report and gotestsum's shape,
// "importpath::TestX/case", whose name starts with a Go test function's;
// other formats, and package, suite, build and binary markers, are
// returned as they are. Leaves never upgrades a status and never drops a
// failure without passing it to a leaf, so a run that had a failing
// result still has one. Ids come from hostile logs: any id, however
// deep, is handled in time linear in its length. The result is sorted by
// name, one entry per name (Merge), and never nil.
func Leaves(format string, rs []Result) []Result {
	rs = Merge(rs)
	in := treeIDs(format)
	if in == nil {
		return rs
	}
	// The ids in the order of a depth-first walk of their tree: sorted
	// with "/" ranked below every other byte, a parent comes right before
	// all its subtests. A stack of the results above the current id then
	// gives each id its nearest parent, in time linear in the ids' length.
	var order []int
	for i := range rs {
		if in(rs[i].Name) {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return treeLess(rs[order[a]].Name, rs[order[b]].Name) })
	parent := make([]int, len(rs))
	for i := range parent {
		parent[i] = -1
	}
	var stack []int
	for _, i := range order {
		for len(stack) > 0 && !isSubtest(rs[i].Name, rs[stack[len(stack)-1]].Name) {
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			parent[i] = stack[len(stack)-1]
		}
		stack = append(stack, i)
	}
	hasKid := make([]bool, len(rs))
	badKid := make([]bool, len(rs))
	for i, p := range parent {
		if p >= 0 {
			hasKid[p] = true
			badKid[p] = badKid[p] || bad(rs[i].Status)
		}
	}
	// A parent's own failure, inherited by everything below it; the walk
	// meets parents before their subtests.
	inherited := make([]Status, len(rs)) // "" for none
	for _, i := range order {
		p := parent[i]
		if p < 0 {
			continue
		}
		inherited[i] = inherited[p]
		if !badKid[p] && bad(rs[p].Status) {
			inherited[i] = worseOf(inherited[i], rs[p].Status)
		}
	}
	out := make([]Result, 0, len(rs))
	for i, r := range rs {
		if hasKid[i] {
			continue
		}
		if inherited[i] != "" {
			r.Status = Worse(r.Status, inherited[i])
		}
		out = append(out, r)
	}
	return out
}

// treeLess orders ids as a walk of their tree: bytewise, with "/" below
// every other byte.
func treeLess(a, b string) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] == b[i] {
			continue
		}
		if a[i] == '/' || b[i] == '/' {
			return a[i] == '/'
		}
		return a[i] < b[i]
	}
	return len(a) < len(b)
}

// isSubtest reports whether id is a subtest of parent, at any depth.
func isSubtest(id, parent string) bool {
	return len(id) > len(parent) && id[len(parent)] == '/' && strings.HasPrefix(id, parent)
}

// worseOf is Worse with "" read as no status.
func worseOf(a, b Status) Status {
	if a == "" {
		return b
	}
	return Worse(a, b)
}

// treeIDs returns, for a format whose ids nest subtests under "/", which
// ids take part; nil for the other formats.
func treeIDs(format string) func(id string) bool {
	switch format {
	case "go-json":
		return func(id string) bool { return !isMarkerID(id) }
	case "junit":
		return func(id string) bool {
			_, name, ok := strings.Cut(id, "::")
			if !ok || isMarkerID(id) {
				return false
			}
			top, _, _ := strings.Cut(name, "/")
			return goTopName(top)
		}
	}
	return nil
}

// goTopName reports whether s is a name go test runs at the top level:
// Test, Example, Fuzz or Benchmark, then nothing or a rune that is not a
// lower-case letter (TestX, Test_x, Test; not Testify).
func goTopName(s string) bool {
	for _, p := range []string{"Test", "Example", "Fuzz", "Benchmark"} {
		if rest, ok := strings.CutPrefix(s, p); ok {
			return rest == "" || rest[0] < 'a' || rest[0] > 'z'
		}
	}
	return false
}

// isMarkerID reports whether an id is a parser's entry for a failure no
// test owns ("pkg [package]", "Suite [suite]", ...): never a subtest.
func isMarkerID(id string) bool {
	for _, m := range []string{PackageMarker, SuiteMarker, BuildMarker, BinaryMarker} {
		if strings.HasSuffix(id, m) {
			return true
		}
	}
	return false
}

// StatusOf returns a listed test's status in a run's leaf results (Leaves,
// sorted by name): its own, or, for a test whose subtests Leaves put in
// its place (a list written before lists named leaves), the worst status
// of those subtests, the way go test rolls them up. "" when the run did
// not report it. Only formats whose ids nest subtests roll up.
func StatusOf(format string, leaves []Result, name string) Status {
	i := sort.Search(len(leaves), func(i int) bool { return leaves[i].Name >= name })
	if i < len(leaves) && leaves[i].Name == name {
		return leaves[i].Status
	}
	in := treeIDs(format)
	if in == nil || !in(name) {
		return ""
	}
	prefix := name + "/"
	var s Status
	for j := sort.Search(len(leaves), func(i int) bool { return leaves[i].Name >= prefix }); j < len(leaves) && strings.HasPrefix(leaves[j].Name, prefix); j++ {
		s = worseOf(s, leaves[j].Status)
	}
	return s
}
