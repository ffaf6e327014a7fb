package testaudit

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// tinykvEP is the sample proposal the audit cases are judged against: it
// names SetWithTTL, TTL, NoExpiry, Missing, ErrInvalidTTL, Sweep,
// StartSweeper, SETEX and the Python client's set and ttl, but never
// NewWithClock, expiresAt or expired.
func tinykvEP(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "data", "samples", "tinykv", "ep.md"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// goHelper is the other test file of package store: its newClock is a
// test helper, not product code.
const goHelper = `package store

import "time"

type clock struct{ t time.Time }

func newClock() *clock { return &clock{t: time.Unix(1767225600, 0)} }

func (c *clock) now() time.Time { return c.t }
`

// javaEP is the proposal of the Java cases: it names setWithTTL and ttl,
// not expireAt.
const javaEP = "The store gains `setWithTTL(key, value, ttl)`; `ttl(key)` returns the remaining time to live.\n"

// javaStore is the product side of the Java cases.
const javaStore = `package org.tinykv;

import java.time.Duration;
import java.util.Map;

public class Store {
    private final Map<String, Entry> data = new java.util.HashMap<>();
    int sweeps;
    public static final long NO_EXPIRY = -1;

    public Store() {}
    Store(Clock clock) {}

    public void setWithTTL(String key, String value, Duration ttl) {}
    public String get(String key) { return null; }
    public long ttl(String key) { return 0; }
    public int expireAt(String key, long when) { return 0; }
    int count() { return data.size(); }
    private boolean expired(Entry e) { return false; }
}

class Entry {
    String value;
    long expiresAt;
}

interface Clock {
    long now();
}
`

func TestAudit(t *testing.T) {
	ep := tinykvEP(t)
	goNew := []string{"NewWithClock", "SetWithTTL", "TTL", "Sweep", "StartSweeper", "ErrInvalidTTL", "NoExpiry", "Missing", "expiresAt", "expired"}
	cases := []struct {
		name     string
		lang     string
		path     string
		src      string
		helpers  []File
		product  []File
		ep       string // the EP text when not tinykv's
		newSyms  []string
		want     []Finding
		wantText string
	}{
		{
			name: "go: calls an unexported helper and reads unexported state",
			lang: "Go", path: "store/aug_test.go", newSyms: goNew,
			src: `package store

import (
	"testing"
	"time"
)

func TestExpiredKeyIsHidden(t *testing.T) {
	s := New()
	if err := s.SetWithTTL("a", "1", time.Second); err != nil {
		t.Fatal(err)
	}
	v := s.data["a"]
	if !v.expired(time.Now().Add(2 * time.Second)) {
		t.Fatal("not expired")
	}
}
`,
			want: []Finding{
				{Rule: Internal, Symbol: "data", Use: UseReference, Line: 13, Message: "uses the unexported `data`"},
				{Rule: Internal, Symbol: "expired", Use: UseCall, Line: 14, Message: "calls the unexported `expired`"},
			},
			wantText: "overly narrow test: line 13: uses the unexported `data`; line 14: calls the unexported `expired`",
		},
		{
			name: "go: constructs an unexported type and asserts on an unexported field",
			lang: "Go", path: "store/aug_test.go", newSyms: goNew,
			src: `package store

import "testing"

func TestValue(t *testing.T) {
	v := value{data: "x"}
	if v.expiresAt.IsZero() != true {
		t.Fatal("has expiry")
	}
}
`,
			want: []Finding{
				{Rule: Internal, Symbol: "data", Use: UseConstruct, Line: 6, Message: "constructs the unexported `data`"},
				{Rule: Internal, Symbol: "value", Use: UseConstruct, Line: 6, Message: "constructs the unexported `value`"},
				{Rule: Internal, Symbol: "expiresAt", Use: UseAssert, Line: 7, Message: "asserts on the unexported `expiresAt`"},
			},
		},
		{
			name: "go: an undocumented new symbol",
			lang: "Go", path: "store/aug_test.go", newSyms: goNew,
			helpers: []File{{Path: "store/store_test.go", Source: []byte(goHelper)}},
			src: `package store

import (
	"testing"
	"time"
)

func TestTTLCountsDown(t *testing.T) {
	c := newClock()
	s := NewWithClock(c.now)
	s.SetWithTTL("a", "1", 10*time.Second)
	c.t = c.t.Add(4 * time.Second)
	if got := s.TTL("a"); got != 6*time.Second {
		t.Fatalf("TTL = %v", got)
	}
}
`,
			want: []Finding{
				{Rule: Undocumented, Symbol: "NewWithClock", Use: UseCall, Line: 10, Message: "calls `NewWithClock`, which the PR introduces and the EP never names"},
			},
		},
		{
			name: "go: public entry points, EP names, helpers and table fields pass",
			lang: "Go", path: "store/aug_test.go", newSyms: goNew,
			helpers: []File{{Path: "store/store_test.go", Source: []byte(goHelper)}},
			src: `package store

import (
	"errors"
	"testing"
	"time"
)

type pair struct{ key, val string }

func TestSetWithTTLRejectsNonPositive(t *testing.T) {
	tests := []struct {
		name string
		ttl  time.Duration
	}{{name: "zero", ttl: 0}, {name: "negative", ttl: -time.Second}}
	for _, tc := range tests {
		s := New()
		p := pair{key: "a", val: "1"}
		if err := s.SetWithTTL(p.key, p.val, tc.ttl); !errors.Is(err, ErrInvalidTTL) {
			t.Fatalf("%s: err = %v", tc.name, err)
		}
		if _, ok := s.Get("a"); ok || s.TTL("a") != Missing {
			t.Fatalf("%s: the store changed", tc.name)
		}
		_ = newClock()
		m := map[string]int{p.key: len(tc.name)}
		_ = m
	}
}
`,
			want: []Finding{},
		},
		{
			name: "go: an external test package sees only exported names",
			lang: "Go", path: "store/aug_test.go", newSyms: goNew,
			src: `package store_test

import (
	"testing"
	"time"

	"example.com/tinykv/store"
)

func TestSweep(t *testing.T) {
	s := store.New()
	s.SetWithTTL("a", "1", time.Nanosecond)
	time.Sleep(time.Millisecond)
	if n := s.Sweep(); n != 1 {
		t.Fatalf("Sweep = %d", n)
	}
}
`,
			want: []Finding{},
		},
		{
			name: "go: a test that does not parse",
			lang: "Go", path: "store/aug_test.go",
			src:  "package store\n\nfunc TestX(t *testing.T) {\n\tif {\n}\n",
			want: []Finding{{Rule: Syntax, Line: 4, Message: "the test does not parse; write syntactically valid Go"}},
		},
		{
			name: "python: calls a private method and imports from a private module",
			lang: "Python", path: "clients/python/tests/test_aug.py",
			newSyms: []string{"ttl"},
			src: `import pytest
from tinykv._wire import encode
from tinykv.client import Client, ProtocolError


class FakeSock:
    def makefile(self, *args, **kwargs):
        return self


def test_setex_is_sent():
    c = Client(sock=FakeSock())
    reply = c._command("SETEX", "a", 5, "1")
    assert reply == "OK"
`,
			want: []Finding{
				{Rule: Internal, Symbol: "tinykv._wire", Use: UseImport, Line: 2, Message: "imports the private module `tinykv._wire`"},
				{Rule: Internal, Symbol: "_command", Use: UseCall, Line: 13, Message: "calls the private `_command`"},
			},
		},
		{
			name: "python: asserts on private state, through getattr too, and an undocumented new method",
			lang: "Python", path: "clients/python/tests/test_aug.py",
			newSyms: []string{"ttl", "expire_at"},
			src: `from tinykv.client import Client


class TestTTL:
    def setup_method(self):
        self._sock = object()

    def test_ttl(self):
        c = Client(sock=self._sock)
        c.expire_at("a", 100)
        assert c._file is not None
        assert getattr(c, "_sock") is self._sock
        assert c.ttl("a") == 5
`,
			want: []Finding{
				{Rule: Undocumented, Symbol: "expire_at", Use: UseCall, Line: 10, Message: "calls `expire_at`, which the PR introduces and the EP never names"},
				{Rule: Internal, Symbol: "_file", Use: UseAssert, Line: 11, Message: "asserts on the private `_file`"},
				{Rule: Internal, Symbol: "_sock", Use: UseAssert, Line: 12, Message: "asserts on the private `_sock`"},
			},
		},
		{
			name: "python: public API, dunder names and the test's own underscore helpers pass",
			lang: "Python", path: "clients/python/tests/test_aug.py",
			newSyms: []string{"ttl"},
			src: `import socket
from tinykv.client import Client


def _pair():
    a, b = socket.socketpair()
    return a, b


def test_ttl_none_without_expiry():
    a, b = _pair()
    _, value = "x", "1"
    c = Client(sock=a)
    assert Client.__name__ == "Client"
    assert c.ttl("k") is None or True
`,
			want: []Finding{},
		},
		{
			name: "java: calls a package-private method, constructs a package-private class, reflection",
			lang: "Java", path: "src/test/java/org/tinykv/StoreAugTest.java",
			product: []File{{Path: "src/main/java/org/tinykv/Store.java", Source: []byte(javaStore)}},
			newSyms: []string{"setWithTTL", "ttl", "expireAt"}, ep: javaEP,
			src: `package org.tinykv;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class StoreAugTest {
    @Test
    void countsLiveKeys() throws Exception {
        Store s = new Store();
        s.setWithTTL("a", "1", Duration.ofSeconds(5));
        assertEquals(1, s.count());
        Entry e = new Entry();
        var f = Store.class.getDeclaredField("data");
        assertEquals(0, s.sweeps);
    }
}
`,
			want: []Finding{
				{Rule: Internal, Symbol: "count", Use: UseCall, Line: 13, Message: "calls the package-private `count`"},
				{Rule: Internal, Symbol: "Entry", Use: UseConstruct, Line: 14, Message: "constructs the package-private `Entry`"},
				{Rule: Internal, Symbol: "Entry", Use: UseReference, Line: 14, Message: "uses the package-private `Entry`"},
				{Rule: Internal, Symbol: "data", Use: UseReference, Line: 15, Message: "uses the private (through reflection) `data`"},
				{Rule: Internal, Symbol: "sweeps", Use: UseAssert, Line: 16, Message: "asserts on the package-private `sweeps`"},
			},
		},
		{
			name: "java: a package-private constructor and an undocumented new method",
			lang: "Java", path: "src/test/java/org/tinykv/StoreAugTest.java",
			product: []File{{Path: "src/main/java/org/tinykv/Store.java", Source: []byte(javaStore)},
				{Path: "src/main/java/org/tinykv/Sweeper.java", Source: []byte("package org.tinykv;\n\npublic class Sweeper {\n    Sweeper(Store s) {}\n    public int sweep() { return 0; }\n}\n")}},
			newSyms: []string{"setWithTTL", "ttl", "expireAt"}, ep: javaEP,
			src: `package org.tinykv;

import org.junit.jupiter.api.Test;

class StoreAugTest {
    @Test
    void expiresAt() {
        Store s = new Store(() -> 0L);
        s.expireAt("a", 10);
        new Sweeper(s).sweep();
    }
}
`,
			want: []Finding{
				{Rule: Undocumented, Symbol: "expireAt", Use: UseCall, Line: 9, Message: "calls `expireAt`, which the PR introduces and the EP never names"},
				{Rule: Internal, Symbol: "Sweeper", Use: UseConstruct, Line: 10, Message: "constructs the package-private constructor of `Sweeper`"},
			},
		},
		{
			name: "java: public API and library calls pass, whatever the product hides",
			lang: "Java", path: "src/test/java/org/tinykv/StoreAugTest.java",
			product: []File{{Path: "src/main/java/org/tinykv/Store.java", Source: []byte(javaStore)}},
			newSyms: []string{"setWithTTL", "ttl", "expireAt"}, ep: javaEP,
			src: `package org.tinykv;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StoreAugTest {
    private int count() { return 1; }

    @Test
    void ttlOfMissingKey() {
        Store s = new Store();
        List<String> keys = new ArrayList<>();
        keys.add("a");
        assert s.ttl("a") == -2;
        assert keys.size() == count();
        assert Store.NO_EXPIRY == -1;
    }
}
`,
			want: []Finding{},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			epText := ep
			if tc.ep != "" {
				epText = []byte(tc.ep)
			}
			rep, err := Audit(context.Background(), Input{Language: tc.lang, Test: File{Path: tc.path, Source: []byte(tc.src)},
				Helpers: tc.helpers, Product: tc.product, NewSymbols: tc.newSyms, EP: epText})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(rep.Findings, tc.want) {
				t.Errorf("findings:\n got %+v\nwant %+v", rep.Findings, tc.want)
			}
			if rep.OK() != (len(tc.want) == 0) {
				t.Errorf("OK = %v", rep.OK())
			}
			if tc.wantText != "" && rep.Reason() != tc.wantText {
				t.Errorf("Reason:\n got %q\nwant %q", rep.Reason(), tc.wantText)
			}
		})
	}
}

func TestAuditErrors(t *testing.T) {
	_, err := Audit(context.Background(), Input{Language: "Zig", Test: File{Path: "tests/a.zig", Source: []byte("fn main() void {}")}})
	if err == nil || err.Error() != `audit tests/a.zig: no test audit for this language "Zig"` {
		t.Errorf("err = %v", err)
	}
	big := strings.Repeat("// x\n", MaxSource/5+1)
	_, err = Audit(context.Background(), Input{Language: "Go", Test: File{Path: "a_test.go", Source: []byte(big)}})
	if err == nil || !strings.Contains(err.Error(), "audit a_test.go: ") || !strings.Contains(err.Error(), "more than the 1048576 the audit reads") {
		t.Errorf("err = %v", err)
	}
}

func TestTestFuncs(t *testing.T) {
	cases := []struct {
		lang, path, src string
		want            []string // Class.Name or Name
	}{
		{"Go", "a_test.go", "package a\nfunc TestA(t *testing.T) {}\nfunc Testb(t *testing.T) {}\nfunc Test(t *testing.T) {}\nfunc TestÄ(t *testing.T) {}\nfunc BenchmarkA(b *testing.B) {}\nfunc helper() {}\n",
			[]string{"TestA", "Test", "TestÄ"}},
		{"Python", "tests/test_a.py", "def test_a():\n    def test_inner(): pass\n\nclass TestK:\n    def test_m(self): pass\n    def helper(self): pass\n\nclass Other:\n    def test_no(self): pass\n\nclass Case(unittest.TestCase):\n    @mock.patch('x')\n    def test_c(self, m): pass\n",
			[]string{"test_a", "TestK.test_m", "Case.test_c"}},
		{"Java", "src/test/java/ATest.java", "class ATest {\n  @Test void a() {}\n  @org.junit.jupiter.params.ParameterizedTest void b(int x) {}\n  void c() {}\n}\nclass Old extends junit.framework.TestCase {\n  public void testD() {}\n  public void testE(int x) {}\n}\n",
			[]string{"ATest.a", "ATest.b", "Old.testD"}},
	}
	for _, tc := range cases {
		fs, err := TestFuncs(context.Background(), tc.lang, File{Path: tc.path, Source: []byte(tc.src)})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range fs {
			n := f.Name
			if f.Class != "" {
				n = f.Class + "." + n
			}
			got = append(got, n)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.lang, got, tc.want)
		}
	}
}

// TestFingerprint: layout, comments and the test's own name do not make
// two tests different; one changed token does.
func TestFingerprint(t *testing.T) {
	a := "package a\n\nfunc TestA(t *testing.T) {\n\tif f(1) != 2 {\n\t\tt.Fatal(\"x\")\n\t}\n}\n"
	b := "package a\n\n// TestB is TestA again.\nfunc TestB(t *testing.T) {\n  if f(1) != 2 { t.Fatal(\"x\") } // same\n}\n"
	c := "package a\n\nfunc TestC(t *testing.T) {\n\tif f(1) != 3 {\n\t\tt.Fatal(\"x\")\n\t}\n}\n"
	fp := func(src string) string {
		fs, err := TestFuncs(context.Background(), "Go", File{Path: "a_test.go", Source: []byte(src)})
		if err != nil || len(fs) != 1 {
			t.Fatalf("%v %v", fs, err)
		}
		return fs[0].Fingerprint
	}
	if fp(a) != fp(b) {
		t.Error("layout, comments or the name changed the fingerprint")
	}
	if fp(a) == fp(c) {
		t.Error("a changed constant kept the fingerprint")
	}
}

func TestNewSymbols(t *testing.T) {
	base := func(p string) []byte {
		b, err := os.ReadFile(filepath.Join("..", "..", "data", "samples", "tinykv", p))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	got, err := NewSymbols(context.Background(), "Go",
		File{Path: "store/store.go", Source: base("base/store/store.go")},
		File{Path: "store/store.go", Source: base("pr/store/store.go")})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"ErrInvalidTTL", "ExpiresAt", "Missing", "NewWithClock", "NoExpiry", "SetWithTTL", "TTL", "expired", "expiresAt", "now", "value"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Go: got %v, want %v", got, want)
	}
	got, err = NewSymbols(context.Background(), "Python",
		File{Path: "client.py", Source: base("base/clients/python/tinykv/client.py")},
		File{Path: "client.py", Source: base("pr/clients/python/tinykv/client.py")})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"ttl"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Python: got %v, want %v", got, want)
	}
}

func TestDeclarationsJava(t *testing.T) {
	ds, err := Declarations(context.Background(), "Java", File{Path: "Store.java", Source: []byte(javaStore)})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		got = append(got, d.Kind+" "+d.Class+"."+d.Name+" "+d.Visibility+" "+map[bool]string{true: "exported", false: "internal"}[d.Exported])
	}
	want := []string{
		"type .Store public exported",
		"field Store.data private internal",
		"field Store.sweeps package-private internal",
		"field Store.NO_EXPIRY public exported",
		"ctor Store.Store public exported",
		"ctor Store.Store package-private internal",
		"method Store.setWithTTL public exported",
		"method Store.get public exported",
		"method Store.ttl public exported",
		"method Store.expireAt public exported",
		"method Store.count package-private internal",
		"method Store.expired private internal",
		"type .Entry package-private internal",
		"field Entry.value package-private internal",
		"field Entry.expiresAt package-private internal",
		"type .Clock package-private internal",
		"method Clock.now public internal",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestHostileNesting: deep nesting is walked without recursion.
func TestHostileNesting(t *testing.T) {
	for _, lang := range []string{"Go", "Python", "Java", "JavaScript", "TypeScript"} {
		var src string
		switch lang {
		case "Go":
			src = "package a\nfunc TestA(t *testing.T) { _ = " + strings.Repeat("(", 20000) + "x" + strings.Repeat(")", 20000) + " }\n"
		case "Python":
			src = "def test_a():\n    x = " + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "\n"
		case "Java":
			src = "class A { @Test void a() { int x = " + strings.Repeat("(", 20000) + "1" + strings.Repeat(")", 20000) + "; } }\n"
		case "JavaScript", "TypeScript":
			src = strings.Repeat("describe('d', () => {", 5000) + "it('a', () => { x = " + strings.Repeat("(", 20000) + "1" + strings.Repeat(")", 20000) + "; });" + strings.Repeat("});", 5000) + "\n"
		}
		if _, err := Audit(context.Background(), Input{Language: lang, Test: File{Path: "x", Source: []byte(src)}}); err != nil {
			t.Errorf("%s: %v", lang, err)
		}
	}
}

func FuzzAudit(f *testing.F) {
	f.Add(uint8(0), "package a\nfunc TestA(t *testing.T) { s.x(); v := value{k: 1}; _ = v }\n")
	f.Add(uint8(1), "from a._b import c\ndef test_a(): assert c._d\n")
	f.Add(uint8(2), "class A { @Test void a() { new B().c(); X.class.getDeclaredField(\"f\"); } }\n")
	f.Add(uint8(3), "mod tests {\n    use super::*;\n    #[test]\n    fn t() { assert_eq!(inner(1).x, 2); }\n}\n")
	f.Add(uint8(4), "const { a } = require('./_b');\ndescribe('d', () => { it('t', () => { assert.ok(new a.B()._c['_d']); }); });\nmodule.exports = { a };\n")
	f.Add(uint8(5), "import { a } from './b';\nclass K { private constructor(readonly x: number, private y: string) {} #z = 1; }\ntest('t', () => { expect(new K(1, '').y).toBe(1); });\n")
	f.Add(uint8(6), "#include \"a.c\"\nstatic int h(void) { return 0; }\nstatic void test_a(void **s) { assert_int_equal(h(), x.c); }\nint main(void) { const struct CMUnitTest t[] = { cmocka_unit_test(test_a) }; }\n")
	f.Add(uint8(7), "#define private public\nnamespace { int d; }\nclass C { int x; public: int c(); };\nTEST(S, N) { C c; EXPECT_EQ(c.x, d); }\n")
	f.Fuzz(func(t *testing.T, which uint8, src string) {
		lang := Languages[int(which)%len(Languages)].Name
		rep, err := Audit(context.Background(), Input{Language: lang, Test: File{Path: "x", Source: []byte(src)},
			Helpers: []File{{Path: "h", Source: []byte(src)}}, Product: []File{{Path: "p", Source: []byte(src)}},
			NewSymbols: []string{"x", "c"}, EP: []byte(src)})
		if err != nil {
			t.Fatal(err) // only oversized input may fail, and the fuzzer's inputs are small
		}
		for _, f := range rep.Findings {
			if f.Line < 1 || f.Message == "" {
				t.Fatalf("finding %+v", f)
			}
		}
		if _, err := TestFuncs(context.Background(), lang, File{Path: "x", Source: []byte(src)}); err != nil && !strings.Contains(err.Error(), "syntax error") {
			t.Fatal(err)
		}
	})
}

// BenchmarkAudit measures one audit of a typical generated test per
// language, product and helper files included.
func BenchmarkAudit(b *testing.B) {
	ep, err := os.ReadFile(filepath.Join("..", "..", "data", "samples", "tinykv", "ep.md"))
	if err != nil {
		b.Fatal(err)
	}
	inputs := map[string]Input{
		"Go": {Language: "Go", Test: File{Path: "store/a_test.go", Source: []byte("package store\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n\nfunc TestA(t *testing.T) {\n\ts := New()\n\tif err := s.SetWithTTL(\"a\", \"1\", time.Second); err != nil {\n\t\tt.Fatal(err)\n\t}\n\tif s.TTL(\"a\") <= 0 || s.data == nil {\n\t\tt.Fatal(\"x\")\n\t}\n}\n")},
			Helpers: []File{{Path: "store/store_test.go", Source: []byte(goHelper)}}},
		"Python": {Language: "Python", Test: File{Path: "tests/test_a.py", Source: []byte("from tinykv.client import Client\n\n\ndef test_ttl():\n    c = Client(sock=None)\n    assert c.ttl(\"a\") is None\n    assert c._file\n")}},
		"Java": {Language: "Java", Test: File{Path: "src/test/java/org/tinykv/ATest.java", Source: []byte("package org.tinykv;\n\nclass ATest {\n  @Test void a() {\n    Store s = new Store();\n    assert s.ttl(\"a\") == -2 && s.count() == 0;\n  }\n}\n")},
			Product: []File{{Path: "src/main/java/org/tinykv/Store.java", Source: []byte(javaStore)}}},
	}
	for _, lang := range []string{"Go", "Python", "Java"} {
		in := inputs[lang]
		in.EP, in.NewSymbols = ep, []string{"SetWithTTL", "TTL", "ttl", "NewWithClock"}
		b.Run(lang, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := Audit(context.Background(), in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
