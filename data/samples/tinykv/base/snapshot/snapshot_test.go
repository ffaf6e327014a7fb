package snapshot

import (
	"bytes"
	"reflect"
	"testing"

	"example.com/tinykv/store"
)

func TestRoundTrip(t *testing.T) {
	s := store.New()
	s.Set("a", "1")
	s.Set("b", "2")
	var buf bytes.Buffer
	if err := Save(&buf, s); err != nil {
		t.Fatal(err)
	}
	t2 := store.New()
	if err := Load(&buf, t2); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(t2.Items(), s.Items()) {
		t.Fatalf("loaded %v, want %v", t2.Items(), s.Items())
	}
}
