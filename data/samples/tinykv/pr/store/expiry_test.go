package store

import (
	"testing"
	"time"
)

func TestSweepRemovesExpired(t *testing.T) {
	c := newClock()
	s := NewWithClock(c.now)
	s.SetWithTTL("a", "1", time.Second)
	s.SetWithTTL("b", "2", time.Minute)
	s.Set("c", "3")
	c.t = c.t.Add(2 * time.Second)
	if n := s.Sweep(); n != 1 {
		t.Fatalf("Sweep removed %d keys, want 1", n)
	}
	if n := s.Sweep(); n != 0 {
		t.Fatalf("second Sweep removed %d keys, want 0", n)
	}
}

func TestStartSweeperStops(t *testing.T) {
	s := New()
	s.SetWithTTL("a", "1", time.Millisecond)
	stop := s.StartSweeper(time.Millisecond)
	deadline := time.Now().Add(5 * time.Second)
	for {
		s.mu.Lock()
		n := len(s.data)
		s.mu.Unlock()
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the sweeper did not remove the expired key")
		}
		time.Sleep(time.Millisecond)
	}
	stop()
}
