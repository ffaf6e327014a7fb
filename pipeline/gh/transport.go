package gh

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Transport is the http.RoundTripper under the go-github client. It adds
// the token to requests for the API host only, and it waits out GitHub's
// limits instead of failing (collection makes thousands of calls; an
// interrupted collect would resume, but waiting is cheaper):
//
//   - primary rate limit: a 403 or 429 with X-RateLimit-Remaining: 0 waits
//     until X-RateLimit-Reset and retries; a successful response with
//     Remaining 0 makes the next request of that resource ("core",
//     "search") wait before it is sent;
//   - secondary rate limit: a 403 or 429 with Retry-After waits that long;
//     without the header, when the body names a secondary rate limit, it
//     waits one minute, doubling on each repeat (GitHub's advice);
//   - server errors (500, 502, 503, 504) and connection errors retry with
//     bounded exponential backoff: BaseDelay, twice that, ... at most
//     MaxDelay, at most MaxRetries times.
//
// Only GET and HEAD requests without a body are retried; collection sends
// nothing else. The rate-limit reset headers are removed from the response
// handed to go-github: its own check refuses requests (instead of waiting)
// until the reset by the wall clock, and the waiting is done here.
type Transport struct {
	Base http.RoundTripper
	// Token is sent as "Authorization: Bearer" to Host only, never to
	// another host a redirect leads to. It is never logged.
	Token string
	Host  string
	// Sleep waits for d or until ctx is done; tests replace it.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock the reset times are compared with.
	Now func() time.Time
	// Log receives one line per wait.
	Log func(format string, args ...any)

	MaxRetries int           // server-error retries; default 5
	BaseDelay  time.Duration // first server-error backoff; default 1s
	MaxDelay   time.Duration // longest server-error backoff; default 1m
	// MaxWait is the longest single rate-limit wait; a reset further away
	// fails the request. Default 65 minutes (the primary window is an
	// hour).
	MaxWait time.Duration
	// MaxRateLimitWaits bounds the rate-limit waits of one request;
	// default 10.
	MaxRateLimitWaits int

	mu        sync.Mutex
	exhausted map[string]time.Time // resource -> reset time
}

// SecondaryWait is the wait after a secondary rate limit that names no
// time: GitHub asks for at least one minute.
const SecondaryWait = time.Minute

func (t *Transport) defaults() (maxRetries int, base, maxDelay, maxWait time.Duration, maxRL int) {
	maxRetries, base, maxDelay, maxWait, maxRL = t.MaxRetries, t.BaseDelay, t.MaxDelay, t.MaxWait, t.MaxRateLimitWaits
	if maxRetries == 0 {
		maxRetries = 5
	}
	if base == 0 {
		base = time.Second
	}
	if maxDelay == 0 {
		maxDelay = time.Minute
	}
	if maxWait == 0 {
		maxWait = 65 * time.Minute
	}
	if maxRL == 0 {
		maxRL = 10
	}
	return
}

func (t *Transport) now() time.Time {
	if t.Now != nil {
		return t.Now()
	}
	return time.Now()
}

func (t *Transport) sleep(ctx context.Context, d time.Duration) error {
	if t.Sleep != nil {
		return t.Sleep(ctx, d)
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

func (t *Transport) logf(format string, args ...any) {
	if t.Log != nil {
		t.Log(format, args...)
	}
}

// resource is the rate-limit bucket of a request path: the search API has
// its own, smaller limit.
func resource(path string) string {
	if strings.HasPrefix(path, "/search/") || strings.Contains(path, "/api/v3/search/") {
		return "search"
	}
	return "core"
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	maxRetries, baseDelay, maxDelay, maxWait, maxRL := t.defaults()
	replayable := (req.Method == http.MethodGet || req.Method == http.MethodHead) && (req.Body == nil || req.Body == http.NoBody)
	res := resource(req.URL.Path)

	if err := t.waitExhausted(ctx, res, maxWait); err != nil {
		return nil, err
	}
	serverErrors, rateWaits := 0, 0
	for {
		r := req.Clone(ctx)
		if t.Token != "" && strings.EqualFold(r.URL.Host, t.Host) {
			r.Header.Set("Authorization", "Bearer "+t.Token)
		}
		resp, err := base.RoundTrip(r)
		if err != nil {
			if ctx.Err() != nil || !replayable || serverErrors >= maxRetries {
				return nil, err
			}
			d := backoff(baseDelay, maxDelay, serverErrors)
			serverErrors++
			t.logf("GitHub request failed (%v); retry %d of %d in %s", redact(err, t.Token), serverErrors, maxRetries, d)
			if err := t.sleep(ctx, d); err != nil {
				return nil, err
			}
			continue
		}
		t.note(res, resp.Header)
		switch {
		case (resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusTooManyRequests) && replayable:
			wait, what, limited := t.rateLimitWait(resp, rateWaits)
			if !limited || rateWaits >= maxRL {
				return t.finish(resp), nil
			}
			if wait > maxWait {
				resp.Body.Close()
				return nil, fmt.Errorf("github %s rate limit: reset in %s, more than the %s lolbench waits; run again later (finished calls are kept)", what, wait.Round(time.Second), maxWait)
			}
			rateWaits++
			drain(resp)
			t.logf("GitHub %s rate limit reached; waiting %s", what, wait.Round(time.Second))
			if err := t.sleep(ctx, wait); err != nil {
				return nil, err
			}
		case isServerError(resp.StatusCode) && replayable && serverErrors < maxRetries:
			d := backoff(baseDelay, maxDelay, serverErrors)
			serverErrors++
			drain(resp)
			t.logf("GitHub answered %d; retry %d of %d in %s", resp.StatusCode, serverErrors, maxRetries, d)
			if err := t.sleep(ctx, d); err != nil {
				return nil, err
			}
		default:
			return t.finish(resp), nil
		}
	}
}

// finish removes the headers go-github would turn into its own
// wall-clock refusals (see the type comment).
func (t *Transport) finish(resp *http.Response) *http.Response {
	resp.Header.Del("X-RateLimit-Reset")
	resp.Header.Del("Retry-After")
	return resp
}

func isServerError(code int) bool {
	switch code {
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

func backoff(base, max time.Duration, attempt int) time.Duration {
	d := base
	for i := 0; i < attempt && d < max; i++ {
		d *= 2
	}
	if d > max {
		d = max
	}
	return d
}

// note remembers a resource whose budget is spent, so that the next
// request waits for the reset before it is sent.
func (t *Transport) note(res string, h http.Header) {
	if r := h.Get("X-RateLimit-Resource"); r != "" {
		res = r
	}
	remaining := h.Get("X-RateLimit-Remaining")
	t.mu.Lock()
	defer t.mu.Unlock()
	switch reset, ok := parseReset(h); {
	case remaining == "0" && ok:
		if t.exhausted == nil {
			t.exhausted = map[string]time.Time{}
		}
		t.exhausted[res] = reset
	case remaining != "":
		delete(t.exhausted, res) // budget again
	}
}

func (t *Transport) waitExhausted(ctx context.Context, res string, maxWait time.Duration) error {
	t.mu.Lock()
	reset, ok := t.exhausted[res]
	delete(t.exhausted, res)
	t.mu.Unlock()
	if !ok {
		return nil
	}
	wait := reset.Sub(t.now()) + time.Second
	if wait <= 0 {
		return nil
	}
	if wait > maxWait {
		return fmt.Errorf("github %s rate limit: reset in %s, more than the %s lolbench waits; run again later (finished calls are kept)", res, wait.Round(time.Second), maxWait)
	}
	t.logf("GitHub %s rate limit used up; waiting %s for the reset", res, wait.Round(time.Second))
	return t.sleep(ctx, wait)
}

func parseReset(h http.Header) (time.Time, bool) {
	v := h.Get("X-RateLimit-Reset")
	if v == "" {
		return time.Time{}, false
	}
	sec, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || sec <= 0 {
		return time.Time{}, false
	}
	return time.Unix(sec, 0), true
}

// rateLimitWait tells whether a 403 or 429 is a rate limit and how long to
// wait for it. A 403 that is none (no access) is returned as is.
func (t *Transport) rateLimitWait(resp *http.Response, attempt int) (time.Duration, string, bool) {
	if v := strings.TrimSpace(resp.Header.Get("Retry-After")); v != "" {
		if sec, err := strconv.Atoi(v); err == nil && sec >= 0 {
			return time.Duration(sec) * time.Second, "secondary", true
		}
		if at, err := http.ParseTime(v); err == nil {
			d := at.Sub(t.now())
			if d < 0 {
				d = 0
			}
			return d, "secondary", true
		}
	}
	if resp.Header.Get("X-RateLimit-Remaining") == "0" {
		if reset, ok := parseReset(resp.Header); ok {
			d := reset.Sub(t.now()) + time.Second
			if d < time.Second {
				d = time.Second
			}
			res := resp.Header.Get("X-RateLimit-Resource")
			if res == "" {
				res = "primary"
			}
			return d, res, true
		}
	}
	// Peek at the body (bounded) and put it back for go-github.
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	lower := strings.ToLower(string(body))
	if resp.StatusCode == http.StatusTooManyRequests || strings.Contains(lower, "secondary rate limit") || strings.Contains(lower, "abuse detection") {
		return backoff(SecondaryWait, 16*SecondaryWait, attempt), "secondary", true
	}
	return 0, "", false
}

func drain(resp *http.Response) {
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
}

// redact removes the token from an error text, should a transport ever
// echo a header.
func redact(err error, token string) string {
	s := err.Error()
	if token != "" {
		s = strings.ReplaceAll(s, token, "[token]")
	}
	return s
}
