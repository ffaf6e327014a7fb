package lang

import (
	"path"
	"sort"
	"strings"
)

// Infra is how the verifier treats a repository path before a graded run
// (issue 11, "test infrastructure is canonical"): the whole file, or only
// some sections of it, is reset to the base commit plus the PR's test patch,
// and a file that is not there is removed.
type Infra struct {
	// Whole is set for a file that is reset as a whole: a test file, test
	// data, vendored code (test libraries are vendored too), or a TestConfig
	// file of any language.
	Whole bool
	// Sections are the sections of the file that are reset when only
	// sections are ("tool.pytest" of pyproject.toml).
	Sections []string
}

// IsInfra reports whether the path needs resetting at all.
func (i Infra) IsInfra() bool { return i.Whole || len(i.Sections) > 0 }

// TestInfra says how the verifier treats path p. extra are a recipe's own
// globs of further files its test command reads (a Makefile); they follow
// the TestConfig syntax. Every language's rules apply, whatever the
// project's language: a conftest.py steers pytest in a Go repository too.
func TestInfra(p string, extra []string) Infra {
	p = strings.TrimPrefix(path.Clean("/"+p), "/")
	var in Infra
	switch Classify(p) {
	case Test, TestData, Vendor:
		in.Whole = true
	}
	match := func(rules []string) {
		for _, r := range rules {
			glob, section := r, ""
			if i := strings.IndexByte(r, '['); i > 0 && strings.HasSuffix(r, "]") {
				glob, section = r[:i], r[i+1:len(r)-1]
			}
			if !matchRulePath(glob, p) {
				continue
			}
			if section == "" {
				in.Whole = true
			} else if !contains(in.Sections, section) {
				in.Sections = append(in.Sections, section)
			}
		}
	}
	for _, l := range Table {
		match(l.TestConfig)
	}
	match(extra)
	if in.Whole {
		in.Sections = nil
	}
	return in
}

// matchRulePath matches a TestConfig glob against a path: a glob without a
// slash matches the base name anywhere; one with a slash matches the
// trailing elements of the path (".cargo/config.toml" matches
// "crates/x/.cargo/config.toml").
func matchRulePath(glob, p string) bool {
	if !strings.Contains(glob, "/") {
		ok, _ := path.Match(glob, path.Base(p))
		return ok
	}
	g := strings.Split(glob, "/")
	el := strings.Split(p, "/")
	if len(el) < len(g) {
		return false
	}
	el = el[len(el)-len(g):]
	for i := range g {
		if ok, _ := path.Match(g[i], el[i]); !ok {
			return false
		}
	}
	return true
}

// TestInfraRules lists, for a task's README, every rule TestInfra applies:
// the categories reset as a whole, then each language's TestConfig, then
// the recipe's extra globs.
func TestInfraRules(extra []string) []string {
	out := []string{"every test file, test-data file and vendored file (lolbench's file categories test, test-data and vendor)"}
	for _, l := range Table {
		if len(l.TestConfig) > 0 {
			out = append(out, l.Name+": "+strings.Join(l.TestConfig, ", "))
		}
	}
	if len(extra) > 0 {
		out = append(out, "this project's recipe: "+strings.Join(extra, ", "))
	}
	return out
}

// InfraSpec is the test-infrastructure rules in a form other harnesses can
// apply: the file categories reset as a whole, and the TestConfig globs of
// every language with a recipe's own, sorted and without duplicates.
type InfraSpec struct {
	Categories []Category `json:"categories"`
	Globs      []string   `json:"globs"`
}

// TestInfraSpec returns the rules TestInfra applies.
func TestInfraSpec(extra []string) InfraSpec {
	seen := map[string]bool{}
	var globs []string
	for _, l := range Table {
		for _, g := range l.TestConfig {
			if !seen[g] {
				seen[g] = true
				globs = append(globs, g)
			}
		}
	}
	for _, g := range extra {
		if !seen[g] {
			seen[g] = true
			globs = append(globs, g)
		}
	}
	sort.Strings(globs)
	return InfraSpec{Categories: []Category{Test, TestData, Vendor}, Globs: globs}
}
