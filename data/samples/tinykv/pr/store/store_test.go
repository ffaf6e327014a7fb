package store

import (
	"reflect"
	"testing"
	"time"
)

// clock is a settable time source for expiry tests.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newClock() *clock { return &clock{t: time.Unix(1_700_000_000, 0)} }

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

func TestSetWithTTLExpires(t *testing.T) {
	c := newClock()
	s := NewWithClock(c.now)
	if err := s.SetWithTTL("a", "1", 10*time.Second); err != nil {
		t.Fatal(err)
	}
	c.t = c.t.Add(9 * time.Second)
	if v, ok := s.Get("a"); !ok || v != "1" {
		t.Fatalf("before expiry: Get(a) = %q, %v", v, ok)
	}
	c.t = c.t.Add(time.Second)
	if _, ok := s.Get("a"); ok {
		t.Fatal("after expiry: Get(a) still finds the key")
	}
	if got := s.Keys(); len(got) != 0 {
		t.Fatalf("after expiry: Keys = %v", got)
	}
}

func TestSetWithTTLRejectsNonPositive(t *testing.T) {
	s := New()
	for _, ttl := range []time.Duration{0, -time.Second} {
		if err := s.SetWithTTL("a", "1", ttl); err != ErrInvalidTTL {
			t.Errorf("SetWithTTL(%v) = %v, want ErrInvalidTTL", ttl, err)
		}
	}
	if _, ok := s.Get("a"); ok {
		t.Fatal("a rejected SetWithTTL changed the store")
	}
}

func TestTTL(t *testing.T) {
	c := newClock()
	s := NewWithClock(c.now)
	s.Set("plain", "x")
	s.SetWithTTL("temp", "y", 5*time.Second)
	c.t = c.t.Add(2 * time.Second)
	tests := map[string]time.Duration{"plain": NoExpiry, "temp": 3 * time.Second, "none": Missing}
	for key, want := range tests {
		if got := s.TTL(key); got != want {
			t.Errorf("TTL(%s) = %v, want %v", key, got, want)
		}
	}
}

func TestSetClearsExpiry(t *testing.T) {
	c := newClock()
	s := NewWithClock(c.now)
	s.SetWithTTL("a", "1", time.Second)
	s.Set("a", "2")
	c.t = c.t.Add(time.Hour)
	if v, ok := s.Get("a"); !ok || v != "2" {
		t.Fatalf("Get(a) = %q, %v; Set should clear the expiry", v, ok)
	}
}
