package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"
)

// askUntilFits is what a stage with a check of its own does (the judge's
// coverage check in stages/evidence): it sends the accepted answer back
// with a correction until the check passes, up to tries times.
func askUntilFits(ctx context.Context, c *Client, req Request, fits func(verdict) bool, tries int) (int, error) {
	msgs := req.Messages
	for ask := 1; ; ask++ {
		req.Messages = msgs
		var v verdict
		res, err := c.JSON(ctx, req, &v)
		if err != nil {
			return ask, err
		}
		if fits(v) || ask == tries {
			return ask, nil
		}
		msgs = append(append([]Message(nil), msgs...),
			Message{Role: RoleAssistant, Content: res.Answer},
			Message{Role: RoleUser, Content: "Your previous answer could not be used: grade every section."})
	}
}

// One question costs at most max_tries answers in all, the client's own
// re-asks and the caller's together: 3, where it used to cost up to 9
// answers (and 27 requests).
func TestOneQuestionCostsAtMostMaxTriesAnswers(t *testing.T) {
	answers := []step{
		say(`{"score": 9, "reason": "out of range"}`), // the client re-asks
		say(`{"score": 2, "reason": "a"}`),            // valid; the caller's check fails
		say(`{"score": 3, "reason": "b"}`),            // valid; the caller's check fails
	}
	f := newFake(t, answers...)
	c, ws, _ := newTestClient(t, testConfig(f.url()))
	calls, err := askUntilFits(context.Background(), c, userAsk("rank", "judge"), func(verdict) bool { return false }, 3)
	want := "llm rank: the question has had its 3 answers (max_tries), and the last still did not fit; it is not asked again"
	if err == nil || err.Error() != want || calls != 3 || f.count() != 3 {
		t.Fatalf("calls %d, requests %d, error %v", calls, f.count(), err)
	}
	if got := f.request(2).Messages; len(got) != 4 || got[3].Content != "Your previous answer could not be used: grade every section." {
		t.Fatalf("third request %+v", got)
	}

	// A rerun replays the records and stops at the same point, with no
	// request at all.
	c2, _ := newClientOn(t, testConfig(f.url()), ws)
	calls, err = askUntilFits(context.Background(), c2, userAsk("rank", "judge"), func(verdict) bool { return false }, 3)
	if err == nil || err.Error() != want || calls != 3 || f.count() != 3 {
		t.Fatalf("replay: calls %d, requests %d, error %v", calls, f.count(), err)
	}

	// A different question has its own budget.
	f2 := newFake(t, say(goodAnswer))
	c3, _, _ := newTestClient(t, testConfig(f2.url()))
	if _, err := askUntilFits(context.Background(), c3, userAsk("rank", "another"), func(verdict) bool { return true }, 3); err != nil {
		t.Fatal(err)
	}
}

// The client's own re-asks are limited by what the question has left.
func TestReaskWithinTheQuestionsBudget(t *testing.T) {
	f := newFake(t,
		say(`{"score": 2, "reason": "a"}`),
		say(`not json`),
		say(`{"score": 9, "reason": "out of range"}`),
	)
	c, _, _ := newTestClient(t, testConfig(f.url()))
	_, err := askUntilFits(context.Background(), c, userAsk("audit", "x"), func(verdict) bool { return false }, 3)
	want := "llm audit: no valid answer after 2 tries: "
	if err == nil || len(err.Error()) < len(want) || err.Error()[:len(want)] != want || f.count() != 3 {
		t.Fatalf("requests %d, error %v", f.count(), err)
	}
}

// When the endpoint refuses response_format, a request already waiting for
// a concurrency slot goes without it: the refusal is paid once.
func TestFormatDowngradeReachesQueuedRequests(t *testing.T) {
	var mu sync.Mutex
	withFormat := 0
	first := make(chan struct{})
	f := newFake(t)
	f.fallback = func(w http.ResponseWriter, r *http.Request, req wireRequest) {
		if req.ResponseFormat != nil {
			mu.Lock()
			withFormat++
			n := withFormat
			mu.Unlock()
			if n == 1 {
				close(first)
				// Let the second question queue for the slot.
				time.Sleep(150 * time.Millisecond)
			}
			fail(400, "response_format is not supported")(w, r, req)
			return
		}
		completion(w, goodAnswer, "stop", nil)
	}
	cfg := testConfig(f.url())
	cfg.Concurrency = 1
	c, _, _ := newTestClient(t, cfg)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i == 1 {
				<-first
			}
			var v verdict
			_, errs[i] = c.JSON(context.Background(), userAsk("audit", fmt.Sprint("q", i)), &v)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if withFormat != 1 || f.count() != 3 {
		t.Fatalf("%d requests with response_format, %d in all; want 1 and 3", withFormat, f.count())
	}
}
