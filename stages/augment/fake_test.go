package augment

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// fakeModel is an httptest server that speaks the OpenAI chat-completions
// protocol. It answers from a script keyed by conversation (the first user
// message names the mutant or the coverage loop) and round (1 for the first
// request, 2 for the rewrite), so the answers do not depend on the order in
// which the stage asks. Scripted answers live only in _test.go files.
type fakeModel struct {
	t      *testing.T
	srv    *httptest.Server
	mu     sync.Mutex
	script map[string]map[int]string // conversation key -> round -> answer
	calls  [][]llm.Message
}

// scriptKey finds the conversation of a request: a marker of its first
// user message.
func scriptKey(msgs []llm.Message, keys []string) string {
	for _, m := range msgs {
		if m.Role != llm.RoleUser {
			continue
		}
		for _, k := range keys {
			if strings.Contains(m.Content, k) {
				return k
			}
		}
		return ""
	}
	return ""
}

func newFakeModel(t *testing.T, script map[string]map[int]string) *fakeModel {
	f := &fakeModel{t: t, script: script}
	var keys []string
	for k := range script {
		keys = append(keys, k)
	}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Messages []llm.Message `json:"messages"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			t.Errorf("fake model: %v", err)
		}
		f.mu.Lock()
		f.calls = append(f.calls, req.Messages)
		f.mu.Unlock()
		key := scriptKey(req.Messages, keys)
		round := len(req.Messages) / 2 // system+user, then +assistant+user
		answer, ok := f.script[key][round]
		if !ok {
			t.Errorf("fake model: no scripted answer for %q round %d", key, round)
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
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeModel) client(t *testing.T, ws *workspace.Workspace) *llm.Client {
	t.Helper()
	c, err := llm.New(llm.Config{BaseURL: f.srv.URL + "/v1", Model: "augment-model", Timeout: 5 * time.Second}, llm.Options{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (f *fakeModel) requests() [][]llm.Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([][]llm.Message(nil), f.calls...)
}

// answer encodes a scripted answer.
func answer(t *testing.T, tests ...Proposal) string {
	t.Helper()
	b, err := json.Marshal(Answer{Tests: tests})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
