package guard

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
)

// cTestFile and cxxTestFile report whether a base name is a C or C++ test
// source by the table's conventions (test_x.c, x_test.cc, x_unittest.cpp).
func cTestFile(n string) bool {
	return strings.HasSuffix(n, ".c") && (strings.HasPrefix(n, "test_") || strings.HasSuffix(n, "_test.c") || strings.HasSuffix(n, "_tests.c"))
}

func cxxTestFile(n string) bool {
	ext := path.Ext(n)
	switch ext {
	case ".cc", ".cpp", ".cxx":
	default:
		return false
	}
	s := strings.TrimSuffix(n, ext)
	return strings.HasPrefix(s, "test_") || strings.HasSuffix(s, "_test") || strings.HasSuffix(s, "_tests") || strings.HasSuffix(s, "_unittest")
}

// A CMake project's tests are what its CMakeLists.txt declare, so a
// canary is a test program of its own, declared at the end of the test
// folder's CMakeLists.txt (reset to the canonical one first) and linked
// with what the folder's first test program links: the library under test
// and the test framework. The canary calls nothing of the library, so the
// project's static libraries are linked whole (a linker keeps only the
// archive members a program refers to, and a static initializer in a
// member the real tests use would otherwise miss the canary) and its
// shared ones even when unused. Static initializers of the library (a GoogleTest
// listener, an atexit hook that turns a failing exit into 0) and the
// project's CMake settings (an emulator that runs every test through true)
// reach it as they reach the real tests. CTest names a GoogleTest canary
// Suite.Name (gtest_discover_tests), a cmocka one by its add_test name.
//
// A folder without a CMakeLists.txt, or whose first test program links no
// test framework, gets none (its tests are declared elsewhere).
//
// The block's names are random words like the canary's, so that CMake code
// cannot tell it from the project's by its names.
const cmakeCanaryBlock = `
get_property(@V@targets DIRECTORY PROPERTY BUILDSYSTEM_TARGETS)
foreach(@V@t IN LISTS @V@targets)
  get_target_property(@V@type ${@V@t} TYPE)
  get_target_property(@V@libs ${@V@t} LINK_LIBRARIES)
  if(@V@type STREQUAL "EXECUTABLE" AND "${@V@libs}" MATCHES "@FRAMEWORKS@")
    add_executable(@TARGET@ @SOURCE@)
    set(@V@link)
    foreach(@V@l IN LISTS @V@libs)
      set(@V@lt "")
      if(TARGET "${@V@l}")
        get_target_property(@V@lt "${@V@l}" TYPE)
        get_target_property(@V@imported "${@V@l}" IMPORTED)
      endif()
      if(@V@lt STREQUAL "STATIC_LIBRARY" AND NOT @V@imported)
        list(APPEND @V@link "$<LINK_LIBRARY:WHOLE_ARCHIVE,${@V@l}>")
      else()
        list(APPEND @V@link "${@V@l}")
      endif()
    endforeach()
    target_link_libraries(@TARGET@ PRIVATE ${@V@link})
    target_link_options(@TARGET@ PRIVATE "LINKER:--no-as-needed")
    get_target_property(@V@inc ${@V@t} INCLUDE_DIRECTORIES)
    if(@V@inc)
      target_include_directories(@TARGET@ PRIVATE ${@V@inc})
    endif()
    @DECLARE@
    break()
  endif()
endforeach()
`

// cmakeCanary plants one canary in folder dir: the source file and the
// folder's CMakeLists.txt with the block above appended.
func cmakeCanary(top, dir string, cxx bool) ([]plantedCanary, error) {
	lists := path.Join(dir, "CMakeLists.txt")
	data, err := os.ReadFile(filepath.Join(top, filepath.FromSlash(lists)))
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	if len(data) > 4<<20 {
		return nil, fmt.Errorf("%s: larger than 4 MiB", lists)
	}
	target := word(3) + "_test"
	a, b := twoNumbers()
	var src, file, name, frameworks, declare string
	if cxx {
		suite, test := exported(word(2)), exported(word(3))
		name = suite + "." + test
		file = path.Join(dir, word(2)+"_test.cpp")
		src = fmt.Sprintf("#include <gtest/gtest.h>\n\nTEST(%s, %s) {\n  EXPECT_EQ(%d, %d);\n}\n", suite, test, a, b)
		frameworks = "gtest|GTest"
		declare = "include(GoogleTest)\n    gtest_discover_tests(" + target + ")"
	} else {
		fn := word(3)
		name = word(2) + "." + fn
		file = path.Join(dir, "test_"+word(2)+".c")
		src = fmt.Sprintf("#include <stdarg.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <setjmp.h>\n#include <cmocka.h>\n\n"+
			"static void %s(void **state) {\n    (void)state;\n    assert_int_equal(%d, %d);\n}\n\n"+
			"int main(void) {\n    const struct CMUnitTest tests[] = {cmocka_unit_test(%s)};\n    return cmocka_run_group_tests(tests, NULL, NULL);\n}\n", fn, a, b, fn)
		frameworks = "cmocka"
		declare = "add_test(NAME " + name + " COMMAND " + target + ")"
	}
	block := strings.NewReplacer("@V@", "_"+word(2)+"_", "@FRAMEWORKS@", frameworks, "@TARGET@", target, "@SOURCE@", path.Base(file),
		"@DECLARE@", declare).Replace(cmakeCanaryBlock)
	lists2 := append(append([]byte{}, data...), block...)
	return []plantedCanary{{Canary: grade.Canary{Dir: dir, File: file, Name: name}, source: []byte(src),
		also: map[string][]byte{lists: lists2}}}, nil
}

func cCanaries(top, dir string) ([]plantedCanary, error)   { return cmakeCanary(top, dir, false) }
func cxxCanaries(top, dir string) ([]plantedCanary, error) { return cmakeCanary(top, dir, true) }
