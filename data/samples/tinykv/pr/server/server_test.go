package server

import (
	"testing"
	"time"

	"example.com/tinykv/store"
)

func TestHandle(t *testing.T) {
	srv := &Server{Store: store.New()}
	steps := []struct{ req, want string }{
		{"SET a hello world", "OK"},
		{"GET a", "VALUE hello world"},
		{"GET b", "NIL"},
		{"KEYS", "KEYS a"},
		{"DEL a", "1"},
		{"DEL a", "0"},
		{"NOPE", `ERR unknown command "NOPE"`},
	}
	for _, s := range steps {
		if got := srv.Handle(s.req); got != s.want {
			t.Errorf("Handle(%q) = %q, want %q", s.req, got, s.want)
		}
	}
}

func TestSetexAndTTL(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	srv := &Server{Store: store.NewWithClock(func() time.Time { return now })}
	steps := []struct{ req, want string }{
		{"SETEX a 10 hello world", "OK"},
		{"GET a", "VALUE hello world"},
		{"TTL a", "TTL 10"},
		{"SET b 1", "OK"},
		{"TTL b", "TTL -1"},
		{"TTL c", "TTL -2"},
		{"SETEX a zero x", "ERR invalid ttl"},
		{"SETEX a 0 x", "ERR invalid ttl"},
		{"SETEX a", "ERR usage: SETEX key seconds value"},
	}
	for _, s := range steps {
		if got := srv.Handle(s.req); got != s.want {
			t.Errorf("Handle(%q) = %q, want %q", s.req, got, s.want)
		}
	}
	now = now.Add(9500 * time.Millisecond)
	if got := srv.Handle("TTL a"); got != "TTL 1" {
		t.Errorf("TTL rounds up: got %q, want %q", got, "TTL 1")
	}
}
