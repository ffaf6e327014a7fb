package results

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"sort"
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
		case Passed, Failed, Error, Skipped, Conflicting:
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

// FuzzLeaves checks Leaves on arbitrary ids (one a line, the first byte
// choosing the status), in go-json and junit: the package's invariants
// hold, every dropped id is the parent of a kept one, no status is
// upgraded, a failure is never lost, and a second pass changes nothing.
func FuzzLeaves(f *testing.F) {
	f.Add([]byte("fm/p.Test\npm/p.Test/A\npm/p.Test/B\nsm/p.TestC/x\n"))
	f.Add([]byte("fTest/\np/x\nfTest//a\npTest\np/\n"))
	f.Add([]byte("fa::TestX\npa::TestX/y\npa::TestX/y/z\neb [package]\n"))
	f.Add([]byte(strings.Repeat("pT/", 300) + "\nf" + strings.Repeat("T/", 100) + "T\n"))
	statuses := []Status{Passed, Failed, Error, Skipped}
	f.Fuzz(func(t *testing.T, data []byte) {
		var in []Result
		for _, line := range strings.Split(string(data), "\n") {
			if line == "" {
				continue
			}
			in = append(in, Result{Name: line[1:], Status: statuses[int(line[0])%len(statuses)]})
		}
		merged := Merge(in)
		before := map[string]Status{}
		anyBad := false
		for _, r := range merged {
			before[r.Name] = r.Status
			anyBad = anyBad || bad(r.Status)
		}
		for _, format := range []string{"go-json", "junit"} {
			got := Leaves(format, in)
			checkInvariants(t, got)
			kept := map[string]bool{}
			gotBad := false
			for _, r := range got {
				kept[r.Name] = true
				gotBad = gotBad || bad(r.Status)
				old, ok := before[r.Name]
				if !ok || r.Status.severity() < old.severity() {
					t.Fatalf("%s: %q is %s, was %q", format, r.Name, r.Status, old)
				}
			}
			if anyBad && !gotBad {
				t.Fatalf("%s: a failure was lost:\n%s->\n%s", format, show(merged), show(got))
			}
			for _, r := range merged {
				if kept[r.Name] {
					continue
				}
				i := sort.Search(len(got), func(i int) bool { return got[i].Name >= r.Name+"/" })
				if i == len(got) || !strings.HasPrefix(got[i].Name, r.Name+"/") {
					t.Fatalf("%s: %q dropped without a subtest kept", format, r.Name)
				}
			}
			if again := Leaves(format, got); !reflect.DeepEqual(again, got) {
				t.Fatalf("%s: a second pass changed\n%s\nto\n%s", format, show(got), show(again))
			}
		}
	})
}
