package testaudit

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// semkitProduct is the semkit sample's headers and sources after its PR.
func semkitProduct(t *testing.T) []File {
	t.Helper()
	var out []File
	for _, f := range []string{"include/semkit/version.h", "include/semkit/range.h", "src/version.cpp", "src/range.cpp"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "data", "samples", "semkit", "pr", filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, File{Path: f, Source: b})
	}
	return out
}

// findings audits src and returns its findings as strings.
func findings(t *testing.T, in Input) []string {
	t.Helper()
	rep, err := Audit(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, f := range rep.Findings {
		got = append(got, f.String())
	}
	return got
}

// TestCppAuditSemkit: on the C++ sample, a GoogleTest test through the
// headers' API passes; one that reaches the anonymous namespace of a
// source file, by including that file, is narrow; a PR name the EP never
// spells is undocumented.
func TestCppAuditSemkit(t *testing.T) {
	ep, err := os.ReadFile(filepath.Join("..", "..", "data", "samples", "semkit", "ep.md"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, src string
		want      []string
	}{
		{"public API", `#include <gtest/gtest.h>
#include "semkit/range.h"

TEST(Range, Caret) {
  semkit::Version v = semkit::parse("1.2.3-rc.1");
  EXPECT_TRUE(semkit::satisfies(v, "<1.2.3"));
  EXPECT_EQ(semkit::bump(v, semkit::Part::Patch).pre, "");
  EXPECT_LT(semkit::compare(v, semkit::parse("1.2.3")), 0);
}
`, []string{}},
		{"anonymous namespace", `#include <gtest/gtest.h>
#include "../src/version.cpp"
#include "../src/range.cpp"

namespace semkit {
TEST(Internals, Pre) {
  EXPECT_LT(compare_pre("alpha", "beta"), 0);
  std::size_t pos = 0;
  EXPECT_EQ(read_number("12", pos), 12);
  EXPECT_TRUE(meets(parse("1.0.0"), ">=1.0.0"));
}
}
`, []string{
			"line 2: imports the source file (included to reach its internals) `../src/version.cpp`",
			"line 3: imports the source file (included to reach its internals) `../src/range.cpp`",
			"line 7: calls the anonymous-namespace `compare_pre`",
			"line 9: calls the anonymous-namespace `read_number`",
			"line 10: calls the anonymous-namespace `meets`",
		}},
		{"undocumented", `#include <gtest/gtest.h>
#include "semkit/version.h"

TEST(Version, Library) { EXPECT_STREQ(semkit::library_version(), "1.1.0"); }
`, []string{"line 4: calls `library_version`, which the PR introduces and the EP never names"}},
	}
	for _, c := range cases {
		got := findings(t, Input{Language: "C++", Test: File{Path: "tests/gen_test.cpp", Source: []byte(c.src)},
			Product: semkitProduct(t), NewSymbols: []string{"satisfies", "bump", "Part", "compare_pre", "meets", "library_version"}, EP: []byte(strings.ReplaceAll(string(ep), "library_version", "the library's version"))})
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: findings %q, want %q", c.name, got, c.want)
		}
	}
}

const cppCache = `#pragma once
namespace cache {
namespace detail { int hash(const char* k); }
class Cache {
  int size_ = 0;
  void evict();
  void clear();
 public:
  Cache();
  int size() const;
  void put(const char* k);
  struct Stats { int hits; };
  Stats stats() const;
 protected:
  int capacity_;
  friend class CacheTest;
 private:
  class Slot { public: int key; };
};
struct Entry { int key; };
}
`

// TestCppAuditClasses: private and protected members, a private nested
// class, a detail namespace and #define private public are narrow, a
// friend grant in the product does not open its members, and public
// members and struct fields are not.
func TestCppAuditClasses(t *testing.T) {
	product := []File{{Path: "include/cache.h", Source: []byte(cppCache)}}
	src := `#define private public
#include "cache.h"
#include <gtest/gtest.h>

class CacheTest : public ::testing::Test {
 protected:
  cache::Cache c;
};

TEST_F(CacheTest, Evicts) {
  c.put("a");
  c.evict();
  EXPECT_EQ(c.size_, 0);
  EXPECT_EQ(c.size(), 0);
  EXPECT_EQ(c.stats().hits, 0);
  EXPECT_GT(c.capacity_, 0);
  EXPECT_NE(cache::detail::hash("a"), 0);
  cache::Cache::Slot s;
  cache::Entry e{1};
  EXPECT_EQ(e.key, 1);
  auto* p = new cache::Cache();
  delete p;
  std::string str;
  str.clear();
  this->c.clear();
}
`
	want := []string{
		"line 1: uses the access-breaking macro `#define private public`",
		"line 12: calls the private `evict`",
		"line 13: asserts on the private `size_`",
		"line 16: asserts on the protected `capacity_`",
		"line 17: calls the detail-namespace `hash`",
		"line 18: uses the private `Slot`",
		"line 25: calls the private `clear`",
	}
	got := findings(t, Input{Language: "C++", Test: File{Path: "tests/cache_test.cpp", Source: []byte(src)}, Product: product})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("findings %q, want %q", got, want)
	}
	// Headers are audited as C++.
	got = findings(t, Input{Language: "C/C++ Header", Test: File{Path: "tests/cache_test.h", Source: []byte(src)}, Product: product})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("header: findings %q, want %q", got, want)
	}
	tests, err := TestFuncs(context.Background(), "C++", File{Path: "t.cpp", Source: []byte(src + "TEST(A, B) {}\nTEST_P(P, Q) { int x = 1; }\nint helper() { return 0; }\n")})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tf := range tests {
		names = append(names, tf.Class+"."+tf.Name)
	}
	if want := []string{"CacheTest.Evicts", "A.B", "P.Q"}; !reflect.DeepEqual(names, want) {
		t.Errorf("tests %q, want %q", names, want)
	}
}

const cStoreH = `#ifndef STORE_H
#define STORE_H
struct store;
struct store *store_new(int cap);
int store_put(struct store *s, const char *k);
extern int store_errors;
#define STORE_MAX 64
static inline int store_cap(const struct store *s) { return STORE_MAX; }
#endif
`

const cStoreC = `#include "store.h"
#define SLOT_MASK 7
struct store { int cap; int used; };
struct bucket { int n; };
static int hash(const char *k) { return k[0]; }
static int calls;
int store_errors;
int grow(struct store *s) { return s->cap * 2; }
struct store *store_new(int cap) { calls++; return 0; }
int store_put(struct store *s, const char *k) { return hash(k) & SLOT_MASK; }
`

// TestCAudit: static functions and variables, and names a source file
// declares and no header does, are narrow; #include of the .c file is
// narrow by itself; the header's API is not. cmocka's test table names
// the tests.
func TestCAudit(t *testing.T) {
	product := []File{{Path: "include/store.h", Source: []byte(cStoreH)}, {Path: "src/store.c", Source: []byte(cStoreC)}}
	src := `#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "../src/store.c"

static void test_put(void **state) {
  struct store *s = store_new(STORE_MAX);
  assert_int_equal(store_put(s, "a"), hash("a") & SLOT_MASK);
  assert_int_equal(calls, 1);
  assert_int_equal(store_errors, 0);
  assert_int_equal(grow(s), store_cap(s));
  struct bucket b;
  (void)b;
}

static void test_new(void **state) { assert_non_null(store_new(1)); }

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_put),
    cmocka_unit_test_setup_teardown(test_new, NULL, NULL),
    cmocka_unit_test(test_elsewhere),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
`
	want := []string{
		"line 5: imports the source file (included to reach its internals) `../src/store.c`",
		"line 9: asserts on the source-only `SLOT_MASK`",
		"line 9: calls the static `hash`",
		"line 10: asserts on the static `calls`",
		"line 12: calls the source-only `grow`",
		"line 13: uses the source-only `bucket`",
	}
	got := findings(t, Input{Language: "C", Test: File{Path: "tests/test_store.c", Source: []byte(src)}, Product: product})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("findings %q, want %q", got, want)
	}
	// Without a header the audit cannot tell source-only names: only
	// static ones remain.
	want = []string{
		"line 5: imports the source file (included to reach its internals) `../src/store.c`",
		"line 9: calls the static `hash`",
		"line 10: asserts on the static `calls`",
	}
	got = findings(t, Input{Language: "C", Test: File{Path: "tests/test_store.c", Source: []byte(src)}, Product: product[1:]})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("no header: findings %q, want %q", got, want)
	}
	tests, err := TestFuncs(context.Background(), "C", File{Path: "t.c", Source: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tf := range tests {
		names = append(names, tf.Name)
	}
	if want := []string{"test_put", "test_new"}; !reflect.DeepEqual(names, want) {
		t.Errorf("tests %q, want %q", names, want)
	}
	ds, err := Declarations(context.Background(), "C", File{Path: "src/store.c", Source: []byte(cStoreC)})
	if err != nil {
		t.Fatal(err)
	}
	var decls []string
	for _, d := range ds {
		decls = append(decls, d.Kind+" "+d.Name+" "+d.Visibility)
	}
	wantDecls := []string{"const SLOT_MASK ", "type store ", "field cap ", "field used ", "type bucket ", "field n ",
		"func hash static", "var calls static", "var store_errors ", "func grow ", "func store_new ", "func store_put "}
	if !reflect.DeepEqual(decls, wantDecls) {
		t.Errorf("declarations %q, want %q", decls, wantDecls)
	}
}

// TestCfamilyHostile: malformed and deeply nested sources never panic; a
// test that does not parse is a syntax finding (tree-sitter places this
// one's error on the TEST line).
func TestCfamilyHostile(t *testing.T) {
	for _, lang := range []string{"C", "C++", "C/C++ Header"} {
		srcs := []string{
			"TEST(A, B) { EXPECT_EQ(",
			"class { private: } } } #define private\n#include\nnamespace {",
			"int f() { return " + strings.Repeat("(", 20000) + "1" + strings.Repeat(")", 20000) + "; }\n",
			"int " + strings.Repeat("*", 20000) + "p;\n",
			strings.Repeat("namespace a { ", 5000) + strings.Repeat("}", 5000),
			"\x00\xff#define private public",
		}
		if lang == "C/C++ Header" {
			srcs = srcs[:2] // the C++ grammar, read above
		}
		for _, src := range srcs {
			in := Input{Language: lang, Test: File{Path: "x", Source: []byte(src)}}
			if len(src) < 1000 {
				// The deep ones walk the same scan as a test: one parse each.
				in.Helpers = []File{{Path: "h.h", Source: []byte(src)}}
				in.Product = []File{{Path: "p.h", Source: []byte(src)}, {Path: "p.c", Source: []byte(src)}}
			}
			rep, err := Audit(context.Background(), in)
			if err != nil {
				t.Errorf("%s: %v", lang, err)
				continue
			}
			for _, f := range rep.Findings {
				if f.Line < 1 || f.Message == "" {
					t.Errorf("%s: finding %+v", lang, f)
				}
			}
		}
		got := findings(t, Input{Language: lang, Test: File{Path: "x", Source: []byte("TEST(A, B) {\n  EXPECT_EQ(\n")}})
		if want := []string{"line 1: the test does not parse; write syntactically valid " + lang}; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: findings %q, want %q", lang, got, want)
		}
	}
}

// TestCfamilySampleTestsPass: semkit's own tests, written against its
// headers, pass the audit and are read as the GoogleTest tests they are.
func TestCfamilySampleTestsPass(t *testing.T) {
	want := map[string][]string{
		"bump_test.cpp":    {"Bump.Major", "Bump.Minor", "Bump.PatchOfARelease", "Bump.PatchOfAPreReleaseDropsTheTag"},
		"compare_test.cpp": {"Compare.OrdersByNumbers", "Compare.EqualVersions", "Compare.PreReleaseIsLowerThanRelease", "Compare.PreReleaseIdentifiers"},
		"library_test.cpp": {"Library.ReportsItsVersion"},
		"range_test.cpp":   {"Range.EveryOperator", "Range.AllComparatorsMustHold", "Range.RefusesBadRanges"},
	}
	for name, tests := range want {
		src, err := os.ReadFile(filepath.Join("..", "..", "data", "samples", "semkit", "pr", "tests", name))
		if err != nil {
			t.Fatal(err)
		}
		f := File{Path: "tests/" + name, Source: src}
		if got := findings(t, Input{Language: "C++", Test: f, Product: semkitProduct(t)}); len(got) != 0 {
			t.Errorf("%s: findings %q", name, got)
		}
		tfs, err := TestFuncs(context.Background(), "C++", f)
		if err != nil {
			t.Fatal(err)
		}
		got := []string{}
		for _, tf := range tfs {
			got = append(got, tf.Class+"."+tf.Name)
		}
		if !reflect.DeepEqual(got, tests) {
			t.Errorf("%s: tests %q, want %q", name, got, tests)
		}
	}
}

// TestCSampleTestsPass: inikit's own cmocka tests, written against its
// headers, pass the audit and are read as the cmocka test functions their
// tables name.
func TestCSampleTestsPass(t *testing.T) {
	var product []File
	for _, f := range []string{"include/inikit/ini.h", "include/inikit/doc.h", "src/ini.c", "src/doc.c", "src/typed.c"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "data", "samples", "inikit", "pr", filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		product = append(product, File{Path: f, Source: b})
	}
	want := map[string][]string{
		"test_parse.c": {"reads_pairs_in_order", "reads_sections", "skips_blank_and_comment_lines", "reports_the_bad_line",
			"handler_stops_the_parse", "strips_inline_comments", "keeps_marks_inside_words", "strips_comment_after_section"},
		"test_doc.c":     {"gets_values_by_section", "later_value_wins", "missing_key_is_null", "load_refuses_too_many_pairs", "load_refuses_long_text"},
		"test_typed.c":   {"reads_longs", "refuses_bad_longs", "reads_bool_words", "refuses_bad_bools", "missing_keys_are_reported"},
		"test_version.c": {"reports_version_1_1_0"},
	}
	for name, tests := range want {
		src, err := os.ReadFile(filepath.Join("..", "..", "data", "samples", "inikit", "pr", "tests", name))
		if err != nil {
			t.Fatal(err)
		}
		f := File{Path: "tests/" + name, Source: src}
		if got := findings(t, Input{Language: "C", Test: f, Product: product}); len(got) != 0 {
			t.Errorf("%s: findings %q", name, got)
		}
		tfs, err := TestFuncs(context.Background(), "C", f)
		if err != nil {
			t.Fatal(err)
		}
		got := []string{}
		for _, tf := range tfs {
			got = append(got, tf.Name)
		}
		if !reflect.DeepEqual(got, tests) {
			t.Errorf("%s: tests %q, want %q", name, got, tests)
		}
	}
}
