package testid

import (
	"strings"
	"testing"
)

// The repository the ids are read against, with what each test file
// declares.
var (
	files = []string{
		"tests/test_metadata.py", "tests/test_x.py", "tests/__init__.py", "pkg/tests/test_deep.py",
		"store/store_test.go", "store/expiry_test.go", "internal/proto/proto_test.go", "root_test.go",
		"src/test/java/com/ex/FooTest.java", "app/src/test/kotlin/com/ex/BarTest.kt",
		"src/lib.rs", "src/parse/mod.rs", "src/parse/lexer.rs", "tests/integration.rs",
		"web/__tests__/cart.test.ts",
		"Lib/tarfile.py", "Lib/test/__init__.py", "Lib/test/test_tarfile.py",
		"Lib/test/test_email/__init__.py", "Lib/test/test_email/test_defect_handling.py",
	}
	declared = map[string][]string{
		"store/store_test.go":          {"TestSetGet"},
		"store/expiry_test.go":         {"TestTTL"},
		"internal/proto/proto_test.go": {"TestParse"},
		"root_test.go":                 {"TestRoot"},
		"src/lib.rs":                   {"adds"},
		"src/parse/mod.rs":             {"parses"},
		"src/parse/lexer.rs":           {"lexes", "parses"},
		"web/__tests__/cart.test.ts":   {"adds an item"},
	}
)

func declares(file, name string) bool {
	for _, n := range declared[file] {
		if n == name {
			return true
		}
	}
	return false
}

func TestLocate(t *testing.T) {
	tests := []struct {
		format, id string
		want       Ref
		ok         bool
	}{
		// pytest node ids, with classes and parameters.
		{"pytest-ra", "tests/test_x.py::test_a", Ref{"tests/test_x.py", "", "test_a"}, true},
		{"pytest-ra", "tests/test_metadata.py::TestMetadata::test_valid[MIT OR Apache-2.0]", Ref{"tests/test_metadata.py", "TestMetadata", "test_valid"}, true},
		{"pytest-ra", "tests/test_x.py::TestA::TestB::test_c", Ref{"tests/test_x.py", "TestA.TestB", "test_c"}, true},
		// pytest's JUnit classname, which once read as a folder path.
		{"junit", "tests.test_metadata.TestMetadata::test_x[param]", Ref{"tests/test_metadata.py", "TestMetadata", "test_x"}, true},
		{"junit", "tests.test_x::test_a", Ref{"tests/test_x.py", "", "test_a"}, true},
		{"junit", "pkg.tests.test_deep.TestK::test_m[a-b]", Ref{"pkg/tests/test_deep.py", "TestK", "test_m"}, true},
		// JUnit from Maven and Gradle; "Class#method".
		{"junit", "com.ex.FooTest::testBar", Ref{"src/test/java/com/ex/FooTest.java", "FooTest", "testBar"}, true},
		{"junit", "com.ex.FooTest$Nested::testBaz()", Ref{"src/test/java/com/ex/FooTest.java", "FooTest.Nested", "testBaz"}, true},
		{"junit", "com.ex.BarTest::works", Ref{"app/src/test/kotlin/com/ex/BarTest.kt", "BarTest", "works"}, true},
		{"junit", "com.ex.FooTest#testBar", Ref{"src/test/java/com/ex/FooTest.java", "FooTest", "testBar"}, true},
		// Surefire's names of JUnit 5 parameterized invocations (issue 22).
		{"junit", "com.ex.FooTest::parses{String, long}[2]", Ref{"src/test/java/com/ex/FooTest.java", "FooTest", "parses"}, true},
		{"junit", "com.ex.FooTest$Nested::rounds{RoundingMode, String}[10]", Ref{"src/test/java/com/ex/FooTest.java", "FooTest.Nested", "rounds"}, true},
		// jest: "describe › it", by the file or by the title.
		{"junit", "web/__tests__/cart.test.ts::Cart › adds an item", Ref{"web/__tests__/cart.test.ts", "Cart", "adds an item"}, true},
		{"junit", "Cart::Cart › adds an item", Ref{"web/__tests__/cart.test.ts", "Cart", "adds an item"}, true},
		// lolbench-node-test: a top-level test's title, kept whole.
		{"junit", "web/__tests__/cart.test.ts::is empty (at first) [x]", Ref{"web/__tests__/cart.test.ts", "", "is empty (at first) [x]"}, true},
		{"junit", "web/__tests__/cart.test.ts [load]", Ref{}, false},
		// Go, subtests included; the package's file that declares it.
		{"go-json", "example.com/m/store.TestTTL", Ref{"store/expiry_test.go", "", "TestTTL"}, true},
		{"go-json", "example.com/m/store.TestSetGet/empty_key", Ref{"store/store_test.go", "", "TestSetGet"}, true},
		{"go-json", "example.com/m/internal/proto.TestParse", Ref{"internal/proto/proto_test.go", "", "TestParse"}, true},
		{"go-json", "example.com/m.TestRoot", Ref{"root_test.go", "", "TestRoot"}, true},
		{"go-json", "example.com/m/store.TestNope", Ref{}, false},
		{"go-json", "example.com/m/store [package]", Ref{}, false},
		// go-junit-report.
		{"junit", "example.com/m/store::TestTTL", Ref{"store/expiry_test.go", "", "TestTTL"}, true},
		// Rust: an integration binary, and module paths.
		{"cargo", "integration::round_trip", Ref{"tests/integration.rs", "", "round_trip"}, true},
		{"cargo", "tinycrate::tests::adds", Ref{"src/lib.rs", "tests", "adds"}, true},
		{"cargo", "tinycrate::parse::tests::parses", Ref{"src/parse/mod.rs", "parse::tests", "parses"}, true},
		{"cargo", "tinycrate::parse::lexer::tests::lexes", Ref{"src/parse/lexer.rs", "parse::lexer::tests", "lexes"}, true},
		{"cargo", "tinycrate [build]", Ref{}, false},
		{"junit", "no.such.Class::m", Ref{}, false},
		// CPython's regrtest: the unittest id alone, no classname; the
		// module under Lib/.
		{"junit", "test.test_tarfile.TestExtractionFilters.test_data_filter", Ref{"Lib/test/test_tarfile.py", "TestExtractionFilters", "test_data_filter"}, true},
		{"junit", "test.test_tarfile.NoneInfoExtractTests_Data.test_extractall_none_mtime", Ref{"Lib/test/test_tarfile.py", "NoneInfoExtractTests_Data", "test_extractall_none_mtime"}, true},
		{"junit", "test.test_email.test_defect_handling.TestDefectsBase.test_same_boundary_inner_outer", Ref{"Lib/test/test_email/test_defect_handling.py", "TestDefectsBase", "test_same_boundary_inner_outer"}, true},
		{"junit", "test.test_email.TestEmailBase.test_x", Ref{"Lib/test/test_email/__init__.py", "TestEmailBase", "test_x"}, true},
		// A module-level name is no unittest method; a name of no file is
		// nothing; a doctest's id names the module it documents.
		{"junit", "test.test_tarfile.setUpModule", Ref{}, false},
		{"junit", "test.test_tarfile.Outer.Inner.test_x", Ref{}, false},
		{"junit", "test.test_nosuch.TestX.test_y", Ref{}, false},
		{"junit", "test.test_tarfile..test_y", Ref{}, false},
		{"junit", "tarfile.TarFile.extractall", Ref{"Lib/tarfile.py", "TarFile", "extractall"}, true},
	}
	for _, tt := range tests {
		got, ok := Locate(tt.format, tt.id, files, declares)
		if ok != tt.ok || got != tt.want {
			t.Errorf("Locate(%s, %q) = %+v, %v; want %+v, %v", tt.format, tt.id, got, ok, tt.want, tt.ok)
		}
	}
}

func FuzzLocate(f *testing.F) {
	for _, s := range []string{"tests/test_x.py::TestA::test_b[c]", "a.b.C::d", "example.com/m/store.TestX/y", "x::y::z", "C#m", "a › b", strings.Repeat(".Test", 50)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		for _, format := range []string{"pytest-ra", "junit", "go-json", "cargo"} {
			if r, ok := Locate(format, id, files, declares); ok && (r.File == "" || r.Func == "") {
				t.Fatalf("Locate(%s, %q) = %+v without a file or a function", format, id, r)
			}
		}
	})
}
