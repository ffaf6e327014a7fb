package testid

import (
	"reflect"
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
		{"pytest-ra", "tests/test_x.py::test_a", Ref{File: "tests/test_x.py", Func: "test_a"}, true},
		{"pytest-ra", "tests/test_metadata.py::TestMetadata::test_valid[MIT OR Apache-2.0]", Ref{File: "tests/test_metadata.py", Class: "TestMetadata", Func: "test_valid"}, true},
		{"pytest-ra", "tests/test_x.py::TestA::TestB::test_c", Ref{File: "tests/test_x.py", Class: "TestA.TestB", Func: "test_c"}, true},
		// pytest's JUnit classname, which once read as a folder path.
		{"junit", "tests.test_metadata.TestMetadata::test_x[param]", Ref{File: "tests/test_metadata.py", Class: "TestMetadata", Func: "test_x"}, true},
		{"junit", "tests.test_x::test_a", Ref{File: "tests/test_x.py", Func: "test_a"}, true},
		{"junit", "pkg.tests.test_deep.TestK::test_m[a-b]", Ref{File: "pkg/tests/test_deep.py", Class: "TestK", Func: "test_m"}, true},
		// JUnit from Maven and Gradle; "Class#method".
		{"junit", "com.ex.FooTest::testBar", Ref{File: "src/test/java/com/ex/FooTest.java", Class: "FooTest", Func: "testBar"}, true},
		{"junit", "com.ex.FooTest$Nested::testBaz()", Ref{File: "src/test/java/com/ex/FooTest.java", Class: "FooTest.Nested", Func: "testBaz"}, true},
		{"junit", "com.ex.BarTest::works", Ref{File: "app/src/test/kotlin/com/ex/BarTest.kt", Class: "BarTest", Func: "works"}, true},
		{"junit", "com.ex.FooTest#testBar", Ref{File: "src/test/java/com/ex/FooTest.java", Class: "FooTest", Func: "testBar"}, true},
		// Surefire's names of JUnit 5 parameterized invocations (issue 22).
		{"junit", "com.ex.FooTest::parses{String, long}[2]", Ref{File: "src/test/java/com/ex/FooTest.java", Class: "FooTest", Func: "parses"}, true},
		{"junit", "com.ex.FooTest$Nested::rounds{RoundingMode, String}[10]", Ref{File: "src/test/java/com/ex/FooTest.java", Class: "FooTest.Nested", Func: "rounds"}, true},
		// jest: "describe › it", by the file or by the title.
		{"junit", "web/__tests__/cart.test.ts::Cart › adds an item", Ref{File: "web/__tests__/cart.test.ts", Class: "Cart", Func: "adds an item"}, true},
		{"junit", "Cart::Cart › adds an item", Ref{File: "web/__tests__/cart.test.ts", Class: "Cart", Func: "adds an item"}, true},
		// lolbench-node-test: a top-level test's title, kept whole.
		{"junit", "web/__tests__/cart.test.ts::is empty (at first) [x]", Ref{File: "web/__tests__/cart.test.ts", Func: "is empty (at first) [x]"}, true},
		{"junit", "web/__tests__/cart.test.ts [load]", Ref{}, false},
		// Go, subtests included; the package's file that declares it.
		{"go-json", "example.com/m/store.TestTTL", Ref{File: "store/expiry_test.go", Func: "TestTTL"}, true},
		{"go-json", "example.com/m/store.TestSetGet/empty_key", Ref{File: "store/store_test.go", Func: "TestSetGet", Sub: "empty_key"}, true},
		{"go-json", "example.com/m/internal/proto.TestParse", Ref{File: "internal/proto/proto_test.go", Func: "TestParse"}, true},
		{"go-json", "example.com/m.TestRoot", Ref{File: "root_test.go", Func: "TestRoot"}, true},
		{"go-json", "example.com/m/store.TestNope", Ref{}, false},
		{"go-json", "example.com/m/store [package]", Ref{}, false},
		// go-junit-report.
		{"junit", "example.com/m/store::TestTTL", Ref{File: "store/expiry_test.go", Func: "TestTTL"}, true},
		// Rust: an integration binary, and module paths.
		{"cargo", "integration::round_trip", Ref{File: "tests/integration.rs", Func: "round_trip"}, true},
		{"cargo", "tinycrate::tests::adds", Ref{File: "src/lib.rs", Class: "tests", Func: "adds"}, true},
		{"cargo", "tinycrate::parse::tests::parses", Ref{File: "src/parse/mod.rs", Class: "parse::tests", Func: "parses"}, true},
		{"cargo", "tinycrate::parse::lexer::tests::lexes", Ref{File: "src/parse/lexer.rs", Class: "parse::lexer::tests", Func: "lexes"}, true},
		{"cargo", "tinycrate [build]", Ref{}, false},
		{"junit", "no.such.Class::m", Ref{}, false},
		// CPython's regrtest: the unittest id alone, no classname; the
		// module under Lib/.
		{"junit", "test.test_tarfile.TestExtractionFilters.test_data_filter", Ref{File: "Lib/test/test_tarfile.py", Class: "TestExtractionFilters", Func: "test_data_filter"}, true},
		{"junit", "test.test_tarfile.NoneInfoExtractTests_Data.test_extractall_none_mtime", Ref{File: "Lib/test/test_tarfile.py", Class: "NoneInfoExtractTests_Data", Func: "test_extractall_none_mtime"}, true},
		{"junit", "test.test_email.test_defect_handling.TestDefectsBase.test_same_boundary_inner_outer", Ref{File: "Lib/test/test_email/test_defect_handling.py", Class: "TestDefectsBase", Func: "test_same_boundary_inner_outer"}, true},
		{"junit", "test.test_email.TestEmailBase.test_x", Ref{File: "Lib/test/test_email/__init__.py", Class: "TestEmailBase", Func: "test_x"}, true},
		// A module-level name is no unittest method; a name of no file is
		// nothing; a doctest's id names the module it documents.
		{"junit", "test.test_tarfile.setUpModule", Ref{}, false},
		{"junit", "test.test_tarfile.Outer.Inner.test_x", Ref{}, false},
		{"junit", "test.test_nosuch.TestX.test_y", Ref{}, false},
		{"junit", "test.test_tarfile..test_y", Ref{}, false},
		{"junit", "tarfile.TarFile.extractall", Ref{File: "Lib/tarfile.py", Class: "TarFile", Func: "extractall"}, true},
	}
	for _, tt := range tests {
		got, ok := Locate(tt.format, tt.id, &Source{Files: files, Declares: declares})
		if ok != tt.ok || got != tt.want {
			t.Errorf("Locate(%s, %q) = %+v, %v; want %+v, %v", tt.format, tt.id, got, ok, tt.want, tt.ok)
		}
	}
}

func FuzzLocate(f *testing.F) {
	for _, s := range []string{"tests/test_x.py::TestA::test_b[c]", "a.b.C::d", "example.com/m/store.TestX/y", "x::y::z", "C#m", "a › b", strings.Repeat(".Test", 50)} {
		f.Add(s)
	}
	var suiteFiles []string
	for file := range goSuite {
		suiteFiles = append(suiteFiles, file)
	}
	suite := &Source{Files: suiteFiles, Read: func(file string) []byte { return []byte(goSuite[file]) }}
	f.Add("x/balancer/wrr.Test/Balancer_OneAddress/y")
	f.Fuzz(func(t *testing.T, id string) {
		for _, format := range []string{"pytest-ra", "junit", "go-json", "cargo"} {
			if r, ok := Locate(format, id, &Source{Files: files, Declares: declares, Read: read}); ok && (r.File == "" || r.Func == "") {
				t.Fatalf("Locate(%s, %q) = %+v without a file or a function", format, id, r)
			}
			if r, ok := Locate(format, id, suite); ok && (r.File == "" || r.Func == "" || (r.Runner.Func == "") != (r.Runner.File == "")) {
				t.Fatalf("Locate(%s, %q) in the suite = %+v", format, id, r)
			}
		}
	})
}

// read serves no content: the shared table locates without parsing.
func read(string) []byte { return nil }

// goSuite is a Go package in the shape of grpc-go's: a runner Test that
// runs the methods of s as subtests (grpctest), a table-driven test, a
// method of a type no runner names, and a testify suite.
var goSuite = map[string]string{
	"balancer/wrr/balancer_test.go": "package wrr\n\ntype s struct{ grpctest.Tester }\n\n// Test runs the suite.\nfunc Test(t *testing.T) { grpctest.RunSubTests(t, s{}) }\n",
	"balancer/wrr/wrr_test.go": "package wrr\n\nfunc (s) TestBalancer_OneAddress(t *testing.T) {}\n\n" +
		"func (s) TestBalancer_TwoAddresses(t *testing.T) {\n\tt.Run(\"two backends\", func(t *testing.T) {})\n}\n\n" +
		"type other struct{}\n\nfunc (*other) TestDecoy(t *testing.T) {}\n",
	"balancer/wrr/table_test.go": "package wrr\n\nfunc TestX(t *testing.T) {\n\tfor _, c := range cases {\n\t\tt.Run(c.name, func(t *testing.T) {})\n\t}\n}\n\n" +
		"func TestY(t *testing.T) { t.Run(\"Balancer_OneAddress\", func(t *testing.T) {}) }\n",
	"suite/suite_test.go": "package suite\n\ntype MySuite[T any] struct{ suite.Suite }\n\nfunc TestMySuite(t *testing.T) { suite.Run(t, new(MySuite[int])) }\n\n" +
		"func (s *MySuite[T]) TestSomething() {}\n",
}

// TestLocateGoSubtests: a subtest of a suite runner is its method, with
// the receiver as its class; a table-driven test's subtest keeps its
// function and the subtest path as go test reports it.
func TestLocateGoSubtests(t *testing.T) {
	var files []string
	for f := range goSuite {
		files = append(files, f)
	}
	words := func(file, name string) bool {
		for _, w := range strings.FieldsFunc(goSuite[file], func(r rune) bool {
			return !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
		}) {
			if w == name {
				return true
			}
		}
		return false
	}
	src := &Source{Files: files, Declares: words, Read: func(f string) []byte { return []byte(goSuite[f]) }}
	const pkg = "google.golang.org/grpc/balancer/wrr."
	const runner, methods, table = "balancer/wrr/balancer_test.go", "balancer/wrr/wrr_test.go", "balancer/wrr/table_test.go"
	tests := []struct {
		format, id string
		want       Ref
	}{
		{"go-json", pkg + "Test/Balancer_OneAddress", Ref{File: methods, Class: "s", Func: "TestBalancer_OneAddress", Runner: Runner{runner, "Test", "Balancer_OneAddress"}}},
		{"go-json", pkg + "Test/Balancer_TwoAddresses/two_backends#01", Ref{File: methods, Class: "s", Func: "TestBalancer_TwoAddresses", Sub: "two_backends#01", Runner: Runner{runner, "Test", "Balancer_TwoAddresses/two_backends#01"}}},
		// A method of a type the runner does not name is no subtest of it.
		{"go-json", pkg + "Test/Decoy", Ref{File: runner, Func: "Test", Sub: "Decoy"}},
		{"go-json", pkg + "Test", Ref{File: runner, Func: "Test"}},
		{"go-json", pkg + "TestX/case_name", Ref{File: table, Func: "TestX", Sub: "case_name"}},
		{"go-json", pkg + "TestX/a/b", Ref{File: table, Func: "TestX", Sub: "a/b"}},
		// TestY does not run the suite, whatever its subtest is called.
		{"go-json", pkg + "TestY/Balancer_OneAddress", Ref{File: table, Func: "TestY", Sub: "Balancer_OneAddress"}},
		// testify names the subtest after the method; generic receivers.
		{"go-json", "example.com/suite.TestMySuite/TestSomething", Ref{File: "suite/suite_test.go", Class: "MySuite", Func: "TestSomething", Runner: Runner{"suite/suite_test.go", "TestMySuite", "TestSomething"}}},
		// go-junit-report's shape.
		{"junit", "google.golang.org/grpc/balancer/wrr::Test/Balancer_OneAddress", Ref{File: methods, Class: "s", Func: "TestBalancer_OneAddress", Runner: Runner{runner, "Test", "Balancer_OneAddress"}}},
	}
	for _, tt := range tests {
		got, ok := Locate(tt.format, tt.id, src)
		if !ok || got != tt.want {
			t.Errorf("Locate(%s, %q) = %+v, %v; want %+v", tt.format, tt.id, got, ok, tt.want)
		}
	}
	// Without the files' content, the runner's subtest stays the runner's.
	if got, ok := Locate("go-json", pkg+"Test/Balancer_OneAddress", &Source{Files: files, Declares: words}); !ok || got != (Ref{File: runner, Func: "Test", Sub: "Balancer_OneAddress"}) {
		t.Errorf("without Read: %+v, %v", got, ok)
	}
}

func TestRefScopes(t *testing.T) {
	r := Ref{File: "w_test.go", Class: "s", Func: "TestB", Sub: "two/x", Runner: Runner{"b_test.go", "Test", "B/two/x"}}
	want := []Scope{
		{"w_test.go", "s", "TestB"}, {"w_test.go", "s", "TestB/two"}, {"w_test.go", "s", "TestB/two/x"},
		{"b_test.go", "", "Test"}, {"b_test.go", "", "Test/B"}, {"b_test.go", "", "Test/B/two"}, {"b_test.go", "", "Test/B/two/x"},
	}
	if got := r.Scopes(); !reflect.DeepEqual(got, want) {
		t.Errorf("Scopes() = %q, want %q", got, want)
	}
	if got := (Ref{File: "x.py", Func: "test_a"}).Scopes(); !reflect.DeepEqual(got, []Scope{{"x.py", "", "test_a"}}) {
		t.Errorf("Scopes() = %q", got)
	}
}
