package eval

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
)

// Every input is hostile: a malformed file is an error that names it.
func TestEvalRejectsBadInput(t *testing.T) {
	ws := syntheticWorkspace(t)
	okResult := `{"task_name": "lolbench/alpha-ep-0001", "trial_name": "t1", "agent_info": {"name": "a", "version": "1", "model_info": {"name": "m", "provider": "p"}}}`
	for _, c := range []struct {
		name  string
		files map[string]string // below the trial folder
		want  string            // in the error, with TRIAL for the trial folder
	}{
		{"not json", map[string]string{"result.json": `{"trial_name": `}, "TRIAL/result.json: unexpected end of JSON input"},
		{"no task", map[string]string{"result.json": `{"trial_name": "t1"}`}, "TRIAL/result.json: a trial result needs task_name and trial_name"},
		{"types", map[string]string{"result.json": `{"trial_name": "t1", "task_name": 7}`}, "TRIAL/result.json: not a Harbor trial result"},
		{"reward type", map[string]string{"result.json": `{"trial_name": "t1", "task_name": "x", "verifier_result": {"rewards": {"reward": "high"}}}`}, `TRIAL/result.json: verifier_result.rewards.reward is a string ("high"), not a number`},
		{"unbuilt task", map[string]string{"result.json": `{"trial_name": "t1", "task_name": "lolbench/delta-ep-0004"}`}, `TRIAL: task "lolbench/delta-ep-0004" is not built in workspace`},
		{"bad task name", map[string]string{"result.json": `{"trial_name": "t1", "task_name": "lolbench/Alpha EP"}`}, `TRIAL: task "lolbench/Alpha EP": invalid candidate id`},
		{"bad trajectory", map[string]string{"result.json": okResult, "agent/trajectory.json": `{"schema_version": "ATIF-v1.4", "steps": [{"step_id": "one"}]}`}, "TRIAL/agent/trajectory.json: step 1:"},
		{"bad events", map[string]string{"result.json": okResult, "agent/events.jsonl": `{"step": 1, "type": "message", "source": "agent", "mood": "happy"}`}, `TRIAL/agent/events.jsonl:1: not an event: json: unknown field "mood"`},
		{"huge result", map[string]string{"result.json": `{"trial_name": "` + strings.Repeat("x", maxResultJSON) + `"}`}, "TRIAL/result.json: larger than"},
		{"two patches", map[string]string{"result.json": okResult, "artifacts/a.patch": "", "artifacts/b.diff": ""}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			job := filepath.Join(t.TempDir(), "job")
			trialDir := filepath.Join(job, "trial-1")
			writeTree(t, trialDir, c.files)
			err := (&Stage{Jobs: []string{job}}).Run(context.Background(), &pipeline.Env{Workspace: ws})
			if c.want == "" {
				// Not an error: a note on the row.
				if err != nil {
					t.Fatal(err)
				}
				rows := readRows(t, ws, "a__m")
				if len(rows) != 1 || !strings.Contains(strings.Join(rows[0].Notes, "\n"), "several patches (a.patch, b.diff) and none named solution.patch") {
					t.Fatalf("notes %q", rows[0].Notes)
				}
				return
			}
			want := strings.ReplaceAll(c.want, "TRIAL", trialDir)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("error %v\nwant %q", err, want)
			}
		})
	}
}

func TestEvalArguments(t *testing.T) {
	ws := syntheticWorkspace(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, []byte("x"), 0o644)
	empty := filepath.Join(dir, "empty")
	os.MkdirAll(filepath.Join(empty, "sub"), 0o755)
	preds := func(body string) string {
		p := filepath.Join(t.TempDir(), "p.jsonl")
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	for _, c := range []struct {
		name string
		st   *Stage
		want string
	}{
		{"neither", &Stage{}, "give Harbor job folders (--jobs) or predictions files (--predictions), not both"},
		{"both", &Stage{Jobs: []string{dir}, Predictions: []string{file}}, "not both"},
		{"agent name", &Stage{Jobs: []string{dir}, Agent: "Bad/Name"}, `agent name "Bad/Name"`},
		{"no executor", &Stage{Predictions: []string{file}}, "no executor was given"},
		{"file as job", &Stage{Jobs: []string{file}}, file + " is not a folder"},
		{"missing job", &Stage{Jobs: []string{filepath.Join(dir, "nope")}}, "no such file or directory"},
		{"no trials", &Stage{Jobs: []string{empty}}, empty + " holds no Harbor trial"},
		{"prediction not json", &Stage{Predictions: []string{preds(`{"instance_id": "alpha-ep-0001", "model_name_or_path": "m"}` + "\nnope\n")}, Executor: noExecutor{}}, "p.jsonl:2: not a JSON object"},
		{"prediction no id", &Stage{Predictions: []string{preds(`{"model_name_or_path": "m"}`)}, Executor: noExecutor{}}, "p.jsonl:1: no instance_id"},
		{"prediction patch type", &Stage{Predictions: []string{preds(`{"instance_id": "alpha-ep-0001", "model_name_or_path": "m", "model_patch": 3}`)}, Executor: noExecutor{}}, "p.jsonl:1: model_patch is not a string"},
		{"prediction empty", &Stage{Predictions: []string{preds("\n\n")}, Executor: noExecutor{}}, "p.jsonl: no predictions"},
		{"prediction unknown task", &Stage{Predictions: []string{preds(`{"instance_id": "../../etc", "model_name_or_path": "m"}`)}, Executor: noExecutor{}}, `p.jsonl:1: task "../../etc": invalid candidate id`},
	} {
		err := c.st.Run(context.Background(), &pipeline.Env{Workspace: ws})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

func TestAgentName(t *testing.T) {
	for _, c := range [][3]string{
		{"OpenHands", "anthropic/claude-sonnet-4.5", "openhands__anthropic-claude-sonnet-4.5"},
		{"", "", "unknown__unknown"},
		{"terminus-2", "gpt 5 (high)", "terminus-2__gpt-5-high"},
		{"../..", "m", "unknown__m"},
	} {
		if got := AgentName(c[0], c[1]); got != c[2] {
			t.Errorf("AgentName(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
		if err := CheckAgent(AgentName(c[0], c[1])); err != nil {
			t.Error(err)
		}
	}
}

// Predictions of both variants, with a trajectory for one, graded from
// the verifier output an earlier eval kept.
func TestPredictionsVariantsAndTrajectories(t *testing.T) {
	ws := syntheticWorkspace(t)
	dir := t.TempDir()
	preds := filepath.Join(dir, "preds.jsonl")
	os.WriteFile(preds, []byte(`{"instance_id": "alpha-ep-0001", "model_name_or_path": "M", "model_patch": ""}`+"\n"+
		`{"instance_id": "alpha-ep-0001-spec", "model_name_or_path": "M", "model_patch": ""}`+"\n"), 0o644)
	trajs := filepath.Join(dir, "trajs")
	writeTree(t, trajs, map[string]string{"alpha-ep-0001.jsonl": `{"step": 1, "type": "message", "source": "agent", "text": "hi"}` + "\n"})
	for _, agent := range []string{"predictions__m", "predictions__m__spec"} {
		task := map[string]string{"predictions__m": "alpha-ep-0001", "predictions__m__spec": "alpha-ep-0001-spec"}[agent]
		run := filepath.Join(ws.Root, Dir, agent, RunsDir, task+".1")
		writeTree(t, run, map[string]string{"solution.patch": "", "grade.json": `{"reward": 0, "f2p_passed": 1, "f2p_total": 4, "p2p_passed": 2, "p2p_total": 2, "sections_completed": 1, "sections_total": 3, "verdict": "failed"}`})
	}
	st := &Stage{Predictions: []string{preds}, Trajectories: trajs, Executor: noExecutor{}}
	if err := st.Run(context.Background(), &pipeline.Env{Workspace: ws}); err != nil {
		t.Fatal(err)
	}
	plain, spec := readRows(t, ws, "predictions__m"), readRows(t, ws, "predictions__m__spec")
	if len(plain) != 1 || len(spec) != 1 {
		t.Fatalf("rows %d %d", len(plain), len(spec))
	}
	p, s := plain[0], spec[0]
	if p.Task != "alpha-ep-0001" || p.Variant != Plain || p.Trajectory != "events/alpha-ep-0001.1.jsonl" || p.Efficiency == nil || *p.Efficiency.Turns != 1 ||
		*p.F2PPassed != 1 || *p.Sections != 4 || p.Verdict != "failed" {
		t.Errorf("plain row %s", show(p))
	}
	if s.Task != "alpha-ep-0001-spec" || s.Candidate != "alpha-ep-0001" || s.Variant != Spec || s.Trajectory != "" || s.Efficiency != nil {
		t.Errorf("spec row %s", show(s))
	}
}

// FuzzParseReward: a reward.json parseReward takes is one the task can
// have; nothing panics.
func FuzzParseReward(f *testing.F) {
	for _, s := range []string{
		`{"reward": 1, "f2p_passed": 2, "f2p_total": 2, "p2p_passed": 1, "p2p_total": 1, "sections_completed": 2, "sections_total": 2, "tampered": 0, "reason": "passed"}`,
		`{"reward": 0, "f2p_passed": 70, "f2p_total": 2, "p2p_passed": 0, "p2p_total": 1, "reason": "failed"}`,
		`{"reward": "1", "reason": "passed"}`, `{"reward": 1.0}`, `[]`,
	} {
		f.Add([]byte(s))
	}
	cfg := grade.Config{FailToPass: []string{"a", "b"}, PassToPass: []string{"c"}, Sections: map[string][]string{"a": {"1"}, "b": {"2"}}}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, ours, err := parseReward(data, "reward.json", cfg)
		if err != nil || !ours {
			return
		}
		if r.F2PTotal != 2 || r.P2PTotal != 1 || r.F2PPassed > 2 || r.P2PPassed > 1 || r.F2PPassed < 0 || r.P2PPassed < 0 || r.SectionsTotal != 2 || r.SectionsCompleted > 2 ||
			(r.Reward == 1) != (r.F2PPassed == 2 && r.P2PPassed == 1) {
			t.Fatalf("accepted %+v from %s", r, data)
		}
	})
}
