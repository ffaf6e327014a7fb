package snapshot

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"

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

func TestExpiryRoundTrip(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	clock := func() time.Time { return now }
	s := store.NewWithClock(clock)
	s.SetWithTTL("a", "1", time.Hour)
	s.Set("b", "2")
	var buf bytes.Buffer
	if err := Save(&buf, s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"expires_at": 1700003600`) || !strings.Contains(buf.String(), `"version": 2`) {
		t.Fatalf("snapshot lacks version 2 expiry: %s", buf.String())
	}
	t2 := store.NewWithClock(clock)
	if err := Load(&buf, t2); err != nil {
		t.Fatal(err)
	}
	if got := t2.TTL("a"); got != time.Hour {
		t.Fatalf("TTL(a) after load = %v, want 1h", got)
	}
}

func TestLoadSkipsExpired(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	s := store.NewWithClock(func() time.Time { return now })
	doc := `{"version":2,"entries":[{"key":"old","value":"x","expires_at":1699999999},{"key":"new","value":"y","expires_at":1700000100}]}`
	if err := Load(strings.NewReader(doc), s); err != nil {
		t.Fatal(err)
	}
	if got := s.Keys(); !reflect.DeepEqual(got, []string{"new"}) {
		t.Fatalf("Keys = %v, want [new]", got)
	}
}

func TestLoadVersion1(t *testing.T) {
	s := store.New()
	doc := `{"version":1,"entries":[{"key":"a","value":"1"}]}`
	if err := Load(strings.NewReader(doc), s); err != nil {
		t.Fatal(err)
	}
	if got := s.TTL("a"); got != store.NoExpiry {
		t.Fatalf("TTL(a) = %v, want NoExpiry", got)
	}
}
