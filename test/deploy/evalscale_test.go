package deploy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lolbench/lolbench/pipeline/harbor"
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
)

// evalSet is a synthetic benchmark and a Harbor job folder of one attempt
// per agent and task, for `lolbench eval --jobs` at the scale of a cluster
// run (issue 26 §5): the workspace holds built tasks as lolbench build
// leaves them, the job folder one trial per agent and task as Harbor
// writes it, with lolbench's raw verifier run, the agent's patch and an
// ATIF trajectory.
type evalSet struct {
	agents, tasks int
	steps         int // agent steps per trajectory
	bulkFiles     int // files of each task's repository that no patch touches
}

// F2P and P2P tests of every task; a task's reference solution changes
// two of its files.
var (
	setF2P = []string{"ex/core.TestNew", "ex/core.TestLimit", "ex/api.TestServe", "ex/api.TestStatus"}
	setP2P = []string{"ex/core.TestOld", "ex/api.TestPing", "ex/api.TestHealth"}
)

// resolves says whether agent a resolves task k: three tasks in four,
// shifted per agent, so that every agent's resolved rate is 75% of the
// tasks it attempts when tasks is a multiple of 4.
func resolves(a, k int) bool { return (a*7+k)%4 != 0 }

func taskID(k int) string { return fmt.Sprintf("synth-ep-%04d", k) }

func agentName(a int) string { return fmt.Sprintf("agent%02d", a) }

// smallFile is a patched file of a task's repository: seven lines, so that
// a patch that changes line 4 carries the whole file as context.
func smallFile(pkg, fn string, v int) string {
	return fmt.Sprintf("package %s\n\n// %s is patched.\nfunc %s() int { return %d }\n\nfunc helper%s() {}\n// end\n", pkg, fn, fn, v, fn)
}

// patchOf is a unified diff of files that changes each from smallFile
// version 0 to version v.
func patchOf(v int, files ...[3]string) string {
	var b strings.Builder
	for _, f := range files {
		path, pkg, fn := f[0], f[1], f[2]
		old := strings.SplitAfter(smallFile(pkg, fn, 0), "\n")
		nw := strings.SplitAfter(smallFile(pkg, fn, v), "\n")
		fmt.Fprintf(&b, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n@@ -1,7 +1,7 @@\n", path, path, path, path)
		for i := 0; i < 7; i++ {
			if old[i] == nw[i] {
				b.WriteString(" " + old[i])
			} else {
				b.WriteString("-" + old[i] + "+" + nw[i])
			}
		}
	}
	return b.String()
}

var (
	refFiles   = [][3]string{{"core/core.go", "core", "New"}, {"api/api.go", "api", "Serve"}}
	wrongFiles = [][3]string{{"core/core.go", "core", "New"}, {"util/util.go", "util", "Trim"}}
)

func writeFiles(dir string, files map[string]string) error {
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// write lays out the workspace and the job folder under dir.
func (s evalSet) write(dir string) (ws, job string, err error) {
	ws, job = filepath.Join(dir, "work"), filepath.Join(dir, "job")
	for k := 0; k < s.tasks; k++ {
		id := taskID(k)
		cand := filepath.Join(ws, "candidates", id)
		repo := map[string]string{"go.mod": "module ex\n\ngo 1.21\n"}
		for _, f := range append(refFiles, wrongFiles[1]) {
			repo[f[0]] = smallFile(f[1], f[2], 0)
		}
		for i := 0; i < s.bulkFiles; i++ {
			var body strings.Builder
			fmt.Fprintf(&body, "package bulk%d\n\n", i%10)
			for j := 0; j < 8; j++ {
				fmt.Fprintf(&body, "// F%d_%d is one of many functions no patch touches.\nfunc F%d_%d(x int) int {\n\tif x > %d {\n\t\treturn x - %d\n\t}\n\treturn x + %d\n}\n\n", i, j, i, j, j, j, j)
			}
			repo[fmt.Sprintf("bulk%d/f%03d.go", i%10, i)] = body.String()
		}
		if err := writeFiles(filepath.Join(cand, "task", "environment", "repo"), repo); err != nil {
			return "", "", err
		}
		cfg := harbor.Config{Config: grade.Config{Task: "lolbench/" + id, Format: "go-json", FailToPass: setF2P, PassToPass: setP2P,
			Sections: map[string][]string{setF2P[0]: {"1"}, setF2P[1]: {"1"}, setF2P[2]: {"2"}, setF2P[3]: {"3"}}},
			Language: "Go", Recipe: recipe.Recipe{Image: "lolbench/offline-base", Test: recipe.Test{Command: "go test -json {tests}", Format: "go-json"}}}
		data, err := json.Marshal(cfg)
		if err != nil {
			return "", "", err
		}
		err = writeFiles(cand, map[string]string{
			"task/tests/config.json": string(data),
			"task/instruction.md":    "Implement " + id + ".\n",
			"build/solution.patch":   patchOf(1, refFiles...),
		})
		if err != nil {
			return "", "", err
		}
	}
	for a := 0; a < s.agents; a++ {
		for k := 0; k < s.tasks; k++ {
			if err := s.writeTrial(job, a, k); err != nil {
				return "", "", err
			}
		}
	}
	return ws, job, nil
}

// writeTrial writes agent a's attempt at task k: result.json, the raw
// verifier run (every test passes when the agent resolves the task, else
// the F2P tests fail), reward.txt, the agent's patch and its trajectory.
func (s evalSet) writeTrial(job string, a, k int) error {
	id, name := taskID(k), agentName(a)
	trial := fmt.Sprintf("%s__%s__1", id, name)
	ok := resolves(a, k)
	var log strings.Builder
	exit := 0
	for _, test := range append(append([]string{}, setF2P...), setP2P...) {
		pkg, fn, _ := strings.Cut(strings.Replace(test, ".", "\x00", 1), "\x00")
		action := "pass"
		if !ok && strings.HasPrefix(fn, "TestNew") || !ok && strings.HasPrefix(fn, "TestServe") {
			action, exit = "fail", 1
		}
		fmt.Fprintf(&log, `{"Action":"run","Package":%q,"Test":%q}`+"\n", pkg, fn)
		fmt.Fprintf(&log, `{"Action":%q,"Package":%q,"Test":%q,"Elapsed":0.01}`+"\n", action, pkg, fn)
	}
	reward, patch := "1", patchOf(2, refFiles...)
	if !ok {
		reward, patch = "0", patchOf(3, wrongFiles...)
	}
	start := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC).Add(time.Duration(a*s.tasks+k) * time.Minute)
	res := map[string]any{
		"id": trial, "task_name": "lolbench/" + id, "trial_name": trial, "trial_uri": "file:///jobs/" + trial, "task_checksum": "c",
		"agent_info": map[string]any{"name": name, "version": "1", "model_info": map[string]any{"name": "m", "provider": "p"}},
		"started_at": start.Format(time.RFC3339), "finished_at": start.Add(20 * time.Minute).Format(time.RFC3339),
		"agent_execution": map[string]any{"started_at": start.Add(time.Minute).Format(time.RFC3339), "finished_at": start.Add(19 * time.Minute).Format(time.RFC3339)},
		"agent_result":    map[string]any{"n_input_tokens": 900000, "n_cache_tokens": 800000, "n_output_tokens": 20000, "cost_usd": 1.25},
		"verifier_result": map[string]any{"rewards": map[string]any{"reward": json.RawMessage(reward)}},
	}
	data, err := json.Marshal(res)
	if err != nil {
		return err
	}
	return writeFiles(filepath.Join(job, trial), map[string]string{
		"result.json":                    string(data),
		"verifier/run-1/run.json":        fmt.Sprintf(`{"n":1,"exit_code":%d,"duration_ns":1,"canaries":[],"strays_killed":0,"leftovers_killed":0,"reset":{},"isolated":true}`, exit),
		"verifier/run-1/test-output.log": log.String(),
		"verifier/reward.txt":            reward + "\n",
		"artifacts/solution.patch":       patch,
		"agent/trajectory.json":          s.trajectory(name, ok),
	})
}

// trajectory is an ATIF trajectory of s.steps agent steps: views, edits
// and test runs in turn, then a last message.
func (s evalSet) trajectory(agent string, ok bool) string {
	steps := []string{`{"step_id": 1, "source": "user", "message": "Implement the proposal."}`}
	for i := 0; i < s.steps; i++ {
		id := i + 2
		var tool, args, result string
		switch i % 3 {
		case 0:
			tool, args, result = "str_replace_editor", `{"command": "view", "path": "/testbed/core/core.go"}`, "package core"
		case 1:
			tool, args, result = "str_replace_editor", `{"command": "str_replace", "path": "/testbed/api/api.go", "old_str": "0", "new_str": "2"}`, "The file /testbed/api/api.go has been edited."
		default:
			tool, args, result = "execute_bash", `{"command": "cd /testbed && go test ./..."}`, "--- FAIL: TestServe (0.00s)\nFAIL\tex/api\t0.01s"
			if ok && i == s.steps-1 {
				result = "ok\tex/api\t0.01s"
			}
		}
		steps = append(steps, fmt.Sprintf(`{"step_id": %d, "source": "agent", "message": "Next, the part of the change that step %d needs.", "metrics": {"prompt_tokens": 30000, "cached_tokens": 27000, "completion_tokens": 600}, "tool_calls": [{"tool_call_id": "t%d", "function_name": %q, "arguments": %s}], "observation": {"results": [{"source_call_id": "t%d", "content": %q}]}}`,
			id, id, id, tool, args, id, result))
	}
	steps = append(steps, fmt.Sprintf(`{"step_id": %d, "source": "agent", "message": "Done."}`, s.steps+2))
	return `{"schema_version": "ATIF-v1.4", "session_id": "s", "agent": {"name": "` + agent + `", "version": "1", "model_name": "m"}, "steps": [` + strings.Join(steps, ",\n") + `]}`
}

// lolbenchBinary copies the static lolbench out of lolbench's image (the
// binary a cluster runs), so that the package builds lolbench only once.
var lolbenchBinary = sync.OnceValues(func() (string, error) {
	img, err := buildImage()
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "lolbench-deploy-test-")
	if err != nil {
		return "", err
	}
	name := fmt.Sprintf("lolbench-binary-%d", os.Getpid())
	if out, err := exec.Command("docker", "create", "--name", name, img).CombinedOutput(); err != nil {
		return "", fmt.Errorf("docker create: %v: %s", err, out)
	}
	defer exec.Command("docker", "rm", "-f", name).Run()
	bin := filepath.Join(dir, "lolbench")
	if out, err := exec.Command("docker", "cp", name+":/usr/local/bin/lolbench", bin).CombinedOutput(); err != nil {
		return "", fmt.Errorf("docker cp: %v: %s", err, out)
	}
	return bin, nil
})

// runEval runs `lolbench eval --workspace ws --jobs job` and returns its
// output, wall time and peak resident memory.
func runEval(bin, ws, job string) (out string, wall time.Duration, maxRSS int64, err error) {
	cmd := exec.Command(bin, "eval", "--workspace", ws, "--jobs", job)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err = cmd.Run()
	wall = time.Since(start)
	if err != nil {
		return "", wall, 0, fmt.Errorf("lolbench eval: %v\n%s", err, stderr.String())
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		maxRSS = ru.Maxrss * 1024 // kilobytes on Linux
	}
	return stdout.String() + stderr.String(), wall, maxRSS, nil
}

// TestEvalSyntheticJob checks the generator on a small set: eval grades
// every trial on the host from its raw run, and each agent resolves
// exactly the tasks the plan says.
func TestEvalSyntheticJob(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds lolbench's image; skipped with -short")
	}
	bin, err := lolbenchBinary()
	if err != nil {
		t.Fatal(err)
	}
	set := evalSet{agents: 2, tasks: 4, steps: 6, bulkFiles: 3}
	ws, job, err := set.write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	out, _, _, err := runEval(bin, ws, job)
	if err != nil {
		t.Fatal(err)
	}
	// agent00 fails task 0, agent01 task 1 (resolves): 3 of 4 each. A
	// failed attempt passes the P2P tests and 2 of the 4 F2P tests;
	// completed counts section 1 (TestNew fails) and 2 (TestServe) as not
	// completed, section 3 as completed.
	for _, want := range []string{
		`(?m)^agent00__m +4 +4 +75\.0 +83\.3 +87\.5 +100\.0 `,
		`(?m)^agent01__m +4 +4 +75\.0 +83\.3 +87\.5 +100\.0 `,
		`eval: 8 row\(s\) for agent00__m, agent01__m in `,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("eval's output does not match %s:\n%s", want, out)
		}
	}
	for a := 0; a < 2; a++ {
		data, err := os.ReadFile(filepath.Join(ws, "eval", agentName(a)+"__m", "results.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		graded := strings.Count(string(data), `"graded_by":"host"`)
		if graded != 4 {
			t.Errorf("%s: %d of 4 trials graded on the host from their raw run", agentName(a), graded)
		}
	}
}

// BenchmarkEval2800Trials runs `lolbench eval --jobs` on a job folder of
// 28 agents × 100 tasks, one attempt each (2,800 trials), the scale of
// the paper's Table 2 (deploy/README.md, "Evaluation at scale"). Each
// task's repository has 200 files no patch touches; each trajectory has
// 60 agent steps. It reports the wall time and the peak resident memory
// of the eval process.
func BenchmarkEval2800Trials(b *testing.B) {
	bin, err := lolbenchBinary()
	if err != nil {
		b.Fatal(err)
	}
	set := evalSet{agents: 28, tasks: 100, steps: 60, bulkFiles: 200}
	start := time.Now()
	ws, job, err := set.write(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("generated %d trials in %s", set.agents*set.tasks, time.Since(start).Round(time.Second))
	b.ResetTimer()
	var peak int64
	for i := 0; i < b.N; i++ {
		out, wall, rss, err := runEval(bin, ws, job)
		if err != nil {
			b.Fatal(err)
		}
		if !strings.Contains(out, "eval: 2800 row(s) for ") {
			b.Fatalf("eval did not score every trial:\n%s", out)
		}
		b.Logf("eval of 2,800 trials: %s wall, %d MB peak resident", wall.Round(100*time.Millisecond), rss>>20)
		peak = max(peak, rss)
	}
	b.ReportMetric(float64(peak>>20), "peak-RSS-MB")
}
