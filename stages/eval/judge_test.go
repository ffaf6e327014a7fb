package eval

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lolbench/lolbench/data/taxonomy"
	"github.com/lolbench/lolbench/internal/fakeopenai"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/trajectory"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// referenceMarker is in the reference solution and the reference scopes
// only: the judge must never see it.
const referenceMarker = "REFERENCE_ONLY_expireKeysInBatches"

// judgeWorkspace holds one agent with two failed attempts, each with a
// trajectory, and the task they ran on.
func judgeWorkspace(t *testing.T) *workspace.Workspace {
	t.Helper()
	ws, err := workspace.Open(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	cand := filepath.Join(ws.Root, "candidates", "kv-ep-0001")
	os.MkdirAll(filepath.Join(cand, "task"), 0o755)
	os.MkdirAll(filepath.Join(cand, "build"), 0o755)
	os.WriteFile(filepath.Join(cand, "task", "instruction.md"), []byte("Implement key expiry (KVEP 1): keys get a TTL in seconds; an expired key reads as absent."), 0o644)
	os.WriteFile(filepath.Join(cand, "build", "solution.patch"), []byte("+func "+referenceMarker+"() {}\n"), 0o644)
	agent := filepath.Join(ws.Root, Dir, "scaffold__m")
	b := new(tb).user("Implement key expiry.").read(store)
	b.evs[len(b.evs)-3].Text = "I will treat the TTL as milliseconds."
	b.edit(store, trajectory.OpModify, true).edit(server, trajectory.OpModify, true).test(true, false).final("Stopping.")
	writeEvents(t, filepath.Join(agent, "events", "kv-ep-0001.1.jsonl"), b.evs)
	// The second attempt ends with other words, so that it is another
	// question to the judge.
	b.evs[len(b.evs)-1].Text = "Stopping here."
	writeEvents(t, filepath.Join(agent, "events", "kv-ep-0001.2.jsonl"), b.evs)
	ref := &Scopes{Files: []string{server, store}, Added: []string{}, Functions: []string{"store/store.go: " + referenceMarker}}
	var rows []*Row
	for i := 1; i <= 2; i++ {
		rows = append(rows, &Row{Agent: "scaffold__m", Scaffold: "scaffold", Model: "m", Task: "kv-ep-0001", Candidate: "kv-ep-0001", Variant: Plain,
			Attempt: i, Source: SourceHarbor, Origin: "trial", Reward: 0, Verdict: "failed", GradedBy: GradedHost, Reference: ref,
			Solution: &Scopes{Files: []string{server, store}}, Trajectory: eventsName("kv-ep-0001", i)})
	}
	if err := writeResults(filepath.Join(agent, ResultsFile), rows); err != nil {
		t.Fatal(err)
	}
	return ws
}

func writeEvents(t *testing.T, path string, evs []trajectory.Event) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := trajectory.NewWriter(f)
	for i := range evs {
		w.Write(&evs[i])
	}
	w.Flush()
	f.Close()
}

func TestJudgeAgainstFakeEndpoint(t *testing.T) {
	ws := judgeWorkspace(t)
	good := `{"modes": [
	 {"mode": "misread_requirement", "present": true, "confidence": "high", "steps": [2], "evidence": "Step 2 reads the TTL as milliseconds; the proposal says seconds."},
	 {"mode": "incomplete_requirement_coverage", "present": true, "confidence": "low", "steps": [3], "evidence": "maybe"},
	 {"mode": "missed_constraint", "present": true, "confidence": "medium", "steps": [2, 99], "evidence": "step 99"},
	 {"mode": "scope_misjudged", "present": true, "confidence": "medium", "steps": [], "evidence": "no steps"},
	 {"mode": "flawed_plan", "present": true, "confidence": "medium", "steps": [4, 3], "evidence": "Edits start at step 3 with no plan."},
	 {"mode": "abandoned_plan", "present": false, "confidence": "high", "steps": [], "evidence": ""}]}`
	// The first attempt gets a usable answer; the second three answers
	// that cannot be parsed (the client asks again twice). The two are
	// asked at once, so the answer follows the question.
	bad := []string{"I think the agent did fine.", `{"modes": "all of them"}`, `{"modes": [{"mode": "telepathy", "present": true, "confidence": "high", "steps": [1]}]}`}
	srv := fakeopenai.New(t, func(n int, msgs []llm.Message) (string, bool) {
		if strings.Contains(msgs[1].Content, "Stopping here.") {
			if asked := (len(msgs) - 2) / 2; asked < len(bad) {
				return bad[asked], true
			}
			return "", false
		}
		return good, true
	})
	client := srv.Client(t, ws, "judge-model")
	an := &Analyze{Judge: &Judge{Client: client, Modes: taxonomy.Default().ByDetection(taxonomy.LLM)}, Batch: 2}
	if err := an.Run(context.Background(), &pipeline.Env{Workspace: ws}); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	// Blinding: the judge sees the task and the process, never the
	// reference solution nor the outcome.
	for i, conv := range reqs {
		var all strings.Builder
		for _, m := range conv {
			all.WriteString(m.Content)
		}
		text := all.String()
		for _, banned := range []string{referenceMarker, "reward", "Reward", "verdict", "FAIL_TO_PASS", "PASS_TO_PASS", "resolved", `"failed"`} {
			if strings.Contains(text, banned) {
				t.Errorf("request %d contains %q", i+1, banned)
			}
		}
		for _, need := range []string{"Implement key expiry (KVEP 1)", "I will treat the TTL as milliseconds.", `<step n="2">`, "misread_requirement", "abandoned_plan", "edited store/store.go (modify)"} {
			if !strings.Contains(text, need) {
				t.Errorf("request %d lacks %q", i+1, need)
			}
		}
	}
	// What was kept and dropped.
	var atts []Attribution
	data, _ := os.ReadFile(filepath.Join(ws.Root, Dir, "scaffold__m", AttributionsFile))
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var a Attribution
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			t.Fatal(err)
		}
		atts = append(atts, a)
	}
	if len(atts) != 2 {
		t.Fatalf("%d attributions", len(atts))
	}
	type kept struct {
		mode, conf string
		weight     float64
		share      float64
		steps      []int
	}
	var got []kept
	for _, d := range atts[0].Modes {
		got = append(got, kept{d.Mode, d.Confidence, d.Weight, d.Share, d.Steps})
	}
	// The solution changed both reference files, yet failed: the rule
	// incorrect_patch (high). With the two kept judgments, weights 1.0,
	// 0.6 and 1.0 split the unit as 5/13, 3/13 and 5/13.
	want := []kept{{"misread_requirement", High, 1, 5.0 / 13, []int{2}}, {"flawed_plan", Medium, 0.6, 3.0 / 13, []int{3, 4}},
		{"incorrect_patch", High, 1, 5.0 / 13, nil}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("kept %+v, want %+v", got, want)
	}
	wantDropped := []Dropped{{"incomplete_requirement_coverage", DropLowConfidence}, {"missed_constraint", DropBadCitation + " (99)"}, {"scope_misjudged", DropNoCitation}}
	if !reflect.DeepEqual(atts[0].Dropped, wantDropped) {
		t.Fatalf("dropped %+v, want %+v", atts[0].Dropped, wantDropped)
	}
	if len(atts[1].Modes) != 1 || atts[1].Modes[0].Mode != "incorrect_patch" || atts[1].Unattributed || len(atts[1].Dropped) != 1 || !strings.HasPrefix(atts[1].Dropped[0].Why, DropUnparseable+": ") {
		t.Fatalf("second attempt %+v", atts[1])
	}
	js := an.Analysis.Judge
	if js.Status != "used" || js.Model != "judge-model" || js.Judged != 2 || js.Kept != 2 ||
		!reflect.DeepEqual(js.Dropped, map[string]int{DropLowConfidence: 1, DropBadCitation: 1, DropNoCitation: 1, DropUnparseable: 1}) {
		t.Fatalf("judge summary %+v", js)
	}
	// Table 3 for the agent, in units over its 2 evaluable attempts:
	// requirement understanding 5/13 (tenths 3.846), task planning 3/13
	// (2.308), code editing 5/13 + 1 = 18/13 (13.846): floors 3 + 2 + 13 =
	// 18 of 20 tenths, the two missing to the .846 remainders.
	aa := an.Analysis.Agents[0]
	units := map[string]float64{}
	for _, s := range aa.Table.Phases {
		units[s.Name] = s.Units
	}
	if aa.Analyzed != 2 || aa.Evaluable != 2 || aa.Table.Units != 2 ||
		!reflect.DeepEqual(units, map[string]float64{"requirement_understanding": 0.4, "task_planning": 0.2, "code_localization": 0, "code_editing": 1.4, "code_verification": 0, "self_repair": 0, "tool_use": 0}) {
		t.Fatalf("analysis %+v", aa)
	}

	// Replay: the same analysis with no endpoint, from the records.
	before, _ := os.ReadFile(filepath.Join(ws.Root, Dir, "scaffold__m", AttributionsFile))
	rc, err := llm.New(llm.Config{Model: "judge-model", ReplayOnly: true, Timeout: time.Second}, llm.Options{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	an2 := &Analyze{Judge: &Judge{Client: rc, Modes: taxonomy.Default().ByDetection(taxonomy.LLM)}}
	if err := an2.Run(context.Background(), &pipeline.Env{Workspace: ws}); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(filepath.Join(ws.Root, Dir, "scaffold__m", AttributionsFile))
	if string(before) != string(after) {
		t.Fatalf("replay differs:\n%s\n%s", before, after)
	}
}

// A long session is cut to the budget: the judge is told which steps are
// left out, and a citation of one of them is dropped.
func TestJudgePromptBudget(t *testing.T) {
	b := new(tb).user("t")
	for i := 0; i < 40; i++ {
		b.cmd("echo "+strings.Repeat("x", 200), true, "")
	}
	j := &Judge{Modes: taxonomy.Default().ByDetection(taxonomy.LLM), StepsBudget: 2000, InstructionBudget: 10}
	p, shown, err := j.Prompt("0123456789abcdef", b.evs)
	if err != nil {
		t.Fatal(err)
	}
	var ns []int
	for n := range shown {
		ns = append(ns, n)
	}
	if len(shown) >= 41 || !shown[1] || !shown[41] || shown[20] {
		t.Fatalf("shown %v", ns)
	}
	if !strings.Contains(p.User, "are left out for length") || !strings.Contains(p.User, "0123456789\n</task>") || !strings.Contains(p.User, "only its first 10 of 16 bytes") {
		t.Fatalf("prompt:\n%s", p.User)
	}
}
