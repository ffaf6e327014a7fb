package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline/harbor"
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
)

func TestEvalFlags(t *testing.T) {
	for _, tt := range []struct {
		name    string
		args    []string
		want    *EvalOptions
		wantErr string
	}{
		{"jobs", []string{"--jobs", "a", "--jobs", "b,c"}, &EvalOptions{Workspace: "work", Jobs: []string{"a", "b", "c"}, Executor: "docker"}, ""},
		{"predictions", []string{"--workspace", "w", "--predictions", "p.jsonl", "--trajectories", "t", "--agent", "my-agent", "--executor", "local", "--json"},
			&EvalOptions{Workspace: "w", Predictions: []string{"p.jsonl"}, Trajectories: "t", Agent: "my-agent", Executor: "local", JSON: true}, ""},
		{"neither", nil, nil, "eval: give --jobs or --predictions (not both)"},
		{"both", []string{"--jobs", "a", "--predictions", "p"}, nil, "not both"},
		{"executor", []string{"--jobs", "a", "--executor", "vm"}, nil, `invalid argument "vm" for "--executor" flag: want docker or local`},
		{"agent", []string{"--jobs", "a", "--agent", "My Agent"}, nil, `agent name "My Agent"`},
		{"arguments", []string{"x"}, nil, `unknown command "x"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got *EvalOptions
			cmd := newCmdEval(&Factory{IO: &IOStreams{}}, func(o *EvalOptions) error { got = o; return nil })
			cmd.SetArgs(tt.args)
			cmd.SetOut(&strings.Builder{})
			cmd.SetErr(&strings.Builder{})
			err := cmd.Execute()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("options = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestAnalyzeFlags(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		want *AnalyzeOptions
	}{
		{"defaults", nil, &AnalyzeOptions{Workspace: "work"}},
		{"all", []string{"--workspace", "w", "--modes", "--json", "--no-judge", "--llm-config", "c.yaml", "--model", "m", "--replay-only"},
			&AnalyzeOptions{Workspace: "w", Modes: true, JSON: true, NoJudge: true, ConfigFile: "c.yaml", Model: "m", ReplayOnly: true}},
	} {
		var got *AnalyzeOptions
		cmd := newCmdAnalyze(&Factory{IO: &IOStreams{}}, func(o *AnalyzeOptions) error { got = o; return nil })
		cmd.SetArgs(tt.args)
		if err := cmd.Execute(); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: options = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestAnalyzeModesJSON(t *testing.T) {
	out, _, code := runCLI(t, "analyze", "--modes", "--json")
	if code != 0 {
		t.Fatalf("code %d", code)
	}
	var modes []map[string]string
	if err := json.Unmarshal([]byte(out), &modes); err != nil {
		t.Fatal(err)
	}
	// Table 10: per phase, its modes, those found by the judge marked *.
	want := []string{
		"requirement_understanding: misread_requirement* missed_constraint* incomplete_requirement_coverage* scope_misjudged*",
		"task_planning: flawed_plan* abandoned_plan*",
		"code_localization: missed_relevant_file wrong_file_localization cross_module_context_missing",
		"code_editing: incorrect_patch relevant_change_omitted no_patch_produced gave_up_early",
		"code_verification: no_validation_attempted no_test_after_final_edit authored_test_never_run test_result_misinterpreted",
		"self_repair: repair_not_reverified repeated_ineffective_attempt retry_without_change reverted_own_change",
		"tool_use: tool_failure_not_retried repeated_patch_apply_failure hallucinated_path_unrecovered",
	}
	var got []string
	for i, m := range modes {
		if len(m) != 4 || m["doc"] == "" || (m["detection"] != "rule" && m["detection"] != "llm") {
			t.Fatalf("entry %v", m)
		}
		name := m["mode"]
		if m["detection"] == "llm" {
			name += "*"
		}
		if i == 0 || modes[i-1]["phase"] != m["phase"] {
			got = append(got, m["phase"]+":")
		}
		got[len(got)-1] += " " + name
	}
	if !reflect.DeepEqual(got, want) || len(modes) != 24 {
		t.Fatalf("%d modes:\n%s\nwant:\n%s", len(modes), strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	text, _, _ := runCLI(t, "analyze", "--modes")
	if !strings.HasPrefix(text, "PHASE") || !strings.Contains(text, "code_localization          missed_relevant_file") {
		t.Fatalf("table:\n%s", text)
	}
}

// One task, one trial graded from result.json's reward, through the CLI:
// eval prints Table 2 and analyze, without an endpoint, Table 3.
func TestEvalAndAnalyzeRun(t *testing.T) {
	ws := t.TempDir()
	task := filepath.Join(ws, "candidates", "kv-ep-0001", "task")
	cfg := harbor.Config{Config: grade.Config{Task: "lolbench/kv-ep-0001", Format: "go-json", FailToPass: []string{"ex/kv.TestGet"}},
		Language: "Go", Recipe: recipe.Recipe{Image: "lolbench/offline-base", Test: recipe.Test{Command: "go test -json {tests}", Format: "go-json"}}}
	data, _ := json.Marshal(cfg)
	for p, c := range map[string]string{
		filepath.Join(task, "tests", "config.json"):                   string(data),
		filepath.Join(task, "environment", "repo", "kv", "kv.go"):     "package kv\n",
		filepath.Join(ws, "jobs", "j", "t1", "result.json"):           `{"task_name": "lolbench/kv-ep-0001", "trial_name": "t1", "agent_info": {"name": "codex", "version": "1", "model_info": {"name": "gpt-x", "provider": "o"}}, "verifier_result": {"rewards": {"reward": 0.0}}}`,
		filepath.Join(ws, "jobs", "j", "t1", "agent", "events.jsonl"): `{"step": 1, "type": "message", "source": "agent", "text": "I am done."}` + "\n",
	} {
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(c), 0o644)
	}
	out, errOut, code := runCLI(t, "eval", "--workspace", ws, "--jobs", filepath.Join(ws, "jobs"))
	if code != 0 {
		t.Fatalf("eval: code %d: %s", code, errOut)
	}
	want := "AGENT         TASKS  ATTEMPTS  RESOLVED  COMPLETED  F2P  P2P  INSPECTED FILES P/R  INSPECTED FUNCTIONS P/R  MODIFIED FILES P/R  MODIFIED FUNCTIONS P/R\n" +
		"codex__gpt-x  1      1         0.0       -          -    -    -/-                  -/-                      -/-                 -/-\n"
	if out != want {
		t.Fatalf("eval output:\n%s\nwant:\n%s", out, want)
	}
	out, errOut, code = runCLI(t, "analyze", "--workspace", ws)
	if code != 0 || !strings.Contains(errOut, "the semantic modes are left out: no LLM endpoint configured") {
		t.Fatalf("analyze: code %d: %s", code, errOut)
	}
	// The one failed attempt changed no source file and ran no test:
	// code editing and code verification, half a unit each.
	want = "AGENT         FAILED  NO TRAJECTORY  ANALYZED  UNATTRIBUTED  N  requirement_understanding  task_planning  code_localization  code_editing  code_verification  self_repair  tool_use\n" +
		"codex__gpt-x  1       0              1         0             1  0.0                        0.0            0.0                0.5           0.5                0.0          0.0\n"
	if out != want {
		t.Fatalf("analyze output:\n%s\nwant:\n%s", out, want)
	}
	if _, errOut, code := runCLI(t, "analyze", "--workspace", t.TempDir()); code != 2 || !strings.Contains(errOut, "no results under") {
		t.Fatalf("empty workspace: code %d: %s", code, errOut)
	}
}
