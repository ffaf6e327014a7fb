package syntax

import (
	"context"
	"reflect"
	"testing"
)

// TestIdentifiers: names in code count, names in comments and strings do
// not, and only the asked lines are read.
func TestIdentifiers(t *testing.T) {
	src := []byte("import os\n\ndef f(x):\n    # parse_it here\n    return parse_it(x, \"parse_it\") + os.sep\n")
	p := NewParser()
	defer p.Close()
	got, err := p.Identifiers(context.Background(), "Python", src, map[int]bool{4: true, 5: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []Ident{{"parse_it", 5}, {"x", 5}, {"os", 5}, {"sep", 5}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	got, _ = p.Identifiers(context.Background(), "Go", []byte("package a\n\ntype T struct{ B Base }\n\nfunc (t T) M() int { return helper(t.B) }\n"), nil)
	want = []Ident{{"a", 1}, {"T", 3}, {"B", 3}, {"Base", 3}, {"t", 5}, {"T", 5}, {"M", 5}, {"int", 5}, {"helper", 5}, {"t", 5}, {"B", 5}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Go: got %v", got)
	}
	// Rust: a path's modules and a macro's name are not names used.
	got, _ = p.Identifiers(context.Background(), "Rust", []byte("use std::cmp::Ordering;\nfn f(a: u8) -> bool { matches!(a, 1) && crate::req::check(a) && a == Op::Exact as u8 }\n"), nil)
	want = []Ident{{"Ordering", 1}, {"f", 2}, {"a", 2}, {"a", 2}, {"check", 2}, {"a", 2}, {"a", 2}, {"Op", 2}, {"Exact", 2}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Rust: got %v", got)
	}
}
