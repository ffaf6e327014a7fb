package mutate

import (
	"github.com/lolbench/lolbench/internal/fakeopenai"

	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/build"
)

// fake is the test endpoint (internal/fakeopenai) playing scripted
// answers in order.
type fake struct{ *fakeopenai.Server }

func newFake(t *testing.T, script ...string) *fake {
	return &fake{fakeopenai.New(t, fakeopenai.InOrder(script...))}
}

func (f *fake) client(t *testing.T, ws *workspace.Workspace) *llm.Client {
	return f.Client(t, ws, "mutant-model")
}

func answer(t *testing.T, a Answer) string {
	t.Helper()
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// llmTask is the tinykv candidate with its PR split as the build stage
// splits it, without running anything.
func llmTask(t *testing.T) (*pipeline.Env, *pipeline.Candidate, *task) {
	t.Helper()
	env, c := sampleCandidate(t, "tinykv", "tinykv-tkep-0002", "ep.md", "Go")
	info, err := c.LoadInfo()
	if err != nil {
		t.Fatal(err)
	}
	dir, _ := info.RepoPath(env.Workspace)
	repo, err := diff.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := build.Split(context.Background(), repo, info.PR.BaseSHA, info.PR.HeadSHA, "Go")
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(c.Dir, build.Dir), 0o755)
	os.WriteFile(filepath.Join(c.Dir, build.TestPatch), sp.TestPatch, 0o644)
	os.WriteFile(filepath.Join(c.Dir, build.SolutionFile), sp.Solution, 0o644)
	tk, err := loadTask(context.Background(), env, c, &build.Record{BaseCommit: info.PR.BaseSHA, HeadCommit: info.PR.HeadSHA, TestPaths: sp.TestPaths})
	if err != nil {
		t.Fatal(err)
	}
	return env, c, tk
}

// The three LLM methods against a fake endpoint: one request per method
// for the section, answers that do not fit the solution fed back once with
// the exact problem, and the records and edits taken from the answers.
func TestLLMMutants(t *testing.T) {
	env, c, tk := llmTask(t)
	revert := Answer{
		MutatedSection: "One command is added: TTL key answers TTL n.", Requirement: "Two commands are added.",
		Reference: "SETEX stores a value with a TTL and answers OK", Mutated: "SETEX is an unknown command",
		Scenario: "SETEX a 10 x: the reference answers OK, the mutant ERR unknown command \"SETEX\"", Rationale: "SETEX no longer exists.",
		Edits: []Edit{{Path: "server/server.go", Old: "\tcase \"SETEX\":\n\t\treturn srv.setex(line)\n", New: ""}},
	}
	mismatchBad := Answer{
		MutatedSection: "a non-numeric or negative seconds answers ERR invalid ttl", Requirement: "a non-numeric or non-positive `seconds` answers `ERR invalid ttl`",
		Reference: "SETEX a 0 x answers ERR invalid ttl", Mutated: "SETEX a 0 x answers OK", Scenario: "SETEX a 0 x", Rationale: "0 is accepted.",
		Edits: []Edit{{Path: "server/server.go", Old: "secs <= 0 {", New: "secs < 0 {"}, {Path: "server/server.go", Old: "no such text", New: "x"}},
	}
	mismatch := mismatchBad
	mismatch.Edits = mismatch.Edits[:1]
	semanticBad := Answer{
		MutatedSection: "TTL answers the remaining seconds rounded down.", Requirement: "rounded down",
		Reference: "TTL rounds up", Mutated: "TTL rounds down", Scenario: "9.5 s left: TTL 10 against TTL 9", Rationale: "Rounding differs.",
		Edits: []Edit{{Path: "server/server.go", Old: "secs := (d + time.Second - 1) / time.Second", New: "secs := d / time.Second"}},
	}
	semantic := semanticBad
	semantic.Requirement = "the remaining whole seconds rounded up"
	f := newFake(t, answer(t, revert), answer(t, mismatchBad), answer(t, mismatch), answer(t, semanticBad), answer(t, semantic))
	st := &Stage{LLM: f.client(t, env.Workspace), Sections: []string{"3.3"}}
	cands, skipped, err := st.llmCandidates(context.Background(), env, c, tk)
	if err != nil || len(skipped) > 0 {
		t.Fatal(err, skipped)
	}
	var ids []string
	for _, cd := range cands {
		ids = append(ids, cd.Mutant.ID)
	}
	if want := []string{"llm-section-revert-3.3", "llm-requirement-mismatch-3.3", "llm-semantic-mutation-3.3"}; !reflect.DeepEqual(ids, want) {
		t.Fatalf("ids %v", ids)
	}
	m := cands[1].Mutant
	want := &mutation.Mutant{ID: "llm-requirement-mismatch-3.3", Method: mutation.RequirementMismatch, Section: "3.3", SectionTitle: "Protocol commands",
		Requirement: mismatch.Requirement, Reference: mismatch.Reference, Mutated: mismatch.Mutated, Scenario: mismatch.Scenario, Rationale: mismatch.Rationale,
		Status: mutation.Pending}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("record %+v", m)
	}
	after := string(tk.sol.File("server/server.go").After)
	if got := string(cands[1].Edit["server/server.go"]); got != strings.Replace(after, "secs <= 0 {", "secs < 0 {", 1) {
		t.Errorf("mismatch edit:\n%s", got)
	}
	if _, err := mutation.Prepare(context.Background(), tk.sol, cands, ""); err != nil {
		t.Fatal(err)
	}
	if got := cands[0].Mutant.Lines; !reflect.DeepEqual(got, coverage.Lines{"server/server.go": {34, 35}}) {
		t.Errorf("revert lines %v", got)
	}
	calls := f.Requests()
	if len(calls) != 5 {
		t.Fatalf("%d requests, want 5", len(calls))
	}
	sys, user := calls[0][0].Content, calls[0][1].Content
	for _, s := range []string{"Section Revert: remove or reverse the behaviour", "keeping the support code that the other sections need",
		"must still pass", "not equivalent", "never edit or add test files", "\"scenario\"", "\"rationale\""} {
		if !strings.Contains(sys, s) {
			t.Errorf("section-revert system prompt lacks %q", s)
		}
	}
	for _, s := range []string{`<section id="3.3" title="Protocol commands">`, "Two commands are added. `SETEX key seconds value`", `<file path="server/server.go" section-owned="yes">`,
		"- 3.1 Store API:", "<patch>\ndiff --git"} {
		if !strings.Contains(user, s) {
			t.Errorf("user prompt lacks %q", s)
		}
	}
	if !strings.Contains(calls[1][0].Content, "Requirement Mismatch: change one concrete requirement") || !strings.Contains(calls[3][0].Content, "Semantic Mutation: change the structure") {
		t.Errorf("method prompts")
	}
	if got := calls[2][len(calls[2])-1].Content; !strings.Contains(got, "edits[1]: the old text does not occur in server/server.go") {
		t.Errorf("feedback %q", got)
	}
	if got := calls[4][len(calls[4])-1].Content; !strings.Contains(got, `requirement "rounded down" is not quoted word for word from section 3.3`) {
		t.Errorf("feedback %q", got)
	}

	// A model that never gets it right: the mutant is a skip line.
	bad := revert
	bad.Edits = []Edit{{Path: "server/server_test.go", Old: "x", New: "y"}}
	f2 := newFake(t, answer(t, bad), answer(t, bad), answer(t, bad), answer(t, mismatch), answer(t, semantic))
	os.RemoveAll(filepath.Join(env.Workspace.Root, "llm"))
	st = &Stage{LLM: f2.client(t, env.Workspace), Sections: []string{"3.3"}}
	cands, skipped, err = st.llmCandidates(context.Background(), env, c, tk)
	if err != nil || len(cands) != 2 || len(skipped) != 1 ||
		!strings.HasPrefix(skipped[0], `llm section-revert, section 3.3: llm mutate: the answer still does not fit the candidate after 3 tries: edits[0]: "server/server_test.go" is not a file of the reference solution`) {
		t.Errorf("skipped %q, %d mutants, %v", skipped, len(cands), err)
	}
}

// The judge vets the LLM mutants before they run (paper, section 3.4): it
// reads each mutant's record and its diff against the reference solution;
// a confirmed mutant keeps the judge's account for the reviewer, a
// rejected one is dropped with it, and one the judge cannot answer about
// is dropped too. Deterministic mutants are not judged.
func TestJudge(t *testing.T) {
	env, c, tk := llmTask(t)
	after := tk.sol.File("server/server.go").After
	edit := func(old, new string) mutation.Edit {
		return mutation.Edit{"server/server.go": []byte(strings.Replace(string(after), old, new, 1))}
	}
	mk := func(id string, m mutation.Method, e mutation.Edit) mutation.Candidate {
		return mutation.Candidate{Mutant: &mutation.Mutant{ID: id, Method: m, Section: "3.3", SectionTitle: "Protocol commands",
			Requirement: "a non-numeric or non-positive `seconds` answers `ERR invalid ttl`", Reference: "SETEX a 0 x answers ERR invalid ttl",
			Mutated: "SETEX a 0 x answers OK", Scenario: "SETEX a 0 x", Rationale: "0 is accepted.", Status: mutation.Pending}, Edit: e}
	}
	cands := []mutation.Candidate{
		mk("llm-requirement-mismatch-3.3", mutation.RequirementMismatch, edit("secs <= 0 {", "secs < 0 {")),
		mk("llm-semantic-mutation-3.3", mutation.SemanticMutation, edit("ERR invalid ttl", "ERR invalid  ttl")),
		mk("llm-section-revert-3.3", mutation.SectionRevert, edit("case \"SETEX\":", "case \"SETEXX\":")),
		mk("op-flip-comparison-006", mutation.SyntaxOperator, edit("secs <= 0 {", "secs > 0 {")),
	}
	if _, err := mutation.Prepare(context.Background(), tk.sol, cands, ""); err != nil {
		t.Fatal(err)
	}
	f := newFake(t,
		`{"verdict": "confirmed", "reason": "The edit lets  a zero TTL through, so SETEX a 0 x stores the key instead of answering ERR invalid ttl."}`,
		`{"verdict": "rejected", "reason": "Only the error text changes; the requirement is about rejecting the TTL, which still happens."}`,
		`{"verdict": "maybe", "reason": ""}`, `{"verdict": "maybe", "reason": ""}`, `{"verdict": "maybe", "reason": ""}`,
	)
	st := &Stage{LLM: f.client(t, env.Workspace)}
	if err := st.vet(context.Background(), env, c, tk, cands); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, cd := range cands {
		m := cd.Mutant
		got = append(got, fmt.Sprintf("%s %s %s %s | %s", m.ID, m.Status, m.Drop, m.Reason, m.Judge))
	}
	want := []string{
		"llm-requirement-mismatch-3.3 pending   | The edit lets a zero TTL through, so SETEX a 0 x stores the key instead of answering ERR invalid ttl.",
		"llm-semantic-mutation-3.3 dropped judge the judge rejected it: Only the error text changes; the requirement is about rejecting the TTL, which still happens. | ",
		`llm-section-revert-3.3 dropped judge the judge gave no usable answer: llm mutate: no valid answer after 3 tries: the JSON does not satisfy the schema: verdict is "maybe"; give "confirmed" or "rejected"; reason is empty | `,
		"op-flip-comparison-006 pending   | ",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("vetted:\n got %q\nwant %q", got, want)
	}
	calls := f.Requests()
	if len(calls) != 5 {
		t.Fatalf("%d requests, want 5 (three mutants, the last asked three times)", len(calls))
	}
	sys, user := calls[0][0].Content, calls[0][1].Content
	for _, s := range []string{"confirm or reject each claim before anything is run", "The edits change the code that implements the claimed requirement",
		"The claim is true to the code", "The change is not equivalent", "stays within its claim", "Reject the mutant when any of these fails, and when you cannot tell from the diff",
		`{"verdict": "confirmed" or "rejected", "reason": `} {
		if !strings.Contains(sys, s) {
			t.Errorf("judge system prompt lacks %q", s)
		}
	}
	for _, s := range []string{`made with the method "Requirement Mismatch"`, `<section id="3.3" title="Protocol commands">`,
		"- requirement it violates: a non-numeric or non-positive `seconds` answers `ERR invalid ttl`", "- diverging scenario: SETEX a 0 x",
		"<diff>\ndiff --git a/server/server.go b/server/server.go\n", "-\tif err != nil || secs <= 0 {\n+\tif err != nil || secs < 0 {\n"} {
		if !strings.Contains(user, s) {
			t.Errorf("judge user prompt lacks %q:\n%s", s, user)
		}
	}
	rep := mutation.NewReport(c.ID, nil, []*mutation.Mutant{cands[0].Mutant, cands[1].Mutant})
	if want := []mutation.Vetted{{Mutant: "llm-requirement-mismatch-3.3", Method: mutation.RequirementMismatch, Section: "3.3",
		Judge: "The edit lets a zero TTL through, so SETEX a 0 x stores the key instead of answering ERR invalid ttl."}}; !reflect.DeepEqual(rep.Vetted, want) {
		t.Errorf("report lists %+v", rep.Vetted)
	}
}
