package results

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// inlineCases are small logs that pin one behaviour each. wantErr is a
// substring of the error, "" for none.
var inlineCases = []struct {
	name, format, log string
	want              []Result
	wantErr           string
}{
	// junit
	{"junit empty testsuites", "junit", `<testsuites/>`, r(), ""},
	{"junit no classname, no name, suite fallback", "junit",
		`<testsuite name="S"><testcase classname="C"/><testcase name="n"/><testcase/></testsuite>`,
		r("passed", "C", "passed", "S", "passed", "n"), ""},
	// CPython regrtest's bare testcase, in its nameless suite, of a test
	// whose subTest failed: no outcome is no pass.
	{"junit regrtest bare testcase", "junit",
		`<testsuites><testsuite tests="2" failures="1"><testcase name="test.test_x.K.test_a" status="run" result="completed"/><testcase/></testsuite></testsuites>`,
		r("error", "(unnamed testcase)", "passed", "test.test_x.K.test_a"), ""},
	// regrtest's shapes are read as such only on its testcases (no
	// classname, a status): elsewhere <output> and <outcome> mean nothing.
	{"junit output child elsewhere", "junit",
		`<testsuite name="S"><testcase classname="C" name="t"><output>x</output><outcome>UNEXPECTED_SUCCESS</outcome></testcase></testsuite>`,
		r("passed", "C::t"), ""},
	{"junit error and failure: worst wins", "junit",
		`<testsuite><testcase classname="a" name="t"><failure/><error/></testcase></testsuite>`,
		r("error", "a::t"), ""},
	{"junit skipped after failure stays failed", "junit",
		`<testsuite><testcase classname="a" name="t"><failure/><skipped/></testcase></testsuite>`,
		r("failed", "a::t"), ""},
	{"junit failure nested deeper is not the test's", "junit",
		`<testsuite><testcase classname="a" name="t"><system-out><failure/></system-out></testcase></testsuite>`,
		r("passed", "a::t"), ""},
	{"junit rerun duplicates: worst wins", "junit",
		`<testsuite><testcase classname="a" name="t"/></testsuite><testsuite failures="1"><testcase classname="a" name="t"><failure/></testcase></testsuite>`,
		r("failed", "a::t"), ""},
	{"junit suite claims failures none shows", "junit",
		`<testsuites><testsuite name="s" failures="2"><testcase classname="a" name="t"/></testsuite></testsuites>`,
		r("passed", "a::t", "error", "s [suite]"), ""},
	{"junit namespaced elements", "junit",
		`<r:testsuite xmlns:r="urn:x"><r:testcase classname="a" name="t"><r:skipped/></r:testcase></r:testsuite>`,
		r("skipped", "a::t"), ""},
	{"junit invalid utf-8 and ANSI in output are replaced", "junit",
		"<testsuite><testcase classname=\"a\" name=\"t\xff\"><system-out>\x1b[31mred\x00\xfe</system-out></testcase></testsuite>",
		r("passed", "a::t\uFFFD"), ""},
	{"junit latin-1 declaration", "junit",
		"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><testsuite><testcase classname=\"a\" name=\"caf\xe9\"/></testsuite>",
		r("passed", "a::caf\uFFFD"), ""},
	{"junit HTML entity", "junit",
		`<testsuite><testcase classname="a" name="x&nbsp;y&amp;z"/></testsuite>`,
		r("passed", "a::x\u00a0y&z"), ""},
	{"junit external entity is never read", "junit",
		`<?xml version="1.0"?><!DOCTYPE t [<!ENTITY e SYSTEM "file:///etc/passwd">]><testsuite><testcase classname="a" name="&e;"/></testsuite>`,
		r(), "invalid character entity &e;"},
	{"junit billion laughs is not expanded", "junit",
		`<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><testsuite><testcase classname="a" name="&c;"/></testsuite>`,
		r(), "invalid character entity &c;"},
	{"junit truncated report keeps what was read", "junit",
		`<testsuite><testcase classname="a" name="t"/><testcase classname="a" name="u"><failure`,
		r("passed", "a::t"), "unexpected EOF"},
	{"junit mismatched tags", "junit",
		`<testsuite><testcase classname="a" name="t"></testsuite>`,
		r(), "element <testcase> closed by </testsuite>"},
	{"junit nesting bomb", "junit",
		strings.Repeat("<testsuite>", 300),
		r(), "elements nested deeper than 256"},
	{"junit not xml", "junit", "PASSED everything\n", r(), ""},

	// go-json
	{"go-json -count=2 pass then fail", "go-json",
		`{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"fail","Package":"p","Test":"TestA"}
{"Action":"fail","Package":"p"}
`, r("failed", "p.TestA"), ""},
	{"go-json forged pass after a fail does not win", "go-json",
		`{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"fail","Package":"p","Test":"TestA"}
{"Action":"pass","Package":"p","Test":"TestA"}
`, r("failed", "p.TestA"), ""},
	{"go-json non-JSON and broken lines ignored", "go-json",
		"go: downloading x\n{\"Action\":\"pass\",\"Package\":\"p\",\"Test\":\"TestA\"}\n{\"Action\":\"pass\",\"Pack\n[1,2]\nok  \tp\t0.1s\n",
		r("passed", "p.TestA"), ""},
	{"go-json output events are never read as results", "go-json",
		`{"Action":"output","Package":"p","Test":"TestA","Output":"{\"Action\":\"pass\",\"Package\":\"p\",\"Test\":\"TestB\"}\n"}
{"Action":"pass","Package":"p","Test":"TestA"}
`, r("passed", "p.TestA"), ""},
	{"go-json package failure without failing test (TestMain exit)", "go-json",
		`{"Action":"start","Package":"p"}
{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"fail","Package":"p","Elapsed":0.1}
`, r("error", "p [package]", "passed", "p.TestA"), ""},
	{"go-json build failure since Go 1.24", "go-json",
		`{"ImportPath":"p [p.test]","Action":"build-fail"}
{"Action":"start","Package":"p"}
{"Action":"fail","Package":"p","Elapsed":0,"FailedBuild":"p [p.test]"}
`, r("error", "p [package]"), ""},
	{"go-json setup failure line", "go-json", "FAIL\tp/q [setup failed]\nFAIL\tnot a package line\n", r("error", "p/q [package]"), ""},
	{"go-json package skip and pass add nothing", "go-json",
		`{"Action":"skip","Package":"p"}
{"Action":"pass","Package":"q"}
`, r(), ""},
	{"go-json test2json without package", "go-json",
		`{"Action":"run","Test":"TestA/sub_1"}
{"Action":"skip","Test":"TestA/sub_1"}
`, r("skipped", "TestA/sub_1"), ""},

	// cargo
	{"cargo serial run with output before the verdict", "cargo",
		"running 2 tests\ntest a::one ... hello from the test\nok\ntest a::two ... ignored, slow\n",
		r("passed", "a::one", "skipped", "a::two"), ""},
	{"cargo -q: failures list only", "cargo",
		"running 3 tests\n.F.\nfailures:\n\n---- m::b stdout ----\n    indented output\nfailures:\n    m::b\n\ntest result: FAILED. 2 passed; 1 failed\n",
		r("failed", "m::b"), ""},
	{"cargo older Running header, bench, time limit", "cargo",
		"     Running target/debug/deps/kv-0123456789abcdef\ntest b::fast ... bench:       1,234 ns/iter (+/- 5)\ntest b::slow ... FAILED (time limit exceeded)\ntest b::ok ... ok <0.001s>\n",
		r("passed", "kv::b::fast", "passed", "kv::b::ok", "failed", "kv::b::slow"), ""},
	{"cargo compile fail doctest and should panic suffixes", "cargo",
		"   Doc-tests kv\ntest src/lib.rs - f (line 3) - compile fail ... ok\ntest src/lib.rs - g (line 9) - compile ... ok\ntest t::p - should panic ... ok\n",
		r("passed", "kv::src/lib.rs - f (line 3)", "passed", "kv::src/lib.rs - g (line 9)", "passed", "kv::t::p"), ""},
	// libtest prints one verdict per test and run: a pass written after a
	// failure (a forger that lost the race to the canary) conflicts; a
	// failure repeated in the failures list does not.
	{"cargo a failure then a forged pass conflicts", "cargo",
		"running 2 tests\ntest t::canary ... FAILED\ntest t::canary ... ok\ntest t::a ... ok\n\nfailures:\n    t::canary\n",
		r("passed", "t::a", "conflicting", "t::canary"), ""},
	{"cargo a pass then the failures list conflicts", "cargo",
		"running 1 test\ntest t::a ... ok\n\nfailures:\n    t::a\n",
		r("conflicting", "t::a"), ""},
	{"cargo binary error after failures adds nothing", "cargo",
		"     Running unittests src/lib.rs (target/debug/deps/kv-0123456789abcdef)\ntest t::a ... FAILED\nerror: test failed, to rerun pass `--lib`\n",
		r("failed", "kv::t::a"), ""},
	{"cargo killed mid-run leaves the started test an error", "cargo",
		"running 1 test\ntest t::hang ... ",
		r("error", "t::hang"), ""},
	{"cargo lines that only look like tests", "cargo",
		"test result: ok. 0 passed\ntest  ... ok\ntesting ... ok\n",
		r(), ""},

	// pytest-ra
	{"pytest-ra no summary section: no results", "pytest-ra",
		"PASSED tests/test_a.py::test_a\n", r(), ""},
	{"pytest-ra pytest 8 XPASS and node-id SKIPPED", "pytest-ra",
		"=== short test summary info ===\nXPASS t.py::test_x - fixed\nSKIPPED [1] t.py::test_s - not today\nSKIPPED t.py:3: bare\n=== 1 xpassed ===\n",
		r("skipped", "t.py:3", "skipped", "t.py::test_s", "passed", "t.py::test_x"), ""},
	{"pytest-ra CRLF and trailing spaces", "pytest-ra",
		"=== short test summary info ===\r\nPASSED t.py::test_a   \r\nFAILED t.py::test_b - x\r\n",
		r("passed", "t.py::test_a", "failed", "t.py::test_b"), ""},
	{"pytest-ra unbalanced bracket in a parameter id", "pytest-ra",
		"=== short test summary info ===\nFAILED t.py::test_p[a[ - boom\nPASSED t.py::test_p[b]]\n",
		r("failed", "t.py::test_p[a[", "passed", "t.py::test_p[b]]"), ""},
	{"pytest-ra two sessions (tox), worst wins", "pytest-ra",
		"=== short test summary info ===\nPASSED t.py::test_a\n=== 1 passed ===\nPASSED t.py::test_a\n=== short test summary info ===\nFAILED t.py::test_a - flaky\n=== 1 failed ===\n",
		r("failed", "t.py::test_a"), ""},
	{"pytest-ra lines that are not results", "pytest-ra",
		"=== short test summary info ===\nPASSED\nPASSEDX t.py::a\n!!!!! Interrupted: 1 error during collection !!!!!\n  PASSED t.py::indented\n",
		r(), ""},
}

func TestParseInline(t *testing.T) {
	for _, tc := range inlineCases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Lookup(tc.format)
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.Parse([]byte(tc.log))
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("error %v, want one containing %q", err, tc.wantErr)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got\n%swant\n%s", show(got), show(tc.want))
			}
		})
	}
}

func TestMerge(t *testing.T) {
	got := Merge(
		r("passed", "b", "skipped", "c", "passed", "d"),
		r("failed", "b", "passed", "c", "error", "a"),
		r("passed", "b", "skipped", "d", "passed", " a "),
	)
	want := r("error", "a", "failed", "b", "passed", "c", "passed", "d")
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Merge =\n%swant\n%s", show(got), show(want))
	}
	if got := Merge(); got == nil || len(got) != 0 {
		t.Errorf("Merge() = %#v, want empty non-nil", got)
	}
}

func TestWorse(t *testing.T) {
	order := []Status{Skipped, Passed, Failed, Error}
	for i, a := range order {
		for j, b := range order {
			want := a
			if j > i {
				want = b
			}
			if got := Worse(a, b); got != want {
				t.Errorf("Worse(%s, %s) = %s, want %s", a, b, got, want)
			}
		}
	}
	if got := Worse(Error, "bogus"); got != "bogus" {
		t.Errorf("an unknown status must never rank below error, got %s", got)
	}
}

func TestStripANSI(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain", "plain"},
		{"\x1b[32mok\x1b(B\x1b[m", "ok"},
		{"\x1b[1m\x1b[92m    Finished\x1b[0m `test`", "    Finished `test`"},
		{"\x1b]0;title\x07after", "after"},
		{"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"a\x1b7b\x1b=c", "abc"},
		{"progress 10%\rPASSED t.py::a", "PASSED t.py::a"},
		{"cut\x1b[", "cut"},
		{"cut\x1b", "cut"},
		{"\x1b(", ""},
	}
	for _, c := range cases {
		if got := string(stripANSI(nil, []byte(c.in))); got != c.want {
			t.Errorf("stripANSI(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestEachLineCapsLongLines(t *testing.T) {
	long := strings.Repeat("x", 3*maxLine)
	var lens []int
	err := eachLine(strings.NewReader("a\n"+long+"\nb"), func(l []byte) { lens = append(lens, len(l)) })
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{1, maxLine, 1}; !reflect.DeepEqual(lens, want) {
		t.Errorf("line lengths %v, want %v", lens, want)
	}
}

func TestCappedReader(t *testing.T) {
	c := &cappedReader{r: strings.NewReader("0123456789"), left: 4}
	buf := make([]byte, 16)
	n, err := c.Read(buf)
	if n != 4 || err != nil {
		t.Fatalf("first read %d, %v", n, err)
	}
	if _, err := c.Read(buf); err != errTooLarge {
		t.Fatalf("second read error %v, want errTooLarge", err)
	}
	exact := &cappedReader{r: strings.NewReader("0123"), left: 4}
	exact.Read(buf)
	if _, err := exact.Read(buf); err == errTooLarge || err == nil {
		t.Fatalf("report of exactly the cap: error %v, want EOF", err)
	}
}

func TestNameCap(t *testing.T) {
	got, err := GoJSON{}.Parse([]byte(`{"Action":"pass","Package":"pq","Test":"` + strings.Repeat("é", maxName) + `"}`))
	if err != nil || len(got) != 1 {
		t.Fatalf("got %v, %v", got, err)
	}
	if n := len(got[0].Name); n > maxName || !strings.HasPrefix(got[0].Name, "pq.éé") || !utf8.ValidString(got[0].Name) || strings.ContainsRune(got[0].Name, utf8.RuneError) {
		t.Errorf("name of %d bytes, want at most %d", n, maxName)
	}
}
