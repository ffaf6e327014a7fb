package server

import (
	"testing"

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
