package augment

import (
	"path"
	"sort"
	"strings"

	"github.com/lolbench/lolbench/pipeline/results"
	"github.com/lolbench/lolbench/pipeline/sandbox"
)

// testRef is what identifies a generated test in a run's results: the file
// it lives in, its function and, for Python and Java, its class.
type testRef struct {
	File, Name, Class string
}

// matches reports whether a result id (in the recipe's format, see
// pipeline/results) is the test or one of its subtests or
// parameter cases.
func (t testRef) matches(format, id string) bool {
	switch format {
	case "go-json":
		return goIDMatches(id, path.Dir(t.File), t.Name)
	case "pytest-ra":
		rest, ok := strings.CutPrefix(id, t.File+"::")
		if !ok {
			return false
		}
		parts := strings.Split(rest, "::")
		last := parts[len(parts)-1]
		if i := strings.IndexByte(last, '['); i >= 0 {
			last = last[:i]
		}
		if last != t.Name {
			return false
		}
		return t.Class == "" && len(parts) == 1 || t.Class != "" && len(parts) == 2 && parts[0] == t.Class
	case "junit":
		cls, name, ok := strings.Cut(id, "::")
		if !ok {
			return ctestMatches(id, t)
		}
		if cls == t.File {
			// lolbench-node-test's reporter: the file, then the describe
			// chain and the test's name ("bump › releases › drops x").
			want := t.Name
			if t.Class != "" {
				want = t.Class + " › " + t.Name
			}
			return name == want
		}
		if i := strings.IndexAny(name, "(["); i >= 0 {
			name = name[:i]
		}
		want := t.Class
		if want == "" {
			want = strings.TrimSuffix(path.Base(t.File), path.Ext(t.File))
		}
		return name == t.Name && (cls == want || strings.HasSuffix(cls, "."+want) || strings.HasSuffix(cls, "$"+want))
	}
	// Other formats: the function name as a path component of the id.
	for _, sep := range []string{"::", ".", "/"} {
		for _, p := range strings.Split(id, sep) {
			if p == t.Name {
				return true
			}
		}
	}
	return false
}

// ctestMatches reports whether a CTest name in CTest's JUnit report is the
// test: GoogleTest's "Suite.Name" (gtest_discover_tests; with an
// instantiation prefix and a parameter index when parameterized) for a
// test of that suite, or "PROGRAM.FUNCTION" for a cmocka function declared
// as a test of its own, the program named after its file (docs/projects.md,
// "C and C++").
func ctestMatches(id string, t testRef) bool {
	s := id
	if i := strings.Index(s, "/"); i >= 0 && strings.Contains(s[i+1:], ".") {
		s = s[i+1:] // "Inst/Suite.Name/0"
	}
	s, _, _ = strings.Cut(s, "/")
	i := strings.LastIndex(s, ".")
	if i <= 0 || s[i+1:] != t.Name {
		return false
	}
	if t.Class != "" {
		return s[:i] == t.Class
	}
	return s[:i] == strings.TrimSuffix(path.Base(t.File), path.Ext(t.File))
}

// goIDMatches reports whether a go-json id ("importpath.TestX/sub") names
// function fn of a package in folder dir. The import path's tail is the
// folder; the module path is not known, so a test in the root folder
// matches any package.
func goIDMatches(id, dir, fn string) bool {
	for i := strings.Index(id, "."+fn); i >= 0; {
		rest := id[i+1+len(fn):]
		pkg := id[:i]
		if (rest == "" || strings.HasPrefix(rest, "/")) && (dir == "." || pkg == dir || strings.HasSuffix(pkg, "/"+dir)) {
			return true
		}
		j := strings.Index(id[i+1:], "."+fn)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// runStatus is a test's status in one run: the worst status of the result
// ids that belong to it (a failing subtest fails the test), Absent when
// the run reported none of them.
func runStatus(format string, t testRef, run []results.Result) (results.Status, []string) {
	st := sandbox.Absent
	var ids []string
	for _, r := range run {
		if !t.matches(format, r.Name) {
			continue
		}
		ids = append(ids, r.Name)
		if st == sandbox.Absent {
			st = r.Status
		} else {
			st = results.Worse(st, r.Status)
		}
	}
	return st, ids
}

// sideStatuses are a test's statuses run by run, and the ids that
// reported it in any run, sorted.
func sideStatuses(format string, t testRef, s *sandbox.Side) ([]results.Status, []string) {
	seen := map[string]bool{}
	var sts []results.Status
	for _, run := range s.Runs {
		st, ids := runStatus(format, t, run.Results)
		sts = append(sts, st)
		for _, id := range ids {
			seen[id] = true
		}
	}
	ids := make([]string, 0, len(seen))
	for id := range seen {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return sts, ids
}

// passedIn returns the ids of a test that passed in every run of a side.
func passedIn(format string, t testRef, s *sandbox.Side) []string {
	count := map[string]int{}
	for _, run := range s.Runs {
		for _, r := range run.Results {
			if t.matches(format, r.Name) && r.Status == results.Passed {
				count[r.Name]++
			}
		}
	}
	var out []string
	for id, n := range count {
		if n == len(s.Runs) {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

// statusList writes statuses as "passed, failed, passed".
func statusList(sts []results.Status) string {
	parts := make([]string, len(sts))
	for i, s := range sts {
		parts[i] = string(s)
	}
	return strings.Join(parts, ", ")
}

// all reports whether every status satisfies ok (false for no status).
func all(sts []results.Status, ok func(results.Status) bool) bool {
	if len(sts) == 0 {
		return false
	}
	for _, s := range sts {
		if !ok(s) {
			return false
		}
	}
	return true
}

func isPassed(s results.Status) bool { return s == results.Passed }

// isFailing counts a failure, an error and an absent test (its package did
// not build) as failing, as task construction does; a skip is not.
func isFailing(s results.Status) bool {
	return s == results.Failed || s == results.Error || s == sandbox.Absent
}
