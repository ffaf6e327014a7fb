package results

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"
)

// fuzzParser seeds a fuzz target with the testdata logs and inline cases of
// one format, then checks on arbitrary bytes that the parser does not panic,
// that its output keeps the package's invariants, and that reading the input
// one byte at a time changes nothing (no chunk-boundary bugs in the streaming
// readers).
func fuzzParser(f *testing.F, format string) {
	p, err := Lookup(format)
	if err != nil {
		f.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", format+"-*"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, tc := range inlineCases {
		if tc.format == format {
			f.Add([]byte(tc.log))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := p.Parse(data)
		checkInvariants(t, got)
		again, err2 := p.ParseReader(iotest.OneByteReader(bytes.NewReader(data)))
		if !reflect.DeepEqual(got, again) || (err == nil) != (err2 == nil) {
			t.Fatalf("Parse and one-byte ParseReader differ:\n%s(%v)\n%s(%v)", show(got), err, show(again), err2)
		}
	})
}

func checkInvariants(t *testing.T, rs []Result) {
	t.Helper()
	if rs == nil {
		t.Fatal("nil results")
	}
	for i, r := range rs {
		switch r.Status {
		case Passed, Failed, Error, Skipped:
		default:
			t.Fatalf("result %d: status %q", i, r.Status)
		}
		if r.Name == "" || r.Name != strings.TrimSpace(r.Name) || !utf8.ValidString(r.Name) || len(r.Name) > maxName {
			t.Fatalf("result %d: bad name %q", i, r.Name)
		}
		if i > 0 && rs[i-1].Name >= r.Name {
			t.Fatalf("results not sorted and unique at %d: %q, %q", i, rs[i-1].Name, r.Name)
		}
	}
}

func FuzzJUnit(f *testing.F)  { fuzzParser(f, "junit") }
func FuzzGoJSON(f *testing.F) { fuzzParser(f, "go-json") }
func FuzzCargo(f *testing.F)  { fuzzParser(f, "cargo") }
func FuzzPytest(f *testing.F) { fuzzParser(f, "pytest-ra") }
