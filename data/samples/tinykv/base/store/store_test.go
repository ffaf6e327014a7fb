package store

import (
	"reflect"
	"testing"
)

func TestSetGet(t *testing.T) {
	s := New()
	s.Set("a", "1")
	if v, ok := s.Get("a"); !ok || v != "1" {
		t.Fatalf("Get(a) = %q, %v", v, ok)
	}
	if _, ok := s.Get("missing"); ok {
		t.Fatal("Get(missing) found a value")
	}
}

func TestDelete(t *testing.T) {
	s := New()
	s.Set("a", "1")
	if !s.Delete("a") || s.Delete("a") {
		t.Fatal("Delete should report presence once")
	}
}

func TestKeysSorted(t *testing.T) {
	s := New()
	for _, k := range []string{"c", "a", "b"} {
		s.Set(k, k)
	}
	if got := s.Keys(); !reflect.DeepEqual(got, []string{"a", "b", "c"}) {
		t.Fatalf("Keys = %v", got)
	}
}
