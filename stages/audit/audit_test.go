package audit

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/llm"
)

func run(t *testing.T, s *Stage, c *pipeline.Candidate, e *pipeline.Env) (pipeline.Result, string) {
	t.Helper()
	return pipeline.Classify(s.Run(context.Background(), e, c))
}

func mustLoad(t *testing.T, c *pipeline.Candidate) *Report {
	t.Helper()
	rep, err := Load(c)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestAuditPassesOnEmptyLists(t *testing.T) {
	ws, c := tinykv(t)
	f := newFake(t, clean())
	client, _ := newClient(t, f.config(), ws)
	res, reason := run(t, &Stage{LLM: client}, c, env(ws))
	if res != pipeline.Passed || reason != "" {
		t.Fatalf("got %s %q", res, reason)
	}
	if f.count() != 8 {
		t.Fatalf("%d calls, want 8 (one per rule)", f.count())
	}
	rep := mustLoad(t, c)
	if !rep.Passed || !rep.Complete || len(rep.Rules) != 8 || rep.Candidate != "tinykv-tkep-0002" || rep.Model != "judge-model" || len(rep.MappingSHA256) != 64 {
		t.Fatalf("report %+v", rep)
	}
	for i, rr := range rep.Rules {
		want := []string{"S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8"}[i]
		if rr.Rule != want || !rr.Passed || len(rr.Findings) != 0 || len(rr.Exchanges) != 1 {
			t.Errorf("rule %d: %+v", i, rr)
		}
	}
	if rep.Rules[7].Verdict != "complete" || rep.Rules[0].Verdict != "" {
		t.Errorf("verdicts %q %q", rep.Rules[7].Verdict, rep.Rules[0].Verdict)
	}
	if got := rep.Summary(); got != "semantic audit passed (8 rules)" {
		t.Errorf("summary %q", got)
	}
	// Each auditor got the wrapper with its own rule and the artifact.
	for _, id := range []string{"S1", "S8"} {
		reqs := f.requests(id)
		if len(reqs) != 1 || reqs[0].Model != "judge-model" || len(reqs[0].Messages) != 2 {
			t.Fatalf("%s: %d requests", id, len(reqs))
		}
		if !strings.Contains(reqs[0].Messages[0].Content, "# Rule "+id+": ") ||
			!strings.Contains(reqs[0].Messages[1].Content, "<mapping>\n# Mapping: tinykv-tkep-0002\n") {
			t.Errorf("%s: prompt lacks its rule or the mapping", id)
		}
	}
}

func TestAuditFindingsRejectWithTheirRule(t *testing.T) {
	ws, c := tinykv(t)
	script := clean()
	script["S5"] = []reply{ok(`{"issues": ["section 3.4: store/store.go Store.Restore implements loading, not the format", "  section 3.2: cmd/tinykv/main.go main belongs to 3.2 only  "]}`)}
	script["S2"] = []reply{ok(`{"issues": ["section 6.1 is deferred future work; classify it contextual"]}`)}
	f := newFake(t, script)
	client, _ := newClient(t, f.config(), ws)
	res, reason := run(t, &Stage{LLM: client}, c, env(ws))
	if res != pipeline.Rejected || reason != "semantic audit failed: 3 findings (S2 1, S5 2)" {
		t.Fatalf("got %s %q", res, reason)
	}
	rep := mustLoad(t, c)
	want := []Finding{
		{Rule: "S5", Message: "section 3.4: store/store.go Store.Restore implements loading, not the format"},
		{Rule: "S5", Message: "section 3.2: cmd/tinykv/main.go main belongs to 3.2 only"},
	}
	if !reflect.DeepEqual(rep.Rules[4].Findings, want) || rep.Rules[4].Passed || rep.Passed || rep.Findings() != 3 {
		t.Fatalf("S5: %+v, passed %v, report passed %v", rep.Rules[4].Findings, rep.Rules[4].Passed, rep.Passed)
	}
}

func TestAuditSubsetOfRules(t *testing.T) {
	ws, c := tinykv(t)
	f := newFake(t, clean())
	client, _ := newClient(t, f.config(), ws)
	res, _ := run(t, &Stage{LLM: client, Rules: []string{"S1", "S5"}}, c, env(ws))
	rep := mustLoad(t, c)
	if res != pipeline.Passed || f.count() != 2 || rep.Complete || !rep.Passed || len(rep.Rules) != 2 || rep.Rules[1].Rule != "S5" {
		t.Fatalf("got %s, %d calls, report %+v", res, f.count(), rep)
	}
}

func TestS8Verdicts(t *testing.T) {
	for _, tc := range []struct {
		name     string
		answers  []reply
		result   pipeline.Result
		reason   string
		verdict  string
		because  string
		calls    int
		feedback string // in the second S8 request, when there is one
	}{
		{
			name:    "complete",
			answers: []reply{ok(`{"links": [{"url": "https://redis.io/commands/expire/", "essential": false, "accessible": true, "content": "", "note": "background"}], "issues": [], "verdict": "complete"}`)},
			result:  pipeline.Passed, verdict: "complete", calls: 1,
		},
		{
			name:    "inlined",
			answers: []reply{ok(`{"links": [{"url": "https://redis.io/commands/expire/", "essential": true, "accessible": true, "content": "EXPIRE key seconds sets a timeout on key.", "note": "TTL semantics"}], "issues": [], "verdict": "inlined"}`)},
			result:  pipeline.Passed, verdict: "inlined", calls: 1,
		},
		{
			name:    "invalid rejects the candidate",
			answers: []reply{ok(`{"links": [{"url": "https://redis.io/commands/expire/", "essential": true, "accessible": false, "content": "", "note": "the TTL rounding rule is only there"}], "issues": ["https://redis.io/commands/expire/ defines the rounding of TTL replies, which the proposal does not restate"], "verdict": "invalid:the TTL rounding rule lives only in the Redis EXPIRE page"}`)},
			result:  pipeline.Rejected, reason: "semantic audit failed: S8 verdict invalid:the TTL rounding rule lives only in the Redis EXPIRE page",
			verdict: "invalid:the TTL rounding rule lives only in the Redis EXPIRE page", because: "the TTL rounding rule lives only in the Redis EXPIRE page", calls: 1,
		},
		{
			name: "invalid without a reason is asked again",
			answers: []reply{
				ok(`{"links": [{"url": "https://redis.io/commands/expire/", "essential": true, "accessible": false, "content": "", "note": ""}], "issues": [], "verdict": "invalid:"}`),
				ok(`{"links": [{"url": "https://redis.io/commands/expire/", "essential": false, "accessible": false, "content": "", "note": "background"}], "issues": [], "verdict": "complete"}`),
			},
			result: pipeline.Passed, verdict: "complete", calls: 2,
			feedback: `Your previous answer could not be used: the JSON does not satisfy the schema: verdict "invalid:" needs a reason after the colon naming the link and what is missing.`,
		},
		{
			name: "a verdict that disagrees with the links is asked again",
			answers: []reply{
				ok(`{"links": [{"url": "https://redis.io/commands/expire/", "essential": true, "accessible": false, "content": "", "note": ""}], "issues": [], "verdict": "complete"}`),
				ok(`{"links": [{"url": "https://redis.io/commands/expire/", "essential": true, "accessible": false, "content": "", "note": ""}], "issues": [], "verdict": "invalid:EXPIRE semantics are not restated"}`),
			},
			result: pipeline.Rejected, reason: "semantic audit failed: S8 verdict invalid:EXPIRE semantics are not restated",
			verdict: "invalid:EXPIRE semantics are not restated", because: "EXPIRE semantics are not restated", calls: 2,
			feedback: `Your previous answer could not be used: the JSON does not satisfy the schema: verdict "complete" disagrees with the links, which call for "invalid".`,
		},
		{
			name: "a link the scan found must be judged",
			answers: []reply{
				ok(`{"links": [], "issues": [], "verdict": "complete"}`),
				ok(`{"links": [{"url": "https://redis.io/commands/expire/", "essential": false, "accessible": true, "content": "", "note": "background"}], "issues": [], "verdict": "complete"}`),
			},
			result: pipeline.Passed, verdict: "complete", calls: 2,
			feedback: "Your previous answer could not be used: the links list leaves out https://redis.io/commands/expire/, which the proposal contains; judge every link.",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws, c := tinykv(t)
			addLink(t, c)
			f := newFake(t, map[string][]reply{"S8": tc.answers})
			client, _ := newClient(t, f.config(), ws)
			res, reason := run(t, &Stage{LLM: client, Rules: []string{"S8"}}, c, env(ws))
			if res != tc.result || reason != tc.reason {
				t.Fatalf("got %s %q, want %s %q", res, reason, tc.result, tc.reason)
			}
			rr := mustLoad(t, c).Rules[0]
			if rr.Verdict != tc.verdict || rr.VerdictReason != tc.because || rr.Passed != (tc.result == pipeline.Passed) {
				t.Fatalf("verdict %q reason %q passed %v", rr.Verdict, rr.VerdictReason, rr.Passed)
			}
			reqs := f.requests("S8")
			if len(reqs) != tc.calls {
				t.Fatalf("%d S8 requests, want %d", len(reqs), tc.calls)
			}
			if tc.feedback != "" {
				msgs := reqs[1].Messages
				if got := msgs[len(msgs)-1].Content; !strings.HasPrefix(got, tc.feedback) {
					t.Fatalf("feedback %q\nwant prefix %q", got, tc.feedback)
				}
			}
			if tc.verdict == "inlined" && rr.Links[0].Content != "EXPIRE key seconds sets a timeout on key." {
				t.Fatalf("inlined content lost: %+v", rr.Links)
			}
		})
	}
}

// addLink gives the candidate's EP a reference with a URL.
func addLink(t *testing.T, c *pipeline.Candidate) {
	t.Helper()
	p := filepath.Join(c.Dir, "ep.md")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, "- Redis EXPIRE: https://redis.io/commands/expire/.\n"...)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestMalformedJSONIsRepairedOnTheRetry(t *testing.T) {
	ws, c := tinykv(t)
	f := newFake(t, map[string][]reply{"S1": {
		ok(`{"issues": ["section 6.1 Eviction policies is missing",`),
		ok(`{"issues": ["section 6.1 Eviction policies is out of order"]}`),
	}})
	client, _ := newClient(t, f.config(), ws)
	res, reason := run(t, &Stage{LLM: client, Rules: []string{"S1"}}, c, env(ws))
	if res != pipeline.Rejected || reason != "semantic audit failed: 1 finding (S1 1)" {
		t.Fatalf("got %s %q", res, reason)
	}
	reqs := f.requests("S1")
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	msgs := reqs[1].Messages
	want := []string{llm.RoleSystem, llm.RoleUser, llm.RoleAssistant, llm.RoleUser}
	for i, m := range msgs {
		if i >= len(want) || m.Role != want[i] {
			t.Fatalf("retry conversation roles: %+v", msgs)
		}
	}
	if msgs[2].Content != `{"issues": ["section 6.1 Eviction policies is missing",` ||
		msgs[3].Content != "Your previous answer could not be used: the answer is not valid JSON: the JSON value is incomplete. Reply again with only the corrected JSON, no prose and no code fences." {
		t.Fatalf("retry messages %q / %q", msgs[2].Content, msgs[3].Content)
	}
	rep := mustLoad(t, c)
	if got := rep.Rules[0].Findings; len(got) != 1 || got[0] != (Finding{Rule: "S1", Message: "section 6.1 Eviction policies is out of order"}) {
		t.Fatalf("findings %+v", got)
	}
}

func TestRetryAfter429(t *testing.T) {
	ws, c := tinykv(t)
	f := newFake(t, map[string][]reply{"S4": {{status: 429}, ok(`{"issues": []}`)}})
	client, sl := newClient(t, f.config(), ws)
	res, reason := run(t, &Stage{LLM: client, Rules: []string{"S4"}}, c, env(ws))
	if res != pipeline.Passed || f.count() != 2 {
		t.Fatalf("got %s %q after %d calls", res, reason, f.count())
	}
	// One backoff: base 1ms · jitter 0.5.
	if !reflect.DeepEqual(sl.waits, []time.Duration{500 * time.Microsecond}) {
		t.Fatalf("waits %v", sl.waits)
	}
}

func TestTimeout(t *testing.T) {
	t.Run("then success", func(t *testing.T) {
		ws, c := tinykv(t)
		f := newFake(t, map[string][]reply{"S6": {{hang: true}, ok(`{"issues": []}`)}})
		cfg := f.config()
		cfg.Timeout = 200 * time.Millisecond
		client, _ := newClient(t, cfg, ws)
		res, reason := run(t, &Stage{LLM: client, Rules: []string{"S6"}}, c, env(ws))
		if res != pipeline.Passed || f.count() != 2 {
			t.Fatalf("got %s %q after %d calls", res, reason, f.count())
		}
	})
	t.Run("every try", func(t *testing.T) {
		ws, c := tinykv(t)
		f := newFake(t, map[string][]reply{"S6": {{hang: true}}})
		cfg := f.config()
		cfg.Timeout = 100 * time.Millisecond
		cfg.MaxTries = 2
		client, _ := newClient(t, cfg, ws)
		res, reason := run(t, &Stage{LLM: client, Rules: []string{"S6"}}, c, env(ws))
		if res != pipeline.Failed || f.count() != 2 || !strings.HasPrefix(reason, "llm audit: gave up after 2 tries: ") {
			t.Fatalf("got %s %q after %d calls", res, reason, f.count())
		}
		if _, err := os.Stat(filepath.Join(c.Dir, pipeline.AuditFile)); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("a failed audit wrote %s: %v", pipeline.AuditFile, err)
		}
	})
}

func TestRecordReplayRoundTrip(t *testing.T) {
	ws, c := tinykv(t)
	script := clean()
	script["S3"] = []reply{ok(`{"issues": ["store/expiry_test.go belongs to section 5 and to 3.2's associated changes"]}`)}
	f := newFake(t, script)
	client, _ := newClient(t, f.config(), ws)
	res, _ := run(t, &Stage{LLM: client}, c, env(ws))
	if res != pipeline.Rejected || f.count() != 8 {
		t.Fatalf("first run: %s after %d calls", res, f.count())
	}
	first, err := os.ReadFile(filepath.Join(c.Dir, pipeline.AuditFile))
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(c.Dir, pipeline.AuditFile))

	// A fresh client on the same workspace: every answer is a record.
	again, _ := newClient(t, f.config(), ws)
	res, _ = run(t, &Stage{LLM: again}, c, env(ws))
	if res != pipeline.Rejected || f.count() != 8 {
		t.Fatalf("second run: %s, %d calls in all (want 8: zero new)", res, f.count())
	}
	second, _ := os.ReadFile(filepath.Join(c.Dir, pipeline.AuditFile))
	if string(first) != string(second) {
		t.Fatalf("replayed report differs:\n%s\n%s", first, second)
	}

	// Replay-only needs no endpoint at all.
	replay, _ := newClient(t, llm.Config{Model: "judge-model", ReplayOnly: true}, ws)
	res, _ = run(t, &Stage{LLM: replay}, c, env(ws))
	if res != pipeline.Rejected || f.count() != 8 {
		t.Fatalf("replay-only run: %s, %d calls", res, f.count())
	}
	// ... and fails fast when a record is missing (another model).
	other, _ := newClient(t, llm.Config{Model: "other-model", ReplayOnly: true}, ws)
	err = (&Stage{LLM: other, Rules: []string{"S1"}}).Run(context.Background(), env(ws), c)
	if !errors.Is(err, llm.ErrNoRecord) || f.count() != 8 {
		t.Fatalf("replay-only with a missing record: %v, %d calls", err, f.count())
	}
}

func TestSkips(t *testing.T) {
	ws, c := tinykv(t)
	res, reason := run(t, &Stage{}, c, env(ws))
	if res != pipeline.Skipped || reason != llm.ErrNoEndpoint.Error() {
		t.Fatalf("no endpoint: %s %q", res, reason)
	}
	os.Remove(filepath.Join(c.Dir, pipeline.MappingFile))
	res, reason = run(t, &Stage{}, c, env(ws))
	if res != pipeline.Skipped || reason != "no mapping.md to audit; run lolbench map tinykv-tkep-0002 or write it by hand (docs/mapping-format.md)" {
		t.Fatalf("no mapping: %s %q", res, reason)
	}
}

func TestParseRules(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		err  string
	}{
		{"", nil, ""},
		{"S1,S5", []string{"S1", "S5"}, ""},
		{" s5 , 1,S5", []string{"S1", "S5"}, ""},
		{"S8,S2", []string{"S2", "S8"}, ""},
		{"S9", nil, `no semantic rule "S9": the rules are S1 to S8`},
		{"R1", nil, `no semantic rule "R1": the rules are S1 to S8`},
	} {
		got, err := ParseRules(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%q: err %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %v %v, want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestAnswerValidation(t *testing.T) {
	for _, tc := range []struct {
		name string
		a    interface{ Validate() error }
		err  string
	}{
		{"issues ok", &Issues{Issues: []string{}}, ""},
		{"issues null", &Issues{}, `field "issues" is missing or null; send [] when there is no issue`},
		{"blank issue", &Issues{Issues: []string{"a", " "}}, `issue 2 is empty; every issue names the section, file or scope and what is wrong`},
		{"links null", &LinkAnswer{Issues: []string{}, Verdict: "complete"}, `field "links" is missing or null; send [] when the proposal has no link`},
		{"unknown verdict", &LinkAnswer{Links: []Link{}, Issues: []string{}, Verdict: "valid"}, `verdict "valid" is not one of "complete", "inlined" or "invalid:<reason>"`},
		{"bare invalid", &LinkAnswer{Links: []Link{}, Issues: []string{}, Verdict: "invalid"}, `verdict "invalid" is not one of "complete", "inlined" or "invalid:<reason>"`},
		{"empty url", &LinkAnswer{Links: []Link{{}}, Issues: []string{}, Verdict: "complete"}, `link 1 has an empty url`},
		{"content on incidental link", &LinkAnswer{Links: []Link{{URL: "u", Content: "x"}}, Issues: []string{}, Verdict: "inlined"},
			`link 1 (u) has content but is not essential and accessible; content is only for inlining an essential, accessible link`},
		{"inlined without content", &LinkAnswer{Links: []Link{{URL: "u", Essential: true, Accessible: true}}, Issues: []string{}, Verdict: "inlined"},
			`verdict "inlined" disagrees with the links, which call for "complete"`},
		{"invalid beats inlined", &LinkAnswer{Links: []Link{{URL: "u", Essential: true, Accessible: true, Content: "c"}, {URL: "v", Essential: true}}, Issues: []string{}, Verdict: "inlined"},
			`verdict "inlined" disagrees with the links, which call for "invalid"`},
		{"invalid ok", &LinkAnswer{Links: []Link{{URL: "v", Essential: true}}, Issues: []string{}, Verdict: "invalid: v is gone"}, ""},
	} {
		err := tc.a.Validate()
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.err {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.err)
		}
	}
	kind, reason, err := ParseVerdict("invalid: v is gone ")
	if kind != "invalid" || reason != "v is gone" || err != nil {
		t.Errorf("ParseVerdict: %q %q %v", kind, reason, err)
	}
}
