package trajectory

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// atifSample is a small trajectory in ATIF v1.4 with the tools of three
// scaffolds: a str_replace editor, a shell and Claude Code's Read/Edit.
const atifSample = `{
  "schema_version": "ATIF-v1.4",
  "session_id": "s-1",
  "agent": {"name": "openhands", "version": "0.9", "model_name": "m-1"},
  "steps": [
    {"step_id": 1, "source": "user", "message": "Implement key expiry."},
    {"step_id": 2, "source": "agent", "message": "Let me look.", "timestamp": "2026-01-01T10:00:00Z",
     "tool_calls": [{"tool_call_id": "c1", "function_name": "str_replace_editor", "arguments": {"command": "view", "path": "/testbed/store/store.go"}}],
     "observation": {"results": [{"source_call_id": "c1", "content": "package store"}]},
     "metrics": {"prompt_tokens": 1000, "cached_tokens": 400, "completion_tokens": 50, "cost_usd": 0.01}},
    {"step_id": 3, "source": "agent", "message": [{"type": "text", "text": "Editing."}],
     "tool_calls": [{"tool_call_id": "c2", "function_name": "Edit", "arguments": {"file_path": "/testbed/store/ttl.go", "old_string": "a", "new_string": "b"}}],
     "observation": {"results": [{"source_call_id": "c2", "content": "Error: String to replace not found in file."}]},
     "metrics": {"prompt_tokens": 1200, "cached_tokens": 1000, "completion_tokens": 80}},
    {"step_id": 4, "source": "agent", "message": "Run the tests.",
     "tool_calls": [{"tool_call_id": "c3", "function_name": "bash", "arguments": {"command": "cd /testbed && go test ./store/..."}}],
     "observation": {"results": [{"source_call_id": "c3", "content": "--- FAIL: TestTTL (0.00s)\nFAIL\n[Command finished with exit code 1]"}]},
     "metrics": {"prompt_tokens": 1500, "cached_tokens": 1200, "completion_tokens": 30}},
    {"step_id": 5, "source": "agent", "message": "",
     "tool_calls": [{"tool_call_id": "c4", "function_name": "bash", "arguments": {"command": "cat /testbed/store/missing.go"}}],
     "observation": {"results": [{"source_call_id": "c4", "content": "cat: /testbed/store/missing.go: No such file or directory\n[Command finished with exit code 1]"}]}},
    {"step_id": 7, "source": "agent", "message": "Done: I have implemented key expiry.", "timestamp": "2026-01-01T10:05:30Z",
     "metrics": {"prompt_tokens": 1600, "cached_tokens": 1500, "completion_tokens": 20}}
  ],
  "final_metrics": {"total_prompt_tokens": 5300, "total_completion_tokens": 180, "total_cached_tokens": 4100, "total_cost_usd": 0.05, "total_steps": 6}
}`

func TestReadATIF(t *testing.T) {
	var got []Event
	info, err := ReadATIF(strings.NewReader(atifSample), "t.json", 0, func(e *Event) error { got = append(got, *e); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if info.SchemaVersion != "ATIF-v1.4" || info.AgentName != "openhands" || info.Model != "m-1" || info.Steps != 6 || info.LastStep != 7 ||
		info.Final == nil || *info.Final.PromptTokens != 5300 || *info.Final.CostUSD != 0.05 {
		t.Fatalf("info %+v", info)
	}
	one, f := 1, false
	cost := 0.01
	want := []Event{
		{Step: 1, Type: Message, Source: User, Text: "Implement key expiry."},
		{Step: 2, Type: Message, Source: Agent, Text: "Let me look.", Model: "m-1", Time: "2026-01-01T10:00:00Z", Tokens: &Tokens{Input: 600, Cached: 400, Output: 50}, CostUSD: &cost},
		{Step: 2, Type: ToolCall, ID: "c1", Tool: "str_replace_editor", Args: `{"command":"view","path":"/testbed/store/store.go"}`, Action: ActRead, FilesRead: []string{"store/store.go"}},
		{Step: 2, Type: Result, ID: "c1", Text: "package store"},
		{Step: 3, Type: Message, Source: Agent, Text: "Editing.", Model: "m-1", Tokens: &Tokens{Input: 200, Cached: 1000, Output: 80}},
		{Step: 3, Type: ToolCall, ID: "c2", Tool: "Edit", Args: `{"file_path":"/testbed/store/ttl.go","old_string":"a","new_string":"b"}`, Action: ActWrite, FilesWritten: []string{"store/ttl.go"}},
		{Step: 3, Type: Result, ID: "c2", Text: "Error: String to replace not found in file.", Error: true, ErrorLine: "Error: String to replace not found in file."},
		{Step: 3, Type: Edit, Path: "store/ttl.go", Op: OpModify, Error: true},
		{Step: 4, Type: Message, Source: Agent, Text: "Run the tests.", Model: "m-1", Tokens: &Tokens{Input: 300, Cached: 1200, Output: 30}},
		{Step: 4, Type: ToolCall, ID: "c3", Tool: "bash", Args: `{"command":"cd /testbed && go test ./store/..."}`, Action: ActTest, Command: "cd /testbed && go test ./store/..."},
		{Step: 4, Type: Result, ID: "c3", Text: "--- FAIL: TestTTL (0.00s)\nFAIL\n[Command finished with exit code 1]", ExitCode: &one, Error: true, ErrorLine: "--- FAIL: TestTTL (N.Ns)"},
		{Step: 4, Type: TestRun, Command: "cd /testbed && go test ./store/...", Passed: &f},
		{Step: 5, Type: Message, Source: Agent, Model: "m-1"},
		{Step: 5, Type: ToolCall, ID: "c4", Tool: "bash", Args: `{"command":"cat /testbed/store/missing.go"}`, Action: ActRead, Command: "cat /testbed/store/missing.go", FilesRead: []string{"store/missing.go"}},
		{Step: 5, Type: Result, ID: "c4", Text: "cat: /testbed/store/missing.go: No such file or directory\n[Command finished with exit code 1]", ExitCode: &one, Error: true, MissingPaths: []string{"store/missing.go"}, ErrorLine: "cat: /testbed/store/missing.go: No such file or directory"},
		{Step: 7, Type: Message, Source: Agent, Text: "Done: I have implemented key expiry.", Model: "m-1", Time: "2026-01-01T10:05:30Z", Tokens: &Tokens{Input: 100, Cached: 1500, Output: 20}},
	}
	if len(got) != len(want) {
		t.Fatalf("%d events, want %d:\n%s", len(got), len(want), dump(got))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("event %d:\n got %s\nwant %s", i, dump(got[i:i+1]), dump(want[i:i+1]))
		}
	}
}

func dump(es []Event) string {
	var b bytes.Buffer
	for _, e := range es {
		j, _ := json.Marshal(e)
		b.Write(j)
		b.WriteByte('\n')
	}
	return b.String()
}

func TestReadATIFErrors(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"array", `[1]`, "t.json: not an ATIF trajectory: want a JSON object"},
		{"no version", `{"steps": []}`, `t.json: not an ATIF trajectory: schema_version ""`},
		{"no steps", `{"schema_version": "ATIF-v1.4"}`, "t.json: not an ATIF trajectory: no steps"},
		{"steps object", `{"schema_version": "ATIF-v1.4", "steps": {}}`, "t.json: steps: want an array"},
		{"step id", `{"schema_version": "ATIF-v1.4", "steps": [{"step_id": 0, "source": "user", "message": ""}]}`, `t.json: step 1: step_id "0" is not a positive integer`},
		{"order", `{"schema_version": "ATIF-v1.4", "steps": [{"step_id": 2, "source": "user", "message": ""}, {"step_id": 2, "source": "agent", "message": ""}]}`, "t.json: step 2: step_id 2 does not follow 2"},
		{"source", `{"schema_version": "ATIF-v1.4", "steps": [{"step_id": 1, "source": "robot", "message": ""}]}`, `t.json: step_id 1: source "robot"`},
		{"tokens", `{"schema_version": "ATIF-v1.4", "steps": [{"step_id": 1, "source": "agent", "message": "", "metrics": {"completion_tokens": -3}}]}`, "t.json: step_id 1: metrics: negative token count"},
		{"truncated", `{"schema_version": "ATIF-v1.4", "steps": [{"step_id": 1,`, "t.json: step 1:"},
		{"trailing", `{"schema_version": "ATIF-v1.4", "steps": []} {}`, "t.json: data after the trajectory object"},
		{"bad type", `{"schema_version": 4, "steps": []}`, "t.json: schema_version:"},
		{"final metrics", `{"schema_version": "ATIF-v1.4", "steps": [], "final_metrics": {"total_prompt_tokens": -5}}`, "t.json: final_metrics: negative token count"},
		{"final cost", `{"schema_version": "ATIF-v1.4", "steps": [], "final_metrics": {"total_cost_usd": -0.5}}`, "t.json: final_metrics: total_cost_usd -0.5 is not a plausible cost"},
		{"final type", `{"schema_version": "ATIF-v1.4", "steps": [], "final_metrics": {"total_prompt_tokens": "7802"}}`, "t.json: final_metrics: json: cannot unmarshal string"},
		{"step cost", `{"schema_version": "ATIF-v1.4", "steps": [{"step_id": 1, "source": "agent", "message": "", "metrics": {"cost_usd": -1}}]}`, "t.json: step_id 1: metrics: cost_usd -1 is not a plausible cost"},
		{"calls", `{"schema_version": "ATIF-v1.7", "steps": [{"step_id": 1, "source": "agent", "message": "", "llm_call_count": -1}]}`, "t.json: step_id 1: llm_call_count -1 is negative"},
		{"continued type", `{"schema_version": "ATIF-v1.5", "steps": [], "continued_trajectory_ref": 3}`, "t.json: continued_trajectory_ref: json: cannot unmarshal number"},
		{"subagent ref", `{"schema_version": "ATIF-v1.5", "steps": [{"step_id": 1, "source": "system", "message": "", "observation": {"results": [{"subagent_trajectory_ref": "x.json"}]}}]}`, "t.json: step_id 1: subagent_trajectory_ref: json: cannot unmarshal string"},
		{"embedded", `{"schema_version": "ATIF-v1.7", "steps": [], "subagent_trajectories": {}}`, "t.json: subagent_trajectories: want an array"},
	} {
		_, err := ReadATIF(strings.NewReader(c.src), "t.json", 0, func(*Event) error { return nil })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

func TestJSONLRoundTripAndErrors(t *testing.T) {
	var in []Event
	if _, err := ReadATIF(strings.NewReader(atifSample), "t.json", 0, func(e *Event) error { in = append(in, *e); return nil }); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for i := range in {
		if err := w.Write(&in[i]); err != nil {
			t.Fatal(err)
		}
	}
	w.Flush()
	var out []Event
	if err := ReadJSONL(&buf, "e.jsonl", func(e *Event) error { out = append(out, *e); return nil }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Fatalf("round trip differs:\n%s\n%s", dump(in), dump(out))
	}
	for _, c := range []struct{ name, src, want string }{
		{"unknown field", `{"step":1,"type":"message","source":"agent","colour":"red"}`, `e.jsonl:1: not an event: json: unknown field "colour"`},
		{"type", "\n" + `{"step":1,"type":"thought"}`, `e.jsonl:2: event type "thought"`},
		{"source", `{"step":1,"type":"message","source":"bot"}`, `e.jsonl:1: message source "bot"`},
		{"edit path", `{"step":1,"type":"edit","op":"modify"}`, "e.jsonl:1: edit without a path"},
		{"edit op", `{"step":1,"type":"edit","path":"a.go","op":"rename"}`, `e.jsonl:1: edit op "rename"`},
		{"end", `{"step":1,"type":"end","reason":"bored"}`, `e.jsonl:1: end reason "bored"`},
		{"backwards", `{"step":2,"type":"message","source":"user"}` + "\n" + `{"step":1,"type":"message","source":"user"}`, "e.jsonl:2: step 1 comes after step 2"},
		{"two values", `{"step":1,"type":"message","source":"user"} {}`, "e.jsonl:1: more than one JSON value"},
		{"negative", `{"step":-1,"type":"message","source":"user"}`, "e.jsonl:1: step -1 is negative"},
		{"tokens", `{"step":1,"type":"message","source":"agent","tokens":{"input":-1,"cached":0,"output":0}}`, "e.jsonl:1: negative token count"},
		{"cost", `{"step":1,"type":"message","source":"agent","cost_usd":-2}`, "e.jsonl:1: cost_usd -2 is not a plausible cost"},
		{"range", `{"step":1,"type":"tool_call","ranges":[{"path":"a.go","from":5,"to":2}]}`, "e.jsonl:1: tool_call range"},
		{"long line", `{"step":1,"type":"message","source":"user","text":"` + strings.Repeat("x", MaxLine) + `"}`, "e.jsonl:1: line longer than"},
	} {
		err := ReadJSONL(strings.NewReader(c.src), "e.jsonl", func(*Event) error { return nil })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	// Texts are cut to MaxText, keeping both ends.
	long := `{"step":1,"type":"message","source":"user","text":"` + "A" + strings.Repeat("x", 10000) + "Z" + `"}`
	var e Event
	if err := ReadJSONL(strings.NewReader(long), "e.jsonl", func(x *Event) error { e = *x; return nil }); err != nil {
		t.Fatal(err)
	}
	if len(e.Text) > MaxText+40 || !strings.HasPrefix(e.Text, "Ax") || !strings.HasSuffix(e.Text, "xZ") || !strings.Contains(e.Text, "[... 6002 bytes cut ...]") {
		t.Fatalf("cut text: %d bytes, %q...", len(e.Text), e.Text[:20])
	}
}

func TestClassifyCall(t *testing.T) {
	type want struct {
		action        string
		read, written []string
		ops           map[string]string
		command       string
		ranges        []Range
		revert        bool
	}
	for _, c := range []struct {
		tool string
		args string
		want want
	}{
		{"str_replace_editor", `{"command":"create","path":"/testbed/a/new.py","file_text":"x"}`, want{action: ActWrite, written: []string{"a/new.py"}, ops: map[string]string{"a/new.py": OpCreate}}},
		{"str_replace_editor", `{"command":"str_replace","path":"a/b.py"}`, want{action: ActWrite, written: []string{"a/b.py"}, ops: map[string]string{"a/b.py": OpModify}}},
		{"Read", `{"file_path":"/app/x.go"}`, want{action: ActRead, read: []string{"x.go"}}},
		{"Write", `{"file_path":"./y.go","content":""}`, want{action: ActWrite, written: []string{"y.go"}, ops: map[string]string{"y.go": OpCreate}}},
		{"Grep", `{"pattern":"TTL","path":"/testbed"}`, want{action: ActSearch}},
		{"apply_patch", `{"input":"*** Begin Patch\n*** Update File: s/a.go\n*** Add File: s/b.go\n*** Delete File: s/c.go\n*** End Patch"}`,
			want{action: ActWrite, written: []string{"s/a.go", "s/b.go", "s/c.go"}, ops: map[string]string{"s/a.go": OpModify, "s/b.go": OpCreate, "s/c.go": OpDelete}}},
		{"shell", `{"command":["bash","-lc","python -m pytest tests/ -x"]}`, want{action: ActTest, command: "python -m pytest tests/ -x"}},
		{"execute_bash", `{"command":"sed -i 's/a/b/' /testbed/pkg/x.py && cat pkg/y.py"}`, want{action: ActWrite, read: []string{"pkg/y.py"}, written: []string{"pkg/x.py"}, ops: map[string]string{"pkg/x.py": OpModify}, command: "sed -i 's/a/b/' /testbed/pkg/x.py && cat pkg/y.py"}},
		{"bash", `{"command":"echo hi > out.txt 2>/dev/null"}`, want{action: ActWrite, written: []string{"out.txt"}, ops: map[string]string{"out.txt": OpModify}, command: "echo hi > out.txt 2>/dev/null"}},
		{"bash", `{"command":"grep -rn pytest setup.cfg"}`, want{action: ActSearch, command: "grep -rn pytest setup.cfg"}},
		{"bash", `{"command":"PYTHONPATH=. timeout 60 pytest -q"}`, want{action: ActTest, command: "PYTHONPATH=. timeout 60 pytest -q"}},
		{"bash", `{"command":"nl -ba src/m.py | sed -n '1,20p'"}`, want{action: ActRead, read: []string{"src/m.py"}, command: "nl -ba src/m.py | sed -n '1,20p'", ranges: []Range{{"src/m.py", 1, 20}}}},
		{"bash", `{"command":"head -n 50 a.py b.py && tail -5 c.py; sed -n '10,$p' d.py; cat e.py | head -3; cat f.py"}`, want{action: ActRead, read: []string{"a.py", "b.py", "c.py", "d.py", "e.py", "f.py"},
			command: "head -n 50 a.py b.py && tail -5 c.py; sed -n '10,$p' d.py; cat e.py | head -3; cat f.py",
			ranges:  []Range{{"a.py", 1, 50}, {"b.py", 1, 50}, {"c.py", -5, 0}, {"d.py", 10, 0}, {"e.py", 1, 3}}}},
		{"bash", `{"command":"tail -n +40 k.py"}`, want{action: ActRead, read: []string{"k.py"}, command: "tail -n +40 k.py", ranges: []Range{{"k.py", 40, 0}}}},
		{"bash", `{"command":"cat g.py && sed -n 2,4p g.py"}`, want{action: ActRead, read: []string{"g.py"}, command: "cat g.py && sed -n 2,4p g.py"}},
		{"str_replace_editor", `{"command":"view","path":"/testbed/h.py","view_range":[30,-1]}`, want{action: ActRead, read: []string{"h.py"}, ranges: []Range{{"h.py", 30, 0}}}},
		{"Read", `{"file_path":"/testbed/i.py","offset":100,"limit":40}`, want{action: ActRead, read: []string{"i.py"}, ranges: []Range{{"i.py", 100, 139}}}},
		{"str_replace_editor", `{"command":"undo_edit","path":"/testbed/j.py"}`, want{action: ActWrite, written: []string{"j.py"}, ops: map[string]string{"j.py": OpModify}, revert: true}},
		{"bash", `{"command":"git checkout -- k.py l/m.py"}`, want{action: ActWrite, written: []string{"k.py", "l/m.py"}, ops: map[string]string{"k.py": OpModify, "l/m.py": OpModify}, command: "git checkout -- k.py l/m.py", revert: true}},
		{"bash", `{"command":"git stash"}`, want{action: ActWrite, command: "git stash", revert: true}},
		{"bash", `{"command":"git checkout main"}`, want{action: ActWrite, command: "git checkout main", revert: true}},
		{"bash", `{"command":"patch -R -p1 < fix.diff"}`, want{action: ActWrite, command: "patch -R -p1 < fix.diff", revert: true}},
		{"bash", `{"command":"python3 -c 'import m; print(m.f())'"}`, want{action: ActRun, command: "python3 -c 'import m; print(m.f())'"}},
		{"bash", `{"command":"git apply /tmp/fix.patch"}`, want{action: ActWrite, command: "git apply /tmp/fix.patch"}},
		{"bash_command", `{"keystrokes":"go build ./... \n","duration":1}`, want{action: ActTest, command: "go build ./..."}},
		{"finish", `{"message":"done"}`, want{action: ActOther}},
		{"run_command", `"make test"`, want{action: ActTest, command: "make test"}},
	} {
		args := argsOf(json.RawMessage(c.args))
		got := classifyCall(c.tool, args)
		if len(got.ops) == 0 {
			got.ops = nil
		}
		if len(got.ranges) == 0 {
			got.ranges = nil
		}
		w := c.want
		if got.action != w.action || !reflect.DeepEqual(got.read, w.read) || !reflect.DeepEqual(got.written, w.written) || !reflect.DeepEqual(got.ops, w.ops) || got.command != w.command ||
			!reflect.DeepEqual(got.ranges, w.ranges) || got.revert != w.revert {
			t.Errorf("%s %s: got action %q read %q written %q ops %v command %q ranges %v revert %v", c.tool, c.args, got.action, got.read, got.written, got.ops, got.command, got.ranges, got.revert)
		}
	}
}

func TestNormPath(t *testing.T) {
	for in, want := range map[string]string{
		"/testbed/a/b.go": "a/b.go", "./a/../b.go": "b.go", "/testbed": "", "/etc/passwd": "/etc/passwd",
		"'x.py'": "x.py", "": "", ".": "", "/app/x": "x", "a\x00b": "",
	} {
		if got := NormPath(in); got != want {
			t.Errorf("NormPath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSummaryPhases(t *testing.T) {
	tk := func(in, out int64) *Tokens { return &Tokens{Input: in, Cached: 1000, Output: out} }
	pass, fail := true, false
	zero := 0
	evs := []Event{
		{Step: 1, Type: Message, Source: User, Text: "task"},
		{Step: 2, Type: Message, Source: Agent, Tokens: tk(1, 1), Time: "2026-01-01T10:00:00Z"},                                                                            // understanding
		{Step: 3, Type: Message, Source: Agent, Tokens: tk(2, 2)}, {Step: 3, Type: ToolCall, Action: ActRead, FilesRead: []string{"a", "b"}, Ranges: []Range{{"b", 5, 9}}}, // localization
		{Step: 4, Type: Message, Source: Agent, Tokens: tk(4, 4)},                                            // planning (more follows)
		{Step: 5, Type: Message, Source: Agent, Tokens: tk(8, 8)}, {Step: 5, Type: ToolCall, Action: ActRun}, // localization (no edit yet)
		{Step: 6, Type: Message, Source: Agent, Tokens: tk(16, 16)}, {Step: 6, Type: ToolCall, Action: ActWrite, FilesWritten: []string{"a"}}, {Step: 6, Type: Edit, Path: "a", Op: OpModify}, // editing
		{Step: 7, Type: Message, Source: Agent, Tokens: tk(32, 32)}, {Step: 7, Type: ToolCall, Action: ActTest}, {Step: 7, Type: TestRun, Passed: &fail}, // verification, first attempt
		{Step: 8, Type: Message, Source: Agent, Tokens: tk(64, 64)}, {Step: 8, Type: ToolCall, Action: ActRun}, // verification (after an edit), repair
		{Step: 9, Type: Message, Source: Agent, LLMCalls: &zero}, {Step: 9, Type: ToolCall, Action: ActRead, FilesRead: []string{"b"}, Ranges: []Range{{"b", 20, 0}}}, // orchestration: not a turn
		{Step: 10, Type: Message, Source: Agent, Tokens: tk(128, 128)}, {Step: 10, Type: ToolCall, Action: ActWrite}, // editing (git apply), repair
		{Step: 11, Type: Message, Source: Agent, Tokens: tk(256, 256)}, {Step: 11, Type: ToolCall, Action: ActTest}, {Step: 11, Type: TestRun, Passed: &pass},
		{Step: 12, Type: Message, Source: Agent, Tokens: tk(512, 1), Time: "2026-01-01T10:02:30Z"}, // closes the run: unclaimed
	}
	s := NewSummary()
	for i := range evs {
		s.Add(&evs[i])
	}
	s.Finish()
	u := func(in, out int64) Usage { return Usage{Input: in, Output: out} }
	want := map[string]PhaseUsage{
		PhaseUnderstanding: {First: u(1, 1)},
		PhasePlanning:      {First: u(4, 4)},
		PhaseLocalization:  {First: u(2+8, 2+8)},
		PhaseEditing:       {First: u(16, 16), Repair: u(128, 128)},
		PhaseVerification:  {First: u(32, 32), Repair: u(64+256, 64+256)},
	}
	for _, p := range Phases {
		if *s.Phases[p] != want[p] {
			t.Errorf("%s: %+v, want %+v", p, *s.Phases[p], want[p])
		}
	}
	// 11 agent steps, one of them orchestration; the cached tokens are in
	// the steps' sums and in no phase.
	if s.Turns != 10 || s.Steps.Tokens != (Tokens{Input: 1023, Cached: 10000, Output: 512}) || !s.Steps.HasTokens || s.Steps.HasCost || s.Wall().Seconds() != 150 {
		t.Fatalf("turns %d steps %+v wall %v", s.Turns, s.Steps, s.Wall())
	}
	if s.Unclaimed != u(512, 1) || s.Claimed() != u(511, 511) {
		t.Errorf("unclaimed %+v claimed %+v", s.Unclaimed, s.Claimed())
	}
	if !reflect.DeepEqual(s.Inspected, map[string]*Coverage{"a": {Whole: true}, "b": {Ranges: []Range{{"", 5, 9}, {"", 20, 0}}}}) {
		t.Errorf("inspected %+v %+v", s.Inspected["a"], s.Inspected["b"])
	}
}

func TestClaimsDone(t *testing.T) {
	for text, want := range map[string]bool{
		"I have implemented the TTL support.":  true,
		"The implementation is complete.":      true,
		"All tests pass now.":                  true,
		"I could not find the file.":           false,
		"Next I will implement the TTL logic.": false,
	} {
		if ClaimsDone(text) != want {
			t.Errorf("ClaimsDone(%q) = %v", text, !want)
		}
	}
}
