package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lolbench/lolbench/pipeline/workspace"
)

// This file holds the test fake: an httptest server that speaks the
// OpenAI chat-completions protocol and plays scripted answers. Scripted
// answers live only in _test.go files (docs/design.md, "Canned answers live
// only in tests").

// wireRequest is what the fake reads from a request body.
type wireRequest struct {
	Model          string    `json:"model"`
	Messages       []Message `json:"messages"`
	Temperature    *float64  `json:"temperature"`
	MaxTokens      int       `json:"max_tokens"`
	ResponseFormat *struct {
		Type string `json:"type"`
	} `json:"response_format"`
	Auth string `json:"-"`
}

// step answers the n-th request (1-based).
type step func(w http.ResponseWriter, r *http.Request, req wireRequest)

type fakeServer struct {
	t   *testing.T
	srv *httptest.Server

	mu       sync.Mutex
	requests []wireRequest
	script   []step
	// fallback answers requests past the end of script; nil is a test error.
	fallback step

	inflight, maxInflight atomic.Int32
}

func newFake(t *testing.T, script ...step) *fakeServer {
	t.Helper()
	f := &fakeServer{t: t, script: script}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeServer) url() string { return f.srv.URL + "/v1" }

func (f *fakeServer) serve(w http.ResponseWriter, r *http.Request) {
	n := f.inflight.Add(1)
	defer f.inflight.Add(-1)
	for {
		m := f.maxInflight.Load()
		if n <= m || f.maxInflight.CompareAndSwap(m, n) {
			break
		}
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		f.t.Errorf("fake: unexpected %s %s", r.Method, r.URL.Path)
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req wireRequest
	if err := json.Unmarshal(body, &req); err != nil {
		f.t.Errorf("fake: request body: %v", err)
	}
	req.Auth = r.Header.Get("Authorization")
	f.mu.Lock()
	f.requests = append(f.requests, req)
	idx := len(f.requests)
	var s step
	if idx <= len(f.script) {
		s = f.script[idx-1]
	} else {
		s = f.fallback
	}
	f.mu.Unlock()
	if s == nil {
		f.t.Errorf("fake: unscripted request %d", idx)
		http.Error(w, "unscripted", http.StatusTeapot)
		return
	}
	s(w, r, req)
}

func (f *fakeServer) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.requests)
}

func (f *fakeServer) request(i int) wireRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests[i]
}

// completion writes a chat completion holding text. extraUsage is merged
// into the usage object (e.g. OpenRouter's "cost").
func completion(w http.ResponseWriter, text, finish string, extraUsage map[string]any) {
	usage := map[string]any{"prompt_tokens": 12, "completion_tokens": 7, "total_tokens": 19}
	for k, v := range extraUsage {
		usage[k] = v
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "m",
		"choices": []any{map[string]any{
			"index": 0, "finish_reason": finish,
			"message": map[string]any{"role": "assistant", "content": text},
		}},
		"usage": usage,
	})
}

// say answers with text.
func say(text string) step {
	return func(w http.ResponseWriter, r *http.Request, req wireRequest) { completion(w, text, "stop", nil) }
}

// fail answers with an OpenAI-style error body and the given headers
// ("Retry-After", "7", ...).
func fail(status int, msg string, headers ...string) step {
	return func(w http.ResponseWriter, r *http.Request, req wireRequest) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":{"message":%q,"type":"invalid_request_error"}}`, msg)
	}
}

// hang holds the request until the client gives up (the per-request
// timeout), with a safety stop so a broken client cannot hang the test.
func hang(w http.ResponseWriter, r *http.Request, req wireRequest) {
	select {
	case <-r.Context().Done():
	case <-time.After(5 * time.Second):
	}
}

// verdict is a stage-like answer type with its own validation.
type verdict struct {
	Score  int    `json:"score"`
	Reason string `json:"reason"`
}

func (v *verdict) Validate() error {
	if v.Score < 1 || v.Score > 5 {
		return fmt.Errorf("score %d is outside 1..5", v.Score)
	}
	return nil
}

// sleeper records the waits the client asks for and returns at once.
type sleeper struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleeper) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waits = append(s.waits, d)
	return ctx.Err()
}

func (s *sleeper) got() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

// testConfig is a valid configuration pointing at url.
func testConfig(url string) Config {
	return Config{BaseURL: url, Model: "m-default", Timeout: 2 * time.Second}
}

// newTestClient builds a client on a fresh workspace with a recording
// sleeper, 1ms backoff base and a fixed jitter of 0.5.
func newTestClient(t *testing.T, cfg Config) (*Client, *workspace.Workspace, *sleeper) {
	t.Helper()
	ws, err := workspace.Open(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	c, s := newClientOn(t, cfg, ws)
	return c, ws, s
}

func newClientOn(t *testing.T, cfg Config, ws *workspace.Workspace) (*Client, *sleeper) {
	t.Helper()
	s := &sleeper{}
	c, err := New(cfg, Options{
		Workspace:   ws,
		Sleep:       s.sleep,
		BackoffBase: time.Millisecond,
		BackoffMax:  8 * time.Millisecond,
		Jitter:      func() float64 { return 0.5 },
	})
	if err != nil {
		t.Fatal(err)
	}
	return c, s
}

func userAsk(stage, prompt string) Request {
	return Request{Stage: stage, Messages: []Message{
		{Role: RoleSystem, Content: "Answer with a JSON object {score, reason}."},
		{Role: RoleUser, Content: prompt},
	}}
}
