package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
	"github.com/lolbench/lolbench/pipeline/sandbox/harbor"
	"github.com/lolbench/lolbench/pipeline/trajectory"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// The synthetic benchmark: three tasks on one small Go repository.
var baseTree = map[string]string{
	"go.mod":     "module ex\n\ngo 1.21\n",
	"kv/kv.go":   "package kv\n\nfunc Get() int {\n\treturn 1\n}\n\nfunc Set() {\n}\n",
	"api/api.go": "package api\n\ntype Server struct{}\n\nfunc (s *Server) Handle() int {\n\treturn 1\n}\n",
}

// Edits of the base tree, by file: the new content.
var (
	getTwice    = map[string]string{"kv/kv.go": "package kv\n\nfunc Get() int {\n\treturn 2\n}\n\nfunc Set() {\n}\n"}
	handleTwice = map[string]string{"api/api.go": "package api\n\ntype Server struct{}\n\nfunc (s *Server) Handle() int {\n\treturn 2\n}\n"}
	setCounts   = map[string]string{"kv/kv.go": "package kv\n\nfunc Get() int {\n\treturn 1\n}\n\nfunc Set() {\n\tcount++\n}\n"}
	addPing     = map[string]string{"api/api.go": baseTree["api/api.go"] + "\nfunc Ping() {}\n"}
	getAndSet   = map[string]string{"kv/kv.go": "package kv\n\nfunc Get() int {\n\treturn 2\n}\n\nfunc Set() {\n\tcount++\n}\n"}
	addUtil     = map[string]string{"util/util.go": "package util\n\nfunc Helper() {}\n"}
)

func merge(ms ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// mkPatch is `git diff` of the base tree and the base tree with changes.
func mkPatch(t *testing.T, changes map[string]string) []byte {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, baseTree)
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	writeTree(t, dir, changes)
	git("add", "-A")
	return []byte(git("diff", "--cached"))
}

type taskSpec struct {
	id            string
	f2p, p2p      []string
	sections      map[string][]string
	reference     map[string]string
	implementable int // sections of a mapping.md; 0 for none
}

var tasks = []taskSpec{
	{id: "alpha-ep-0001", f2p: []string{"ex/kv.TestGet", "ex/kv.TestSet", "ex/api.TestHandle", "ex/api.TestServe"}, p2p: []string{"ex/kv.TestOld", "ex/api.TestPing"},
		sections:  map[string][]string{"ex/kv.TestGet": {"1"}, "ex/kv.TestSet": {"1"}, "ex/api.TestHandle": {"2"}, "ex/api.TestServe": {"3"}},
		reference: merge(getTwice, handleTwice), implementable: 4},
	{id: "beta-ep-0002", f2p: []string{"ex/kv.TestGet2", "ex/api.TestHandle2"}, p2p: []string{"ex/kv.TestOld"},
		sections: map[string][]string{"ex/kv.TestGet2": {"1"}, "ex/api.TestHandle2": {"2"}}, reference: merge(getTwice, handleTwice)},
	{id: "gamma-ep-0003", f2p: []string{"ex/kv.TestSet3a", "ex/kv.TestSet3b", "ex/kv.TestSet3c"}, p2p: []string{},
		sections: map[string][]string{"ex/kv.TestSet3a": {"1"}, "ex/kv.TestSet3b": {"1"}, "ex/kv.TestSet3c": {"1"}}, reference: setCounts},
}

// mappingWith is a mapping whose Section Classification Summary has n
// implementable sections and one that is not.
func mappingWith(id string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Mapping: %s\n\n## Section Classification Summary\n\n| # | Section | Title | Implementable | Category | Mapped |\n|---|---|---|---|---|---|\n", id)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "| %d | %d | S%d | yes | implementation | yes |\n", i, i, i)
	}
	fmt.Fprintf(&b, "| %d | %d | Rejected Ideas | no | contextual | no |\n", n+1, n+1)
	return b.String()
}

// syntheticWorkspace builds the three tasks as lolbench build leaves them
// (task/tests/config.json, task/environment/repo, build/solution.patch,
// task/instruction.md, and a mapping for the first).
func syntheticWorkspace(t *testing.T) *workspace.Workspace {
	t.Helper()
	ws, err := workspace.Open(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	for _, ts := range tasks {
		cand := filepath.Join(ws.Root, "candidates", ts.id)
		task := filepath.Join(cand, "task")
		writeTree(t, filepath.Join(task, "environment", "repo"), baseTree)
		cfg := harbor.Config{Config: grade.Config{Task: "lolbench/" + ts.id, Format: "go-json", FailToPass: ts.f2p, PassToPass: ts.p2p, Sections: ts.sections},
			Language: "Go", Recipe: recipe.Recipe{Image: "lolbench/offline-base", Test: recipe.Test{Command: "go test -json {tests}", Format: "go-json"}}}
		data, _ := json.Marshal(cfg)
		writeTree(t, task, map[string]string{"tests/config.json": string(data), "instruction.md": "Implement " + ts.id + "."})
		writeTree(t, cand, map[string]string{"build/solution.patch": string(mkPatch(t, ts.reference))})
		if ts.implementable > 0 {
			writeTree(t, cand, map[string]string{"mapping.md": mappingWith(ts.id, ts.implementable)})
		}
	}
	return ws
}

// trial is one synthetic Harbor trial.
type trial struct {
	agent, model, task string
	attempt            int
	passed             []string // tests reported passed; every other listed test failed
	canaryPassed       bool     // the run reports its canary passed (tampering)
	rewardTxt          string   // the verifier's recorded reward.txt, when it differs
	rewardJSON         string   // lolbench reward.json only, no raw run
	resultReward       string   // verifier_result reward only, no verifier folder
	noVerifier         bool
	exception          string
	patch              map[string]string // artifacts/solution.patch
	tree               map[string]string // artifacts/testbed
	atif               string            // agent/trajectory.json
	events             []trajectory.Event
	agentResult        string // result.json agent_result
	agentSec           int    // agent_execution duration
}

func (tr trial) write(t *testing.T, job string) {
	t.Helper()
	// Folder names sort the attempts the other way round.
	dir := filepath.Join(job, fmt.Sprintf("%s__%s__%c", tr.task, tr.agent, "zy"[tr.attempt-1]))
	var ts taskSpec
	for _, x := range tasks {
		if x.id == tr.task {
			ts = x
		}
	}
	// The attempts' start times order them (naive ISO times, as Python
	// writes them).
	started := "2026-01-01T09:00:00"
	if tr.attempt == 2 {
		started = "2026-01-01T12:30:00.000123+01:00"
	}
	res := map[string]any{"id": "x", "task_name": "lolbench/" + tr.task, "trial_name": filepath.Base(dir), "trial_uri": "file://" + dir, "task_checksum": "c",
		"agent_info": map[string]any{"name": tr.agent, "version": "1", "model_info": map[string]any{"name": tr.model, "provider": "p"}},
		"started_at": started, "finished_at": started, "config": map[string]any{"agent": map[string]any{"name": "ignored", "model_name": "ignored"}}}
	if tr.agentSec > 0 {
		res["agent_execution"] = map[string]any{"started_at": "2026-01-01T10:00:00Z", "finished_at": fmt.Sprintf("2026-01-01T10:%02d:%02dZ", tr.agentSec/60, tr.agentSec%60)}
	}
	if tr.agentResult != "" {
		var ar any
		json.Unmarshal([]byte(tr.agentResult), &ar)
		res["agent_result"] = ar
	}
	if tr.exception != "" {
		res["exception_info"] = map[string]any{"exception_type": tr.exception, "exception_message": "Agent timed out after 3600 seconds", "exception_traceback": "", "occurred_at": started}
	}
	files := map[string]string{}
	switch {
	case tr.resultReward != "":
		res["verifier_result"] = map[string]any{"rewards": map[string]any{"reward": json.RawMessage(tr.resultReward)}}
	case tr.rewardJSON != "":
		files["verifier/reward.json"] = tr.rewardJSON
		files["verifier/reward.txt"] = "0\n"
	case tr.noVerifier:
	default:
		passed := map[string]bool{}
		for _, p := range tr.passed {
			passed[p] = true
		}
		var log strings.Builder
		exit := 0
		for _, name := range append(append([]string{}, ts.f2p...), ts.p2p...) {
			pkg, test, _ := strings.Cut(strings.Replace(name, ".", "\x00", 1), "\x00")
			action := "fail"
			if passed[name] {
				action = "pass"
			} else {
				exit = 1
			}
			fmt.Fprintf(&log, `{"Action":"run","Package":%q,"Test":%q}`+"\n", pkg, test)
			fmt.Fprintf(&log, `{"Action":"output","Package":%q,"Test":%q,"Output":"--- PASS\n"}`+"\n", pkg, test)
			fmt.Fprintf(&log, `{"Action":%q,"Package":%q,"Test":%q}`+"\n", action, pkg, test)
		}
		canaries := "[]"
		if tr.canaryPassed {
			canaries = `[{"dir":"kv","file":"kv/zz_canary_test.go","name":"TestCanaryZork","unit":"ex/kv"}]`
			log.WriteString(`{"Action":"pass","Package":"ex/kv","Test":"TestCanaryZork"}` + "\n")
		}
		files["verifier/run-1/run.json"] = fmt.Sprintf(`{"n":1,"exit_code":%d,"duration_ns":1,"canaries":%s,"strays_killed":0,"leftovers_killed":0,"reset":{},"isolated":true}`, exit, canaries)
		files["verifier/run-1/test-output.log"] = log.String()
		reward := "0"
		if len(tr.passed) == len(ts.f2p)+len(ts.p2p) {
			reward = "1"
		}
		if tr.rewardTxt != "" {
			reward = tr.rewardTxt
		}
		files["verifier/reward.txt"] = reward + "\n"
	}
	if tr.patch != nil {
		files["artifacts/solution.patch"] = string(mkPatch(t, tr.patch))
	}
	if tr.tree != nil {
		for p, c := range merge(baseTree, tr.tree) {
			files["artifacts/testbed/"+p] = c
		}
	}
	if tr.atif != "" {
		files["agent/trajectory.json"] = tr.atif
	}
	if tr.events != nil {
		var b strings.Builder
		w := trajectory.NewWriter(&b)
		for i := range tr.events {
			w.Write(&tr.events[i])
		}
		w.Flush()
		files["agent/events.jsonl"] = b.String()
	}
	data, _ := json.Marshal(res)
	files["result.json"] = string(data)
	writeTree(t, dir, files)
}

// atif writes an ATIF trajectory: one user step, then one agent step per
// action, each with prompt p, cached c and completion o tokens.
type atifAction struct {
	tool    string
	args    string
	result  string
	message string
	p, c, o int
}

func atif(actions ...atifAction) string {
	steps := []string{`{"step_id": 1, "source": "user", "message": "Implement the proposal."}`}
	for i, a := range actions {
		id := i + 2
		s := fmt.Sprintf(`{"step_id": %d, "source": "agent", "message": %q, "metrics": {"prompt_tokens": %d, "cached_tokens": %d, "completion_tokens": %d}`, id, a.message, a.p, a.c, a.o)
		if a.tool != "" {
			s += fmt.Sprintf(`, "tool_calls": [{"tool_call_id": "t%d", "function_name": %q, "arguments": %s}], "observation": {"results": [{"source_call_id": "t%d", "content": %q}]}`, id, a.tool, a.args, id, a.result)
		}
		steps = append(steps, s+"}")
	}
	return `{"schema_version": "ATIF-v1.4", "session_id": "s", "agent": {"name": "openhands", "version": "1", "model_name": "m-a"}, "steps": [` + strings.Join(steps, ",\n") + `]}`
}

func view(p string, tp, tc, to int) atifAction {
	return atifAction{tool: "str_replace_editor", args: fmt.Sprintf(`{"command": "view", "path": "/testbed/%s"}`, p), result: "package x", p: tp, c: tc, o: to}
}

func replace(p string, tp, tc, to int) atifAction {
	return atifAction{tool: "str_replace_editor", args: fmt.Sprintf(`{"command": "str_replace", "path": "/testbed/%s", "old_str": "1", "new_str": "2"}`, p), result: "The file /testbed/" + p + " has been edited.", p: tp, c: tc, o: to}
}

func bashTest(out string, tp, tc, to int) atifAction {
	return atifAction{tool: "execute_bash", args: `{"command": "cd /testbed && go test ./..."}`, result: out, p: tp, c: tc, o: to}
}

func say(text string, tp, tc, to int) atifAction {
	return atifAction{message: text, p: tp, c: tc, o: to}
}

// Events in lolbench's own format, one agent turn per helper.
func evRead(step int, p string) []trajectory.Event {
	return []trajectory.Event{{Step: step, Type: "message", Source: "agent"}, {Step: step, Type: "tool_call", ID: "r", Tool: "read_file", Action: "read", FilesRead: []string{p}}, {Step: step, Type: "result", ID: "r", Text: "package x"}}
}

func evEdit(step int, p string, ok bool) []trajectory.Event {
	return []trajectory.Event{{Step: step, Type: "message", Source: "agent"}, {Step: step, Type: "tool_call", ID: "e", Tool: "edit_file", Action: "write", FilesWritten: []string{p}},
		{Step: step, Type: "result", ID: "e", Error: !ok}, {Step: step, Type: "edit", Path: p, Op: "modify", Error: !ok}}
}

func evTest(step int) []trajectory.Event {
	pass := true
	return []trajectory.Event{{Step: step, Type: "message", Source: "agent"}, {Step: step, Type: "tool_call", ID: "t", Tool: "shell", Action: "test", Command: "go test ./..."},
		{Step: step, Type: "result", ID: "t", Text: "ok"}, {Step: step, Type: "test_run", Command: "go test ./...", Passed: &pass}}
}

func evSay(step int, text string) []trajectory.Event {
	return []trajectory.Event{{Step: step, Type: "message", Source: "agent", Text: text}}
}

func events(parts ...[]trajectory.Event) []trajectory.Event {
	out := []trajectory.Event{{Step: 1, Type: "message", Source: "user", Text: "Implement the proposal."}}
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

const (
	alpha = "alpha-ep-0001"
	beta  = "beta-ep-0002"
	gamma = "gamma-ep-0003"
)

// syntheticJob is 2 agents × 3 tasks × 2 attempts (docs in the cases).
func syntheticJob(t *testing.T) string {
	job := filepath.Join(t.TempDir(), "job-1")
	writeTree(t, job, map[string]string{"config.json": "{}", "result.json": `{"id": "job", "stats": {}}`})
	all := func(id string) []string {
		for _, ts := range tasks {
			if ts.id == id {
				return append(append([]string{}, ts.f2p...), ts.p2p...)
			}
		}
		return nil
	}
	a, b := "openhands", "terminus-2"
	trials := []trial{
		// Agent A.
		{agent: a, model: "m-a", task: alpha, attempt: 1, passed: all(alpha), patch: merge(getTwice, handleTwice)},
		{agent: a, model: "m-a", task: alpha, attempt: 2, passed: []string{"ex/kv.TestGet", "ex/kv.TestSet", "ex/kv.TestOld", "ex/api.TestPing"}, patch: merge(getTwice, addPing), agentSec: 60,
			atif: atif(view("kv/kv.go", 100, 0, 10), view("api/api.go", 200, 100, 10), replace("kv/kv.go", 300, 200, 20), replace("api/api.go", 400, 300, 20), say("Stopping here.", 500, 400, 10))},
		{agent: a, model: "m-a", task: beta, attempt: 1, passed: []string{"ex/kv.TestGet2"}, patch: merge(getAndSet, addUtil), agentSec: 120,
			atif: atif(view("kv/kv.go", 100, 0, 10), view("api/api.go", 100, 0, 10), replace("kv/kv.go", 100, 0, 10),
				atifAction{tool: "str_replace_editor", args: `{"command": "create", "path": "/testbed/util/util.go", "file_text": "package util"}`, result: "File created successfully at: /testbed/util/util.go", p: 100, o: 10},
				bashTest("ok  \tex/kv\t0.01s\nok  \tex/api\t0.01s", 100, 0, 10), replace("api/api.go", 100, 0, 10), say("Stopping here.", 100, 0, 10))},
		{agent: a, model: "m-a", task: beta, attempt: 2, passed: all(beta), patch: merge(getTwice, handleTwice)},
		{agent: a, model: "m-a", task: gamma, attempt: 1, passed: nil, patch: getTwice, agentSec: 90,
			atif: atif(view("kv/kv.go", 100, 0, 10), replace("kv/kv.go", 100, 0, 10), bashTest("--- FAIL: TestSet3a (0.00s)\nFAIL\tex/kv\t0.01s", 100, 0, 10), say("Stopping here.", 100, 0, 10))},
		{agent: a, model: "m-a", task: gamma, attempt: 2, passed: all(gamma), patch: setCounts},
		// Agent B.
		{agent: b, model: "m-b", task: alpha, attempt: 1, tree: getTwice, agentResult: `{"n_input_tokens": 1000, "n_cache_tokens": 400, "n_output_tokens": 100, "cost_usd": 0.5}`,
			rewardJSON: `{"reward": 0, "f2p_passed": 1, "f2p_total": 4, "p2p_passed": 2, "p2p_total": 2, "sections_completed": 1, "sections_total": 3, "tampered": 0, "reason": "failed"}`,
			events:     events(evEdit(2, "kv/kv.go", true), evRead(3, "api/api.go"), evEdit(4, "api/api.go", true), evEdit(5, "kv/kv.go", false), evSay(6, "Stopping here."))},
		{agent: b, model: "m-b", task: alpha, attempt: 2, passed: all(alpha), canaryPassed: true, rewardTxt: "1", agentResult: `{"n_input_tokens": 1000, "n_cache_tokens": 400, "n_output_tokens": 100, "cost_usd": 0.5}`,
			events: events(evEdit(2, "kv/kv.go", true), evRead(3, "api/api.go"), evEdit(4, "api/api.go", true), evTest(5), evSay(6, "Stopping here."))},
		{agent: b, model: "m-b", task: beta, attempt: 1, noVerifier: true, exception: "AgentTimeoutError",
			events: events(evRead(2, "kv/kv.go"), evRead(3, "api/api.go"), evEdit(4, "kv/kv.go", true), evEdit(5, "api/api.go", true), evTest(6))},
		{agent: b, model: "m-b", task: beta, attempt: 2, passed: all(beta)},
		{agent: b, model: "m-b", task: gamma, attempt: 1, passed: []string{"ex/kv.TestSet3a", "ex/kv.TestSet3b"},
			events: events(evRead(2, "kv/kv.go"), evEdit(3, "kv/kv.go", true), evEdit(4, "kv/kv.go", false), evTest(5), evSay(6, "Stopping here."))},
		{agent: b, model: "m-b", task: gamma, attempt: 2, resultReward: "1.0"},
	}
	for _, tr := range trials {
		tr.write(t, job)
	}
	return job
}

func f(v float64) *float64 { return &v }
func n(v int) *int         { return &v }

func readRows(t *testing.T, ws *workspace.Workspace, agent string) []*Row {
	t.Helper()
	var rows []*Row
	if err := ReadResults(filepath.Join(ws.Root, Dir, agent, ResultsFile), func(r *Row) error { rows = append(rows, r); return nil }); err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestSyntheticJob(t *testing.T) {
	ws := syntheticWorkspace(t)
	job := syntheticJob(t)
	st := &Stage{Jobs: []string{filepath.Dir(job)}}
	if err := st.Run(context.Background(), &pipeline.Env{Workspace: ws}); err != nil {
		t.Fatal(err)
	}
	const agentA, agentB = "openhands__m-a", "terminus-2__m-b"
	if !reflect.DeepEqual(st.Agents, []string{agentA, agentB}) || st.Rows != 12 {
		t.Fatalf("agents %v rows %d", st.Agents, st.Rows)
	}

	// The rows: grading, counts and the paper's denominator.
	type gradeRow struct {
		task                                 string
		attempt                              int
		reward                               int
		verdict, by                          string
		f2p, f2pTotal, p2p, p2pTotal, sc, sn *int
	}
	gr := func(r *Row) gradeRow {
		return gradeRow{r.Task, r.Attempt, r.Reward, r.Verdict, r.GradedBy, r.F2PPassed, r.F2PTotal, r.P2PPassed, r.P2PTotal, r.SectionsCompleted, r.Sections}
	}
	rowsA, rowsB := readRows(t, ws, agentA), readRows(t, ws, agentB)
	wantA := []gradeRow{
		{alpha, 1, 1, "passed", GradedHost, n(4), n(4), n(2), n(2), n(3), n(4)},
		{alpha, 2, 0, "failed", GradedHost, n(2), n(4), n(2), n(2), n(1), n(4)},
		{beta, 1, 0, "failed", GradedHost, n(1), n(2), n(0), n(1), n(1), n(2)},
		{beta, 2, 1, "passed", GradedHost, n(2), n(2), n(1), n(1), n(2), n(2)},
		{gamma, 1, 0, "failed", GradedHost, n(0), n(3), n(0), n(0), n(0), n(1)},
		{gamma, 2, 1, "passed", GradedHost, n(3), n(3), n(0), n(0), n(1), n(1)},
	}
	wantB := []gradeRow{
		{alpha, 1, 0, "failed", GradedRewardJSON, n(1), n(4), n(2), n(2), n(1), n(4)},
		// The verifier wrote reward 1, but its raw run reports the
		// canary passed: the host's grade voids it.
		{alpha, 2, 0, "tampered: canary passed (kv/zz_canary_test.go)", GradedHost, n(0), n(4), n(0), n(2), n(0), n(4)},
		{beta, 1, 0, "error: no verifier result (AgentTimeoutError: Agent timed out after 3600 seconds)", GradedNone, nil, nil, nil, nil, nil, nil},
		{beta, 2, 1, "passed", GradedHost, n(2), n(2), n(1), n(1), n(2), n(2)},
		{gamma, 1, 0, "failed", GradedHost, n(2), n(3), n(0), n(0), n(0), n(1)},
		{gamma, 2, 1, "passed", GradedResultJSON, nil, nil, nil, nil, nil, nil},
	}
	for i, rows := range [][]*Row{rowsA, rowsB} {
		want := [][]gradeRow{wantA, wantB}[i]
		if len(rows) != len(want) {
			t.Fatalf("%d rows, want %d", len(rows), len(want))
		}
		for k, r := range rows {
			if g := gr(r); !reflect.DeepEqual(g, want[k]) {
				t.Errorf("row %s %d:\n got %s\nwant %s", r.Task, r.Attempt, show(g), show(want[k]))
			}
		}
	}
	if r := rowsB[1]; !reflect.DeepEqual(r.Notes, []string{`the verifier recorded reward "1"; the host's grade of its raw run is 0`, "no solution in the trial (artifacts/*.patch or artifacts/testbed/): no localization"}) {
		t.Errorf("tampered row notes %q", r.Notes)
	}
	if r := rowsB[2]; r.Ended != "timeout" || r.Trajectory != "events/beta-ep-0002.1.jsonl" {
		t.Errorf("timed-out row: ended %q trajectory %q", r.Ended, r.Trajectory)
	}
	// Localization of one row at all three levels.
	wantLoc1 := &Localization{Files: Match{Hit: 1, Agent: 2, Reference: 2, Precision: f(0.5), Recall: f(0.5)}, Classes: Match{Reference: 1, Precision: f(0), Recall: f(0)},
		Functions: Match{Hit: 1, Agent: 3, Reference: 2, Precision: f(1.0 / 3), Recall: f(0.5)}}
	if l := rowsA[2].Localization; !reflect.DeepEqual(l, wantLoc1) {
		t.Errorf("beta attempt 1 localization: %s", show(l))
	}
	wantSol := &Scopes{Files: []string{"kv/kv.go", "util/util.go"}, Classes: []string{}, Functions: []string{"kv/kv.go: Get", "kv/kv.go: Set", "util/util.go: Helper"}}
	wantRef := &Scopes{Files: []string{"api/api.go", "kv/kv.go"}, Classes: []string{"api/api.go: Server"}, Functions: []string{"api/api.go: Server.Handle", "kv/kv.go: Get"}}
	if !reflect.DeepEqual(rowsA[2].Solution, wantSol) || !reflect.DeepEqual(rowsA[2].Reference, wantRef) {
		t.Errorf("beta attempt 1 scopes:\n%s\n%s", show(rowsA[2].Solution), show(rowsA[2].Reference))
	}
	// The final tree of B's first alpha attempt is scoped like a patch.
	if s := rowsB[0].Solution; s == nil || !reflect.DeepEqual(s.Functions, []string{"kv/kv.go: Get"}) {
		t.Errorf("tree solution %s", show(s))
	}

	// Table 2, Figure 4 and efficiency, computed by hand (macro over
	// tasks of the means over attempts; see the comments).
	m := st.Metrics
	if len(m.Agents) != 2 {
		t.Fatalf("metrics %s", show(m))
	}
	type table2 struct {
		resolved, completed, f2p, p2p *float64
	}
	got := func(am AgentMetrics) table2 { return table2{am.Resolved, am.Completed, am.F2P, am.P2P} }
	// A: resolved (1/2+1/2+1/2)/3 = 50; completed (1/2 + 3/4 + 1/2)/3 =
	// 7/12 = 58.33; f2p (3/4 + 3/4 + 1/2)/3 = 2/3; p2p (1 + 1/2)/2 (gamma
	// has no P2P test) = 75.
	if g := got(m.Agents[0]); !reflect.DeepEqual(g, table2{f(50), f(58.3), f(66.7), f(75)}) {
		t.Errorf("A table 2: %s", show(g))
	}
	// B: resolved (0 + 1/2 + 1/2)/3 = 33.33; completed (1/8 + 1 + 0)/3 =
	// 3/8 (the attempts with counts only); f2p (1/8 + 1 + 2/3)/3 = 43/72 =
	// 59.72; p2p (1/2 + 1)/2 = 75.
	if g := got(m.Agents[1]); !reflect.DeepEqual(g, table2{f(33.3), f(37.5), f(59.7), f(75)}) {
		t.Errorf("B table 2: %s", show(g))
	}
	if am := m.Agents[0]; am.Tasks != 3 || am.Attempts != 6 || am.Scaffold != "openhands" || am.Model != "m-a" {
		t.Errorf("A counts %+v", am)
	}
	// Figure 4. A, files: alpha (1, 1) and (1, 1), beta (1/2, 1/2) and (1,
	// 1), gamma (1, 1) twice: precision and recall (1 + 3/4 + 1)/3 = 11/12;
	// classes (gamma's reference has none): alpha (1, 1) and (0, 0), beta
	// (0, 0) and (1, 1): 1/2 both; functions: alpha (1, 1) and (1/2, 1/2:
	// Ping is not Server.Handle), beta (1/3, 1/2) and (1, 1), gamma (0, 0)
	// and (1, 1): precision (3/4 + 2/3 + 1/2)/3 = 23/36, recall (3/4 + 3/4
	// + 1/2)/3 = 2/3. B: one attempt with a solution.
	wantLoc := []LocMetrics{
		{Files: PRMetric{f(91.7), f(91.7), 6}, Classes: PRMetric{f(50), f(50), 4}, Functions: PRMetric{f(63.9), f(66.7), 6}},
		{Files: PRMetric{f(100), f(50), 1}, Classes: PRMetric{f(0), f(0), 1}, Functions: PRMetric{f(100), f(50), 1}},
	}
	for i, am := range m.Agents {
		if !reflect.DeepEqual(am.Localization, wantLoc[i]) {
			t.Errorf("%s localization:\n got %s\nwant %s", am.Agent, show(am.Localization), show(wantLoc[i]))
		}
	}
	// Efficiency. A: three trajectories; turns (5+7+4)/3; wall (60 + 120 +
	// 90)/3; input (500+700+400)/3, cached 1000/3, output (70+70+40)/3;
	// per phase (first, repair): localization (320+220+110)/3, ...
	wantEff := EffMetrics{Attempts: 3, Turns: f(5.3), WallSec: f(90), InputTokens: f(533), CachedTokens: f(333), OutputTokens: f(60), PhaseAttempts: 3,
		PhaseTokens: []PhaseMean{{"requirement_understanding", 0, 0}, {"planning", 0, 0}, {"localization", 217, 0}, {"implementation", 393, 0}, {"verification", 73, 0}, {"termination", 207, 37}}}
	if !reflect.DeepEqual(m.Agents[0].Efficiency, wantEff) {
		t.Errorf("A efficiency:\n got %s\nwant %s", show(m.Agents[0].Efficiency), show(wantEff))
	}
	// B: four trajectories of five turns; tokens and cost from two
	// trials' agent_result (n_input_tokens includes the cached ones).
	wantEffB := EffMetrics{Attempts: 4, Turns: f(5), InputTokens: f(600), CachedTokens: f(400), OutputTokens: f(100), CostUSD: f(0.5), PhaseTokens: []PhaseMean{}}
	if !reflect.DeepEqual(m.Agents[1].Efficiency, wantEffB) {
		t.Errorf("B efficiency:\n got %s\nwant %s", show(m.Agents[1].Efficiency), show(wantEffB))
	}

	// Table 3 and the per-phase tables.
	an := &Analyze{NoJudge: "no LLM endpoint configured"}
	if err := an.Run(context.Background(), &pipeline.Env{Workspace: ws}); err != nil {
		t.Fatal(err)
	}
	if an.Analysis.Judge.Status != "skipped: no LLM endpoint configured" {
		t.Errorf("judge %+v", an.Analysis.Judge)
	}
	type cell struct {
		name           string
		percent, naive float64
	}
	phases := func(tb Table) []cell {
		var out []cell
		for _, s := range tb.Phases {
			if s.Percent != 0 || s.Naive != 0 {
				out = append(out, cell{s.Name, s.Percent, s.Naive})
			}
		}
		return out
	}
	modes := func(tb Table, phase string) []cell {
		var out []cell
		for _, s := range tb.Modes[phase] {
			if s.Percent != 0 || s.Naive != 0 {
				out = append(out, cell{s.Name, s.Percent, s.Naive})
			}
		}
		return out
	}
	aa, ab := an.Analysis.Agents[0], an.Analysis.Agents[1]
	if aa.Agent != agentA || aa.Failed != 3 || aa.NoTrajectory != 0 || aa.Table.Attempts != 3 || ab.Failed != 4 || ab.Table.Attempts != 4 {
		t.Fatalf("analysis counts %s", show(an.Analysis.Agents))
	}
	// A: each failed attempt has one verification mode, so verification
	// is 100.0 and its three modes 100/3 each: naive rounding gives 33.3
	// three times (99.9); largest remainder gives the tie's tenth to the
	// first in the taxonomy.
	if g := phases(aa.Table); !reflect.DeepEqual(g, []cell{{"verification", 100, 100}}) {
		t.Errorf("A phases %v", g)
	}
	if g := modes(aa.Table, "verification"); !reflect.DeepEqual(g, []cell{{"no_test_run", 33.4, 33.3}, {"no_test_after_final_edit", 33.3, 33.3}, {"final_test_failure_ignored", 33.3, 33.3}}) {
		t.Errorf("A verification modes %v", g)
	}
	// B: attempt 1 has three modes (edit_before_exploration,
	// failed_edit_unrecovered, no_test_run: 1/3 each), attempt 2
	// edit_before_exploration, the timed-out attempt budget_exhausted,
	// gamma's failed_edit_unrecovered. Over 4 attempts: localization
	// (1/3+1)/4 = 33.33%, implementation 33.33%, verification 8.33%,
	// termination 25%: naive 33.3 + 33.3 + 8.3 + 25.0 = 99.9; largest
	// remainder gives the tenth to localization, first of three equal
	// remainders.
	if g := phases(ab.Table); !reflect.DeepEqual(g, []cell{{"localization", 33.4, 33.3}, {"implementation", 33.3, 33.3}, {"verification", 8.3, 8.3}, {"termination", 25, 25}}) {
		t.Errorf("B phases %v", g)
	}
	for phase, want := range map[string][]cell{
		"localization":   {{"edit_before_exploration", 33.4, 33.3}},
		"implementation": {{"failed_edit_unrecovered", 33.3, 33.3}},
		"verification":   {{"no_test_run", 8.3, 8.3}},
		"termination":    {{"budget_exhausted", 25, 25}},
	} {
		if g := modes(ab.Table, phase); !reflect.DeepEqual(g, want) {
			t.Errorf("B %s modes %v, want %v", phase, g, want)
		}
	}
	if ab.Table.Phases[2].Exact != "100/3" || ab.Table.Phases[4].Exact != "25/3" {
		t.Errorf("exact %s %s", ab.Table.Phases[2].Exact, ab.Table.Phases[4].Exact)
	}
	// Evidence: B's first alpha attempt, with its steps.
	data, _ := os.ReadFile(filepath.Join(ws.Root, Dir, agentB, AttributionsFile))
	first := strings.SplitN(string(data), "\n", 2)[0]
	var att Attribution
	if err := json.Unmarshal([]byte(first), &att); err != nil {
		t.Fatal(err)
	}
	var ev []string
	for _, d := range att.Modes {
		ev = append(ev, fmt.Sprintf("%s %v %q %.4f", d.Mode, d.Steps, d.Detail, d.Share))
	}
	if want := []string{`edit_before_exploration [2] "first edit: kv/kv.go" 0.3333`, `failed_edit_unrecovered [5] "failed edits of kv/kv.go" 0.3333`, `no_test_run [] "" 0.3333`}; !reflect.DeepEqual(ev, want) {
		t.Errorf("evidence %q", ev)
	}

	// A second eval of the same job gives the same results.
	before, _ := os.ReadFile(filepath.Join(ws.Root, Dir, agentA, ResultsFile))
	if err := (&Stage{Jobs: []string{job}}).Run(context.Background(), &pipeline.Env{Workspace: ws}); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(filepath.Join(ws.Root, Dir, agentA, ResultsFile))
	if string(before) != string(after) {
		t.Error("a rerun changed the results")
	}
}

func show(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
