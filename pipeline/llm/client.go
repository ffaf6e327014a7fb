// Package llm is the one client that the LLM-backed stages (map, audit, rank,
// mutate, augment) share to talk to any OpenAI-compatible chat-completions
// endpoint: OpenRouter, vLLM, Ollama, a llama.cpp server or OpenAI itself.
//
// Every answer is asked for as JSON, decoded strictly into the caller's Go
// value and validated; a malformed answer is sent back to the model with the
// exact problem, a bounded number of times. Timeouts, 429 and 5xx are retried
// with capped exponential backoff and full jitter. A semaphore bounds the
// requests in flight (five by default, the paper's "batches of five"). Every
// exchange is recorded under <workspace>/llm/, keyed by a hash of what
// determines the answer, so a rerun is served from disk with no HTTP call and
// ReplayOnly makes a run reproducible and auditable (docs/design.md, "Anything
// the model said is recorded"). The API key never reaches a record, an error or
// a log line.
package llm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/lolbench/lolbench/pipeline/workspace"
)

// Message roles accepted in a Request.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Message is one chat message.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Request is one question to the model.
type Request struct {
	// Stage names the asking stage ("audit"); it picks the model (see
	// Config.Models) and names the exchange in errors and records.
	Stage string
	// Messages are the prompt: usually one system and one user message.
	Messages []Message
	// Schema names the expected answer shape in the record key; empty means
	// the Go type name of the value passed to JSON (e.g. "audit.Report").
	Schema string
	// Temperature and MaxTokens override the configuration for this
	// request when set.
	Temperature *float64
	MaxTokens   int
}

// Result describes how an answer was obtained. On error a non-nil Result
// still counts what was spent.
type Result struct {
	// Hash is the record key; the record is <workspace>/llm/<Hash[:2]>/<Hash>.json.
	Hash  string
	Stage string
	Model string
	// Answer is the raw text of the accepted answer.
	Answer string
	// Tries counts HTTP requests, Asks the answers asked for (1 plus the
	// re-asks after malformed answers). For a cache hit both are the
	// recorded counts.
	Tries int
	Asks  int
	Usage Usage
	// Cost is the spend the endpoint reported (OpenRouter's usage.cost), or
	// nil when it reported none.
	Cost *float64
	// Latency is the wall time of the exchange, backoff included; for a
	// cache hit it is the recorded one.
	Latency time.Duration
	// CacheHit is true when the answer came from the workspace record and
	// no HTTP request was made.
	CacheHit bool
}

// ErrNoRecord is wrapped by the error JSON returns in ReplayOnly mode when
// the record a request needs is missing.
var ErrNoRecord = errors.New("no recorded exchange")

// HTTPDoer sends HTTP requests; *http.Client is one.
type HTTPDoer interface {
	Do(*http.Request) (*http.Response, error)
}

// Options are the client's collaborators, as opposed to the user's
// configuration. The zero value is usable, but records need a Workspace.
type Options struct {
	// Workspace holds the records under <root>/llm. Nil disables recording
	// and replay (and then ReplayOnly is an error).
	Workspace *workspace.Workspace
	// HTTPClient sends the requests; nil means a plain *http.Client. The
	// per-request timeout comes from Config.Timeout, not from here.
	HTTPClient HTTPDoer
	// Sleep waits between tries; nil sleeps on a timer and returns early
	// with ctx's error. Tests inject a recorder.
	Sleep func(ctx context.Context, d time.Duration) error
	// BackoffBase and BackoffMax shape the exponential backoff
	// (base·2^(try-1), capped at max, then full jitter). Zero means 1s and
	// 60s.
	BackoffBase time.Duration
	BackoffMax  time.Duration
	// Jitter returns a number in [0, 1); nil uses math/rand/v2.
	Jitter func() float64
	// Logf reports warnings such as a corrupt record; nil discards them.
	Logf func(format string, args ...any)
}

// Limits that protect the client from a hostile or broken server.
const (
	maxResponseBytes = 32 << 20
	maxRetryAfter    = 5 * time.Minute
	errorSnippet     = 300
)

// Client asks an OpenAI-compatible endpoint for JSON answers. It is safe for
// concurrent use; all callers share its concurrency limit.
type Client struct {
	cfg      Config
	key      string
	api      *openai.Client
	endpoint string // redacted, for messages
	dir      string // records folder, "" when not recording
	sem      chan struct{}
	opts     Options
	// noFormat remembers that the server rejected response_format, so later
	// requests do not pay for the rejection again.
	noFormat atomic.Bool
	// spent remembers, for each answer the client accepted, what its
	// question has cost in answers so far. A caller that sends the answer
	// back with a correction of its own (the judge's coverage check) is
	// asking the same question again: the re-ask draws on the same
	// budget, so one question costs at most MaxTries answers in all.
	spentMu sync.Mutex
	spent   map[string]int
}

// New returns a client for cfg. Without an endpoint it returns
// ErrNoEndpoint itself (unless cfg.ReplayOnly, which needs only a model and
// the workspace records).
func New(cfg Config, opts Options) (*Client, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	c := &Client{cfg: cfg, key: string(cfg.APIKey), opts: opts, sem: make(chan struct{}, cfg.Concurrency)}
	if opts.Workspace != nil {
		dir, err := opts.Workspace.Path("llm")
		if err != nil {
			return nil, err
		}
		c.dir = dir
	} else if cfg.ReplayOnly {
		return nil, errors.New("llm: replay-only needs a workspace that holds the recorded exchanges")
	}
	if c.opts.HTTPClient == nil {
		c.opts.HTTPClient = &http.Client{}
	}
	if c.opts.Sleep == nil {
		c.opts.Sleep = sleepCtx
	}
	if c.opts.BackoffBase <= 0 {
		c.opts.BackoffBase = time.Second
	}
	if c.opts.BackoffMax <= 0 {
		c.opts.BackoffMax = time.Minute
	}
	if c.opts.Jitter == nil {
		c.opts.Jitter = rand.Float64
	}
	base := strings.TrimRight(cfg.BaseURL, "/")
	oc := openai.DefaultConfig(c.key)
	oc.BaseURL = base
	oc.HTTPClient = captureDoer{c.opts.HTTPClient}
	c.api = openai.NewClientWithConfig(oc)
	if u, err := url.Parse(base + "/chat/completions"); err == nil {
		c.endpoint = u.Redacted()
	}
	return c, nil
}

// Config returns the effective configuration (defaults applied). Its
// APIKey prints as "[redacted]".
func (c *Client) Config() Config { return c.cfg }

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *Client) warnf(format string, args ...any) {
	if c.opts.Logf != nil {
		c.opts.Logf("%s", c.redact(fmt.Sprintf(format, args...)))
	}
}

// redact removes the API key from s. Servers echo keys in error messages
// ("Incorrect API key provided: sk-...") and network errors quote URLs.
func (c *Client) redact(s string) string {
	if c.key == "" {
		return s
	}
	return strings.ReplaceAll(s, c.key, "[redacted]")
}

// redactErr is the error a caller sees: redacted text, still matching
// errors.Is for the sentinels and context errors.
func (c *Client) redactErr(err error) error {
	if err == nil {
		return nil
	}
	msg := c.redact(err.Error())
	for _, target := range []error{ErrNoRecord, context.Canceled, context.DeadlineExceeded} {
		if errors.Is(err, target) {
			return &redactedError{msg: msg, target: target}
		}
	}
	return errors.New(msg)
}

type redactedError struct {
	msg    string
	target error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.target }

// JSON asks the model and decodes its answer into out, which must be a
// non-nil pointer (to a struct, map, slice, ...). The answer is decoded
// strictly (unknown fields are errors) and, when *out implements Validator,
// validated; a malformed answer is kept in the conversation and followed by
// a user message naming the problem, up to Config.MaxTries answers for the
// question in all: when req ends with an answer this client accepted and a
// correction, it continues that question and has what is left of its
// budget. A recorded exchange for the same inputs is served without any
// HTTP request.
func (c *Client) JSON(ctx context.Context, req Request, out any) (*Result, error) {
	res, err := c.json(ctx, req, out)
	return res, c.redactErr(err)
}

func (c *Client) json(ctx context.Context, req Request, out any) (*Result, error) {
	start := time.Now()
	if err := req.check(); err != nil {
		return nil, fmt.Errorf("llm %s: %w", req.Stage, err)
	}
	rv := reflect.ValueOf(out)
	if !rv.IsValid() || rv.Kind() != reflect.Pointer || rv.IsNil() {
		return nil, fmt.Errorf("llm %s: out must be a non-nil pointer, got %T", req.Stage, out)
	}
	typ := rv.Type().Elem()
	schema := req.Schema
	if schema == "" {
		schema = typ.String()
	}
	temp := *c.cfg.Temperature
	if req.Temperature != nil {
		if err := checkTemperature(*req.Temperature); err != nil {
			return nil, fmt.Errorf("llm %s: %w", req.Stage, err)
		}
		temp = *req.Temperature
	}
	maxTokens := c.cfg.MaxTokens
	if req.MaxTokens > 0 {
		maxTokens = req.MaxTokens
	}
	model := c.cfg.ModelFor(req.Stage)
	spent := c.spentOn(req.Stage, model, schema, req.Messages)
	budget := c.cfg.MaxTries - spent
	if budget <= 0 {
		return nil, fmt.Errorf("llm %s: the question has had its %d answers (max_tries), and the last still did not fit; it is not asked again", req.Stage, spent)
	}
	hash, err := hashKey(keyMaterial{
		Version: recordVersion, Model: model, Messages: req.Messages, Temperature: temp,
		MaxTokens: maxTokens, ResponseFormat: responseFormatJSON, Schema: schema,
	})
	if err != nil {
		return nil, fmt.Errorf("llm %s: %w", req.Stage, err)
	}
	res := &Result{Hash: hash, Stage: req.Stage, Model: model}

	var path string
	if c.dir != "" {
		p, err := recordPath(c.dir, hash)
		if err != nil {
			return nil, fmt.Errorf("llm %s: %w", req.Stage, err)
		}
		path = p
		hit, err := c.replay(path, hash, model, schema, typ, rv, res)
		if hit {
			c.remember(req.Stage, model, schema, req.Messages, res.Answer, spent+res.Asks)
			return res, nil
		}
		if c.cfg.ReplayOnly {
			if errors.Is(err, errNoRecord) {
				return nil, fmt.Errorf("llm %s: replay-only: %w %s (model %s, schema %s); run once without replay-only to record it",
					req.Stage, ErrNoRecord, hash, model, schema)
			}
			return nil, fmt.Errorf("llm %s: replay-only: record %s unusable: %w", req.Stage, hash, err)
		}
		if err != nil && !errors.Is(err, errNoRecord) && !errors.Is(err, errFailedRecord) {
			c.warnf("llm %s: ignoring record and asking again: %v", req.Stage, err)
		}
	} else if c.cfg.ReplayOnly {
		return nil, fmt.Errorf("llm %s: replay-only without a workspace", req.Stage)
	}

	rec := &Record{
		Version: recordVersion, Hash: hash, Stage: req.Stage, Model: model, Schema: schema,
		Messages: req.Messages, Temperature: temp, MaxTokens: maxTokens, ResponseFormat: responseFormatJSON,
	}
	finish := func(err error) (*Result, error) {
		res.Tries = len(rec.Tries)
		res.Asks = rec.Asks
		res.Latency = time.Since(start)
		for _, t := range rec.Tries {
			res.Usage.add(t.Usage)
			if t.Cost != nil {
				sum := *t.Cost
				if res.Cost != nil {
					sum += *res.Cost
				}
				res.Cost = &sum
			}
		}
		rec.Usage, rec.Cost, rec.LatencyMS = res.Usage, res.Cost, res.Latency.Milliseconds()
		rec.OK = err == nil
		if err != nil {
			rec.Error = err.Error()
		}
		// A run the caller stopped is not an exchange worth keeping.
		if path != "" && ctx.Err() == nil {
			rec.RecordedAt = time.Now().UTC().Format(time.RFC3339)
			c.redactRecord(rec)
			if werr := workspace.WriteJSON(path, rec); werr != nil {
				err = errors.Join(err, fmt.Errorf("llm %s: record exchange: %w", req.Stage, werr))
			}
		}
		return res, err
	}

	conv := append([]Message(nil), req.Messages...)
	var problem error
	for ask := 1; ask <= budget; ask++ {
		rec.Asks = ask
		a, err := c.ask(ctx, rec, ask, model, conv, temp, maxTokens)
		if err != nil {
			return finish(fmt.Errorf("llm %s: %w", req.Stage, err))
		}
		v, perr := decodeAnswer(a.text, typ)
		if perr == nil {
			rv.Elem().Set(v.Elem())
			rec.Answer, res.Answer = a.text, a.text
			c.remember(req.Stage, model, schema, req.Messages, a.text, spent+ask)
			return finish(nil)
		}
		problem = perr
		msg := perr.Error()
		if a.finish == string(openai.FinishReasonLength) {
			msg += " (the answer was cut off at the token limit; make it shorter)"
		}
		last := &rec.Tries[len(rec.Tries)-1]
		last.Problem = msg
		if ask < budget {
			feedback := "Your previous answer could not be used: " + msg +
				". Reply again with only the corrected JSON, no prose and no code fences."
			last.Feedback = feedback
			conv = append(conv, Message{Role: RoleAssistant, Content: a.text}, Message{Role: RoleUser, Content: feedback})
		}
	}
	return finish(fmt.Errorf("llm %s: no valid answer after %d tries: %v", req.Stage, budget, problem))
}

// questionKey names a conversation and the answer it got.
func questionKey(stage, model, schema string, msgs []Message, answer string) string {
	h := sha256.New()
	for _, s := range []string{stage, model, schema} {
		fmt.Fprintf(h, "%d:%s", len(s), s)
	}
	for _, m := range msgs {
		fmt.Fprintf(h, "%d:%s%d:%s", len(m.Role), m.Role, len(m.Content), m.Content)
	}
	fmt.Fprintf(h, "answer %d:%s", len(answer), answer)
	return hex.EncodeToString(h.Sum(nil))
}

// spentOn returns the answers already spent on the question behind msgs:
// when msgs end with an answer this client accepted and a user message
// (a correction), those of that answer's question; else none.
func (c *Client) spentOn(stage, model, schema string, msgs []Message) int {
	n := len(msgs)
	if n < 3 || msgs[n-1].Role != RoleUser || msgs[n-2].Role != RoleAssistant {
		return 0
	}
	key := questionKey(stage, model, schema, msgs[:n-2], msgs[n-2].Content)
	c.spentMu.Lock()
	defer c.spentMu.Unlock()
	return c.spent[key]
}

// remember records what the question of msgs has cost with its answer.
func (c *Client) remember(stage, model, schema string, msgs []Message, answer string, spent int) {
	key := questionKey(stage, model, schema, msgs, answer)
	c.spentMu.Lock()
	defer c.spentMu.Unlock()
	if c.spent == nil {
		c.spent = map[string]int{}
	}
	c.spent[key] = spent
}

// errFailedRecord marks a record of a failed exchange: it documents the
// failure and is asked again without a warning (or, in ReplayOnly mode,
// reported).
var errFailedRecord = errors.New("holds a failed exchange")

// replay serves res and out from the record at path. It reports a hit, or
// the reason there is none (errNoRecord when the file is missing).
func (c *Client) replay(path, hash, model, schema string, typ reflect.Type, out reflect.Value, res *Result) (bool, error) {
	rec, err := readRecord(path, hash, model, schema)
	if err != nil {
		return false, err
	}
	if !rec.OK {
		return false, fmt.Errorf("record %s: %w: %s", path, errFailedRecord, rec.Error)
	}
	v, err := decodeAnswer(rec.Answer, typ)
	if err != nil {
		return false, fmt.Errorf("record %s: recorded answer does not fit %s: %v", path, schema, err)
	}
	out.Elem().Set(v.Elem())
	res.Answer = rec.Answer
	res.Tries = len(rec.Tries)
	res.Asks = rec.Asks
	res.Usage = rec.Usage
	res.Cost = rec.Cost
	res.Latency = time.Duration(rec.LatencyMS) * time.Millisecond
	res.CacheHit = true
	return true, nil
}

func (c *Client) redactRecord(r *Record) {
	r.Error = c.redact(r.Error)
	r.Answer = c.redact(r.Answer)
	msgs := make([]Message, len(r.Messages))
	for i, m := range r.Messages {
		msgs[i] = Message{Role: m.Role, Content: c.redact(m.Content)}
	}
	r.Messages = msgs
	for i := range r.Tries {
		t := &r.Tries[i]
		t.Error, t.Answer, t.Problem, t.Feedback = c.redact(t.Error), c.redact(t.Answer), c.redact(t.Problem), c.redact(t.Feedback)
	}
}

func (r Request) check() error {
	if r.Stage == "" {
		return errors.New("request has no stage")
	}
	if len(r.Messages) == 0 {
		return errors.New("request has no messages")
	}
	for i, m := range r.Messages {
		switch m.Role {
		case RoleSystem, RoleUser, RoleAssistant:
		default:
			return fmt.Errorf("message %d has role %q; want system, user or assistant", i+1, m.Role)
		}
	}
	if r.MaxTokens < 0 {
		return fmt.Errorf("max tokens must not be negative, got %d", r.MaxTokens)
	}
	return nil
}

// answer is one accepted HTTP response.
type answer struct {
	text   string
	finish string
}

// ask gets one answer for conv, retrying timeouts, 429 and 5xx up to
// MaxTries requests. Every request is appended to rec.Tries.
func (c *Client) ask(ctx context.Context, rec *Record, ask int, model string, conv []Message, temp float64, maxTokens int) (answer, error) {
	droppedFormat := false
	var last error
	for attempt := 1; attempt <= c.cfg.MaxTries; attempt++ {
		out := c.send(ctx, model, conv, temp, maxTokens)
		t := Try{
			Ask: ask, Attempt: attempt, ResponseFormat: out.jsonMode, Status: out.status,
			Answer: out.text, FinishReason: out.finish, Usage: out.usage, Cost: out.cost,
			LatencyMS: out.latency.Milliseconds(),
		}
		if out.err != nil {
			t.Error = out.err.Error()
		}
		rec.Tries = append(rec.Tries, t)
		switch out.class {
		case classOK:
			return answer{text: out.text, finish: out.finish}, nil
		case classCanceled, classFatal:
			return answer{}, out.err
		case classFormatRejected:
			c.noFormat.Store(true)
			if droppedFormat {
				return answer{}, out.err
			}
			// The rejection is the server's limitation, not a failed try:
			// ask again at once without response_format.
			droppedFormat = true
			attempt--
			continue
		}
		last = out.err
		if attempt == c.cfg.MaxTries {
			break
		}
		wait := out.retryAfter
		if wait < 0 {
			wait = c.backoff(attempt)
		}
		if err := c.opts.Sleep(ctx, wait); err != nil {
			return answer{}, fmt.Errorf("waiting to retry: %w", err)
		}
	}
	return answer{}, fmt.Errorf("gave up after %d tries: %w", c.cfg.MaxTries, last)
}

// backoff is the full-jitter exponential delay before try attempt+1:
// uniform in [0, min(max, base·2^(attempt-1))).
func (c *Client) backoff(attempt int) time.Duration {
	d := c.opts.BackoffBase
	for i := 1; i < attempt && d < c.opts.BackoffMax; i++ {
		d *= 2
	}
	d = min(d, c.opts.BackoffMax)
	j := c.opts.Jitter()
	if !(j >= 0 && j < 1) {
		j = 0.5
	}
	return time.Duration(j * float64(d))
}

// temperatureOnWire works around go-openai's omitempty on temperature: a
// literal 0 would be dropped and the server would use its own default
// (often 0.7 or 1), so 0 is sent as the smallest positive float32.
func temperatureOnWire(t float64) float32 {
	if t == 0 {
		return math.SmallestNonzeroFloat32
	}
	return float32(t)
}
