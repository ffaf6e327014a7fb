package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"

	openai "github.com/sashabaranov/go-openai"
)

// class sorts the outcome of one HTTP request.
type class int

const (
	classOK             class = iota
	classRetry                // timeout, 429, 5xx, network failure, garbled body
	classFormatRejected       // 400 naming response_format: ask again without it
	classFatal                // any other 4xx, or a request the library refused to send
	classCanceled             // the caller's context ended
)

// sent is the outcome of one HTTP request.
type sent struct {
	class class
	// jsonMode says whether the request carried response_format.
	jsonMode   bool
	status     int
	text       string
	finish     string
	usage      Usage
	cost       *float64
	latency    time.Duration
	retryAfter time.Duration // < 0 when the server gave none
	err        error
}

// capture receives what go-openai hides: the status, headers and raw body
// of the response (for Retry-After, the server's error text and
// OpenRouter's usage.cost). It travels in the request context so concurrent
// requests never share one.
type capture struct {
	called bool
	status int
	header http.Header
	body   []byte
}

type captureKey struct{}

// captureDoer reads the whole (bounded) body into the request's capture and
// hands go-openai a replayable copy.
type captureDoer struct{ inner HTTPDoer }

func (d captureDoer) Do(req *http.Request) (*http.Response, error) {
	c, _ := req.Context().Value(captureKey{}).(*capture)
	if c != nil {
		c.called = true
	}
	res, err := d.inner.Do(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, maxResponseBytes+1))
	res.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("read response: %w", err)
	}
	if len(body) > maxResponseBytes {
		return nil, fmt.Errorf("response larger than %d bytes", maxResponseBytes)
	}
	if c != nil {
		c.status, c.header, c.body = res.StatusCode, res.Header, body
	}
	res.Body = io.NopCloser(bytes.NewReader(body))
	return res, nil
}

// send makes one chat-completions request under the concurrency limit and
// the per-request timeout, and classifies the outcome. Whether it asks for
// response_format is decided once it holds a slot, so that a request
// queued while another learned that the server refuses the format goes
// without it.
func (c *Client) send(ctx context.Context, model string, conv []Message, temp float64, maxTokens int) sent {
	out := sent{retryAfter: -1}
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		out.class, out.err = classCanceled, ctx.Err()
		return out
	}
	defer func() { <-c.sem }()
	jsonMode := !c.noFormat.Load()
	out.jsonMode = jsonMode

	msgs := make([]openai.ChatCompletionMessage, len(conv))
	for i, m := range conv {
		msgs[i] = openai.ChatCompletionMessage{Role: m.Role, Content: m.Content}
	}
	creq := openai.ChatCompletionRequest{
		Model:    model,
		Messages: msgs,
		//lint:ignore SA1019 max_tokens is what every OpenAI-compatible server reads (vLLM, Ollama, llama.cpp); max_completion_tokens is OpenAI's alone
		MaxTokens:   maxTokens,
		Temperature: temperatureOnWire(temp),
	}
	if jsonMode {
		creq.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
	}
	capt := &capture{}
	actx, cancel := context.WithTimeout(context.WithValue(ctx, captureKey{}, capt), c.cfg.Timeout)
	defer cancel()
	start := time.Now()
	resp, err := c.api.CreateChatCompletion(actx, creq)
	out.latency = time.Since(start)
	out.status = capt.status
	where := "POST " + c.endpoint

	switch {
	case ctx.Err() != nil:
		out.class, out.err = classCanceled, ctx.Err()
		return out
	case err != nil && capt.status == 0 && errors.Is(actx.Err(), context.DeadlineExceeded):
		out.class, out.err = classRetry, fmt.Errorf("%s: timed out after %s", where, c.cfg.Timeout)
		return out
	case err != nil && !capt.called:
		// go-openai refused the request before sending it (e.g. a
		// parameter the model does not accept); retrying cannot help.
		out.class, out.err = classFatal, fmt.Errorf("%s: %v", where, err)
		return out
	case err != nil && capt.status == 0:
		out.class, out.err = classRetry, fmt.Errorf("%s: %v", where, err)
		return out
	case capt.status >= 400 || capt.status < 200:
		return c.httpError(out, where, capt, jsonMode)
	case err != nil:
		out.class, out.err = classRetry, fmt.Errorf("%s: %d response is not chat-completion JSON: %v", where, capt.status, err)
		return out
	}
	out.usage = Usage{resp.Usage.PromptTokens, resp.Usage.CompletionTokens, resp.Usage.TotalTokens}
	out.cost = reportedCost(capt.body)
	if len(resp.Choices) == 0 {
		msg := "no choices in the response"
		if m := serverMessage(capt.body); m != "" {
			msg += ": " + m
		}
		out.class, out.err = classRetry, fmt.Errorf("%s: %s", where, msg)
		return out
	}
	out.class = classOK
	out.text = resp.Choices[0].Message.Content
	out.finish = string(resp.Choices[0].FinishReason)
	return out
}

// httpError classifies an error status: 429 and 5xx are retried (honouring
// Retry-After), a 400 about response_format drops the format, and every
// other status fails at once with the server's own message.
func (c *Client) httpError(out sent, where string, capt *capture, jsonMode bool) sent {
	msg := serverMessage(capt.body)
	text := fmt.Sprintf("%s: %d %s", where, capt.status, http.StatusText(capt.status))
	if msg != "" {
		text += ": " + msg
	}
	switch {
	case capt.status == http.StatusTooManyRequests || capt.status >= 500:
		out.class = classRetry
		out.retryAfter = retryAfter(capt.header, time.Now())
	case capt.status == http.StatusBadRequest && jsonMode && mentionsResponseFormat(msg, capt.body):
		out.class = classFormatRejected
	default:
		out.class = classFatal
		switch capt.status {
		case http.StatusUnauthorized, http.StatusForbidden:
			text += " (check " + EnvAPIKey + ")"
		case http.StatusNotFound:
			text += " (check " + EnvBaseURL + " and the model name)"
		}
	}
	out.err = errors.New(text)
	return out
}

func mentionsResponseFormat(msg string, body []byte) bool {
	s := strings.ToLower(msg + " " + string(body))
	return strings.Contains(s, "response_format") || strings.Contains(s, "response format")
}

// serverMessage pulls the human message out of an error body. Servers
// disagree on the shape: OpenAI and llama.cpp send {"error":{"message":...}},
// Ollama {"error":"..."}, vLLM {"message":...}, FastAPI {"detail":...}.
// Anything else is shown as a short, single-line snippet of the body.
func serverMessage(body []byte) string {
	var shapes struct {
		Error   json.RawMessage `json:"error"`
		Message json.RawMessage `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &shapes) == nil {
		var s string
		var inner struct {
			Message string `json:"message"`
		}
		switch {
		case json.Unmarshal(shapes.Error, &inner) == nil && inner.Message != "":
			return snippet(inner.Message)
		case json.Unmarshal(shapes.Error, &s) == nil && s != "":
			return snippet(s)
		case json.Unmarshal(shapes.Message, &s) == nil && s != "":
			return snippet(s)
		case json.Unmarshal(shapes.Detail, &s) == nil && s != "":
			return snippet(s)
		case len(shapes.Detail) > 0:
			return snippet(string(shapes.Detail))
		}
	}
	return snippet(string(body))
}

// snippet makes server text safe and short for an error message: control
// characters become spaces, runs of space collapse, and long text is cut.
func snippet(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == unicode.ReplacementChar {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > errorSnippet {
		s = string(r[:errorSnippet]) + "..."
	}
	return s
}

// reportedCost decodes the spend some endpoints add to usage: OpenRouter's
// usage.cost (credits, USD) and the usage.total_cost a few proxies use.
func reportedCost(body []byte) *float64 {
	var b struct {
		Usage struct {
			Cost      *float64 `json:"cost"`
			TotalCost *float64 `json:"total_cost"`
		} `json:"usage"`
	}
	if json.Unmarshal(body, &b) != nil {
		return nil
	}
	for _, v := range []*float64{b.Usage.Cost, b.Usage.TotalCost} {
		if v != nil && *v >= 0 {
			return v
		}
	}
	return nil
}

// retryAfter reads retry-after-ms (OpenAI) or Retry-After in seconds or as
// an HTTP date, capped at maxRetryAfter; -1 when absent or unreadable.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return -1
	}
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return clampWait(ms / 1000)
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return -1
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if !(s >= 0) {
			return -1
		}
		return clampWait(s)
	}
	if t, err := http.ParseTime(v); err == nil {
		return min(max(t.Sub(now), 0), maxRetryAfter)
	}
	return -1
}

// clampWait converts seconds to a duration no longer than maxRetryAfter,
// before the conversion can overflow.
func clampWait(s float64) time.Duration {
	if s >= maxRetryAfter.Seconds() {
		return maxRetryAfter
	}
	return time.Duration(s * float64(time.Second))
}
