package mapdraft

import (
	"github.com/lolbench/lolbench/internal/fakeopenai"

	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/internal/testcand"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/validate"
)

// fake is the test endpoint (internal/fakeopenai) playing scripted
// answers in order.
type fake struct{ *fakeopenai.Server }

func newFake(t *testing.T, script ...string) *fake {
	return &fake{fakeopenai.New(t, fakeopenai.InOrder(script...))}
}

func (f *fake) client(t *testing.T, ws *workspace.Workspace) *llm.Client {
	return f.Client(t, ws, "drafter")
}

func (f *fake) requests() [][]llm.Message { return f.Requests() }

// answer wraps an artifact as the drafter's JSON answer.
func answer(mapping string) string {
	b, _ := json.Marshal(map[string]string{"mapping": mapping})
	return string(b)
}

var (
	goodMapping = mustRead("../../data/samples/tinykv/mapping.md")
	// badMapping says block 1 has 2 direct files; its table names 1 (R07).
	badMapping = strings.Replace(goodMapping,
		"**Files:** 1 direct (7.1%), 1 associated (7.1%), 2 accounted (14.3%) of 14 PR files\n\n#### Direct modifications\n\n| File | Class | Function |\n|------|-------|----------|\n| `store/store.go` | - | - |",
		"**Files:** 2 direct (14.3%), 1 associated (7.1%), 2 accounted (14.3%) of 14 PR files\n\n#### Direct modifications\n\n| File | Class | Function |\n|------|-------|----------|\n| `store/store.go` | - | - |", 1)
	r07 = Finding{Rule: "R07 per-section-proportions", Line: 51, Where: "section 3.1",
		Message: "the Files line of block 1 disagrees with its tables: it says 2 direct but Direct modifications name 1 file (`store/store.go`); write \"**Files:** 1 direct (7.1%), 1 associated (7.1%), 2 accounted (14.3%) of 14 PR files\""}
	unparsable = "# Mapping: tinykv-tkep-0002\n\nHere is the mapping you asked for.\n"
)

func mustRead(p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func tinykv(t *testing.T) (*workspace.Workspace, *pipeline.Candidate) {
	t.Helper()
	ws, c, err := testcand.Build(t.TempDir(), testcand.Tinykv("../.."))
	if err != nil {
		t.Fatal(err)
	}
	if badMapping == goodMapping {
		t.Fatal("the broken mapping is not broken: the sample changed")
	}
	return ws, c
}

func runStage(t *testing.T, s *Stage, ws *workspace.Workspace, c *pipeline.Candidate) (pipeline.Result, string) {
	t.Helper()
	return pipeline.Classify(s.Run(context.Background(), &pipeline.Env{Workspace: ws}, c))
}

func read(t *testing.T, c *pipeline.Candidate, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(c.Dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestRegenerateUntilThePass(t *testing.T) {
	ws, c := tinykv(t)
	f := newFake(t, answer(badMapping), answer(goodMapping))
	res, reason := runStage(t, &Stage{LLM: f.client(t, ws)}, ws, c)
	if res != pipeline.Passed || reason != "" {
		t.Fatalf("got %s %q", res, reason)
	}
	// mapping.md is the second draft, byte for byte.
	if read(t, c, pipeline.MappingFile) != goodMapping {
		t.Fatal("mapping.md is not the passing draft")
	}
	rec, err := LoadRecord(c)
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Passed || rec.MappingSHA256 != sha([]byte(goodMapping)) || rec.Model != "drafter" || rec.MaxRounds != 3 || len(rec.Rounds) != 2 {
		t.Fatalf("record %+v", rec)
	}
	if !reflect.DeepEqual(rec.Rounds[0].Findings, []Finding{r07}) || len(rec.Rounds[1].Findings) != 0 || rec.Rounds[0].SHA256 != sha([]byte(badMapping)) {
		t.Fatalf("rounds %+v", rec.Rounds)
	}
	// The second request carries the first draft and its violation.
	calls := f.requests()
	if len(calls) != 2 || len(calls[0]) != 2 || len(calls[1]) != 4 {
		t.Fatalf("%d requests", len(calls))
	}
	if calls[1][0] != calls[0][0] || calls[1][1] != calls[0][1] || calls[1][2] != (llm.Message{Role: llm.RoleAssistant, Content: answer(badMapping)}) {
		t.Fatal("the retry does not repeat the first request and the draft")
	}
	want := "Your draft breaks the checks below (1 finding). This is round 2 of 3.\n\n" +
		"- R07 per-section-proportions, artifact line 51, section 3.1: " + r07.Message + "\n\n" +
		"Fix every finding, keep everything that was right, and check the counts, percentages and statistics again after your changes. Send the complete corrected artifact in the same form, {\"mapping\": \"...\"}, and nothing else."
	if calls[1][3] != (llm.Message{Role: llm.RoleUser, Content: want}) {
		t.Fatalf("retry message\n%q\nwant\n%q", calls[1][3].Content, want)
	}
	if !strings.Contains(calls[0][1].Content, "<proposal id=\"TKEP 2\" title=\"Key expiry\" format=\"md\">") ||
		!strings.Contains(calls[0][1].Content, "- `store/store.go` | Store | SetWithTTL | new | +8 -0\n") ||
		strings.Contains(calls[0][1].Content, "<mapping>") {
		t.Fatal("the drafter's request lacks the EP or the scopes, or shows a mapping")
	}

	// A rerun with the same inputs drafts nothing.
	again := newFake(t)
	res, _ = runStage(t, &Stage{LLM: again.client(t, ws)}, ws, c)
	if res != pipeline.Passed || len(again.requests()) != 0 {
		t.Fatalf("rerun: %s after %d calls", res, len(again.requests()))
	}
	// A hand edit makes mapping.md the curator's.
	os.WriteFile(filepath.Join(c.Dir, pipeline.MappingFile), []byte(goodMapping+"\n"), 0o644)
	res, reason = runStage(t, &Stage{LLM: again.client(t, ws)}, ws, c)
	if res != pipeline.Skipped || !strings.HasPrefix(reason, "mapping.md was not drafted by lolbench") {
		t.Fatalf("after a hand edit: %s %q", res, reason)
	}
}

func TestGiveUpAfterTheLastRound(t *testing.T) {
	ws, c := tinykv(t)
	f := newFake(t, answer(badMapping), answer(unparsable), answer(badMapping))
	const want = "the drafted mapping still breaks the static rules after 3 rounds: 1 finding (R07); the last draft is in mapping.draft.md, every round's findings in mapping.draft.json"
	res, reason := runStage(t, &Stage{LLM: f.client(t, ws)}, ws, c)
	if res != pipeline.Rejected || reason != want {
		t.Fatalf("got %s %q", res, reason)
	}
	if _, err := os.Stat(filepath.Join(c.Dir, pipeline.MappingFile)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a failed draft became mapping.md: %v", err)
	}
	if read(t, c, LastDraftFile) != badMapping {
		t.Fatal("mapping.draft.md is not the last draft")
	}
	rec, _ := LoadRecord(c)
	if rec.Passed || rec.MappingSHA256 != "" || len(rec.Rounds) != 3 || !reflect.DeepEqual(rec.Rounds[2].Findings, []Finding{r07}) {
		t.Fatalf("record %+v", rec)
	}
	parse := []Finding{
		{Rule: "parse", Line: 3, Message: `unexpected paragraph before the first part "## Section Classification Summary"`},
	}
	if !reflect.DeepEqual(rec.Rounds[1].Findings, parse) {
		t.Fatalf("round 2 findings %+v", rec.Rounds[1].Findings)
	}
	// Round 3 was told about round 2's parse errors, not round 1's.
	calls := f.requests()
	if len(calls) != 3 || calls[2][2].Content != answer(unparsable) || !strings.HasPrefix(calls[2][3].Content, "Your draft breaks the checks below (1 finding). This is round 3 of 3.\n\n- parse, artifact line 3: unexpected paragraph") {
		t.Fatalf("round 3 request: %d calls, %q", len(calls), calls[2][3].Content)
	}
	// The same inputs give up again without asking.
	res, reason = runStage(t, &Stage{LLM: f.client(t, ws)}, ws, c)
	if res != pipeline.Rejected || reason != want || len(f.requests()) != 3 {
		t.Fatalf("rerun: %s %q after %d calls", res, reason, len(f.requests()))
	}
	// Fewer rounds are a different input: asked again, served from records.
	res, reason = runStage(t, &Stage{LLM: f.client(t, ws), Rounds: 1}, ws, c)
	if res != pipeline.Rejected || reason != "the drafted mapping still breaks the static rules after 1 round: 1 finding (R07); the last draft is in mapping.draft.md, every round's findings in mapping.draft.json" || len(f.requests()) != 3 {
		t.Fatalf("one round: %s %q after %d calls", res, reason, len(f.requests()))
	}
}

func TestHandWrittenMapping(t *testing.T) {
	ws, c := tinykv(t)
	if err := os.WriteFile(filepath.Join(c.Dir, pipeline.MappingFile), []byte(badMapping), 0o644); err != nil {
		t.Fatal(err)
	}
	const skip = "mapping.md was not drafted by lolbench (written or edited by hand), so it is left as it is; run lolbench map tinykv-tkep-0002 --force to draft over it"
	for _, s := range []*Stage{{}, {LLM: newFake(t).client(t, ws)}} {
		if res, reason := runStage(t, s, ws, c); res != pipeline.Skipped || reason != skip {
			t.Fatalf("got %s %q", res, reason)
		}
	}
	// --force drafts over it.
	f := newFake(t, answer(goodMapping))
	if res, reason := runStage(t, &Stage{LLM: f.client(t, ws), Overwrite: true}, ws, c); res != pipeline.Passed {
		t.Fatalf("overwrite: %s %q", res, reason)
	}
	if read(t, c, pipeline.MappingFile) != goodMapping {
		t.Fatal("mapping.md was not redrafted")
	}
}

func TestNoEndpoint(t *testing.T) {
	ws, c := tinykv(t)
	res, reason := runStage(t, &Stage{}, ws, c)
	if res != pipeline.Skipped || reason != llm.ErrNoEndpoint.Error() {
		t.Fatalf("got %s %q", res, reason)
	}
}

// TestPipeline runs map and validate like make: the first run drafts and
// validates, the second notices the new files and confirms them without a
// model call, the third finds both stages up to date.
func TestPipeline(t *testing.T) {
	ws, c := tinykv(t)
	f := newFake(t, answer(badMapping), answer(goodMapping))
	chain := []pipeline.CandidateStage{&Stage{LLM: f.client(t, ws)}, validate.Stage{}}
	env := &pipeline.Env{Workspace: ws, Version: "test"}
	var got []string
	for range 3 {
		out, err := pipeline.RunCandidate(context.Background(), env, c, chain)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range out {
			got = append(got, o.Stage+" "+string(o.Result)+map[bool]string{true: " (up to date)"}[o.UpToDate])
		}
	}
	want := []string{"map passed", "validate passed", "map passed", "validate passed", "map passed (up to date)", "validate passed (up to date)"}
	if !reflect.DeepEqual(got, want) || len(f.requests()) != 2 {
		t.Fatalf("outcomes %q after %d calls", got, len(f.requests()))
	}
	if rep, err := validate.Load(c); err != nil || !rep.Passed() || len(rep.Rules) != 28 {
		t.Fatalf("validate.json: %v", err)
	}
}

func TestDraftValidate(t *testing.T) {
	for _, tc := range []struct {
		d   Draft
		err string
	}{
		{Draft{Mapping: "# Mapping: x\n"}, ""},
		{Draft{Mapping: " \n"}, `field "mapping" is missing or empty; put the complete Markdown artifact in it`},
		{Draft{Mapping: strings.Repeat("x", maxDraftBytes+1)}, `field "mapping" holds 4194305 bytes; an artifact is far shorter`},
	} {
		err := tc.d.Validate()
		if got := ""; err != nil && err.Error() != tc.err || err == nil && tc.err != got {
			t.Errorf("%.20q: %v, want %q", tc.d.Mapping, err, tc.err)
		}
	}
	if got := Summary([]Finding{{Rule: "R21 x"}, {Rule: "parse"}, {Rule: "R07 y"}, {Rule: "R07 y"}}); got != "4 findings (R07, R21, parse)" {
		t.Errorf("summary %q", got)
	}
}
