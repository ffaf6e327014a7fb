package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/lolbench/lolbench/internal/testcand"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// This file holds the test fake: an httptest server that speaks the OpenAI
// chat-completions protocol and answers from a script keyed by the audit
// rule the request's system message names. Scripted answers live only in
// _test.go files (docs/design.md, "Canned answers live only in tests").

type wireRequest struct {
	Model    string        `json:"model"`
	Messages []llm.Message `json:"messages"`
}

// reply is one scripted answer: a status with an error body, a hang
// (until the client gives up), or a completion holding text.
type reply struct {
	status int
	hang   bool
	text   string
}

func ok(text string) reply { return reply{text: text} }

type fake struct {
	t   *testing.T
	srv *httptest.Server

	mu    sync.Mutex
	calls []wireRequest
	// script answers per key (the rule id), in order; the last answer
	// repeats.
	script map[string][]reply
	served map[string]int
}

var ruleOfPrompt = regexp.MustCompile(`apply exactly one rule to the artifact: rule (S\d)`)

func newFake(t *testing.T, script map[string][]reply) *fake {
	f := &fake{t: t, script: script, served: map[string]int{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fake) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req wireRequest
	if err := json.Unmarshal(body, &req); err != nil || len(req.Messages) == 0 {
		f.t.Errorf("fake: bad request body: %v", err)
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	key := "?"
	if m := ruleOfPrompt.FindStringSubmatch(req.Messages[0].Content); m != nil {
		key = m[1]
	}
	f.mu.Lock()
	f.calls = append(f.calls, req)
	answers := f.script[key]
	n := f.served[key]
	f.served[key]++
	f.mu.Unlock()
	if len(answers) == 0 {
		f.t.Errorf("fake: no answer scripted for %s", key)
		http.Error(w, "unscripted", http.StatusTeapot)
		return
	}
	a := answers[min(n, len(answers)-1)]
	switch {
	case a.hang:
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	case a.status != 0:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(a.status)
		fmt.Fprintf(w, `{"error":{"message":"scripted %d","type":"server_error"}}`, a.status)
	default:
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": a.text}}},
			"usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
		})
	}
}

// requests returns the requests received for key, in order.
func (f *fake) requests(key string) []wireRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []wireRequest
	for _, c := range f.calls {
		if m := ruleOfPrompt.FindStringSubmatch(c.Messages[0].Content); m != nil && m[1] == key {
			out = append(out, c)
		}
	}
	return out
}

func (f *fake) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls)
}

// sleeper records the backoff waits and returns at once.
type sleeper struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleeper) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return ctx.Err()
}

func newClient(t *testing.T, cfg llm.Config, ws *workspace.Workspace) (*llm.Client, *sleeper) {
	t.Helper()
	s := &sleeper{}
	c, err := llm.New(cfg, llm.Options{Workspace: ws, Sleep: s.sleep, BackoffBase: time.Millisecond, BackoffMax: 4 * time.Millisecond, Jitter: func() float64 { return 0.5 }})
	if err != nil {
		t.Fatal(err)
	}
	return c, s
}

func (f *fake) config() llm.Config {
	return llm.Config{BaseURL: f.srv.URL + "/v1", Model: "judge-model", Timeout: 2 * time.Second}
}

// tinykv builds the sample candidate with its passing mapping.md.
func tinykv(t *testing.T) (*workspace.Workspace, *pipeline.Candidate) {
	t.Helper()
	spec := testcand.Tinykv("../..")
	ws, c, err := testcand.Build(t.TempDir(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if err := testcand.CopyMapping(spec, c, "mapping.md"); err != nil {
		t.Fatal(err)
	}
	return ws, c
}

func env(ws *workspace.Workspace) *pipeline.Env {
	return &pipeline.Env{Workspace: ws, Version: "test"}
}

// clean is every rule's passing answer.
func clean() map[string][]reply {
	m := map[string][]reply{}
	for _, id := range []string{"S1", "S2", "S3", "S4", "S5", "S6", "S7"} {
		m[id] = []reply{ok(`{"issues": []}`)}
	}
	m["S8"] = []reply{ok(`{"links": [], "issues": [], "verdict": "complete"}`)}
	return m
}
