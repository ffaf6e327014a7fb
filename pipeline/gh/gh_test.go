package gh

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

// script is a fake API: for each path, the answers in order (the last one
// repeats), and a log of what was asked.
type script struct {
	mu       sync.Mutex
	answers  map[string][]answer
	requests []string
	auth     []string
	base     string // the server's URL, once started
}

type answer struct {
	status int
	header map[string]string
	body   string
}

func (s *script) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests = append(s.requests, r.URL.RequestURI())
	s.auth = append(s.auth, r.Header.Get("Authorization"))
	list := s.answers[r.URL.Path]
	var a answer
	switch len(list) {
	case 0:
		a = answer{status: 404, body: `{"message":"Not Found"}`}
	case 1:
		a = list[0]
	default:
		a = list[0]
		s.answers[r.URL.Path] = list[1:]
	}
	s.mu.Unlock()
	for k, v := range a.header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(a.status)
	fmt.Fprint(w, a.body)
}

type sleeper struct {
	mu     sync.Mutex
	sleeps []time.Duration
}

func (s *sleeper) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.sleeps = append(s.sleeps, d)
	s.mu.Unlock()
	return ctx.Err()
}

func newTestClient(t *testing.T, sc *script, sl *sleeper, token string) *Client {
	t.Helper()
	srv := httptest.NewServer(sc)
	t.Cleanup(srv.Close)
	sc.base = srv.URL + "/"
	c, err := New(Options{BaseURL: srv.URL, Token: token, Sleep: sl.sleep, Now: func() time.Time { return t0 }})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const prJSON = `{"number":7,"title":"Add expiry","state":"closed","merged":true,"user":{"login":"ada"},
"html_url":"https://github.com/o/r/pull/7","created_at":"2026-03-16T10:00:00Z","merged_at":"2026-03-21T09:00:00Z",
"base":{"ref":"main","sha":"aaaa"},"head":{"sha":"bbbb"},"merge_commit_sha":"cccc","additions":10,"deletions":2,"changed_files":3,"commits":2}`

func reset(d time.Duration) string { return strconv.FormatInt(t0.Add(d).Unix(), 10) }

func TestTransportRateLimitsAndRetries(t *testing.T) {
	ok := answer{status: 200, body: prJSON}
	tests := []struct {
		name       string
		answers    []answer
		wantSleeps []time.Duration
		wantErr    string
		wantCalls  int
	}{
		{"ok", []answer{ok}, nil, "", 1},
		{"primary limit: wait for the reset", []answer{
			{status: 403, header: map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": reset(90 * time.Second)}, body: `{"message":"API rate limit exceeded"}`},
			ok}, []time.Duration{91 * time.Second}, "", 2},
		{"429 with Retry-After", []answer{{status: 429, header: map[string]string{"Retry-After": "17"}}, ok}, []time.Duration{17 * time.Second}, "", 2},
		{"secondary limit with Retry-After", []answer{{status: 403, header: map[string]string{"Retry-After": "60"},
			body: `{"message":"You have exceeded a secondary rate limit"}`}, ok}, []time.Duration{time.Minute}, "", 2},
		{"secondary limit without a header: one minute, then two", []answer{
			{status: 403, body: `{"message":"You have exceeded a secondary rate limit."}`},
			{status: 403, body: `{"message":"You have exceeded a secondary rate limit."}`}, ok},
			[]time.Duration{time.Minute, 2 * time.Minute}, "", 3},
		{"a plain 403 is no rate limit", []answer{{status: 403, body: `{"message":"Resource not accessible"}`}}, nil, "403 Resource not accessible", 1},
		{"502 burst: 1, 2, 4 seconds", []answer{{status: 502}, {status: 502}, {status: 503}, ok},
			[]time.Duration{time.Second, 2 * time.Second, 4 * time.Second}, "", 4},
		{"persistent 500: five retries, then the error", []answer{{status: 500, body: `{"message":"boom"}`}},
			[]time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second}, "500 boom", 6},
		{"a reset too far away fails at once", []answer{
			{status: 403, header: map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": reset(3 * time.Hour)}}},
			nil, "reset in 3h0m1s, more than the 1h5m0s lolbench waits", 1},
		{"404", []answer{{status: 404, body: `{"message":"Not Found"}`}}, nil, "not found on GitHub", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := &script{answers: map[string][]answer{"/repos/o/r/pulls/7": tt.answers}}
			sl := &sleeper{}
			c := newTestClient(t, sc, sl, "")
			pr, err := c.PullRequest(context.Background(), "o/r", 7)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
			} else if err != nil || pr.Number != 7 {
				t.Fatalf("PullRequest = %+v, %v", pr, err)
			}
			if !reflect.DeepEqual(sl.sleeps, tt.wantSleeps) {
				t.Errorf("sleeps = %v, want %v", sl.sleeps, tt.wantSleeps)
			}
			if len(sc.requests) != tt.wantCalls {
				t.Errorf("%d requests, want %d", len(sc.requests), tt.wantCalls)
			}
		})
	}
}

// A successful answer that spends the budget makes the next request of
// the same resource wait for the reset; another resource does not wait.
func TestTransportWaitsBeforeASpentBudget(t *testing.T) {
	spent := answer{status: 200, header: map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": reset(40 * time.Second),
		"X-RateLimit-Resource": "core"}, body: prJSON}
	sc := &script{answers: map[string][]answer{
		"/repos/o/r/pulls/7": {spent, {status: 200, header: map[string]string{"X-RateLimit-Remaining": "4999"}, body: prJSON}},
		"/search/issues":     {{status: 200, body: `{"total_count":0,"items":[]}`}},
	}}
	sl := &sleeper{}
	c := newTestClient(t, sc, sl, "")
	ctx := context.Background()
	for i := 0; i < 2; i++ {
		if _, err := c.PullRequest(ctx, "o/r", 7); err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.SearchPRs(ctx, "o/r", "PEP 1"); err != nil {
			t.Fatal(err)
		}
	}
	// Only the second PR request waited; the budget is back after it.
	if _, err := c.PullRequest(ctx, "o/r", 7); err != nil {
		t.Fatal(err)
	}
	if want := []time.Duration{41 * time.Second}; !reflect.DeepEqual(sl.sleeps, want) {
		t.Errorf("sleeps = %v, want %v", sl.sleeps, want)
	}
}

func TestTransportCancelledWhileWaiting(t *testing.T) {
	sc := &script{answers: map[string][]answer{"/repos/o/r/pulls/7": {{status: 502}}}}
	ctx, cancel := context.WithCancel(context.Background())
	srv := httptest.NewServer(sc)
	defer srv.Close()
	c, err := New(Options{BaseURL: srv.URL, Sleep: func(ctx context.Context, d time.Duration) error { cancel(); return ctx.Err() }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.PullRequest(ctx, "o/r", 7); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if len(sc.requests) != 1 {
		t.Errorf("%d requests after the cancellation, want 1", len(sc.requests))
	}
}

// The token goes to the API host only, never to a host a redirect leads
// to, and never into an error.
func TestTokenStaysWithTheAPIHost(t *testing.T) {
	other := &script{answers: map[string][]answer{"/elsewhere": {{status: 500, body: `{"message":"nope"}`}}}}
	otherSrv := httptest.NewServer(other)
	defer otherSrv.Close()
	sc := &script{answers: map[string][]answer{
		"/repos/o/r/pulls/7": {{status: 200, body: prJSON}},
		"/repos/o/r/pulls/8": {{status: 302, header: map[string]string{"Location": otherSrv.URL + "/elsewhere"}}},
	}}
	sl := &sleeper{}
	c := newTestClient(t, sc, sl, "s3cret-token")
	if _, err := c.PullRequest(context.Background(), "o/r", 7); err != nil {
		t.Fatal(err)
	}
	if sc.auth[0] != "Bearer s3cret-token" {
		t.Errorf("API host got Authorization %q", sc.auth[0])
	}
	_, err := c.PullRequest(context.Background(), "o/r", 8)
	if err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Fatalf("err = %v", err)
	}
	for _, a := range other.auth {
		if a != "" {
			t.Errorf("redirect target got Authorization %q", a)
		}
	}
	if len(other.auth) == 0 {
		t.Error("the redirect was not followed")
	}
}

func TestClientCalls(t *testing.T) {
	sc := &script{answers: map[string][]answer{
		"/search/issues": {{status: 200, body: `{"total_count":3,"items":[
			{"number":7,"title":"PEP 617","body":"b","state":"closed","html_url":"u7","created_at":"2026-03-01T00:00:00Z","user":{"login":"ada"},
			 "pull_request":{"url":"x","merged_at":"2026-03-05T00:00:00Z"}},
			{"number":8,"title":"PEP 617 alt","state":"open","html_url":"u8","created_at":"2026-03-02T00:00:00Z","pull_request":{"url":"x"}},
			{"number":9,"title":"an issue, not a PR","state":"open"}]}`}},
		"/repos/o/r/pulls/7":         {{status: 200, body: prJSON}},
		"/repos/o/r/pulls/7/commits": {{status: 200, body: `[{"sha":"s1","commit":{"author":{"date":"2026-03-10T08:00:00Z"},"committer":{"date":"2026-03-11T08:00:00Z"}}}]`}},
		"/repos/o/r/pulls/7/files": {{status: 200, body: `[{"filename":"a.py","status":"modified","additions":3,"deletions":1},
			{"filename":"b.py","previous_filename":"old.py","status":"renamed","additions":0,"deletions":0}]`}},
		"/repos/o/r/issues": {{status: 200, body: `[{"number":5,"title":"Design: X","body":"text","state":"closed","html_url":"i5","created_at":"2026-01-01T00:00:00Z"},
			{"number":6,"title":"a PR","pull_request":{"url":"x"}}]`}},
	}}
	c := newTestClient(t, sc, &sleeper{}, "")
	ctx := context.Background()
	at := func(s string) time.Time { t, _ := time.Parse(time.RFC3339, s); return t }

	hits, incomplete, err := c.SearchPRs(ctx, "o/r", "PEP 617")
	if err != nil || incomplete {
		t.Fatal(incomplete, err)
	}
	wantHits := []Hit{
		{Number: 7, Title: "PEP 617", Body: "b", State: "closed", Merged: true, MergedAt: at("2026-03-05T00:00:00Z"), CreatedAt: at("2026-03-01T00:00:00Z"), URL: "u7", Author: "ada"},
		{Number: 8, Title: "PEP 617 alt", State: "open", CreatedAt: at("2026-03-02T00:00:00Z"), URL: "u8"},
	}
	if !reflect.DeepEqual(hits, wantHits) {
		t.Errorf("hits = %+v", hits)
	}
	if q := sc.requests[0]; !strings.Contains(q, "q=repo%3Ao%2Fr+is%3Apr+in%3Atitle%2Cbody+%22PEP+617%22") {
		t.Errorf("search request %s", q)
	}

	pr, err := c.PullRequest(ctx, "o/r", 7)
	want := &PR{Number: 7, Title: "Add expiry", Author: "ada", URL: "https://github.com/o/r/pull/7", State: "closed", Merged: true,
		CreatedAt: at("2026-03-16T10:00:00Z"), MergedAt: at("2026-03-21T09:00:00Z"), BaseRef: "main", BaseSHA: "aaaa", HeadSHA: "bbbb",
		MergeSHA: "cccc", Additions: 10, Deletions: 2, ChangedFiles: 3, Commits: 2}
	if err != nil || !reflect.DeepEqual(pr, want) {
		t.Errorf("PullRequest = %+v, %v", pr, err)
	}
	commits, err := c.PullRequestCommits(ctx, "o/r", 7)
	if err != nil || !reflect.DeepEqual(commits, []Commit{{SHA: "s1", AuthorDate: at("2026-03-10T08:00:00Z"), CommitterDate: at("2026-03-11T08:00:00Z")}}) {
		t.Errorf("commits = %+v, %v", commits, err)
	}
	files, err := c.PullRequestFiles(ctx, "o/r", 7)
	if err != nil || !reflect.DeepEqual(files, []File{{Path: "a.py", Status: "modified", Additions: 3, Deletions: 1},
		{Path: "b.py", PreviousPath: "old.py", Status: "renamed"}}) {
		t.Errorf("files = %+v, %v", files, err)
	}
	issues, err := c.LabelledIssues(ctx, "o/r", "design")
	if err != nil || !reflect.DeepEqual(issues, []Issue{{Number: 5, Title: "Design: X", Body: "text", State: "closed", URL: "i5", CreatedAt: at("2026-01-01T00:00:00Z")}}) {
		t.Errorf("issues = %+v, %v", issues, err)
	}
	if q := sc.requests[len(sc.requests)-1]; !strings.Contains(q, "labels=design") || !strings.Contains(q, "state=all") {
		t.Errorf("issues request %s", q)
	}
}

// Paging follows the Link header until the last page.
func TestClientPaging(t *testing.T) {
	var srvURL string
	mux := http.NewServeMux()
	mux.HandleFunc("/repos/o/r/pulls/7/files", func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		if page == 0 {
			page = 1
		}
		if page < 3 {
			w.Header().Set("Link", fmt.Sprintf(`<%s/repos/o/r/pulls/7/files?page=%d>; rel="next"`, srvURL, page+1))
		}
		fmt.Fprintf(w, `[{"filename":"f%d.go","status":"added","additions":1}]`, page)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	srvURL = srv.URL
	c, err := New(Options{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	files, err := c.PullRequestFiles(context.Background(), "o/r", 7)
	if err != nil || len(files) != 3 || files[2].Path != "f3.go" {
		t.Fatalf("files = %+v, %v", files, err)
	}
}

func TestBadInput(t *testing.T) {
	if _, err := New(Options{BaseURL: "ftp://x"}); err == nil {
		t.Error("ftp base URL accepted")
	}
	c, err := New(Options{BaseURL: "http://127.0.0.1:1/"})
	if err != nil {
		t.Fatal(err)
	}
	for _, repo := range []string{"", "o", "o/r/x", "../o/r", "o/r?x=1"} {
		if _, err := c.PullRequest(context.Background(), repo, 1); err == nil || !strings.Contains(err.Error(), "not a GitHub owner/name") {
			t.Errorf("repo %q: %v", repo, err)
		}
	}
	if _, _, err := c.SearchPRs(context.Background(), "o/r", `PEP "1"`); err == nil {
		t.Error("a quote in a search phrase was accepted")
	}
}

// A search GitHub could not finish says so, on any page.
func TestSearchIncomplete(t *testing.T) {
	sc := &script{answers: map[string][]answer{
		"/search/issues": {{status: 200, header: map[string]string{"Link": `<http://x/search/issues?page=2>; rel="next"`},
			body: `{"total_count":2,"incomplete_results":false,"items":[{"number":1,"title":"a","pull_request":{}}]}`},
			{status: 200, body: `{"total_count":2,"incomplete_results":true,"items":[{"number":2,"title":"b","pull_request":{}}]}`}},
	}}
	c := newTestClient(t, sc, &sleeper{}, "")
	hits, incomplete, err := c.SearchPRs(context.Background(), "o/r", "PEP 1")
	if err != nil || !incomplete || len(hits) != 2 {
		t.Fatalf("hits %d, incomplete %v, %v", len(hits), incomplete, err)
	}
}

// GitHub's error answers (and proxies) may echo the Authorization header;
// the token never reaches an error text, whatever the status.
func TestTokenRedactedFromErrors(t *testing.T) {
	const token = "ghp_0123456789abcdefTOKEN"
	echo := `{"message":"Validation Failed: Authorization: Bearer ` + token + `","errors":[{"resource":"Search","field":"q","code":"invalid","message":"token ` + token + ` cannot search"}]}`
	for _, status := range []int{401, 403, 422, 500} {
		sc := &script{answers: map[string][]answer{"/search/issues": {{status: status, body: echo}}, "/repos/o/r/pulls/1": {{status: status, body: echo}}}}
		c := newTestClient(t, sc, &sleeper{}, token)
		_, _, err := c.SearchPRs(context.Background(), "o/r", "PEP 1")
		_, err2 := c.PullRequest(context.Background(), "o/r", 1)
		for _, e := range []error{err, err2} {
			if e == nil || strings.Contains(e.Error(), token) || !strings.Contains(e.Error(), "[token]") {
				t.Errorf("%d: %v", status, e)
			}
		}
	}
	sc := &script{answers: map[string][]answer{"/search/issues": {{status: 422, body: echo}}}}
	c := newTestClient(t, sc, &sleeper{}, token)
	_, _, err := c.SearchPRs(context.Background(), "o/r", "PEP 1")
	want := `github search repo:o/r is:pr in:title,body "PEP 1": GET ` + sc.base + `search/issues?order=asc&per_page=100&q=repo%3Ao%2Fr+is%3Apr+in%3Atitle%2Cbody+%22PEP+1%22&sort=created: 422 Validation Failed: Authorization: Bearer [token] [{Resource:Search Field:q Code:invalid Message:token [token] cannot search}]`
	if err == nil || err.Error() != want {
		t.Errorf("422 error:\n%v\nwant\n%s", err, want)
	}
}

// A 404 says which object is missing and wraps ErrNotFound.
func TestNotFound(t *testing.T) {
	c := newTestClient(t, &script{answers: map[string][]answer{}}, &sleeper{}, "")
	_, err := c.PullRequest(context.Background(), "o/r", 9)
	if !errors.Is(err, ErrNotFound) || err.Error() != "github pull request o/r#9: not found on GitHub (404)" {
		t.Fatalf("404: %v", err)
	}
}
