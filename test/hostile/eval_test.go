package hostile

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lolbench/lolbench/pipeline/harbor"
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
)

// evalLimit bounds one run of lolbench eval on one hostile trial: it
// reads a few small files, so it either ends well within it or hangs.
const evalLimit = 60 * time.Second

// hostileTask is a built task with seven FAIL_TO_PASS tests.
const hostileTask = "hx-ep-0001"

var hostileF2P = func() []string {
	var out []string
	for i := 1; i <= 7; i++ {
		out = append(out, fmt.Sprintf("ex/kv.TestF%d", i))
	}
	return out
}()

// hostileWorkspace writes the task as lolbench build leaves it.
func hostileWorkspace(t *testing.T, dir string) {
	t.Helper()
	task := filepath.Join(dir, "work", "candidates", hostileTask, "task")
	cfg := harbor.Config{Config: grade.Config{Task: "lolbench/" + hostileTask, Format: "go-json", FailToPass: hostileF2P, PassToPass: []string{}},
		Language: "Go", Recipe: recipe.Recipe{Image: "lolbench/offline-base", Test: recipe.Test{Command: "go test -json {tests}", Format: "go-json"}}}
	data, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(task, "tests", "config.json"), string(data))
	write(t, filepath.Join(task, "instruction.md"), "Implement it.")
	write(t, filepath.Join(task, "environment", "repo", "kv", "kv.go"), "package kv\n")
}

// allPassLog is a go test -json log in which the seven tests pass.
func allPassLog() string {
	var b strings.Builder
	for _, name := range hostileF2P {
		pkg, test, _ := strings.Cut(name, ".")
		fmt.Fprintf(&b, `{"Action":"run","Package":%q,"Test":%q}`+"\n"+`{"Action":"pass","Package":%q,"Test":%q}`+"\n", pkg, test, pkg, test)
	}
	return b.String()
}

const (
	runJSON        = `{"n":1,"exit_code":0,"duration_ns":1,"canaries":[],"strays_killed":0,"leftovers_killed":0,"reset":{},"isolated":true}`
	passingReward  = `{"reward": 1, "f2p_passed": 7, "f2p_total": 7, "p2p_passed": 0, "p2p_total": 0, "sections_completed": 0, "sections_total": 0, "tampered": 0, "reason": "passed"}`
	trialResultFmt = `{"task_name": "lolbench/%s", "trial_name": "t1", "agent_info": {"name": "agent", "version": "1", "model_info": {"name": "m", "provider": "p"}}%s}`
)

// evalWithin runs lolbench eval on the job folder of dir and fails the
// test when it does not end within evalLimit.
func evalWithin(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	lolbench(t, dir, nil, "version") // builds the binary once
	ctx, cancel := context.WithTimeout(context.Background(), evalLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"eval", "--workspace", "work", "--jobs", "job"}, args...)...)
	cmd.Dir = dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("lolbench eval did not end within %s", evalLimit)
	}
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

// Trial folders are hostile (issue 21, section 7): a link (out of the
// trial or in it) is not followed, a named pipe does not block, a count
// that cannot be true and a reward of the wrong type are refused. Each
// case is one trial; each ends with exit status 2 and one line naming the
// file, within evalLimit. The control case shows what the link would have
// given: the all-pass log, read where it lies, resolves the attempt.
func TestEvalHostileTrials(t *testing.T) {
	outside := t.TempDir()
	write(t, filepath.Join(outside, "test-output.log"), allPassLog())
	write(t, filepath.Join(outside, "run-1", "run.json"), runJSON)
	write(t, filepath.Join(outside, "run-1", "test-output.log"), allPassLog())
	write(t, filepath.Join(outside, "reward.json"), passingReward)
	result := fmt.Sprintf(trialResultFmt, hostileTask, "")
	const trial = "job/t1"
	tests := []struct {
		name  string
		setup func(t *testing.T, trial string) // writes the trial's files
		err   string                           // stderr; "" for exit 0
	}{
		{"control: the raw run in the trial", func(t *testing.T, d string) {
			write(t, filepath.Join(d, "result.json"), result)
			write(t, filepath.Join(d, "verifier", "run-1", "run.json"), runJSON)
			write(t, filepath.Join(d, "verifier", "run-1", "test-output.log"), allPassLog())
		}, ""},
		{"test-output.log links outside", func(t *testing.T, d string) {
			write(t, filepath.Join(d, "result.json"), result)
			write(t, filepath.Join(d, "verifier", "run-1", "run.json"), runJSON)
			symlink(t, filepath.Join(outside, "test-output.log"), filepath.Join(d, "verifier", "run-1", "test-output.log"))
		}, trial + "/verifier/run-1/test-output.log: a symbolic link; eval follows no link in a trial"},
		{"run-1 links outside", func(t *testing.T, d string) {
			write(t, filepath.Join(d, "result.json"), result)
			os.MkdirAll(filepath.Join(d, "verifier"), 0o755)
			symlink(t, filepath.Join(outside, "run-1"), filepath.Join(d, "verifier", "run-1"))
		}, trial + "/verifier/run-1: a symbolic link; eval follows no link in a trial"},
		{"reward.json links outside", func(t *testing.T, d string) {
			write(t, filepath.Join(d, "result.json"), result)
			os.MkdirAll(filepath.Join(d, "verifier"), 0o755)
			symlink(t, filepath.Join(outside, "reward.json"), filepath.Join(d, "verifier", "reward.json"))
		}, trial + "/verifier/reward.json: a symbolic link; eval follows no link in a trial"},
		{"a link inside the trial", func(t *testing.T, d string) {
			write(t, filepath.Join(d, "result.json"), result)
			write(t, filepath.Join(d, "verifier", "run-1", "run.json"), runJSON)
			write(t, filepath.Join(d, "agent", "all-pass.log"), allPassLog())
			symlink(t, "../../agent/all-pass.log", filepath.Join(d, "verifier", "run-1", "test-output.log"))
		}, trial + "/verifier/run-1/test-output.log: a symbolic link; eval follows no link in a trial"},
		{"result.json is a named pipe", func(t *testing.T, d string) {
			mkfifo(t, filepath.Join(d, "result.json"))
		}, trial + "/result.json: a named pipe; eval reads only regular files"},
		{"reward.txt is a named pipe", func(t *testing.T, d string) {
			write(t, filepath.Join(d, "result.json"), result)
			write(t, filepath.Join(d, "verifier", "run-1", "run.json"), runJSON)
			write(t, filepath.Join(d, "verifier", "run-1", "test-output.log"), allPassLog())
			mkfifo(t, filepath.Join(d, "verifier", "reward.txt"))
		}, trial + "/verifier/reward.txt: a named pipe; eval reads only regular files"},
		{"the trajectory is a named pipe", func(t *testing.T, d string) {
			write(t, filepath.Join(d, "result.json"), result)
			write(t, filepath.Join(d, "verifier", "reward.json"), passingReward)
			mkfifo(t, filepath.Join(d, "agent", "trajectory.json"))
		}, trial + "/agent/trajectory.json: a named pipe; eval reads only regular files"},
		{"70 of 7 FAIL_TO_PASS tests", func(t *testing.T, d string) {
			write(t, filepath.Join(d, "result.json"), result)
			write(t, filepath.Join(d, "verifier", "reward.json"), strings.Replace(strings.Replace(passingReward, `"f2p_passed": 7`, `"f2p_passed": 70`, 1), `"reward": 1`, `"reward": 0`, 1))
		}, trial + "/verifier/reward.json: f2p_passed is 70, more than the task's 7 FAIL_TO_PASS tests"},
		{"a reward.json of another task", func(t *testing.T, d string) {
			write(t, filepath.Join(d, "result.json"), result)
			write(t, filepath.Join(d, "verifier", "reward.json"), strings.Replace(strings.Replace(passingReward, `"f2p_passed": 7, "f2p_total": 7`, `"f2p_passed": 2, "f2p_total": 2`, 1), `"reward": 1`, `"reward": 1`, 1))
		}, trial + "/verifier/reward.json: f2p_total is 2; the task has 7 FAIL_TO_PASS tests"},
		{"the reward in result.json is a string", func(t *testing.T, d string) {
			write(t, filepath.Join(d, "result.json"), fmt.Sprintf(trialResultFmt, hostileTask, `, "verifier_result": {"rewards": {"reward": "1"}}`))
		}, trial + `/result.json: verifier_result.rewards.reward is a string ("1"), not a number`},
		{"the reward in reward.json is a string", func(t *testing.T, d string) {
			write(t, filepath.Join(d, "result.json"), result)
			write(t, filepath.Join(d, "verifier", "reward.json"), strings.Replace(passingReward, `"reward": 1`, `"reward": "1"`, 1))
		}, trial + `/verifier/reward.json: reward is a string ("1"), not a number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			hostileWorkspace(t, dir)
			tt.setup(t, filepath.Join(dir, "job", "t1"))
			stdout, stderr, code := evalWithin(t, dir, "--json")
			if tt.err != "" {
				check(t, dir, stderr, code, "lolbench: "+tt.err+"\n", 2)
				return
			}
			var m struct {
				Agents []struct {
					Resolved *float64 `json:"resolved"`
					F2P      *float64 `json:"f2p"`
				} `json:"agents"`
			}
			if err := json.Unmarshal([]byte(stdout), &m); code != 0 || err != nil || len(m.Agents) != 1 || *m.Agents[0].Resolved != 100 || *m.Agents[0].F2P != 100 {
				t.Fatalf("exit %d, %v, stdout %s\nstderr %s", code, err, stdout, stderr)
			}
		})
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
}
