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
	"github.com/lolbench/lolbench/pipeline/harbor"
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
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
	implementable int // the task's sections (Completed's denominator); 0: the mapped ones
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

// sectionIDs are the ids 1..n of a task's sections.
func sectionIDs(n int) []string {
	var out []string
	for i := 1; i <= n; i++ {
		out = append(out, fmt.Sprint(i))
	}
	return out
}

// syntheticWorkspace builds the three tasks as lolbench build leaves them
// (task/tests/config.json, task/environment/repo, build/solution.patch,
// task/instruction.md; the first task's configuration names its sections,
// one of them untested).
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
		cfg := harbor.Config{Config: grade.Config{Task: "lolbench/" + ts.id, Format: "go-json", FailToPass: ts.f2p, PassToPass: ts.p2p, Sections: ts.sections,
			Implementable: sectionIDs(ts.implementable)},
			Language: "Go", Recipe: recipe.Recipe{Image: "lolbench/offline-base", Test: recipe.Test{Command: "go test -json {tests}", Format: "go-json"}}}
		data, _ := json.Marshal(cfg)
		writeTree(t, task, map[string]string{"tests/config.json": string(data), "instruction.md": "Implement " + ts.id + "."})
		writeTree(t, cand, map[string]string{"build/solution.patch": string(mkPatch(t, ts.reference))})
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
	agentResult        string            // result.json agent_result
	agentSec           int               // agent_execution duration
	extra              map[string]string // more files of the trial
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
	for p, c := range tr.extra {
		files[p] = c
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

// viewLines views lines from to to of p.
func viewLines(p string, from, to int, tp, tc, tokOut int) atifAction {
	return atifAction{tool: "str_replace_editor", args: fmt.Sprintf(`{"command": "view", "path": "/testbed/%s", "view_range": [%d, %d]}`, p, from, to), result: "func Set() {", p: tp, c: tc, o: tokOut}
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
			atif: atif(viewLines("kv/kv.go", 7, 8, 100, 0, 10), replace("kv/kv.go", 100, 0, 10), bashTest("--- FAIL: TestSet3a (0.00s)\nFAIL\tex/kv\t0.01s", 100, 0, 10), say("Stopping here.", 100, 0, 10))},
		{agent: a, model: "m-a", task: gamma, attempt: 2, passed: all(gamma), patch: setCounts},
		// Agent B.
		{agent: b, model: "m-b", task: alpha, attempt: 1, tree: getTwice, agentResult: `{"n_input_tokens": 1000, "n_cache_tokens": 400, "n_output_tokens": 100, "cost_usd": 0.5}`,
			rewardJSON: `{"reward": 0, "f2p_passed": 1, "f2p_total": 4, "p2p_passed": 2, "p2p_total": 2, "sections_completed": 1, "sections_total": 4, "tampered": 0, "reason": "failed"}`,
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
		// Crashed before verification: none of the task's tests passed.
		{beta, 1, 0, "error: no verifier result (AgentTimeoutError: Agent timed out after 3600 seconds)", GradedNone, n(0), n(2), n(0), n(1), n(0), n(2)},
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
	if r := rowsB[1]; !reflect.DeepEqual(r.Notes, []string{`the verifier recorded reward "1"; the host's grade of its raw run is 0`, "no solution in the trial (artifacts/*.patch or artifacts/testbed/): no localization of the modified view"}) {
		t.Errorf("tampered row notes %q", r.Notes)
	}
	if r := rowsB[2]; r.Ended != "timeout" || r.Trajectory != "events/beta-ep-0002.1.jsonl" {
		t.Errorf("timed-out row: ended %q trajectory %q", r.Ended, r.Trajectory)
	}
	// Figure 4 for one row, both views. A's first beta attempt read
	// kv/kv.go and api/api.go whole (both functions of kv.go and
	// Server.Handle), but its diff changes kv/kv.go (Get and Set) and adds
	// util/util.go, which has no earlier location and is left out.
	wantSol := &Scopes{Files: []string{"kv/kv.go", "util/util.go"}, Added: []string{"util/util.go"}, Functions: []string{"kv/kv.go: Get", "kv/kv.go: Set"}}
	wantRef := &Scopes{Files: []string{"api/api.go", "kv/kv.go"}, Added: []string{}, Functions: []string{"api/api.go: Server.Handle", "kv/kv.go: Get"}}
	wantInsp := &Scopes{Files: []string{"api/api.go", "kv/kv.go"}, Added: []string{}, Functions: []string{"api/api.go: Server.Handle", "kv/kv.go: Get", "kv/kv.go: Set"}}
	if r := rowsA[2]; !reflect.DeepEqual(r.Solution, wantSol) || !reflect.DeepEqual(r.Reference, wantRef) || !reflect.DeepEqual(r.Inspected, wantInsp) {
		t.Errorf("beta attempt 1 scopes:\n%s\n%s\n%s", show(r.Solution), show(r.Reference), show(r.Inspected))
	}
	wantLoc1 := &Localization{
		Inspected: &View{Files: Match{Hit: 2, Agent: 2, Reference: 2, Precision: f(1), Recall: f(1)}, Functions: Match{Hit: 2, Agent: 3, Reference: 2, Precision: f(2.0 / 3), Recall: f(1)}},
		Modified:  &View{Files: Match{Hit: 1, Agent: 1, Reference: 2, Precision: f(1), Recall: f(0.5)}, Functions: Match{Hit: 1, Agent: 2, Reference: 2, Precision: f(0.5), Recall: f(0.5)}},
	}
	if l := rowsA[2].Localization; !reflect.DeepEqual(l, wantLoc1) {
		t.Errorf("beta attempt 1 localization: %s", show(l))
	}
	// A's gamma attempt viewed lines 7 to 8 of kv/kv.go: Set only.
	if r := rowsA[4]; r.Inspected == nil || !reflect.DeepEqual(r.Inspected.Functions, []string{"kv/kv.go: Set"}) {
		t.Errorf("gamma attempt 1 inspected %s", show(r.Inspected))
	}
	// The final tree of B's first alpha attempt is scoped like a patch.
	if s := rowsB[0].Solution; s == nil || !reflect.DeepEqual(s.Functions, []string{"kv/kv.go: Get"}) {
		t.Errorf("tree solution %s", show(s))
	}

	// Table 2 in the paper's micro form, computed by hand.
	m := st.Metrics
	if len(m.Agents) != 2 {
		t.Fatalf("metrics %s", show(m))
	}
	type table2 struct {
		resolved, completed, f2p, p2p *float64
		counts                        Counts
	}
	got := func(am AgentMetrics) table2 { return table2{am.Resolved, am.Completed, am.F2P, am.P2P, am.Counts} }
	// A: resolved 3 of 6 attempts = 50%. Sections completed 3 + 1 + 1 + 2
	// + 0 + 1 = 8 of 4 + 4 + 2 + 2 + 1 + 1 = 14 (alpha's mapping has 4
	// implementable sections, one untested): 57.14%. F2P 4 + 2 + 1 + 2 + 0
	// + 3 = 12 of 4 + 4 + 2 + 2 + 3 + 3 = 18: 66.67%. P2P 2 + 2 + 0 + 1 = 5
	// of 2 + 2 + 1 + 1 = 6: 83.33%.
	wantA2 := table2{f(50), f(800.0 / 14), f(1200.0 / 18), f(500.0 / 6), Counts{Resolved: 3, SectionsCompleted: 8, Sections: 14, F2PPassed: 12, F2PTotal: 18, P2PPassed: 5, P2PTotal: 6}}
	if g := got(m.Agents[0]); !reflect.DeepEqual(g, wantA2) {
		t.Errorf("A table 2: %s\nwant %s", show(g), show(wantA2))
	}
	// B: resolved 2 of 6 (beta and gamma's second attempts): 33.33%. The
	// attempt that timed out without a verifier result counts as 0 of its
	// task's 2 F2P tests, 1 P2P test and 2 sections; gamma's second,
	// graded from result.json's reward, has no counts. Sections 1 + 0 + 0
	// + 2 + 0 = 3 of 4 + 4 + 2 + 2 + 1 = 13: 23.08%; F2P 1 + 0 + 0 + 2 + 2
	// = 5 of 4 + 4 + 2 + 2 + 3 = 15: 33.33%; P2P 2 + 0 + 0 + 1 = 3 of 2 +
	// 2 + 1 + 1 = 6: 50%. Leaving the crashed attempt out, as lolbench
	// did before, would give F2P 5 of 13 = 38.46%: crashing scored better
	// than failing.
	wantB2 := table2{f(200.0 / 6), f(300.0 / 13), f(500.0 / 15), f(50), Counts{Resolved: 2, SectionsCompleted: 3, Sections: 13, F2PPassed: 5, F2PTotal: 15, P2PPassed: 3, P2PTotal: 6, Crashed: 1, WithoutCounts: 1}}
	if g := got(m.Agents[1]); !reflect.DeepEqual(g, wantB2) {
		t.Errorf("B table 2: %s\nwant %s", show(g), show(wantB2))
	}
	// The per-attempt figures averaged over tasks stay as an extra. A:
	// completed (3/4 + 1/4)/2, (1/2 + 1)/2, (0 + 1)/2 → (1/2 + 3/4 + 1/2)/3
	// = 7/12; F2P (1 + 1/2)/2, (1/2 + 1)/2, (0 + 1)/2 → 2/3; P2P (1 + 1)/2,
	// (0 + 1)/2 → 3/4 (gamma has no P2P test).
	if mc := m.Agents[0].Macro; !reflect.DeepEqual(mc, MacroMetrics{Completed: f(700.0 / 12), F2P: f(200.0 / 3), P2P: f(75)}) {
		t.Errorf("A macro %s", show(mc))
	}
	if am := m.Agents[0]; am.Tasks != 3 || am.Attempts != 6 || am.Scaffold != "openhands" || am.Model != "m-a" {
		t.Errorf("A counts %+v", am)
	}
	// Figure 4, macro over tasks (each task's attempts averaged first).
	// A modified: files precision 1 everywhere; recall alpha 1, beta (1/2
	// + 1)/2, gamma 1 → 11/12. Functions: alpha (1, 1) and (1, 1/2: the
	// new Ping is left out), beta (1/2, 1/2) and (1, 1), gamma (0, 0) and
	// (1, 1): precision (1 + 3/4 + 1/2)/3 = 3/4, recall (3/4 + 3/4 +
	// 1/2)/3 = 2/3. A inspected (three trajectories): files all (1, 1);
	// functions alpha and beta read both files whole (2/3, 1), gamma
	// viewed Set only (1, 1): precision (2/3 + 2/3 + 1)/3 = 7/9.
	// B inspected: alpha's two attempts read api/api.go only (files and
	// functions (1, 1/2)), beta both files (files (1, 1), functions (2/3,
	// 1)), gamma kv/kv.go (files (1, 1), functions (1/2, 1)): files
	// recall (1/2 + 1 + 1)/3 = 5/6, functions precision (1 + 2/3 + 1/2)/3
	// = 13/18, recall 5/6. B modified: one attempt with a solution.
	wantLoc := []LocMetrics{
		{Inspected: LocView{Files: PRMetric{f(100), f(100), 3}, Functions: PRMetric{f(700.0 / 9), f(100), 3}},
			Modified: LocView{Files: PRMetric{f(100), f(1100.0 / 12), 6}, Functions: PRMetric{f(75), f(200.0 / 3), 6}}},
		{Inspected: LocView{Files: PRMetric{f(100), f(500.0 / 6), 4}, Functions: PRMetric{f(1300.0 / 18), f(500.0 / 6), 4}},
			Modified: LocView{Files: PRMetric{f(100), f(50), 1}, Functions: PRMetric{f(100), f(50), 1}}},
	}
	for i, am := range m.Agents {
		if !reflect.DeepEqual(am.Localization, wantLoc[i]) {
			t.Errorf("%s localization:\n got %s\nwant %s", am.Agent, show(am.Localization), show(wantLoc[i]))
		}
	}
	// Efficiency, means per attempt. A: three trajectories without
	// final_metrics, so their steps' sums: turns (5 + 7 + 4)/3; wall (60 +
	// 120 + 90)/3; non-cached input (500 + 700 + 400)/3, cached 1000/3,
	// output (70 + 70 + 40)/3. Per phase (input, output): localization
	// (200, 20), (200, 20), (100, 10); editing (200, 40), (300, 30), (100,
	// 10); verification (0, 0), (100, 10), (100, 10); each closing
	// message (100, 10) is unattributed.
	u := func(in, out float64) UsageMean { return UsageMean{Input: in, Output: out} }
	wantEff := EffMetrics{Attempts: 3, Turns: f(16.0 / 3), WallSec: f(90), InputTokens: f(1600.0 / 3), CachedTokens: f(1000.0 / 3), OutputTokens: f(60), PhaseAttempts: 3,
		PhaseTokens: []PhaseMean{{"requirement_understanding", u(0, 0), u(0, 0)}, {"task_planning", u(0, 0), u(0, 0)},
			{"code_localization", u(500.0/3, 50.0/3), u(0, 0)}, {"code_editing", u(200, 80.0/3), u(0, 0)}, {"code_verification", u(200.0/3, 20.0/3), u(0, 0)}},
		Unattributed: &UsageMean{100, 10}}
	if !reflect.DeepEqual(m.Agents[0].Efficiency, wantEff) {
		t.Errorf("A efficiency:\n got %s\nwant %s", show(m.Agents[0].Efficiency), show(wantEff))
	}
	if e := rowsA[1].Efficiency; e.TokensFrom != FromSteps || e.CostFrom != "" || *e.Unattributed != (trajectory.Usage{Input: 100, Output: 10}) {
		t.Errorf("A alpha 2 efficiency %s", show(e))
	}
	// B: four trajectories of five turns; tokens and cost from two
	// trials' agent_result (n_input_tokens includes the cached ones).
	wantEffB := EffMetrics{Attempts: 4, Turns: f(5), InputTokens: f(600), CachedTokens: f(400), OutputTokens: f(100), CostUSD: f(0.5), PhaseTokens: []PhaseMean{}}
	if !reflect.DeepEqual(m.Agents[1].Efficiency, wantEffB) {
		t.Errorf("B efficiency:\n got %s\nwant %s", show(m.Agents[1].Efficiency), show(wantEffB))
	}

	// Table 3 and the per-phase tables, in units.
	an := &Analyze{NoJudge: "no LLM endpoint configured"}
	if err := an.Run(context.Background(), &pipeline.Env{Workspace: ws}); err != nil {
		t.Fatal(err)
	}
	if an.Analysis.Judge.Status != "skipped: no LLM endpoint configured" {
		t.Errorf("judge %+v", an.Analysis.Judge)
	}
	aa, ab := an.Analysis.Agents[0], an.Analysis.Agents[1]
	if aa.Agent != agentA || aa.Failed != 3 || aa.NoTrajectory != 0 || aa.Analyzed != 3 || aa.Evaluable != 3 || ab.Failed != 4 || ab.Analyzed != 4 || ab.Table.Units != 4 {
		t.Fatalf("analysis counts %s", show(an.Analysis.Agents))
	}
	// A, three failed attempts. alpha 2 changed both reference files
	// (incorrect_patch) and ran no test (no_validation_attempted): 1/2
	// each. beta 1 read api/api.go and left it unchanged
	// (relevant_change_omitted; cross_module_context_missing: it changed
	// kv/kv.go), edited after its last, passing, test run
	// (no_test_after_final_edit), all high, and said "Stopping here." with
	// api/api.go undone (gave_up_early, medium: weight 0.6): 5/18 to each
	// high mode, 1/6 to gave_up_early. gamma 1 changed the reference file
	// (incorrect_patch) and stopped after its test failed (gave_up_early,
	// high): 1/2 each. Phases: localization 5/18, editing 1 + 5/18 + 2/3 =
	// 35/18, verification 1/2 + 5/18 = 7/9; tenths 2.78, 19.44, 7.78:
	// floors 28 of 30, the two tenths to the largest remainders.
	wantA3 := []cellRow{{"code_localization", 0.3, 0.3, "5/18"}, {"code_editing", 1.9, 1.9, "35/18"}, {"code_verification", 0.8, 0.8, "7/9"}}
	if g := nonZero(aa.Table.Phases); !reflect.DeepEqual(g, wantA3) {
		t.Errorf("A phases %v\nwant %v", g, wantA3)
	}
	for phase, want := range map[string][]cellRow{
		"code_localization": {{"cross_module_context_missing", 0.3, 0.3, "5/18"}},
		"code_editing":      {{"incorrect_patch", 1, 1, "1"}, {"relevant_change_omitted", 0.3, 0.3, "5/18"}, {"gave_up_early", 0.6, 0.7, "2/3"}},
		"code_verification": {{"no_validation_attempted", 0.5, 0.5, "1/2"}, {"no_test_after_final_edit", 0.3, 0.3, "5/18"}},
	} {
		if g := nonZero(aa.Table.Modes[phase]); !reflect.DeepEqual(g, want) {
			t.Errorf("A %s: %v, want %v", phase, g, want)
		}
	}
	// B, four: alpha 1 (its tree changed kv/kv.go only, it read api/api.go,
	// ran no test, a failed edit of kv/kv.go was never tried again, and it
	// said "Stopping here." with api/api.go undone): 5/23 each to
	// cross_module_context_missing, relevant_change_omitted,
	// no_validation_attempted and tool_failure_not_retried (high), 3/23 to
	// gave_up_early (medium); alpha 2 and beta 1 (no diff: their edits
	// changed both files) incorrect_patch; gamma 1 incorrect_patch and
	// tool_failure_not_retried, half each. Phases 5/23, 131/46, 5/23,
	// 33/46: tenths 2.17, 28.48, 2.17, 7.17, floors 39 of 40, the tenth to
	// editing. Naive rounding gives 0.2 + 2.8 + 0.2 + 0.7 = 3.9.
	wantB3 := []cellRow{{"code_localization", 0.2, 0.2, "5/23"}, {"code_editing", 2.9, 2.8, "131/46"}, {"code_verification", 0.2, 0.2, "5/23"}, {"tool_use", 0.7, 0.7, "33/46"}}
	if g := nonZero(ab.Table.Phases); !reflect.DeepEqual(g, wantB3) {
		t.Errorf("B phases %v\nwant %v", g, wantB3)
	}
	if g := nonZero(ab.Table.Modes["code_editing"]); !reflect.DeepEqual(g, []cellRow{{"incorrect_patch", 2.5, 2.5, "5/2"}, {"relevant_change_omitted", 0.2, 0.2, "5/23"}, {"gave_up_early", 0.2, 0.1, "3/23"}}) {
		t.Errorf("B editing %v", g)
	}
	if !reflect.DeepEqual(ab.Signals[:3], []SignalCount{{"edit_before_exploration", 2}, {"tests_modified", 0}, {"budget_exhausted", 1}}) {
		t.Errorf("B signals %+v", ab.Signals)
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
		ev = append(ev, fmt.Sprintf("%s %s %v %q %.4f", d.Mode, d.Confidence, d.Steps, d.Detail, d.Share))
	}
	if want := []string{`cross_module_context_missing high [] "changed kv/kv.go; not api/api.go" 0.2174`, `relevant_change_omitted high [3] "read, left unchanged: api/api.go" 0.2174`,
		`gave_up_early medium [6] "stopped without claiming success, leaving unchanged: api/api.go" 0.1304`,
		`no_validation_attempted high [] "" 0.2174`, `tool_failure_not_retried high [5] "failed and never tried again: edit of kv/kv.go" 0.2174`}; !reflect.DeepEqual(ev, want) {
		t.Errorf("evidence %q", ev)
	}
	if len(att.Signals) != 1 || att.Signals[0].Signal != "edit_before_exploration" {
		t.Errorf("signals %+v", att.Signals)
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
