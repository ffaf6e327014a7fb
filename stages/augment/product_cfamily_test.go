package augment

import (
	"reflect"
	"testing"

	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/lang"
)

// TestCfamilyProductPaths: the C and C++ audit reads the sources and the
// headers of the folders the PR changes C, C++ or header files in, not
// their tests, build files or other languages' files.
func TestCfamilyProductPaths(t *testing.T) {
	var files []diff.File
	for _, p := range []string{"src/version.cpp", "include/semkit/range.h", "tests/range_test.cpp", "tools/gen.py", "CMakeLists.txt"} {
		f := diff.File{NewPath: p, Category: lang.Classify(p)}
		if l := lang.ForPath(p); l != nil {
			f.Language = l.Name
		}
		files = append(files, f)
	}
	dirs := map[string][]string{
		"src":            {"CMakeLists.txt", "range.cpp", "util.c", "version.cpp", "notes.md"},
		"include/semkit": {"range.h", "version.h", "version.hpp"},
		"tests":          {"range_test.cpp", "helpers.h"},
		"tools":          {"gen.py", "emit.cpp"},
	}
	got := cfamilyProductPaths(files, func(d string) []string { return dirs[d] })
	want := []string{"include/semkit/range.h", "include/semkit/version.h", "include/semkit/version.hpp", "src/range.cpp", "src/util.c", "src/version.cpp"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("paths %q, want %q", got, want)
	}
}
