// Package testcmd turns a recipe and a task's test files into the test
// command that runs them: the selection of test items and the command line
// with the selection in place, every item quoted for a POSIX shell. The
// build, the verifier inside the container (pipeline/sandbox/guard) and the
// mutation and coverage runs all use it, so they run the same command.
package testcmd

import (
	"path"
	"sort"
	"strings"

	"github.com/lolbench/lolbench/pipeline/recipe"
)

// Quote quotes s for a POSIX shell.
func Quote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Selection is the test selection of a task: the recipe's suite, then the
// items the PR's test files give (recipe.Test.Select), without duplicates
// and without items a suite item already covers ("./..." covers every Go
// package, "tests" covers "tests/test_x.py"). testFiles are slash paths
// relative to the repository root.
func Selection(r recipe.Recipe, testFiles []string) []string {
	out := append([]string(nil), r.Test.Suite...)
	seen := map[string]bool{}
	for _, s := range out {
		seen[s] = true
	}
	var extra []string
	for _, f := range testFiles {
		var item string
		switch r.Test.Select {
		case recipe.SelectNone:
			continue
		case recipe.SelectPackages:
			d := path.Dir(f)
			if d == "." {
				item = "."
			} else {
				item = "./" + d
			}
		default:
			item = f
			if strings.HasPrefix(item, "-") {
				item = "./" + item // never an option
			}
		}
		if seen[item] || Covered(r.Test.Select, r.Test.Suite, item) {
			continue
		}
		seen[item] = true
		extra = append(extra, item)
	}
	sort.Strings(extra)
	return append(out, extra...)
}

// Covered reports whether a suite item selects item already. "..." and
// "dir/..." are Go's recursive patterns; for file selections a folder
// covers the files below it and "." covers everything.
func Covered(mode string, suite []string, item string) bool {
	it := path.Clean(strings.TrimPrefix(item, "./"))
	for _, s := range suite {
		cs := path.Clean(strings.TrimPrefix(s, "./"))
		if cs == "..." {
			return true
		}
		if d, ok := strings.CutSuffix(cs, "/..."); ok {
			if it == d || strings.HasPrefix(it, d+"/") {
				return true
			}
			continue
		}
		if it == cs {
			return true
		}
		if mode != recipe.SelectPackages && (cs == "." || strings.HasPrefix(it, cs+"/")) {
			return true
		}
	}
	return false
}

// TestCommand is the recipe's test command with the selection in place of
// the placeholder, every item quoted.
func TestCommand(r recipe.Recipe, selection []string) string {
	q := make([]string, len(selection))
	for i, s := range selection {
		q[i] = Quote(s)
	}
	return strings.ReplaceAll(r.Test.Command, recipe.Placeholder, strings.Join(q, " "))
}
