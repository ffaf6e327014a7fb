package testid

import (
	"sort"
	"strings"
)

// unittestID reads a dotted unittest id, the name alone of a testcase in
// CPython's regrtest JUnit report (Lib/test/support/testresult.py writes
// test.id() and no classname): "test.test_tarfile.TestExtractionFilters.
// test_data_filter". unittest's id is the module, the class and the
// method (its loader collects module-level classes only), so all but the
// last two parts are the module: the repository file whose path ends in
// it as a .py file or a package's __init__.py, under whatever folder
// holds the import root (Lib/ in CPython).
func unittestID(id string, files []string) (Ref, bool) {
	if strings.ContainsAny(id, " /:#[(") {
		return Ref{}, false
	}
	el := strings.Split(id, ".")
	if len(el) < 3 {
		return Ref{}, false
	}
	for _, e := range el {
		if e == "" {
			return Ref{}, false
		}
	}
	found := moduleFiles(strings.Join(el[:len(el)-2], "/"), files)
	if len(found) == 0 || len(moduleFiles(strings.Join(el[:len(el)-1], "/"), files)) > 0 {
		// No module, or the "class" is a module itself (a module-level
		// function's name, which unittest does not make a test id).
		return Ref{}, false
	}
	// The shortest path wins: "Lib/test/x.py" over "Tools/Lib/test/x.py",
	// a module file over a package's folder of the same name.
	sort.Slice(found, func(a, b int) bool {
		if len(found[a]) != len(found[b]) {
			return len(found[a]) < len(found[b])
		}
		return found[a] < found[b]
	})
	return Ref{File: found[0], Class: el[len(el)-2], Func: el[len(el)-1]}, true
}

// moduleFiles are the files whose path ends in module mod (slash-
// separated) as a .py file or a package's __init__.py.
func moduleFiles(mod string, files []string) []string {
	var found []string
	for _, f := range files {
		for _, want := range []string{mod + ".py", mod + "/__init__.py"} {
			if f == want || strings.HasSuffix(f, "/"+want) {
				found = append(found, f)
			}
		}
	}
	return found
}
