package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lolbench/lolbench/internal/testcand"
	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/stages/review"
)

// runCLIEnv runs one command line with buffered streams and the given
// environment.
func runCLIEnv(t *testing.T, env map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	f := &Factory{
		IO:     &IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut},
		Getenv: func(k string) string { return env[k] },
	}
	code = run(context.Background(), args, f)
	return out.String(), errOut.String(), code
}

// llmFake is an httptest server that speaks the OpenAI chat-completions
// protocol and answers by the kind of prompt: the drafter, an auditor (by
// rule) or the judge. Scripted answers live only in _test.go files.
type llmFake struct {
	srv     *httptest.Server
	mu      sync.Mutex
	calls   []string
	answers map[string]string
}

func newLLMFake(t *testing.T, answers map[string]string) *llmFake {
	f := &llmFake{answers: answers}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Messages []llm.Message `json:"messages"`
		}
		if err := json.Unmarshal(body, &req); err != nil || len(req.Messages) == 0 {
			t.Errorf("fake: bad request: %v", err)
			return
		}
		sys := req.Messages[0].Content
		key := "?"
		switch {
		case strings.HasPrefix(sys, "You are preparing one entry"):
			key = "map"
		case strings.HasPrefix(sys, "You are the quality judge"):
			key = "judge"
		case strings.Contains(sys, "apply exactly one rule to the artifact: rule S"):
			i := strings.Index(sys, "apply exactly one rule to the artifact: rule S")
			key = sys[i+len("apply exactly one rule to the artifact: rule ") : i+len("apply exactly one rule to the artifact: rule S1")]
		}
		f.mu.Lock()
		f.calls = append(f.calls, key)
		a, ok := f.answers[key]
		if !ok && strings.HasPrefix(key, "S") {
			a, ok = f.answers["S*"], true
		}
		f.mu.Unlock()
		if !ok {
			t.Errorf("fake: no answer for %s", key)
			http.Error(w, "unscripted", http.StatusTeapot)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "c", "object": "chat.completion", "created": 1, "model": "m",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": a}}},
			"usage": map[string]any{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
		})
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *llmFake) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls)
}

func (f *llmFake) env() map[string]string {
	return map[string]string{"LOLBENCH_LLM_BASE_URL": f.srv.URL + "/v1", "LOLBENCH_LLM_MODEL": "m"}
}

const cliJudged = `{"sections": [
 {"section": "3.1", "claims": ["SetWithTTL", "TTL"], "coverage": 9, "precision": 9, "scope": 8, "granularity": 8, "specificity": 9, "category": "core", "modifiers": ["normative"], "reason": "store claims mapped"},
 {"section": "3.2", "claims": ["sweeper"], "coverage": 9, "precision": 8, "scope": 8, "granularity": 8, "specificity": 8, "category": "internal", "modifiers": [], "reason": "sweeper mapped"},
 {"section": "3.3", "claims": ["SETEX", "TTL"], "coverage": 10, "precision": 9, "scope": 9, "granularity": 8, "specificity": 9, "category": "core", "modifiers": [], "reason": "commands mapped"},
 {"section": "3.4", "claims": ["version 2"], "coverage": 9, "precision": 9, "scope": 9, "granularity": 8, "specificity": 8, "category": "core", "modifiers": ["dependents"], "reason": "format mapped"},
 {"section": "3.5", "claims": ["ttl argument"], "coverage": 8, "precision": 8, "scope": 8, "granularity": 8, "specificity": 8, "category": "core", "modifiers": [], "reason": "client mapped"},
 {"section": "4", "claims": ["v1 loads"], "coverage": 9, "precision": 8, "scope": 9, "granularity": 7, "specificity": 8, "category": "compatibility", "modifiers": [], "reason": "file-level row"},
 {"section": "5", "claims": ["unit tests"], "coverage": 10, "precision": 9, "scope": 9, "granularity": 8, "specificity": 9, "category": "tests", "modifiers": [], "reason": "tests listed"},
 {"section": "6.1", "claims": ["LRU"], "coverage": 7, "precision": 8, "scope": 8, "granularity": 7, "specificity": 6, "category": "internal", "modifiers": ["optional"], "reason": "rightly deferred"}
], "instance_score": 8.5, "main_reason": "implemented sections are mapped at function level"}`

func cliAnswers(t *testing.T) map[string]string {
	good, err := os.ReadFile("../../data/samples/tinykv/mapping.md")
	if err != nil {
		t.Fatal(err)
	}
	draft, _ := json.Marshal(map[string]string{"mapping": string(good)})
	return map[string]string{
		"map":   string(draft),
		"S*":    `{"issues": []}`,
		"S8":    `{"links": [], "issues": [], "verdict": "complete"}`,
		"judge": cliJudged,
	}
}

func tinykvWorkspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if _, _, err := testcand.Build(dir, testcand.Tinykv("../..")); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLLMCommandsWithoutEndpoint(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "candidates", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"map", "audit", "rank"} {
		out, errOut, code := runCLIEnv(t, nil, cmd, "--workspace", dir)
		if code != exitBadInput || out != "" || errOut != "lolbench: no LLM endpoint configured; set LOLBENCH_LLM_BASE_URL (and LOLBENCH_LLM_MODEL, LOLBENCH_LLM_API_KEY if the endpoint needs one)\n" {
			t.Errorf("%s: code %d, stdout %q, stderr %q", cmd, code, out, errOut)
		}
	}
	_, errOut, code := runCLIEnv(t, nil, "rank", "nope", "--workspace", dir)
	if code != exitBadInput || !strings.HasSuffix(errOut, "lolbench: no candidate nope in workspace "+dir+"\n") {
		t.Errorf("unknown candidate: %d %q", code, errOut)
	}
}

func TestLLMCommandFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"map", "--rounds", "0"}, "lolbench: --rounds must be at least 1, got 0\n"},
		{[]string{"audit", "--rules", "S1,S9"}, "lolbench: --rules: no semantic rule \"S9\": the rules are S1 to S8\n"},
		{[]string{"review", "x", "--note", "n"}, "lolbench: review: give exactly one of --accept and --reject\n"},
		{[]string{"review", "x", "--accept", "--reject", "--note", "n"}, "lolbench: review: give exactly one of --accept and --reject\n"},
		{[]string{"prompts", "show", "audit-S9"}, "lolbench: prompts show: no prompt \"audit-S9\"; prompts are map, map-retry, audit-S1, audit-S2, audit-S3, audit-S4, audit-S5, audit-S6, audit-S7, audit-S8, judge, mutate-section-revert, mutate-requirement-mismatch, mutate-semantic-mutation, mutate-judge, augment-mutation, augment-coverage, analyze-judge\n"},
	} {
		_, errOut, code := runCLIEnv(t, nil, tc.args...)
		if code != exitBadInput || errOut != tc.err {
			t.Errorf("%q: code %d, stderr %q, want %q", tc.args, code, errOut, tc.err)
		}
	}
	// Parsed options, through the runF seam.
	f := &Factory{IO: &IOStreams{Out: io.Discard, ErrOut: io.Discard}, Getenv: func(string) string { return "" }}
	var got *AuditOptions
	cmd := NewCmdAudit(f, func(o *AuditOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"a", "b", "--rules", "s5, S1", "--model", "big", "--replay-only", "--patch-budget", "1000", "--workspace", "w"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Rules, []string{"S1", "S5"}) || !reflect.DeepEqual(got.Candidates, []string{"a", "b"}) || got.Model != "big" ||
		!got.ReplayOnly || got.Evidence.Budget != 1000 || got.Evidence.FileLimit != 16384 || got.Workspace != "w" {
		t.Fatalf("options %+v", got)
	}
	var mo *MapOptions
	mc := NewCmdMap(f, func(o *MapOptions) error { mo = o; return nil })
	mc.SetArgs([]string{"--force", "--rounds", "5"})
	if err := mc.Execute(); err != nil || !mo.Force || mo.Rounds != 5 || len(mo.Candidates) != 0 || mo.Workspace != "work" {
		t.Fatalf("map options %+v %v", mo, err)
	}
}

func TestRankEndToEnd(t *testing.T) {
	dir := tinykvWorkspace(t)
	f := newLLMFake(t, cliAnswers(t))
	out, errOut, code := runCLIEnv(t, f.env(), "rank", "tinykv-tkep-0002", "--workspace", dir)
	if code != 0 {
		t.Fatalf("code %d\n%s\n%s", code, out, errOut)
	}
	if f.count() != 10 { // 1 draft, 8 audits, 1 judgement
		t.Fatalf("%d calls", f.count())
	}
	want := `tinykv-tkep-0002
  map: passed
  validate: passed
  audit: passed
  rank: passed
    S1 section coverage: passed
    S2 section classification: passed
    S3 test mapping: passed
    S4 PR-file category: passed
    S5 mapping semantics: passed
    S6 citation and summary fidelity: passed
    S7 direct vs associated: passed
    S8 external-link sufficiency: complete
    3.1 Store API: q 8.8 (8.75) w 1.0 (core, normative): store claims mapped
      coverage 9, precision 9, scope 8, granularity 8, specificity 9; claims: SetWithTTL; TTL
    3.2 Background sweeper: q 8.4 (8.40) w 0.8 (internal): sweeper mapped
      coverage 9, precision 8, scope 8, granularity 8, specificity 8; claims: sweeper
    3.3 Protocol commands: q 9.3 (9.30) w 1.0 (core): commands mapped
      coverage 10, precision 9, scope 9, granularity 8, specificity 9; claims: SETEX; TTL
    3.4 Snapshot format: q 8.8 (8.80) w 1.0 (core, dependents): format mapped
      coverage 9, precision 9, scope 9, granularity 8, specificity 8; claims: version 2
    3.5 Python client: q 8.0 (8.00) w 1.0 (core): client mapped
      coverage 8, precision 8, scope 8, granularity 8, specificity 8; claims: ttl argument
    4 Backwards Compatibility: q 8.5 (8.45) w 0.6 (compatibility): file-level row
      coverage 9, precision 8, scope 9, granularity 7, specificity 8; claims: v1 loads
    5 Test Plan: q 9.3 (9.30) w 0.4 (tests): tests listed
      coverage 10, precision 9, scope 9, granularity 8, specificity 9; claims: unit tests
    6.1 Eviction policies: q 7.3 (7.30) w 0.6 (internal, optional): rightly deferred
      coverage 7, precision 8, scope 8, granularity 7, specificity 6; claims: LRU
    Q = Σ w·q / Σ w = (1.0×8.75 + 0.8×8.40 + 1.0×9.30 + 1.0×8.80 + 1.0×8.00 + 0.6×8.45 + 0.4×9.30 + 0.6×7.30) / (1.0 + 0.8 + 1.0 + 1.0 + 1.0 + 0.6 + 0.4 + 0.6) = 54.740 / 6.4 = 8.5531 → 8.6
    Q 8.6 >= 8.0: retained, awaiting expert review
    main reason: implemented sections are mapped at function level
`
	if out != want {
		t.Fatalf("stdout\n%s\nwant\n%s", out, want)
	}
	for _, line := range []string{"tinykv-tkep-0002: drafting mappings\n", "tinykv-tkep-0002: map: round 1: the draft passes all 28 static rules\n",
		"tinykv-tkep-0002: validating mappings\n", "tinykv-tkep-0002: audit: semantic audit passed (8 rules)\n",
		"tinykv-tkep-0002: rank: Q 8.6 >= 8.0: retained, awaiting expert review\n"} {
		if !strings.Contains(errOut, line) {
			t.Errorf("stderr lacks %q:\n%s", line, errOut)
		}
	}

	// The whole workspace, as JSON: the first run's new files (mapping.md
	// and its record) rerun map, which confirms the draft without a call;
	// the later stages rerun from the LLM records. Nothing is asked.
	out, _, code = runCLIEnv(t, f.env(), "rank", "--workspace", dir, "--json")
	var results []candidateResult
	if err := json.Unmarshal([]byte(out), &results); err != nil || code != 0 || f.count() != 10 {
		t.Fatalf("json run: code %d, %d calls, %v\n%s", code, f.count(), err, out)
	}
	if len(results) != 1 || results[0].Rank == nil || !results[0].Rank.Retained || results[0].Rank.Q.String() != "8.6" ||
		results[0].Audit == nil || !results[0].Audit.Passed || results[0].Validate == nil || results[0].Draft == nil || len(results[0].Stages) != 4 {
		t.Fatalf("results %+v", results)
	}
	// Now every stage is up to date.
	out, _, code = runCLIEnv(t, f.env(), "rank", "--workspace", dir)
	if code != 0 || !strings.HasPrefix(out, "tinykv-tkep-0002\n  map: passed (up to date)\n  validate: passed (up to date)\n  audit: passed (up to date)\n  rank: passed (up to date)\n") {
		t.Fatalf("third run: %d\n%s", code, out)
	}
	// Replay-only needs no endpoint: everything is recorded.
	os.Remove(filepath.Join(dir, "candidates", "tinykv-tkep-0002", "status.json"))
	out, errOut, code = runCLIEnv(t, map[string]string{"LOLBENCH_LLM_MODEL": "m"}, "rank", "--workspace", dir, "--replay-only")
	if code != 0 || f.count() != 10 {
		t.Fatalf("replay-only: code %d, %d calls\n%s\n%s", code, f.count(), out, errOut)
	}

	// The expert's review.
	out, errOut, code = runCLIEnv(t, map[string]string{"USER": "ada"}, "review", "tinykv-tkep-0002", "--accept", "--note", "maps cleanly", "--workspace", dir)
	if code != 0 || out != "tinykv-tkep-0002: accepted (Q 8.6): maps cleanly\n" {
		t.Fatalf("review: %d %q %q", code, out, errOut)
	}
	var rec review.Record
	b, _ := os.ReadFile(filepath.Join(dir, "candidates", "tinykv-tkep-0002", "review.json"))
	if err := json.Unmarshal(b, &rec); err != nil || rec.Decision != review.Accepted || rec.Reviewer != "ada" || rec.Note != "maps cleanly" || rec.Q.String() != "8.6" || len(rec.MappingSHA256) != 64 || time.Since(rec.ReviewedAt) > time.Hour {
		t.Fatalf("review.json %s: %v", b, err)
	}
	_, errOut, code = runCLIEnv(t, nil, "review", "tinykv-tkep-0002", "--reject", "--note", " ", "--workspace", dir)
	if code != exitBadInput || errOut != "lolbench: review tinykv-tkep-0002: a note saying why is required\n" {
		t.Fatalf("empty note: %d %q", code, errOut)
	}
}

func TestAuditFindingsExitOne(t *testing.T) {
	dir := tinykvWorkspace(t)
	answers := cliAnswers(t)
	answers["S5"] = `{"issues": ["section 3.4: store/store.go Store.Restore\nbelongs to section 3.1"]}`
	f := newLLMFake(t, answers)
	out, _, code := runCLIEnv(t, f.env(), "audit", "--workspace", dir, "--rules", "S5,S8")
	want := `tinykv-tkep-0002
  map: passed
  validate: passed
  audit: rejected: semantic audit failed: 1 finding (S5 1)
    S5 mapping semantics: 1 finding
      S5: section 3.4: store/store.go Store.Restore belongs to section 3.1
    S8 external-link sufficiency: complete
`
	if code != exitFindings || out != want || f.count() != 3 {
		t.Fatalf("code %d, %d calls\n%s\nwant\n%s", code, f.count(), out, want)
	}
}

func TestMapLeavesHandWrittenMapping(t *testing.T) {
	dir := tinykvWorkspace(t)
	mp := filepath.Join(dir, "candidates", "tinykv-tkep-0002", "mapping.md")
	if err := os.WriteFile(mp, []byte("# Mapping: tinykv-tkep-0002\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := newLLMFake(t, cliAnswers(t))
	out, _, code := runCLIEnv(t, f.env(), "map", "--workspace", dir)
	if code != 0 || f.count() != 0 || out != "tinykv-tkep-0002\n  map: skipped: mapping.md was not drafted by lolbench (written or edited by hand), so it is left as it is; run lolbench map tinykv-tkep-0002 --force to draft over it\n" {
		t.Fatalf("code %d, %d calls\n%s", code, f.count(), out)
	}
	out, _, code = runCLIEnv(t, f.env(), "map", "--workspace", dir, "--force")
	if code != 0 || f.count() != 1 || out != "tinykv-tkep-0002\n  map: passed\n    round 1: passes all static rules\n" {
		t.Fatalf("--force: code %d, %d calls\n%s", code, f.count(), out)
	}
}

func TestPromptsShow(t *testing.T) {
	out, _, code := runCLIEnv(t, nil, "prompts", "show")
	if code != 0 || out != "map\nmap-retry\naudit-S1\naudit-S2\naudit-S3\naudit-S4\naudit-S5\naudit-S6\naudit-S7\naudit-S8\njudge\n"+
		"mutate-section-revert\nmutate-requirement-mismatch\nmutate-semantic-mutation\nmutate-judge\naugment-mutation\naugment-coverage\nanalyze-judge\n" {
		t.Fatalf("list: %d %q", code, out)
	}
	out, _, code = runCLIEnv(t, nil, "prompts", "show", "audit-S3")
	if code != 0 || !strings.HasPrefix(out, "===== audit-S3: system =====\nYou are an auditor") || !strings.Contains(out, "\n\n===== audit-S3: user =====\nAudit this mapping artifact against rule S3 (test mapping).\n") {
		t.Fatalf("placeholder: %d\n%s", code, out)
	}
	for name, want := range map[string]string{"mutate-judge": "‹the mutant's diff against the reference solution›", "analyze-judge": "‹a step of the session›"} {
		out, _, code = runCLIEnv(t, nil, "prompts", "show", name)
		if code != 0 || !strings.HasPrefix(out, "===== "+name+": system =====\n") || !strings.Contains(out, want) {
			t.Fatalf("%s: %d\n%s", name, code, out)
		}
	}
	out, _, code = runCLIEnv(t, nil, "prompts", "show", "augment-coverage")
	if code != 0 || !strings.HasPrefix(out, "===== augment-coverage: system =====\n") || !strings.Contains(out, "‹uncovered code›") {
		t.Fatalf("augment placeholder: %d\n%s", code, out)
	}
	out, _, code = runCLIEnv(t, nil, "prompts", "show", "mutate-section-revert")
	if code != 0 || !strings.HasPrefix(out, "===== mutate-section-revert: system =====\n") || !strings.Contains(out, "‹reference solution patch›") {
		t.Fatalf("mutate placeholder: %d\n%s", code, out)
	}
	dir := tinykvWorkspace(t)
	spec := testcand.Tinykv("../..")
	b, _ := os.ReadFile(filepath.Join(spec.Sample, "mapping.md"))
	os.WriteFile(filepath.Join(dir, "candidates", spec.ID, "mapping.md"), b, 0o644)
	out, _, code = runCLIEnv(t, nil, "prompts", "show", "judge", "--candidate", spec.ID, "--workspace", dir, "--json")
	var got struct {
		Name      string        `json:"name"`
		Candidate string        `json:"candidate"`
		Messages  []llm.Message `json:"messages"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 || got.Name != "judge" || got.Candidate != spec.ID || len(got.Messages) != 2 {
		t.Fatalf("json: %d %v\n%s", code, err, out)
	}
	if !strings.Contains(got.Messages[1].Content, "one row each:\n- 3.1 Store API\n- 3.2 Background sweeper\n- 3.3 Protocol commands\n- 3.4 Snapshot format\n- 3.5 Python client\n- 4 Backwards Compatibility\n- 5 Test Plan\n- 6.1 Eviction policies\n\n<mapping>\n# Mapping: tinykv-tkep-0002\n") {
		t.Fatalf("judge prompt for the candidate:\n%s", got.Messages[1].Content)
	}
}
