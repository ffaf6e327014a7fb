package loc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
)

func readFixture(t *testing.T, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "tree", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCountFileFixtures checks the counting rules line by line; the
// comment in each case says which lines count how, and where cloc 1.96
// (--by-file) says otherwise.
func TestCountFileFixtures(t *testing.T) {
	tests := []struct {
		file string
		lang string
		want Counts
	}{
		// Block comments: line 12 "closes */ int y = 2;" is code (cloc
		// joins it to line 10 and reports 7 code, 5 comment); the string
		// "http://example.com/*not a comment*/" is code; a line of tabs
		// and spaces is blank.
		{"src/comments.c", "C", Counts{Files: 1, Code: 8, Comment: 4, Blank: 2}},
		// Rust block comments nest: the whole first line and lines 5-8
		// are comment (cloc does not nest: 6 code, 4 comment).
		{"src/nested.rs", "Rust", Counts{Files: 1, Code: 4, Comment: 6, Blank: 0}},
		// "//" and "/*" in strings, the rune '"' and a raw string holding
		// "// ..." and "*/" are code; the blank line inside the raw string
		// and the one inside the block comment are blank (cloc: 6 code,
		// 9 comment, 4 blank).
		{"src/strings.go", "Go", Counts{Files: 1, Code: 10, Comment: 5, Blank: 4}},
		// Docstrings (module, function) are comments; an assigned
		// triple-quoted string is code, its blank line blank; "#" inside
		// a string is code (cloc makes every triple-quoted string a
		// comment: 5 code, 6 comment, 3 blank).
		{"src/doc.py", "Python", Counts{Files: 1, Code: 7, Comment: 4, Blank: 3}},
		// Go assembly: "//" comments, a /* */ block and, as cloc says,
		// the "#include" line are comments; "MOVQ ... // load a" is code.
		// Same figures as cloc.
		{"asm/add_amd64.s", "Assembly", Counts{Files: 1, Code: 5, Comment: 5, Blank: 2}},
		// An extension-less file is identified by its "#!" line, which
		// is a comment (as in cloc).
		{"src/run", "Python", Counts{Files: 1, Code: 1, Comment: 1, Blank: 0}},
		{"src/zz_tables.go", "Go", Counts{Files: 1, Code: 2, Comment: 1, Blank: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			lang, got, ok := CountFile(tt.file, readFixture(t, tt.file))
			if !ok || lang != tt.lang || got != tt.want {
				t.Errorf("CountFile(%s) = %q, %+v, %v; want %q, %+v, true", tt.file, lang, got, ok, tt.lang, tt.want)
			}
		})
	}
}

func TestCountFileInline(t *testing.T) {
	tests := []struct {
		name    string
		content string
		lang    string
		want    Counts
		ok      bool
	}{
		{"ws.go", "package a\n \t \n\r\n\f\nvar x = 1\n", "Go", Counts{1, 2, 0, 3}, true},
		{"crlf.c", "int a;\r\n// c\r\n\r\n/* b\r\n */\r\n", "C", Counts{1, 1, 3, 1}, true},
		{"noeol.go", "package a", "Go", Counts{1, 1, 0, 0}, true},
		{"only.go", "\n\n", "Go", Counts{1, 0, 0, 2}, true},
		{"unterminated.c", "/* never closed\nint a;\n", "C", Counts{1, 0, 2, 0}, true},
		{"str.c", "char *s = \"never closed\nint a;\n", "C", Counts{1, 2, 0, 0}, true},
		{"rune.go", "var q = '\"' // quote\n// comment\n", "Go", Counts{1, 1, 1, 0}, true},
		{"esc.c", "char c = '\\''; /* x */\n// y\n", "C", Counts{1, 1, 1, 0}, true},
		{"x.h", "#define X 1\n", "C/C++ Header", Counts{1, 1, 0, 0}, true},
		{"x.hpp", "// c\n", "C/C++ Header", Counts{1, 0, 1, 0}, true},
		{"x.d.ts", "declare const x: number;\n", "TypeScript", Counts{1, 1, 0, 0}, true},
		{"Makefile", "all:\n\t# c\n", "make", Counts{1, 1, 1, 0}, true},
		{"build.sh", "#!/bin/sh\necho hi\n", "Bourne Shell", Counts{1, 1, 1, 0}, true},
		{"script", "#!/usr/bin/env -S perl -w\nprint 1;\n", "Perl", Counts{1, 1, 1, 0}, true},
		{"script", "no shebang\n", "", Counts{}, false},
		{"LICENSE", "MIT\n", "", Counts{}, false},
		{"image.png", "\x89PNG", "", Counts{}, false},
		{"empty.go", "", "", Counts{}, false},
		{"nul.go", "package a\x00\n", "", Counts{}, false},
		// scc drops the last line of a file that ends in an opening """.
		{"end.py", `"""`, "Python", Counts{1, 1, 0, 0}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lang, got, ok := CountFile(tt.name, []byte(tt.content))
			if ok != tt.ok || lang != tt.lang || got != tt.want {
				t.Errorf("CountFile(%q) = %q, %+v, %v; want %q, %+v, %v", tt.content, lang, got, ok, tt.lang, tt.want, tt.ok)
			}
		})
	}
}

// fixtureLanguages are the counts of testdata/tree with Options.All.
func fixtureLanguages(all bool) map[string]*Counts {
	// strings.go only: zz_tables.go carries "DO NOT EDIT", api.pb.go
	// has a generated name, vendor/lib/lib.go is vendored.
	goCounts := &Counts{Files: 1, Code: 10, Comment: 5, Blank: 4}
	if all {
		goCounts = &Counts{Files: 4, Code: 16, Comment: 6, Blank: 8}
	}
	return map[string]*Counts{
		"Assembly": {Files: 1, Code: 5, Comment: 5, Blank: 2},
		"C":        {Files: 1, Code: 8, Comment: 4, Blank: 2},
		"Go":       goCounts,
		"Python":   {Files: 2, Code: 8, Comment: 5, Blank: 3}, // doc.py, run
		"Rust":     {Files: 1, Code: 4, Comment: 6, Blank: 0},
	}
}

func total(langs map[string]*Counts) Counts {
	var t Counts
	for _, c := range langs {
		t.add(*c)
	}
	return t
}

func TestCountDir(t *testing.T) {
	dir := filepath.Join("testdata", "tree")
	binary := Problem{Path: filepath.Join(dir, "src", "blob.c"), Reason: "binary (NUL byte)"}
	tests := []struct {
		name    string
		all     bool
		skipped Skipped
	}{
		{"default", false, Skipped{Vendored: 1, Generated: 2, Unknown: 1, Empty: 1, Binary: 1, Problems: []Problem{binary}}},
		{"all", true, Skipped{Unknown: 1, Empty: 1, Binary: 1, Problems: []Problem{binary}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, workers := range []int{1, 3} {
				res, err := CountDir(context.Background(), dir, Options{All: tt.all, Workers: workers})
				if err != nil {
					t.Fatal(err)
				}
				want := &Result{Languages: fixtureLanguages(tt.all), Skipped: tt.skipped}
				want.Total = total(want.Languages)
				if !reflect.DeepEqual(res, want) {
					t.Errorf("workers %d:\n got %s\nwant %s", workers, dump(res), dump(want))
				}
			}
		})
	}
}

func dump(r *Result) string {
	var b strings.Builder
	for _, row := range r.Sorted() {
		fmt.Fprintf(&b, "%s:%+v ", row.Language, row.Counts)
	}
	fmt.Fprintf(&b, "total:%+v skipped:%+v", r.Total, r.Skipped)
	return b.String()
}

func TestCountDirErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f.go")
	if err := os.WriteFile(file, []byte("package f\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		dir  string
		want string
	}{
		{filepath.Join("testdata", "no-such"), "no such directory: " + filepath.Join("testdata", "no-such")},
		{file, "not a directory: " + file},
	}
	for _, tt := range tests {
		_, err := CountDir(context.Background(), tt.dir, Options{})
		if err == nil || err.Error() != tt.want {
			t.Errorf("CountDir(%s) error = %v, want %q", tt.dir, err, tt.want)
		}
	}
}

func TestCountDirCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := CountDir(ctx, filepath.Join("testdata", "tree"), Options{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
}

// TestCountDirSpecialFiles: a FIFO would block a reader forever and a
// symlink may point anywhere; neither is opened or counted.
func TestCountDirSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.go"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Symlink("a.go", filepath.Join(dir, "link.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc", filepath.Join(dir, "etc")); err != nil {
		t.Fatal(err)
	}
	res, err := CountDir(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]*Counts{"Go": {Files: 1, Code: 1}}
	if !reflect.DeepEqual(res.Languages, want) {
		t.Errorf("languages = %s", dump(res))
	}
}

// TestUnreadable feeds the counter files that fail to open or to read.
func TestUnreadable(t *testing.T) {
	c := newCounter(Options{})
	c.add("a.go", "/x/a.go", func() (io.ReadCloser, int64, error) {
		return nil, 0, errors.New("open /x/a.go: permission denied")
	})
	c.add("b.go", "/x/b.go", func() (io.ReadCloser, int64, error) {
		return io.NopCloser(failingReader{}), 10, nil
	})
	c.add("c.go", "/x/c.go", func() (io.ReadCloser, int64, error) {
		return io.NopCloser(strings.NewReader("")), MaxFileSize + 1, nil
	})
	c.res.finish()
	want := Skipped{Large: 1, Unreadable: 2, Problems: []Problem{
		{"/x/a.go", "open /x/a.go: permission denied"},
		{"/x/b.go", "read: input/output error"},
		{"/x/c.go", "larger than 100 MiB"},
	}}
	if !reflect.DeepEqual(c.res.Skipped, want) || len(c.res.Languages) != 0 {
		t.Errorf("skipped = %s, languages %d", fmt.Sprintf("%+v", c.res.Skipped), len(c.res.Languages))
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("read: input/output error") }

// TestConcurrentCounts runs several counts at once (run with -race): scc's
// global tables are shared, and the results must not mix.
func TestConcurrentCounts(t *testing.T) {
	dir := filepath.Join("testdata", "tree")
	var wg sync.WaitGroup
	results := make([]*Result, 6)
	for i := range results {
		wg.Go(func() {
			res, err := CountDir(context.Background(), dir, Options{All: i%2 == 0, Workers: 2})
			if err != nil {
				t.Error(err)
				return
			}
			results[i] = res
		})
	}
	wg.Wait()
	for i, res := range results {
		if res == nil {
			continue
		}
		if want := fixtureLanguages(i%2 == 0); !reflect.DeepEqual(res.Languages, want) {
			t.Errorf("count %d: %s", i, dump(res))
		}
	}
}

func TestSourceCode(t *testing.T) {
	r := &Result{Languages: map[string]*Counts{
		"Go":           {Files: 2, Code: 100},
		"C/C++ Header": {Files: 1, Code: 10},
		"Bourne Shell": {Files: 1, Code: 5},
		"JSON":         {Files: 1, Code: 1000},
		"YAML":         {Files: 1, Code: 200},
		"Markdown":     {Files: 1, Code: 300},
		"HTML":         {Files: 1, Code: 400},
		"CSS":          {Files: 1, Code: 500},
		"Text":         {Files: 1, Code: 600},
	}}
	if got := r.SourceCode(); got != 115 {
		t.Errorf("SourceCode() = %d, want 115", got)
	}
}

func TestSorted(t *testing.T) {
	r := &Result{Languages: map[string]*Counts{
		"C":  {Code: 5},
		"Go": {Code: 10},
		"B":  {Code: 5},
	}}
	var got []string
	for _, row := range r.Sorted() {
		got = append(got, row.Language)
	}
	if want := []string{"Go", "B", "C"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Sorted() = %v, want %v", got, want)
	}
}

func TestClocNames(t *testing.T) {
	db := getTables().db
	for scc, cloc := range clocNames {
		if _, ok := db[scc]; !ok {
			t.Errorf("clocNames has %q, which scc does not know", scc)
		}
		if cloc == "" {
			t.Errorf("clocNames[%q] is empty", scc)
		}
	}
	if _, ok := db["Assembly"]; !ok {
		t.Error(`scc has no "Assembly" to fix`)
	}
}

func TestShortenEscapes(t *testing.T) {
	for _, tt := range []struct{ run, want int }{{1, 1}, {64, 64}, {65, 63}, {66, 64}, {200, 64}, {201, 63}} {
		in := []byte("a" + strings.Repeat(`\`, tt.run) + "b")
		if got := len(shortenEscapes(in)) - 2; got != tt.want {
			t.Errorf("run of %d: %d backslashes left, want %d", tt.run, got, tt.want)
		}
	}
}

// TestLongEscapeRuns: a hostile run of backslashes in a string counts as
// a short run of the same parity would (and does not take minutes).
func TestLongEscapeRuns(t *testing.T) {
	file := func(n int) string {
		return "package a\n\nvar s = \"" + strings.Repeat(`\`, n) + "\"\n// still in the string if n is odd\n\"\n"
	}
	for _, n := range []int{100000, 100001} {
		_, got, _ := CountFile("a.go", []byte(file(n)))
		_, want, _ := CountFile("a.go", []byte(file(2-n%2)))
		if got != want {
			t.Errorf("run of %d: %+v, want %+v", n, got, want)
		}
	}
	if _, c, _ := CountFile("a.go", []byte(file(100001))); c.Comment != 0 {
		t.Errorf("odd run: the quote after it is escaped, so no comment: %+v", c)
	}
	if _, c, _ := CountFile("a.go", []byte(file(100000))); c.Comment != 1 {
		t.Errorf("even run: the string ends, the next line is a comment: %+v", c)
	}
}

// TestNonSoftwareNames: every language SourceCode leaves out is a name
// that a count can produce, so that a typo cannot let JSON or HTML in.
func TestNonSoftwareNames(t *testing.T) {
	produced := map[string]bool{}
	for scc := range getTables().db {
		produced[ClocName(scc)] = true
	}
	for name := range nonSoftware {
		if !produced[name] {
			t.Errorf("nonSoftware lists %q, which no scc language maps to", name)
		}
	}
}
