package llm

import (
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestExtractJSON(t *testing.T) {
	tests := []struct {
		name, text string
		open       byte
		want       string
		wantErr    string
	}{
		{"bare", ` {"a":1} `, '{', `{"a":1}`, ""},
		{"fenced json", "Here you go:\n```json\n{\"a\": 1}\n```\nDone.", '{', `{"a": 1}`, ""},
		{"fence without info", "```\n[1,2]\n```", '[', `[1,2]`, ""},
		{"one-line fence", "```{\"a\":1}```", '{', `{"a":1}`, ""},
		{"unterminated fence", "```json\n{\"a\": 1}", '{', `{"a": 1}`, ""},
		{"prose around", `I think {"a": "x}"} is right.`, '{', `{"a": "x}"}`, ""},
		{"brackets in prose first", `Result [final]: {"a": [1]}`, '{', `{"a": [1]}`, ""},
		{"escaped quote in string", `ok {"a": "say \"}\""} end`, '{', `{"a": "say \"}\""}`, ""},
		{"same value twice is fine", "{\"a\":1}\n```json\n{\"a\":1}\n```", '{', `{"a":1}`, ""},
		{"array wanted", `The list: ["x", "y"]`, '[', `["x", "y"]`, ""},
		{"any kind", `  42 `, 0, `42`, ""},
		{"empty", " \n ", '{', "", "the answer is empty; send a JSON object"},
		{"no json", "I cannot help with that.", '{', "", "the answer holds no JSON object; send only the JSON object"},
		{"two objects", `{"a":1} and {"a":2}`, '{', "", "the answer holds 2 different JSON objects; send exactly one"},
		{"two fences", "```json\n{\"a\":1}\n```\n```json\n{\"a\":2}\n```", '{', "", "the answer holds 2 different JSON objects; send exactly one"},
		{"object inside array is not taken", `[{"a":1}]`, '{', "", "the answer is a JSON array, not the JSON object asked for"},
		{"array in prose", `see [{"a":1}] above`, '{', "", "the answer holds a JSON array, not the JSON object asked for"},
		{"string", `"{}"`, '{', "", "the answer is a JSON string, not the JSON object asked for"},
		{"null", `null`, '{', "", "the answer is a JSON null, not the JSON object asked for"},
		{"truncated", `{"a": [1, 2`, '{', "", "the answer is not valid JSON: the JSON value is incomplete"},
		{"trailing comma", `{"a": 1,}`, '{', "", "the answer is not valid JSON: invalid JSON at byte 9: invalid character '}' looking for beginning of object key string"},
		{"single quotes in fence", "```json\n{'a': 1}\n```", '{', "", "the answer is not valid JSON: invalid JSON at byte 2: invalid character '\\'' looking for beginning of object key string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := extractJSON(tt.text, tt.open)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if got != tt.want || gotErr != tt.wantErr {
				t.Fatalf("extractJSON(%q) = %q, %q\nwant %q, %q", tt.text, got, gotErr, tt.want, tt.wantErr)
			}
		})
	}
}

type nested struct {
	Sections []struct {
		ID    string  `json:"id"`
		Score float64 `json:"score"`
	} `json:"sections"`
	Note *string `json:"note"`
}

func TestDecodeAnswer(t *testing.T) {
	tests := []struct {
		name, text string
		typ        reflect.Type
		want       any
		wantErr    string
	}{
		{"struct", `{"score":2,"reason":"r"}`, reflect.TypeFor[verdict](), verdict{2, "r"}, ""},
		{"slice", "```json\n[\"a\",\"b\"]\n```", reflect.TypeFor[[]string](), []string{"a", "b"}, ""},
		{"map", `{"x":1}`, reflect.TypeFor[map[string]int](), map[string]int{"x": 1}, ""},
		{"nested type error", `{"sections":[{"id":"2","score":"high"}]}`, reflect.TypeFor[nested](), nil,
			`field "sections.score" is a JSON string but must be a number`},
		{"nested unknown field", `{"sections":[{"id":"2","scroe":1}]}`, reflect.TypeFor[nested](), nil,
			`unknown field "scroe"`},
		{"validate", `{"score":6,"reason":""}`, reflect.TypeFor[verdict](), nil,
			"the JSON does not satisfy the schema: score 6 is outside 1..5"},
		{"number overflow", `{"score":1e99,"reason":""}`, reflect.TypeFor[verdict](), nil,
			`field "score" is a JSON number 1e99 but must be a whole number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := decodeAnswer(tt.text, tt.typ)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if gotErr != tt.wantErr {
				t.Fatalf("err = %q, want %q", gotErr, tt.wantErr)
			}
			if err == nil && !reflect.DeepEqual(v.Elem().Interface(), tt.want) {
				t.Fatalf("got %#v, want %#v", v.Elem().Interface(), tt.want)
			}
		})
	}
}

func FuzzDecodeAnswer(f *testing.F) {
	for _, s := range []string{`{"score":1,"reason":"x"}`, "```json\n{\"a\":[1,{\"b\":\"}\"}]}\n```", `[{]}`, `{"a":"\`, "``````", "{{{{[[[["} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := decodeAnswer(s, reflect.TypeFor[verdict]())
		if err == nil && v.Interface().(*verdict).Validate() != nil {
			t.Fatalf("accepted an invalid verdict from %q", s)
		}
		decodeAnswer(s, reflect.TypeFor[[]any]())
		decodeAnswer(s, reflect.TypeFor[any]())
	})
}

func TestHashKeyIsStable(t *testing.T) {
	// Pinned: a change here orphans every recorded exchange, so it must come
	// with a recordVersion bump.
	k := keyMaterial{Version: 1, Model: "m", Messages: []Message{{RoleSystem, "s <&>"}, {RoleUser, "u"}},
		Temperature: 0.2, MaxTokens: 100, ResponseFormat: "json_object", Schema: "audit.Report"}
	got, err := hashKey(k)
	const want = "681ac7d81c9d6c1da312927e0c1beee18a6047f04b38c2b6fde055904fcb2d63"
	if err != nil || got != want {
		t.Fatalf("hashKey = %s, %v; want %s", got, err, want)
	}
	for _, change := range []func(*keyMaterial){
		func(k *keyMaterial) { k.Model = "m2" },
		func(k *keyMaterial) { k.Messages = k.Messages[:1] },
		func(k *keyMaterial) { k.Messages = []Message{{RoleSystem, "s <&>"}, {RoleUser, "u "}} },
		func(k *keyMaterial) { k.Temperature = 0.3 },
		func(k *keyMaterial) { k.MaxTokens = 101 },
		func(k *keyMaterial) { k.ResponseFormat = "" },
		func(k *keyMaterial) { k.Schema = "rank.Scores" },
	} {
		k2 := k
		k2.Messages = append([]Message(nil), k.Messages...)
		change(&k2)
		if h, _ := hashKey(k2); h == got {
			t.Errorf("%+v hashes like %+v", k2, k)
		}
	}
}

func TestRecordPathRejectsBadHashes(t *testing.T) {
	for _, h := range []string{"", "../../etc/passwd", strings.Repeat("A", 64), strings.Repeat("a", 63)} {
		if _, err := recordPath("/ws/llm", h); err == nil {
			t.Errorf("recordPath accepted %q", h)
		}
	}
	h := strings.Repeat("ab", 32)
	if p, err := recordPath("/ws/llm", h); err != nil || p != "/ws/llm/ab/"+h+".json" {
		t.Fatalf("recordPath = %q, %v", p, err)
	}
}

func TestBackoff(t *testing.T) {
	c := &Client{opts: Options{BackoffBase: time.Second, BackoffMax: time.Minute, Jitter: func() float64 { return 0.5 }}}
	want := map[int]time.Duration{1: 500 * time.Millisecond, 2: time.Second, 3: 2 * time.Second,
		6: 16 * time.Second, 7: 30 * time.Second, 8: 30 * time.Second, 1000: 30 * time.Second}
	for attempt, w := range want {
		if got := c.backoff(attempt); got != w {
			t.Errorf("backoff(%d) = %s, want %s", attempt, got, w)
		}
	}
	c.opts.Jitter = func() float64 { return 7 } // a broken source cannot exceed the cap
	if got := c.backoff(1); got != 500*time.Millisecond {
		t.Errorf("bad jitter: %s", got)
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		h    http.Header
		want time.Duration
	}{
		{nil, -1},
		{http.Header{}, -1},
		{http.Header{"Retry-After": {"3"}}, 3 * time.Second},
		{http.Header{"Retry-After": {"1.5"}}, 1500 * time.Millisecond},
		{http.Header{"Retry-After": {"0"}}, 0},
		{http.Header{"Retry-After": {"-4"}}, -1},
		{http.Header{"Retry-After": {"NaN"}}, -1},
		{http.Header{"Retry-After": {"1e300"}}, maxRetryAfter},
		{http.Header{"Retry-After": {"Fri, 02 Jan 2026 03:04:15 GMT"}}, 10 * time.Second},
		{http.Header{"Retry-After": {"Fri, 02 Jan 2026 03:00:00 GMT"}}, 0},
		{http.Header{"Retry-After-Ms": {"20"}, "Retry-After": {"9"}}, 20 * time.Millisecond},
		{http.Header{"Retry-After": {"later"}}, -1},
	}
	for _, tt := range tests {
		if got := retryAfter(tt.h, now); got != tt.want {
			t.Errorf("retryAfter(%v) = %s, want %s", tt.h, got, tt.want)
		}
	}
}

func TestServerMessage(t *testing.T) {
	tests := []struct{ body, want string }{
		{`{"error":{"message":"bad model","type":"x"}}`, "bad model"},
		{`{"error":"model not found"}`, "model not found"},
		{`{"object":"error","message":"context too long"}`, "context too long"},
		{`{"detail":"Not Found"}`, "Not Found"},
		{`{"detail":[{"loc":["body"],"msg":"field required"}]}`, `[{"loc":["body"],"msg":"field required"}]`},
		{"<html>\n<b>502</b>\n</html>", "<html> <b>502</b> </html>"},
		{strings.Repeat("x", 400), strings.Repeat("x", 300) + "..."},
		{"", ""},
	}
	for _, tt := range tests {
		if got := serverMessage([]byte(tt.body)); got != tt.want {
			t.Errorf("serverMessage(%q) = %q, want %q", tt.body, got, tt.want)
		}
	}
}

func TestReportedCost(t *testing.T) {
	tests := []struct {
		body string
		want float64 // -1: none
	}{
		{`{"usage":{"prompt_tokens":1,"cost":0.002}}`, 0.002},
		{`{"usage":{"total_cost":0.5}}`, 0.5},
		{`{"usage":{"cost":-1}}`, -1},
		{`{"usage":{"prompt_tokens":1}}`, -1},
		{`{"usage":{"cost":"free"}}`, -1},
		{`garbage`, -1},
	}
	for _, tt := range tests {
		got := reportedCost([]byte(tt.body))
		if (got == nil) != (tt.want < 0) || got != nil && *got != tt.want {
			t.Errorf("reportedCost(%s) = %v, want %v", tt.body, got, tt.want)
		}
	}
}
