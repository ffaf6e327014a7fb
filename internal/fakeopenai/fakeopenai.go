// Package fakeopenai is a test helper: an httptest server that speaks the
// OpenAI chat-completions protocol and answers from a script the test
// gives. Scripted answers live only in tests (docs/design.md, "Canned answers
// live only in tests"); product code never imports this package.
package fakeopenai

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// Script chooses the answer to request number n (0-based) with the given
// conversation; ok false makes the server fail the test and answer 418.
type Script func(n int, msgs []llm.Message) (answer string, ok bool)

// InOrder plays the answers one per request, in order.
func InOrder(answers ...string) Script {
	return func(n int, _ []llm.Message) (string, bool) {
		if n >= len(answers) {
			return "", false
		}
		return answers[n], true
	}
}

// Server is the fake endpoint.
type Server struct {
	srv   *httptest.Server
	mu    sync.Mutex
	calls [][]llm.Message
}

// New starts a fake endpoint for the test; it stops with the test.
func New(t testing.TB, script Script) *Server {
	s := &Server{}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Messages []llm.Message `json:"messages"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			t.Errorf("fake endpoint: %v", err)
		}
		s.mu.Lock()
		n := len(s.calls)
		s.calls = append(s.calls, req.Messages)
		s.mu.Unlock()
		answer, ok := script(n, req.Messages)
		if !ok {
			t.Errorf("fake endpoint: no scripted answer for request %d", n+1)
			http.Error(w, "unscripted", http.StatusTeapot)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "c", "object": "chat.completion", "created": 1, "model": "m",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": answer}}},
			"usage": map[string]any{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
		})
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// URL is the endpoint's base URL, as LOLBENCH_LLM_BASE_URL takes it.
func (s *Server) URL() string { return s.srv.URL + "/v1" }

// Client returns an LLM client of the endpoint that records under ws.
func (s *Server) Client(t testing.TB, ws *workspace.Workspace, model string) *llm.Client {
	t.Helper()
	c, err := llm.New(llm.Config{BaseURL: s.URL(), Model: model, Timeout: 5 * time.Second}, llm.Options{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Requests returns the conversations received so far, in order.
func (s *Server) Requests() [][]llm.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]llm.Message(nil), s.calls...)
}
