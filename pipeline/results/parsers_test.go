package results

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// r builds an expected result list compactly: r("passed", "a", "failed", "b").
func r(pairs ...string) []Result {
	out := []Result{}
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, Result{Name: pairs[i+1], Status: Status(pairs[i])})
	}
	return out
}

// The real logs in testdata were captured from tiny throwaway projects:
// go test -json (Go 1.26 on the host, Go 1.19 in the test base image),
// cargo 1.95 (and 1.63 in the offline Rust image), pytest 7.2.1 (-rA, --junitxml),
// CPython's regrtest at the base of PEP 706's PR (its file says how). The Surefire and Gradle
// reports are written by hand after those tools' formats.
var fileCases = []struct {
	format, file string
	want         []Result
}{
	{"junit", "junit-pytest.xml", r(
		"error", "tests.test_broken",
		"passed", "tests.test_x.TestK::test_m",
		"passed", "tests.test_x::test_a",
		"failed", "tests.test_x::test_b",
		"error", "tests.test_x::test_c",
		"passed", "tests.test_x::test_param[1.5]",
		"passed", "tests.test_x::test_param[[odd]]",
		"passed", "tests.test_x::test_param[a b]",
		"failed", "tests.test_x::test_param[x - y]",
		"skipped", "tests.test_x::test_skip",
		"skipped", "tests.test_x::test_skip_inline",
		"skipped", "tests.test_x::test_xfail",
		"passed", "tests.test_x::test_xpass",
	)},
	// CPython's regrtest: the unittest id alone, no classname; a test
	// whose subTest failed leaves a bare <testcase/> (an error, never a
	// pass: both merge into one entry); an expected failure is skipped,
	// an unexpected success failed.
	{"junit", "junit-regrtest.xml", r(
		"error", "(unnamed testcase)",
		"passed", "test.test_tarfile.AppendTest.test_empty",
		"skipped", "test.test_tarfile.Bz2MiscReadTest.test_bytes_name_attribute",
		"error", "test.test_tarfile.Bz2MiscReadTest.test_extract_directory",
		"failed", "test.test_tarfile.CommandLineTest.test_extract_command_filter",
		"passed", "test.test_zz_shapes.Shapes.test_pass",
		"skipped", "test.test_zz_shapes.Shapes.test_skip",
		"skipped", "test.test_zz_shapes.Shapes.test_xfail",
		"failed", "test.test_zz_shapes.Shapes.test_xpass",
	)},
	{"junit", "junit-surefire.xml", r(
		"passed", `com.example.kv.SizeTest::[1] size=0, expected="empty"`,
		"error", "com.example.kv.StoreTest::compactOnClose",
		"failed", "com.example.kv.StoreTest::deleteMissingKey",
		"passed", "com.example.kv.StoreTest::flakyWrite",
		"passed", "com.example.kv.StoreTest::putThenGet",
		"skipped", "com.example.kv.StoreTest::replicate",
	)},
	{"junit", "junit-gradle-concatenated.xml", r(
		"error", "org.demo.BootTest [suite]",
		"passed", "org.demo.BootTest$Inner::boots",
		"passed", "org.demo.LexerTest::lexesNumbers()",
		"passed", "org.demo.ParserTest::parsesEmpty()",
		"failed", "org.demo.ParserTest::parsesNested()",
	)},
	{"go-json", "go-json-mixed.json", r(
		"passed", "example.com/tiny/a.TestAdd",
		"skipped", "example.com/tiny/a.TestSkip",
		"failed", "example.com/tiny/a.TestTable",
		"failed", "example.com/tiny/a.TestTable/fails",
		"passed", "example.com/tiny/a.TestTable/one_two",
		"passed", "example.com/tiny/a.TestTable/zero",
		"failed", "example.com/tiny/b.TestPanic",
		"passed", "example.com/tiny/b.TestPrintsJSON",
		"error", "example.com/tiny/broken [package]",
	)},
	{"go-json", "go-json-go119-build-failure.json", r(
		"passed", "example.com/tiny/a.TestAdd",
		"skipped", "example.com/tiny/a.TestSkip",
		"failed", "example.com/tiny/a.TestTable",
		"failed", "example.com/tiny/a.TestTable/fails",
		"passed", "example.com/tiny/a.TestTable/one_two",
		"passed", "example.com/tiny/a.TestTable/zero",
		"failed", "example.com/tiny/b.TestPanic",
		"passed", "example.com/tiny/b.TestPrintsJSON",
		"error", "example.com/tiny/broken [package]",
	)},
	{"go-json", "go-json-timeout.json", r(
		"passed", "example.com/tiny/slow.TestQuick",
		"error", "example.com/tiny/slow.TestSlow",
	)},
	{"cargo", "cargo-mixed.txt", r(
		"passed", "integration::it_adds",
		"passed", "integration::prints",
		"passed", "tinycrate::src/lib.rs - add (line 3)",
		"failed", "tinycrate::src/lib.rs - sub (line 10)",
		"passed", "tinycrate::tests::it_adds",
		"failed", "tinycrate::tests::it_fails",
		"skipped", "tinycrate::tests::needs_net",
		"passed", "tinycrate::tests::nested::deep",
		"passed", "tinycrate::tests::panics",
		"skipped", "tinycrate::tests::slow_one",
	)},
	{"cargo", "cargo-color.txt", r(
		"passed", "tinycrate::tests::it_adds",
		"failed", "tinycrate::tests::it_fails",
		"skipped", "tinycrate::tests::needs_net",
		"passed", "tinycrate::tests::nested::deep",
		"passed", "tinycrate::tests::panics",
		"skipped", "tinycrate::tests::slow_one",
	)},
	{"cargo", "cargo-compile-error.txt", r("error", "tinycrate [build]")},
	// lolbench-cargo-test at the verso sample's base commit with the PR's
	// tests (cargo 1.63 in the offline Rust image): one cargo run per
	// target; the three targets that call what the PR adds do not compile.
	{"cargo", "cargo-lolbench-cargo-test.txt", r(
		"passed", "parse::orders_numerically",
		"passed", "parse::parses_and_prints",
		"passed", "parse::refuses_bad_versions",
		"error", "verso [build]",
		"passed", "verso::version::tests::bumps_reset_lower_parts",
		"passed", "verso::version::tests::numbers_refuse_leading_zeros",
		"passed", "verso::version::tests::splits_at_dots",
	)},
	{"cargo", "cargo-abort-serial.txt", r("error", "integration::aborts")},
	{"cargo", "cargo-abort-parallel.txt", r("error", "integration [binary]")},
	{"pytest-ra", "pytest-ra-mixed.txt", r(
		"error", "tests/test_broken.py",
		"skipped", "tests/test_x.py:16",
		"skipped", "tests/test_x.py:21",
		"passed", "tests/test_x.py::TestK::test_m",
		"passed", "tests/test_x.py::test_a",
		"failed", "tests/test_x.py::test_b",
		"error", "tests/test_x.py::test_c",
		"passed", "tests/test_x.py::test_param[1.5]",
		"passed", "tests/test_x.py::test_param[[odd]]",
		"passed", "tests/test_x.py::test_param[a b]",
		"failed", "tests/test_x.py::test_param[x - y]",
		"skipped", "tests/test_x.py::test_xfail",
		"passed", "tests/test_x.py::test_xpass",
	)},
	{"pytest-ra", "pytest-ra-color.txt", r(
		"skipped", "tests/test_x.py:16",
		"skipped", "tests/test_x.py:21",
		"passed", "tests/test_x.py::TestK::test_m",
		"passed", "tests/test_x.py::test_a",
		"failed", "tests/test_x.py::test_b",
		"error", "tests/test_x.py::test_c",
		"passed", "tests/test_x.py::test_param[1.5]",
		"passed", "tests/test_x.py::test_param[[odd]]",
		"passed", "tests/test_x.py::test_param[a b]",
		"failed", "tests/test_x.py::test_param[x - y]",
		"skipped", "tests/test_x.py::test_xfail",
		"passed", "tests/test_x.py::test_xpass",
	)},
	{"pytest-ra", "pytest-ra-collection-error.txt", r("error", "tests/test_broken.py")},
}

func TestParseFiles(t *testing.T) {
	for _, tc := range fileCases {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("testdata", tc.file)
			got, err := ParseFile(tc.format, path)
			if err != nil {
				t.Fatalf("ParseFile: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ParseFile(%s) =\n%s\nwant\n%s", tc.file, show(got), show(tc.want))
			}
			// Parse over bytes and over a one-byte-at-a-time stream agree.
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			p, _ := Lookup(tc.format)
			if got, err := p.Parse(data); err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Parse = %s, %v", show(got), err)
			}
			if got, err := p.ParseReader(iotest.OneByteReader(strings.NewReader(string(data)))); err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ParseReader(one byte at a time) = %s, %v", show(got), err)
			}
		})
	}
}

// TestRegistry checks the registry the way rules/all.go is checked: unique
// names, Lookup finds each, and each format has a real log in testdata with
// an expected result list above.
func TestRegistry(t *testing.T) {
	want := []string{"junit", "go-json", "cargo", "pytest-ra"}
	if got := Formats(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Formats() = %v, want %v", got, want)
	}
	seen := map[string]bool{}
	for _, p := range Registry {
		if seen[p.Name()] {
			t.Errorf("format %q registered twice", p.Name())
		}
		seen[p.Name()] = true
		got, err := Lookup(p.Name())
		if err != nil || got.Name() != p.Name() {
			t.Errorf("Lookup(%q) = %v, %v", p.Name(), got, err)
		}
		covered := false
		for _, tc := range fileCases {
			if tc.format == p.Name() && strings.HasPrefix(tc.file, p.Name()+"-") {
				covered = true
			}
		}
		if !covered {
			t.Errorf("format %q has no testdata/%s-* case in fileCases", p.Name(), p.Name())
		}
	}
	if _, err := Lookup("tap"); err == nil || !strings.Contains(err.Error(), `unknown test-result format "tap" (known: junit, go-json, cargo, pytest-ra)`) {
		t.Errorf("Lookup(tap) error = %v", err)
	}
	if _, err := ParseFile("junit", filepath.Join("testdata", "no-such-file.xml")); err == nil || !strings.Contains(err.Error(), "parse testdata/no-such-file.xml: ") {
		t.Errorf("ParseFile(missing) error = %v", err)
	}
}

func show(rs []Result) string {
	var b strings.Builder
	for _, r := range rs {
		b.WriteString("  " + string(r.Status) + " " + r.Name + "\n")
	}
	if len(rs) == 0 {
		b.WriteString("  (none)\n")
	}
	return b.String()
}
