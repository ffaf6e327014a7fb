package lang

import (
	"path"
	"strings"
)

var byExtension = func() map[string]*Language {
	m := make(map[string]*Language)
	for _, l := range Table {
		for _, e := range l.Extensions {
			m[e] = l
		}
	}
	return m
}()

// ByName returns the table entry with the given cloc name, in any case
// ("java" is Java), or nil.
func ByName(name string) *Language {
	for _, l := range Table {
		if strings.EqualFold(l.Name, name) {
			return l
		}
	}
	return nil
}

// ForPath returns the programming language of a file from its extension,
// or nil when the file is not source code of a known language.
func ForPath(p string) *Language {
	return byExtension[strings.ToLower(path.Ext(p))]
}

// Classify puts a repository path (slash-separated, relative to the root)
// into one PR-file category. The checks run from the most specific
// convention to the least: vendored and generated code first, because a
// vendored test is still vendored; then test data, build files, tests,
// source, documentation, and finally data.
func Classify(p string) Category {
	p = strings.TrimPrefix(path.Clean("/"+strings.ReplaceAll(p, "\\", "/")), "/")
	dir, base := path.Split(p)
	dirs := splitDirs(dir)
	l := ForPath(p)

	switch {
	case anySegment(dirs, vendorDirs):
		return Vendor
	case matchName(base, lockNames), matchName(base, generatedNames),
		l != nil && matchName(base, l.GeneratedNames):
		return Generated
	case anySegment(dirs, testDataDirs), hasSequence(dirs, testDataPaths):
		return TestData
	case isBuild(base, dirs):
		return Build
	case l != nil && isTest(l, base, dirs):
		return Test
	case l != nil:
		return Source
	case matchName(base, docNames):
		return Documentation
	case underTestDir(dirs):
		// Non-source files inside a test tree are inputs and expected
		// outputs of the tests (Lib/test/*.json, tests/data/...).
		return TestData
	case isDoc(base, dirs):
		return Documentation
	}
	return Data
}

func isBuild(base string, dirs []string) bool {
	if anySegment(dirs, buildDirs) || matchName(base, buildNames) {
		return true
	}
	for _, l := range Table {
		if matchName(base, l.BuildNames) {
			return true
		}
	}
	return false
}

func isTest(l *Language, base string, dirs []string) bool {
	return matchName(base, l.TestNames) || anySegment(dirs, l.TestDirs) || hasSequence(dirs, l.TestPaths)
}

func isDoc(base string, dirs []string) bool {
	return anySegment(dirs, docDirs) ||
		contains(docExtensions, strings.ToLower(path.Ext(base)))
}

func underTestDir(dirs []string) bool {
	for _, l := range Table {
		if anySegment(dirs, l.TestDirs) || hasSequence(dirs, l.TestPaths) {
			return true
		}
	}
	return false
}

func splitDirs(dir string) []string {
	dir = strings.Trim(dir, "/")
	if dir == "" {
		return nil
	}
	return strings.Split(dir, "/")
}

// matchName reports whether base matches one of the globs.
func matchName(base string, globs []string) bool {
	for _, g := range globs {
		if ok, _ := path.Match(g, base); ok {
			return true
		}
	}
	return false
}

// anySegment reports whether one directory name matches one of the globs.
func anySegment(dirs, globs []string) bool {
	for _, d := range dirs {
		if matchName(d, globs) {
			return true
		}
	}
	return false
}

// hasSequence reports whether one of the slash-separated sequences occurs
// as consecutive directory names.
func hasSequence(dirs, seqs []string) bool {
	joined := "/" + strings.Join(dirs, "/") + "/"
	for _, s := range seqs {
		if strings.Contains(joined, "/"+s+"/") {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// InDocs reports whether a repository path lies in a documentation folder
// (docs/, doc/, man/, ...): code there (a Sphinx docs/conf.py) is Source by
// language but documents the project rather than implementing it.
func InDocs(p string) bool {
	p = strings.TrimPrefix(path.Clean("/"+strings.ReplaceAll(p, "\\", "/")), "/")
	dir, _ := path.Split(p)
	return anySegment(splitDirs(dir), docDirs)
}
