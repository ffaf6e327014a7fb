package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDemoLocalExecutor follows make demo's path on a host without a
// Docker engine (the demo falls back to the local executor) whose Go lives
// in a folder the recipe's image PATH does not name, as /usr/local/go/bin
// (issue 25 §3): the demo workspace, the gates, then the build stage the
// demo's run reaches, through `lolbench build`. On the way, a candidate
// that has not passed every gate is not built and the command exits 1,
// with advice that is true: --include-unreviewed builds it.
func TestDemoLocalExecutor(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	goDir := filepath.Dir(gobin)
	for _, d := range []string{"/home/lolbench/.local/bin", "/home/lolbench/go/bin", "/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"} {
		if _, err := os.Stat(filepath.Join(d, "go")); err == nil || d == goDir {
			t.Skipf("go is in %s, a folder of the demo recipe's PATH: this host cannot show the defect", d)
		}
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	setup := exec.Command("bash", filepath.Join(root, "data", "demo", "demo.sh"), "--setup-only")
	setup.Env = append(os.Environ(), "WORK="+work, "BIN=/nonexistent")
	if out, err := setup.CombinedOutput(); err != nil {
		t.Fatalf("demo.sh --setup-only: %v\n%s", err, out)
	}
	const id = "tinykv-tkep-0002"
	reg := filepath.Join(work, "projects.yaml")
	if _, errOut, code := runCLI(t, "run", "--workspace", work, "--projects", reg, "--offline", "--executor", "local", "--only", id, "--to", "review"); code != 0 {
		t.Fatalf("run --to review: exit %d\n%s", code, errOut)
	}

	// Go only in its own folder from here on, as on such a host.
	t.Setenv("PATH", goDir+":/usr/bin:/bin")
	build := []string{"build", id, "--workspace", work, "--projects", reg, "--executor", "local", "--runs", "1"}
	out, errOut, code := runCLI(t, build...)
	llm := "no LLM endpoint configured; set LOLBENCH_LLM_BASE_URL (and LOLBENCH_LLM_MODEL, LOLBENCH_LLM_API_KEY if the endpoint needs one)"
	want := id + ": skipped: not built: gates not passed (audit skipped: " + llm + "; rank skipped: " + llm + "; review skipped: no rank.json; run lolbench rank " + id + " first); a skipped gate is not a pass: pass them, or build with --include-unreviewed\n"
	if code != 1 || out != want {
		t.Fatalf("build without --include-unreviewed: exit %d, stdout:\n%s\nwant:\n%s\nstderr:\n%s", code, out, want, errOut)
	}

	// What the demo's run does next, with the build stage it runs:
	// --include-unreviewed, the local executor. Then again: up to date.
	task := filepath.Join(work, "candidates", id, "task")
	for _, suffix := range []string{"\n", " (up to date)\n"} {
		out, errOut, code = runCLI(t, append(build, "--include-unreviewed")...)
		if want := id + ": passed: 11 fail-to-pass, 7 pass-to-pass, task " + task + suffix; code != 0 || out != want {
			t.Fatalf("build --include-unreviewed: exit %d, stdout:\n%s\nwant:\n%s\nstderr:\n%s", code, out, want, errOut)
		}
	}
	// lolbench verify of the reference solution on the task talks while
	// its tests run (issue 25 §2): a line when the run starts, with the
	// task's 18 listed tests as the estimate, and one when it ends. The
	// reference completes every task section (issue 25 §1).
	out, errOut, code = runCLI(t, "verify", task, "--executor", "local", "--out", t.TempDir(), "--solution", filepath.Join(work, "candidates", id, "build", "solution.patch"))
	if code != 0 || !regexp.MustCompile(`\nreward 1: FAIL_TO_PASS 11/11, PASS_TO_PASS 7/7, sections 6/6\n$`).MatchString(out) {
		t.Fatalf("verify: exit %d, stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	start := id + ": tests of the solution, run 1 of 1: 0/18 done, 0s\n"
	end := regexp.MustCompile(`(?m)^` + id + `: tests of the solution, run 1 of 1: 2[0-9] done, [0-9]+s, ended$`)
	if !strings.Contains(errOut, start) || !end.MatchString(errOut) {
		t.Errorf("verify's progress lines:\n%s", errOut)
	}
	toml, err := os.ReadFile(filepath.Join(task, "task.toml"))
	if err != nil || !regexp.MustCompile(`(?m)^unreviewed = true`).Match(toml) {
		t.Fatalf("task.toml is not marked unreviewed: %v\n%s", err, toml)
	}
}
