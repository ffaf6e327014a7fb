package rank

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

// The test fake: an httptest server that speaks the OpenAI chat-completions
// protocol and plays scripted answers in order. Scripted answers live only
// in _test.go files (DESIGN.md, "Product code never holds canned answers").

type fake struct {
	t      *testing.T
	srv    *httptest.Server
	mu     sync.Mutex
	script []string
	calls  [][]llm.Message
}

func newFake(t *testing.T, script ...string) *fake {
	f := &fake{t: t, script: script}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Messages []llm.Message `json:"messages"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			t.Errorf("fake: %v", err)
		}
		f.mu.Lock()
		n := len(f.calls)
		f.calls = append(f.calls, req.Messages)
		f.mu.Unlock()
		if n >= len(f.script) {
			t.Errorf("fake: unscripted request %d", n+1)
			http.Error(w, "unscripted", http.StatusTeapot)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "c", "object": "chat.completion", "created": 1, "model": "m",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": f.script[n]}}},
			"usage": map[string]any{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
		})
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fake) client(t *testing.T, ws *workspace.Workspace) *llm.Client {
	t.Helper()
	c, err := llm.New(llm.Config{BaseURL: f.srv.URL + "/v1", Model: "judge-model", Timeout: 2 * time.Second}, llm.Options{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (f *fake) requests() [][]llm.Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([][]llm.Message(nil), f.calls...)
}
