// Package testid reads a test id, as the result parsers write it
// (pipeline/sandbox/results), back to the test's file, class and function:
// the test-to-section map and the per-test coverage need the test's real
// file, whatever shape its id has (issue 12: a class-qualified pytest id
// was once read as a folder).
//
// The shapes, by format:
//
//   - pytest-ra: "tests/test_x.py::TestK::test_m[a b]": the file, then
//     classes, then the function with its parameters.
//   - junit from pytest: classname "tests.test_x.TestK", name "test_m[p]":
//     the longest dotted prefix of the classname that names a test file is
//     the file, the rest the class.
//   - junit from Maven or Gradle: classname "com.ex.FooTest" (or
//     "com.ex.Outer$Inner"), name "testBar" or "testBar()": the file whose
//     path ends in com/ex/FooTest.java (or .kt, .scala, .groovy).
//   - junit from jest (jest-junit): name "describe › it", classname the
//     suite or the file's path: the file is the classname when it is one,
//     else the test file that holds the test's title.
//   - junit from lolbench-node-test (node:test): classname the file,
//     name "describe › it" as jest's, or a top-level test's own title.
//   - "pkg.Class#method", the form JUnit tools print: as Maven's.
//   - go-json: "example.com/m/store.TestX/sub": the package, the function
//     and its subtests; the file is the _test.go file of the package's
//     folder that declares the function.
//   - junit from CTest: the test's name alone, "Suite.Name" as
//     gtest_discover_tests names a GoogleTest test ("Inst/Suite.Name/0"
//     when parameterized); the file is the C or C++ test file that
//     declares both the suite and the test.
//   - junit from CPython's regrtest: the unittest id alone, no classname,
//     "test.test_tarfile.TestExtractionFilters.test_data_filter": the
//     module, which names a .py file under any folder
//     (Lib/test/test_tarfile.py), then the class and the method
//     (unittest.go).
//   - cargo: "binary::module::tests::name": an integration test binary is
//     tests/<binary>.rs; otherwise the file under src/ that declares the
//     function, preferring the one the module path names.
//
// Ids of failures that are no test ("pkg [package]", "crate [build]") are
// not located.
package testid

import (
	"path"
	"sort"
	"strings"
)

// Ref is where a test lives.
type Ref struct {
	// File is the test file's repository path.
	File string `json:"file"`
	// Class is the test's class, dotted when nested; empty for none.
	Class string `json:"class,omitempty"`
	// Func is the test function, without subtests or parameters.
	Func string `json:"func"`
}

// Declares reports whether a repository file declares a test named name
// (a function, or for jest a test title); Locate asks it where an id does
// not say the file.
type Declares func(file, name string) bool

// Locate finds the test of id, in a result format, among the repository's
// files. It reports false when the id is no test or no file fits.
func Locate(format, id string, files []string, declares Declares) (Ref, bool) {
	if strings.HasSuffix(id, "]") && strings.Contains(id, " [") && !strings.Contains(id, "::") {
		return Ref{}, false // "pkg [package]", "crate [build]"
	}
	set := make(map[string]bool, len(files))
	for _, f := range files {
		set[f] = true
	}
	switch format {
	case "pytest-ra":
		return pytestNode(id, set)
	case "go-json":
		return goTest(id, files, declares)
	case "cargo":
		return cargoTest(id, files, declares)
	}
	// junit and anything else: "classname::name", or "Class#method".
	cls, name, ok := strings.Cut(id, "::")
	if !ok {
		if cls, name, ok = strings.Cut(id, "#"); !ok {
			if r, ok := unittestID(id, files); ok {
				return r, true
			}
			return ctestTest(id, files, declares)
		}
	}
	if r, ok := pytestNode(id, set); ok {
		return r, true
	}
	if strings.Contains(name, " › ") || strings.Contains(name, " > ") {
		return jestTest(cls, name, files, set, declares)
	}
	if set[cls] && path.Ext(cls) != ".py" {
		// lolbench's node:test reporter: the classname is the file, the
		// name a test's title, outside any describe block.
		return Ref{File: cls, Func: name}, name != ""
	}
	if r, ok := dottedPython(cls, name, set); ok {
		return r, true
	}
	if r, ok := jvmTest(cls, name, files); ok {
		return r, true
	}
	if strings.Contains(cls, "/") && !strings.Contains(cls, " ") {
		// go-junit-report: the classname is the import path.
		return goTest(cls+"."+name, files, declares)
	}
	return Ref{}, false
}

// Bare drops a test function's parameters and invocation: pytest's
// "test_m[a b]", JUnit's "testBar()", and Surefire's name of a JUnit 5
// parameterized invocation, "testBar{int, String}[1]" (issue 22: cut only
// at "[", it named a method "testBar{int, String}" that -Dtest runs none
// of).
func Bare(name string) string {
	if i := strings.IndexAny(name, "[({"); i > 0 {
		name = name[:i]
	}
	return strings.TrimSpace(name)
}

func pytestNode(id string, set map[string]bool) (Ref, bool) {
	parts := strings.Split(id, "::")
	if len(parts) < 2 || !strings.HasSuffix(parts[0], ".py") {
		return Ref{}, false
	}
	r := Ref{File: parts[0], Class: strings.Join(parts[1:len(parts)-1], "."), Func: Bare(parts[len(parts)-1])}
	if len(set) > 0 && !set[r.File] {
		return Ref{}, false
	}
	return r, r.Func != ""
}

// dottedPython reads pytest's JUnit classname: module path, then classes.
func dottedPython(cls, name string, set map[string]bool) (Ref, bool) {
	el := strings.Split(cls, ".")
	for i := len(el); i > 0; i-- {
		f := strings.Join(el[:i], "/") + ".py"
		if set[f] {
			return Ref{File: f, Class: strings.Join(el[i:], "."), Func: Bare(name)}, Bare(name) != ""
		}
	}
	return Ref{}, false
}

var jvmExts = []string{".java", ".kt", ".scala", ".groovy"}

// jvmTest reads a JVM classname: package, class, "$" for nested classes.
func jvmTest(cls, name string, files []string) (Ref, bool) {
	outer, nested, _ := strings.Cut(cls, "$")
	rel := strings.ReplaceAll(outer, ".", "/")
	var found []string
	for _, f := range files {
		for _, ext := range jvmExts {
			if strings.HasSuffix(f, "/"+rel+ext) || f == rel+ext {
				found = append(found, f)
			}
		}
	}
	if len(found) == 0 {
		return Ref{}, false
	}
	sort.Strings(found)
	class := path.Base(rel)
	if nested != "" {
		class += "." + strings.ReplaceAll(nested, "$", ".")
	}
	return Ref{File: found[0], Class: class, Func: Bare(name)}, Bare(name) != ""
}

// jestTest: "describe › it". The classname is the file when it is one.
func jestTest(cls, name string, files []string, set map[string]bool, declares Declares) (Ref, bool) {
	sep := " › "
	if !strings.Contains(name, sep) {
		sep = " > "
	}
	parts := strings.Split(name, sep)
	title := strings.TrimSpace(parts[len(parts)-1])
	class := strings.Join(parts[:len(parts)-1], " › ")
	if set[cls] {
		return Ref{File: cls, Class: class, Func: title}, true
	}
	if declares == nil {
		return Ref{}, false
	}
	for _, f := range files {
		if declares(f, title) {
			return Ref{File: f, Class: class, Func: title}, true
		}
	}
	return Ref{}, false
}

// goTestPrefixes are the names go test runs.
var goTestPrefixes = []string{"Test", "Example", "Fuzz", "Benchmark"}

// goTest reads "importpath.TestX/sub".
func goTest(id string, files []string, declares Declares) (Ref, bool) {
	pkg, fn := "", ""
	for i := 0; i < len(id); i++ {
		if id[i] != '.' {
			continue
		}
		rest := id[i+1:]
		for _, p := range goTestPrefixes {
			if strings.HasPrefix(rest, p) && (len(rest) == len(p) || !isLower(rest[len(p)])) {
				pkg, fn = id[:i], rest
				break
			}
		}
		if fn != "" {
			break
		}
	}
	if fn == "" {
		return Ref{}, false
	}
	if j := strings.IndexByte(fn, '/'); j >= 0 {
		fn = fn[:j]
	}
	var cands []string
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") {
			continue
		}
		dir := path.Dir(f)
		if dir == "." || pkg == dir || strings.HasSuffix(pkg, "/"+dir) {
			if declares == nil || declares(f, fn) {
				cands = append(cands, f)
			}
		}
	}
	if len(cands) == 0 {
		return Ref{}, false
	}
	// The deepest folder that the import path ends in wins ("m/x/store"
	// over the root folder).
	sort.SliceStable(cands, func(a, b int) bool { return len(path.Dir(cands[a])) > len(path.Dir(cands[b])) })
	return Ref{File: cands[0], Func: fn}, true
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }

// cargoTest reads "binary::module::tests::name".
func cargoTest(id string, files []string, declares Declares) (Ref, bool) {
	parts := strings.Split(id, "::")
	if len(parts) < 2 {
		return Ref{}, false
	}
	fn := parts[len(parts)-1]
	mods := parts[1 : len(parts)-1]
	integration := "tests/" + parts[0] + ".rs"
	var cands []string
	for _, f := range files {
		if !strings.HasSuffix(f, ".rs") {
			continue
		}
		if f == integration || strings.HasSuffix(f, "/"+integration) {
			return Ref{File: f, Class: strings.Join(mods, "::"), Func: fn}, true
		}
		if declares == nil || declares(f, fn) {
			cands = append(cands, f)
		}
	}
	if len(cands) == 0 {
		return Ref{}, false
	}
	// Prefer the file the module path names: src/a/b.rs or src/a/b/mod.rs
	// for a::b (a trailing "tests" module is inline).
	want := mods
	if len(want) > 0 && want[len(want)-1] == "tests" {
		want = want[:len(want)-1]
	}
	score := func(f string) int {
		if len(want) == 0 {
			if path.Base(f) == "lib.rs" || path.Base(f) == "main.rs" {
				return 2
			}
			return 0
		}
		m := strings.Join(want, "/")
		switch {
		case strings.HasSuffix(f, "/"+m+".rs"), strings.HasSuffix(f, "/"+m+"/mod.rs"):
			return 2
		case strings.Contains(f, "/"+want[0]):
			return 1
		}
		return 0
	}
	sort.SliceStable(cands, func(a, b int) bool { return score(cands[a]) > score(cands[b]) })
	return Ref{File: cands[0], Class: strings.Join(mods, "::"), Func: fn}, true
}

var cExts = []string{".c", ".cc", ".cpp", ".cxx", ".c++"}

// ctestTest reads a CTest name: GoogleTest's "Suite.Name", with an
// instantiation prefix and a parameter index when parameterized, or a
// name of a project's own, "group.test", whose last part is the test
// function (cmocka).
func ctestTest(id string, files []string, declares Declares) (Ref, bool) {
	if declares == nil || strings.ContainsAny(id, " \t") {
		return Ref{}, false
	}
	s := id
	if i := strings.Index(s, "/"); i >= 0 && strings.Contains(s[i+1:], ".") {
		s = s[i+1:] // "Inst/Suite.Name/0"
	}
	s, _, _ = strings.Cut(s, "/")
	i := strings.LastIndex(s, ".")
	if i <= 0 || i == len(s)-1 {
		return Ref{}, false
	}
	suite, name := s[:i], s[i+1:]
	var found []string
	for _, f := range files {
		if !hasExt(f, cExts) || !declares(f, name) {
			continue
		}
		found = append(found, f)
	}
	if len(found) > 1 {
		// Several files declare the test function: the one that names the
		// suite too.
		var both []string
		for _, f := range found {
			if declares(f, suite) {
				both = append(both, f)
			}
		}
		if len(both) > 0 {
			found = both
		}
	}
	if len(found) == 0 {
		return Ref{}, false
	}
	sort.Strings(found)
	return Ref{File: found[0], Class: suite, Func: name}, true
}

func hasExt(f string, exts []string) bool {
	for _, e := range exts {
		if strings.HasSuffix(f, e) {
			return true
		}
	}
	return false
}
