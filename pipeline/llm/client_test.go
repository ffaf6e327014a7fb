package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

const goodAnswer = `{"score": 4, "reason": "fixed"}`

func TestJSONRepairsMalformedAnswer(t *testing.T) {
	tests := []struct {
		name    string
		bad     string
		problem string
	}{
		{"prose", "Sure! The score is four.",
			"the answer holds no JSON object; send only the JSON object"},
		{"unknown field", `{"score": 3, "reason": "ok", "extra": 1}`,
			`unknown field "extra"`},
		{"wrong type", `{"score": "high", "reason": "x"}`,
			`field "score" is a JSON string but must be a whole number`},
		{"fails Validate", `{"score": 9, "reason": "x"}`,
			"the JSON does not satisfy the schema: score 9 is outside 1..5"},
		{"syntax", `{"score": 3, "reason": }`,
			"the answer is not valid JSON: invalid JSON at byte 24: invalid character '}' looking for beginning of value"},
		{"two values", `{"score": 3, "reason": "a"} {"score": 4, "reason": "b"}`,
			"the answer holds 2 different JSON objects; send exactly one"},
		{"array instead of object", `[{"score": 3}]`,
			"the answer is a JSON array, not the JSON object asked for"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, say(tt.bad), say("```json\n"+goodAnswer+"\n```"))
			c, _, _ := newTestClient(t, testConfig(f.url()))
			var v verdict
			req := userAsk("audit", "Judge section 2.")
			res, err := c.JSON(context.Background(), req, &v)
			if err != nil {
				t.Fatalf("JSON: %v", err)
			}
			if v != (verdict{4, "fixed"}) || res.Tries != 2 || res.Asks != 2 || res.CacheHit {
				t.Fatalf("got %+v, result %+v", v, res)
			}
			if f.count() != 2 {
				t.Fatalf("server saw %d requests, want 2", f.count())
			}
			want := append(append([]Message(nil), req.Messages...),
				Message{RoleAssistant, tt.bad},
				Message{RoleUser, "Your previous answer could not be used: " + tt.problem +
					". Reply again with only the corrected JSON, no prose and no code fences."})
			if got := f.request(1).Messages; !reflect.DeepEqual(got, want) {
				t.Errorf("second request messages:\n got %q\nwant %q", got, want)
			}
		})
	}
}

func TestJSONGivesUpAfterMaxTries(t *testing.T) {
	f := newFake(t)
	f.fallback = say(`{"score": 0, "reason": "x"}`)
	c, ws, _ := newTestClient(t, testConfig(f.url()))
	var v verdict
	res, err := c.JSON(context.Background(), userAsk("audit", "x"), &v)
	want := "llm audit: no valid answer after 3 tries: the JSON does not satisfy the schema: score 0 is outside 1..5"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
	if f.count() != 3 || res == nil || res.Tries != 3 || res.Asks != 3 || v != (verdict{}) {
		t.Fatalf("requests %d, result %+v, out %+v", f.count(), res, v)
	}
	rec := readRecordFile(t, ws.Root, res.Hash)
	if rec.OK || rec.Error != want || len(rec.Tries) != 3 || rec.Tries[2].Feedback != "" || rec.Tries[1].Feedback == "" {
		t.Fatalf("record = %+v", rec)
	}
	// A failed exchange is recorded but never served: replay-only reports
	// it, and a normal rerun asks again without a warning.
	rcfg := testConfig(f.url())
	rcfg.ReplayOnly = true
	rc, _ := newClientOn(t, rcfg, ws)
	path := filepath.Join(ws.Root, "llm", res.Hash[:2], res.Hash+".json")
	_, err = rc.JSON(context.Background(), userAsk("audit", "x"), &v)
	if wantR := "llm audit: replay-only: record " + res.Hash + " unusable: record " + path + ": holds a failed exchange: " + want; err == nil || err.Error() != wantR {
		t.Fatalf("replay-only err = %v\nwant %s", err, wantR)
	}
	var logs []string
	c.opts.Logf = func(format string, args ...any) { logs = append(logs, fmt.Sprintf(format, args...)) }
	f.fallback = say(goodAnswer)
	if _, err := c.JSON(context.Background(), userAsk("audit", "x"), &v); err != nil || f.count() != 4 || len(logs) != 0 {
		t.Fatalf("rerun: err %v, requests %d, logs %q", err, f.count(), logs)
	}
	if rec := readRecordFile(t, ws.Root, res.Hash); !rec.OK {
		t.Fatalf("record not replaced by the successful exchange: %+v", rec)
	}
}

func TestFinishReasonLengthIsExplained(t *testing.T) {
	cut := func(w http.ResponseWriter, r *http.Request, req wireRequest) {
		completion(w, `{"score": 3, "rea`, "length", nil)
	}
	f := newFake(t, cut, say(goodAnswer))
	c, _, _ := newTestClient(t, testConfig(f.url()))
	var v verdict
	if _, err := c.JSON(context.Background(), userAsk("map", "x"), &v); err != nil {
		t.Fatal(err)
	}
	msgs := f.request(1).Messages
	want := "Your previous answer could not be used: the answer is not valid JSON: the JSON value is incomplete" +
		" (the answer was cut off at the token limit; make it shorter). Reply again with only the corrected JSON, no prose and no code fences."
	if got := msgs[len(msgs)-1].Content; got != want {
		t.Fatalf("feedback = %q\nwant %q", got, want)
	}
}

func TestRetryOn429HonoursRetryAfter(t *testing.T) {
	tests := []struct {
		name    string
		headers []string
		want    []time.Duration
	}{
		{"seconds", []string{"Retry-After", "7"}, []time.Duration{7 * time.Second}},
		{"milliseconds", []string{"Retry-After-Ms", "250"}, []time.Duration{250 * time.Millisecond}},
		{"capped", []string{"Retry-After", "86400"}, []time.Duration{maxRetryAfter}},
		{"no header: backoff with jitter", nil, []time.Duration{500 * time.Microsecond}},
		{"unreadable header: backoff", []string{"Retry-After", "soon"}, []time.Duration{500 * time.Microsecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, fail(429, "rate limited", tt.headers...), say(goodAnswer))
			c, _, s := newTestClient(t, testConfig(f.url()))
			var v verdict
			res, err := c.JSON(context.Background(), userAsk("rank", "x"), &v)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(s.got(), tt.want) || f.count() != 2 || res.Tries != 2 || res.Asks != 1 {
				t.Fatalf("waits %v (want %v), requests %d, result %+v", s.got(), tt.want, f.count(), res)
			}
		})
	}
}

func TestRetryOn5xxBurst(t *testing.T) {
	f := newFake(t, fail(500, "boom"), fail(502, "bad gateway"), fail(503, "overloaded"), say(goodAnswer))
	cfg := testConfig(f.url())
	cfg.MaxTries = 4
	c, _, s := newTestClient(t, cfg)
	var v verdict
	res, err := c.JSON(context.Background(), userAsk("mutate", "x"), &v)
	if err != nil {
		t.Fatal(err)
	}
	// Full jitter 0.5 over base 1ms doubling: 0.5ms, 1ms, 2ms.
	want := []time.Duration{500 * time.Microsecond, time.Millisecond, 2 * time.Millisecond}
	if !reflect.DeepEqual(s.got(), want) || f.count() != 4 || res.Tries != 4 || v != (verdict{4, "fixed"}) {
		t.Fatalf("waits %v, requests %d, result %+v, out %+v", s.got(), f.count(), res, v)
	}
}

func TestRetriesExhausted(t *testing.T) {
	tests := []struct {
		name string
		step step
		want string // after "llm audit: gave up after 3 tries: POST <url>: "
	}{
		{"5xx", fail(503, "overloaded"), "503 Service Unavailable: overloaded"},
		{"timeout", hang, "timed out after 20ms"},
		{"garbled 200", func(w http.ResponseWriter, r *http.Request, req wireRequest) {
			w.Write([]byte("<html>gateway</html>"))
		}, "200 response is not chat-completion JSON: invalid character '<' looking for beginning of value"},
		{"no choices", func(w http.ResponseWriter, r *http.Request, req wireRequest) {
			w.Write([]byte(`{"choices":[],"error":{"message":"upstream died"}}`))
		}, "no choices in the response: upstream died"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t)
			f.fallback = tt.step
			cfg := testConfig(f.url())
			if tt.name == "timeout" {
				// Only this case waits for it: on a loaded machine a
				// short timeout would turn the other cases into it.
				cfg.Timeout = 20 * time.Millisecond
			}
			c, _, s := newTestClient(t, cfg)
			var v verdict
			res, err := c.JSON(context.Background(), userAsk("audit", "x"), &v)
			want := "llm audit: gave up after 3 tries: POST " + f.url() + "/chat/completions: " + tt.want
			if err == nil || err.Error() != want {
				t.Fatalf("err = %v\nwant %s", err, want)
			}
			if f.count() != 3 || res.Tries != 3 || len(s.got()) != 2 {
				t.Fatalf("requests %d, tries %d, waits %v", f.count(), res.Tries, s.got())
			}
		})
	}
}

func TestTimeoutThenSuccess(t *testing.T) {
	f := newFake(t, hang, say(goodAnswer))
	cfg := testConfig(f.url())
	cfg.Timeout = 20 * time.Millisecond
	c, ws, s := newTestClient(t, cfg)
	var v verdict
	res, err := c.JSON(context.Background(), userAsk("augment", "x"), &v)
	if err != nil {
		t.Fatal(err)
	}
	if v != (verdict{4, "fixed"}) || res.Tries != 2 || f.count() != 2 || len(s.got()) != 1 {
		t.Fatalf("out %+v, result %+v, requests %d, waits %v", v, res, f.count(), s.got())
	}
	rec := readRecordFile(t, ws.Root, res.Hash)
	wantErr := "POST " + f.url() + "/chat/completions: timed out after 20ms"
	if rec.Tries[0].Error != wantErr || rec.Tries[0].Status != 0 || rec.Tries[1].Error != "" {
		t.Fatalf("tries = %+v", rec.Tries)
	}
}

func TestClientErrorsAreNotRetried(t *testing.T) {
	ollama := func(w http.ResponseWriter, r *http.Request, req wireRequest) {
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"error":"model \"llama9\" not found, try pulling it first"}`))
	}
	tests := []struct {
		name string
		step step
		want string // after "llm audit: POST <url>: "
	}{
		{"404 openai shape", fail(404, "The model `gpt-9` does not exist"),
			"404 Not Found: The model `gpt-9` does not exist (check LOLBENCH_LLM_BASE_URL and the model name)"},
		{"404 ollama shape", ollama,
			`404 Not Found: model "llama9" not found, try pulling it first (check LOLBENCH_LLM_BASE_URL and the model name)`},
		{"401", fail(401, "invalid token"), "401 Unauthorized: invalid token (check LOLBENCH_LLM_API_KEY)"},
		{"400 other", fail(400, "messages: too long"), "400 Bad Request: messages: too long"},
		{"422 plain body", func(w http.ResponseWriter, r *http.Request, req wireRequest) {
			w.WriteHeader(422)
			w.Write([]byte("bad\n\x00input"))
		}, "422 Unprocessable Entity: bad input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, tt.step)
			c, _, s := newTestClient(t, testConfig(f.url()))
			var v verdict
			_, err := c.JSON(context.Background(), userAsk("audit", "x"), &v)
			want := "llm audit: POST " + f.url() + "/chat/completions: " + tt.want
			if err == nil || err.Error() != want {
				t.Fatalf("err = %v\nwant %s", err, want)
			}
			if f.count() != 1 || len(s.got()) != 0 {
				t.Fatalf("requests %d, waits %v", f.count(), s.got())
			}
		})
	}
}

func TestResponseFormatRejectedIsDroppedAndRemembered(t *testing.T) {
	f := newFake(t)
	f.fallback = func(w http.ResponseWriter, r *http.Request, req wireRequest) {
		if req.ResponseFormat != nil {
			fail(400, "Unsupported parameter: 'response_format' is not supported with this model.")(w, r, req)
			return
		}
		completion(w, goodAnswer, "stop", nil)
	}
	c, ws, s := newTestClient(t, testConfig(f.url()))
	var v verdict
	res, err := c.JSON(context.Background(), userAsk("audit", "first"), &v)
	if err != nil {
		t.Fatal(err)
	}
	if f.count() != 2 || res.Tries != 2 || len(s.got()) != 0 {
		t.Fatalf("requests %d, result %+v, waits %v", f.count(), res, s.got())
	}
	rec := readRecordFile(t, ws.Root, res.Hash)
	if !rec.Tries[0].ResponseFormat || rec.Tries[0].Status != 400 || rec.Tries[1].ResponseFormat || rec.Tries[1].Status != 200 {
		t.Fatalf("tries = %+v", rec.Tries)
	}
	// The client remembers: the next request goes without response_format.
	if _, err := c.JSON(context.Background(), userAsk("audit", "second"), &v); err != nil {
		t.Fatal(err)
	}
	if f.count() != 3 || f.request(2).ResponseFormat != nil {
		t.Fatalf("requests %d, third had response_format %v", f.count(), f.request(2).ResponseFormat)
	}
}

func TestRequestOnTheWire(t *testing.T) {
	f := newFake(t, say(goodAnswer), say(goodAnswer))
	cfg := testConfig(f.url())
	cfg.APIKey = "k-123"
	cfg.Models = map[string]string{"audit": "m-judge"}
	cfg.MaxTokens = 512
	c, _, _ := newTestClient(t, cfg)
	var v verdict
	if _, err := c.JSON(context.Background(), userAsk("audit", "x"), &v); err != nil {
		t.Fatal(err)
	}
	half := 0.5
	r := userAsk("map", "x")
	r.Temperature, r.MaxTokens = &half, 100
	if _, err := c.JSON(context.Background(), r, &v); err != nil {
		t.Fatal(err)
	}
	a, b := f.request(0), f.request(1)
	if a.Model != "m-judge" || a.Auth != "Bearer k-123" || a.MaxTokens != 512 ||
		a.ResponseFormat == nil || a.ResponseFormat.Type != "json_object" ||
		a.Temperature == nil || *a.Temperature <= 0 || *a.Temperature > 1e-30 {
		t.Fatalf("first request = %+v (temperature %v)", a, a.Temperature)
	}
	if b.Model != "m-default" || b.MaxTokens != 100 || b.Temperature == nil || *b.Temperature != 0.5 {
		t.Fatalf("second request = %+v", b)
	}
}

func TestRecordReplayRoundTrip(t *testing.T) {
	withCost := func(w http.ResponseWriter, r *http.Request, req wireRequest) {
		completion(w, goodAnswer, "stop", map[string]any{"cost": 0.0025})
	}
	f := newFake(t, withCost, say(goodAnswer))
	cfg := testConfig(f.url())
	c, ws, _ := newTestClient(t, cfg)
	var first verdict
	req := userAsk("audit", "Judge section 3.")
	res1, err := c.JSON(context.Background(), req, &first)
	if err != nil {
		t.Fatal(err)
	}
	if res1.CacheHit || res1.Cost == nil || *res1.Cost != 0.0025 || res1.Usage != (Usage{12, 7, 19}) || res1.Answer != goodAnswer {
		t.Fatalf("first result %+v", res1)
	}
	rec := readRecordFile(t, ws.Root, res1.Hash)
	if !rec.OK || rec.Answer != goodAnswer || rec.Stage != "audit" || rec.Model != "m-default" ||
		rec.Schema != "llm.verdict" || rec.ResponseFormat != "json_object" || !reflect.DeepEqual(rec.Messages, req.Messages) ||
		len(rec.Tries) != 1 || rec.Usage != (Usage{12, 7, 19}) || rec.Cost == nil || *rec.Cost != 0.0025 {
		t.Fatalf("record = %+v", rec)
	}

	// A new client (a rerun) on the same workspace makes no request.
	c2, _ := newClientOn(t, cfg, ws)
	var second verdict
	res2, err := c2.JSON(context.Background(), req, &second)
	if err != nil {
		t.Fatal(err)
	}
	if f.count() != 1 || !res2.CacheHit || second != first || res2.Hash != res1.Hash ||
		res2.Usage != res1.Usage || *res2.Cost != 0.0025 || res2.Tries != 1 || res2.Asks != 1 {
		t.Fatalf("requests %d, result %+v, out %+v", f.count(), res2, second)
	}

	// Replay-only needs no endpoint at all.
	cfg.BaseURL, cfg.ReplayOnly = "", true
	c3, _ := newClientOn(t, cfg, ws)
	var third verdict
	if res3, err := c3.JSON(context.Background(), req, &third); err != nil || !res3.CacheHit || third != first {
		t.Fatalf("replay-only: %+v, %v", res3, err)
	}

	// Any change to what determines the answer is a miss.
	temp := 0.7
	changed := req
	changed.Temperature = &temp
	if res, err := c2.JSON(context.Background(), changed, &second); err != nil || res.CacheHit || f.count() != 2 {
		t.Fatalf("changed request: %+v, %v, requests %d", res, err, f.count())
	}
}

func TestReplayOnlyMissingRecord(t *testing.T) {
	f := newFake(t)
	cfg := testConfig(f.url())
	cfg.ReplayOnly = true
	c, _, _ := newTestClient(t, cfg)
	var v verdict
	req := userAsk("rank", "x")
	_, err := c.JSON(context.Background(), req, &v)
	hash, _ := hashKey(keyMaterial{Version: recordVersion, Model: "m-default", Messages: req.Messages,
		ResponseFormat: "json_object", Schema: "llm.verdict"})
	want := "llm rank: replay-only: no recorded exchange " + hash +
		" (model m-default, schema llm.verdict); run once without replay-only to record it"
	if err == nil || err.Error() != want || !errors.Is(err, ErrNoRecord) {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
	if f.count() != 0 {
		t.Fatalf("replay-only made %d requests", f.count())
	}
	if _, err := New(cfg, Options{}); err == nil || err.Error() != "llm: replay-only needs a workspace that holds the recorded exchanges" {
		t.Fatalf("New without workspace: %v", err)
	}
}

func TestCorruptRecord(t *testing.T) {
	tests := []struct {
		name    string
		content string
		problem string // after "record <path>: "
	}{
		{"not json", "{not json", "invalid character 'n' looking for beginning of object key string"},
		{"unknown field", `{"version":1,"bogus":true}`, `json: unknown field "bogus"`},
		{"other hash", `{"version":1,"hash":"abc"}`, `holds hash "abc"`},
		{"old version", `{"version":0}`, "version 0, want 1"},
		{"answer no longer fits", "", "recorded answer does not fit llm.verdict: the JSON does not satisfy the schema: score 0 is outside 1..5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, say(goodAnswer))
			cfg := testConfig(f.url())
			c, w, _ := newTestClient(t, cfg)
			req := userAsk("audit", "x")
			hash, _ := hashKey(keyMaterial{Version: recordVersion, Model: "m-default", Messages: req.Messages,
				ResponseFormat: "json_object", Schema: "llm.verdict"})
			path, _ := recordPath(filepath.Join(w.Root, "llm"), hash)
			content := tt.content
			if content == "" {
				b, _ := json.Marshal(Record{Version: recordVersion, Hash: hash, Model: "m-default", Schema: "llm.verdict",
					OK: true, Answer: `{"score":0,"reason":"old"}`})
				content = string(b)
			}
			os.MkdirAll(filepath.Dir(path), 0o755)
			os.WriteFile(path, []byte(content), 0o644)
			wantProblem := "record " + path + ": " + tt.problem

			// ReplayOnly: an error naming the file, no request.
			rcfg := cfg
			rcfg.ReplayOnly = true
			rc, _ := newClientOn(t, rcfg, w)
			var v verdict
			_, err := rc.JSON(context.Background(), req, &v)
			want := "llm audit: replay-only: record " + hash + " unusable: " + wantProblem
			if err == nil || err.Error() != want {
				t.Fatalf("replay-only err = %v\nwant %s", err, want)
			}

			// Otherwise: reported, treated as missing, and rewritten.
			var logs []string
			c.opts.Logf = func(format string, args ...any) { logs = append(logs, fmt.Sprintf(format, args...)) }
			res, err := c.JSON(context.Background(), req, &v)
			if err != nil || res.CacheHit || f.count() != 1 {
				t.Fatalf("result %+v, err %v, requests %d", res, err, f.count())
			}
			wantLog := "llm audit: ignoring record and asking again: " + wantProblem
			if len(logs) != 1 || logs[0] != wantLog {
				t.Fatalf("logs = %q\nwant %q", logs, wantLog)
			}
			if rec := readRecordFile(t, w.Root, hash); !rec.OK || rec.Answer != goodAnswer {
				t.Fatalf("record not rewritten: %+v", rec)
			}
		})
	}
}

func TestConcurrencyNeverExceedsLimit(t *testing.T) {
	for _, limit := range []int{0, 2} { // 0: the default, five
		want := limit
		if want == 0 {
			want = DefaultConcurrency
		}
		t.Run(fmt.Sprint(want), func(t *testing.T) {
			f := newFake(t)
			full := make(chan struct{})
			var once sync.Once
			f.fallback = func(w http.ResponseWriter, r *http.Request, req wireRequest) {
				// Hold every request until the limit is reached once, so the
				// peak is exactly the limit when the semaphore works.
				if int(f.inflight.Load()) >= want {
					once.Do(func() { close(full) })
				}
				select {
				case <-full:
				case <-time.After(5 * time.Second):
				}
				completion(w, goodAnswer, "stop", nil)
			}
			cfg := testConfig(f.url())
			cfg.Concurrency = limit
			c, _, _ := newTestClient(t, cfg)
			var wg sync.WaitGroup
			errs := make(chan error, 12)
			for i := range 12 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					var v verdict
					_, err := c.JSON(context.Background(), userAsk("mutate", fmt.Sprint("prompt ", i)), &v)
					errs <- err
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			if got := int(f.maxInflight.Load()); got != want || f.count() != 12 {
				t.Fatalf("peak in flight %d, want %d; requests %d", got, want, f.count())
			}
		})
	}
}

func TestCanceledContext(t *testing.T) {
	f := newFake(t)
	c, _, _ := newTestClient(t, testConfig(f.url()))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var v verdict
	_, err := c.JSON(ctx, userAsk("audit", "x"), &v)
	if !errors.Is(err, context.Canceled) || f.count() != 0 {
		t.Fatalf("err %v, requests %d", err, f.count())
	}
}

func TestBadRequests(t *testing.T) {
	f := newFake(t)
	c, _, _ := newTestClient(t, testConfig(f.url()))
	var v verdict
	hot := 2.5
	tests := []struct {
		req  Request
		out  any
		want string
	}{
		{Request{Messages: []Message{{RoleUser, "x"}}}, &v, "llm : request has no stage"},
		{Request{Stage: "audit"}, &v, "llm audit: request has no messages"},
		{Request{Stage: "audit", Messages: []Message{{"tool", "x"}}}, &v,
			`llm audit: message 1 has role "tool"; want system, user or assistant`},
		{userAsk("audit", "x"), v, "llm audit: out must be a non-nil pointer, got llm.verdict"},
		{userAsk("audit", "x"), (*verdict)(nil), "llm audit: out must be a non-nil pointer, got *llm.verdict"},
		{Request{Stage: "audit", Messages: []Message{{RoleUser, "x"}}, Temperature: &hot}, &v,
			"llm audit: temperature must be between 0 and 2, got 2.5"},
	}
	for _, tt := range tests {
		if _, err := c.JSON(context.Background(), tt.req, tt.out); err == nil || err.Error() != tt.want {
			t.Errorf("err = %v, want %s", err, tt.want)
		}
	}
	if f.count() != 0 {
		t.Fatalf("bad requests reached the server %d times", f.count())
	}
}

func TestNoEndpoint(t *testing.T) {
	const want = "no LLM endpoint configured; set LOLBENCH_LLM_BASE_URL (and LOLBENCH_LLM_MODEL, LOLBENCH_LLM_API_KEY if the endpoint needs one)"
	cfg, err := Resolve("", func(string) string { return "" }, Config{})
	if err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	for _, c := range []Config{{}, cfg, {Model: "m", APIKey: "k"}} {
		if err := c.Validate(); err != ErrNoEndpoint || err.Error() != want {
			t.Errorf("Validate(%+v) = %v", c, err)
		}
		if cl, err := New(c, Options{}); cl != nil || err != ErrNoEndpoint {
			t.Errorf("New(%+v) = %v, %v", c, cl, err)
		}
	}
	if ErrNoEndpoint.Error() != want {
		t.Fatalf("ErrNoEndpoint = %q", ErrNoEndpoint)
	}
}

func TestKeyNeverLeaks(t *testing.T) {
	const key = "sk-test-Zq9SECRETkey"
	echo := func(w http.ResponseWriter, r *http.Request, req wireRequest) {
		if r.Header.Get("Authorization") != "Bearer "+key {
			t.Errorf("Authorization = %q", r.Header.Get("Authorization"))
		}
		fail(401, "Incorrect API key provided: "+key+". You can find your API key at ...")(w, r, req)
	}
	f := newFake(t, echo,
		say("my key is "+key), say(`{"score": 9, "reason": "`+key+`"}`), say(`{"score": 2, "reason": "`+key+`"}`),
		fail(503, "overloaded for "+key), fail(503, "overloaded for "+key), fail(503, "overloaded for "+key))
	cfg := testConfig(f.url())
	cfg.APIKey = key
	c, ws, _ := newTestClient(t, cfg)
	var logs []string
	c.opts.Logf = func(format string, args ...any) { logs = append(logs, fmt.Sprintf(format, args...)) }
	var v verdict
	var errs []string
	_, err := c.JSON(context.Background(), userAsk("audit", "one"), &v)
	wantErr := "llm audit: POST " + f.url() + "/chat/completions: 401 Unauthorized: Incorrect API key provided: [redacted]. " +
		"You can find your API key at ... (check LOLBENCH_LLM_API_KEY)"
	if err == nil || err.Error() != wantErr {
		t.Fatalf("err = %v\nwant %s", err, wantErr)
	}
	errs = append(errs, err.Error())
	if _, err := c.JSON(context.Background(), userAsk("audit", "two "+key), &v); err != nil {
		t.Fatal(err)
	}
	_, err = c.JSON(context.Background(), userAsk("audit", "three"), &v)
	if err == nil {
		t.Fatal("503s did not fail")
	}
	errs = append(errs, err.Error())
	// Config printing and marshalling.
	js, _ := json.Marshal(cfg)
	errs = append(errs, fmt.Sprintf("%v %+v %#v %s %q %x", cfg, cfg, cfg, cfg.APIKey, cfg.APIKey, cfg.APIKey),
		string(js), fmt.Sprintf("%+v", c.Config()))
	for _, s := range append(errs, logs...) {
		if strings.Contains(s, key) {
			t.Errorf("key leaked in %q", s)
		}
	}
	if !strings.Contains(fmt.Sprintf("%+v", cfg), "APIKey:[redacted]") {
		t.Errorf("%%+v = %+v", cfg)
	}
	records := 0
	filepath.WalkDir(filepath.Join(ws.Root, "llm"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		records++
		b, _ := os.ReadFile(p)
		if strings.Contains(string(b), key) {
			t.Errorf("key leaked in record %s", p)
		}
		if !strings.Contains(string(b), "[redacted]") {
			t.Errorf("record %s has no redaction marker; did the scripted key reach it?", p)
		}
		return nil
	})
	if records != 3 {
		t.Fatalf("%d records, want 3", records)
	}
}

// readRecordFile reads the record for hash under the workspace root.
func readRecordFile(t *testing.T, root, hash string) Record {
	t.Helper()
	path := filepath.Join(root, "llm", hash[:2], hash+".json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return r
}

func TestCanceledMidRequestIsNotRecorded(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, req wireRequest) {
		cancel()
		hang(w, r, req)
	})
	c, ws, s := newTestClient(t, testConfig(f.url()))
	var v verdict
	_, err := c.JSON(ctx, userAsk("audit", "x"), &v)
	if !errors.Is(err, context.Canceled) || f.count() != 1 || len(s.got()) != 0 {
		t.Fatalf("err %v, requests %d, waits %v", err, f.count(), s.got())
	}
	if _, err := os.Stat(filepath.Join(ws.Root, "llm")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a canceled exchange left records: %v", err)
	}
}
