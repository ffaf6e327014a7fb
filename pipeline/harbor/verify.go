package harbor

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
	"github.com/lolbench/lolbench/pipeline/sandbox/guard"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// VerifierDir is where Harbor's verifier writes, inside the container.
const VerifierDir = "/logs/verifier"

// Verify scores a candidate solution (a patch against the base commit; an
// empty patch scores the untouched repository) on a task folder the way
// Harbor runs it, then grades on the host. The environment is built from
// environment/Dockerfile (docker) or from environment/repo (local); tests/
// is copied to /tests and tests/test.sh runs as root, with the patch for
// the verifier to apply as the test user, as an agent's edits would be.
// The verifier's folder comes back in outDir/verifier: its reward files
// (what Harbor would read) and run-1/, the raw run. The grade returned,
// also written to outDir/grade.json, is the host's own, from run-1/ and
// the task's configuration as the host read it: nothing the container
// wrote about the grade is taken at its word. A solution that does not
// apply scores 0 with that reason.
func Verify(ctx context.Context, ex sandbox.Executor, dir string, solution []byte, outDir string, w io.Writer) (*grade.Grade, error) {
	return verify(ctx, ex, dir, solution, "", outDir, w, nil)
}

// VerifyProgress is Verify that reports the run's test progress to
// progress (side sandbox.SolutionSide, one run), as the build's test runs
// report theirs (issue 25 §2: lolbench verify was silent for its whole
// run). The task's verifier keeps its progress file in the verifier's
// folder, where the host follows it; a task built before it did reports
// only the run's start, its end and the time it takes.
func VerifyProgress(ctx context.Context, ex sandbox.Executor, dir string, solution []byte, outDir string, w io.Writer, progress sandbox.ProgressFunc) (*grade.Grade, error) {
	return verify(ctx, ex, dir, solution, "", outDir, w, progress)
}

// VerifySession is Verify after an agent's session: session, a shell
// script, runs first in the container as the recipe's user in /testbed,
// with /logs/verifier writable by all, as Harbor may mount it. Whatever it
// leaves behind (processes, files, a moved tag, hooks) is what the
// verifier must withstand (docs/architecture.md, "Grading and its threat
// model"); the exploit suite (test/exploits) plays agents this way.
func VerifySession(ctx context.Context, ex sandbox.Executor, dir string, solution []byte, session, outDir string, w io.Writer) (*grade.Grade, error) {
	return verify(ctx, ex, dir, solution, session, outDir, w, nil)
}

func verify(ctx context.Context, ex sandbox.Executor, dir string, solution []byte, session, outDir string, w io.Writer, progress sandbox.ProgressFunc) (*grade.Grade, error) {
	cfg, err := LoadConfig(dir)
	if err != nil {
		return nil, err
	}
	for _, f := range Files {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); err != nil {
			return nil, fmt.Errorf("harbor task %s: %w", dir, err)
		}
	}
	id := TaskName(dir, cfg)
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, err
	}
	spec := sandbox.Spec{
		Project:   id,
		Task:      id,
		Base:      cfg.BaseCommit,
		Recipe:    cfg.Recipe,
		Tree:      sandbox.DirTree{Dir: filepath.Join(dir, filepath.FromSlash(RepoDir)), ID: "harbor:" + id},
		HarborEnv: filepath.Join(dir, "environment"),
		LogDir:    outDir,
		Status:    w,
	}
	env, err := ex.Prepare(ctx, spec)
	if err != nil {
		return nil, err
	}
	defer env.Close()
	args := []string{"-out", `"$LOLBENCH_ROOT` + VerifierDir + `"`}
	job := sandbox.Job{
		Name:    "verify",
		Files:   map[string][]byte{},
		Mounts:  map[string]string{"/" + TestsDir: filepath.Join(dir, TestsDir)},
		AsRoot:  true,
		Timeout: time.Duration(cfg.Recipe.Limits.TimeoutSec+300) * time.Second,
		OutDir:  outDir,
		Collect: []string{VerifierDir},
	}
	if len(solution) > 0 {
		job.Files["solution.patch"] = solution
		args = append(args, "-solution", `"$LOLBENCH_DIR/solution.patch"`)
	}
	if session == "" {
		// Nothing ran in the new sandbox before the verifier.
		args = append(args, "-fresh")
	}
	job.Script = sandbox.GuardScript(`sh "$LOLBENCH_ROOT/`+TestSh+`"`, args...)
	if session != "" {
		job.Files["session.sh"] = []byte(session)
		job.Script = strings.Replace(job.Script, "\nexec ", "\n"+sessionScript(cfg.Recipe.User)+"exec ", 1)
	}
	vdir := filepath.Join(outDir, "verifier")
	os.RemoveAll(vdir)
	if progress != nil {
		// The listed tests are the estimate until the run announces its
		// own count.
		var over func(string)
		ctx, over = sandbox.FollowProgress(ctx, progress, sandbox.SolutionSide, 1, len(cfg.FailToPass)+len(cfg.PassToPass), VerifierDir+"/"+guard.ProgressFile)
		defer func() { over(filepath.Join(vdir, guard.ProgressFile)) }()
	}
	res, err := env.Run(ctx, job)
	if err != nil {
		return nil, err
	}
	var g grade.Grade
	if msg, err := os.ReadFile(filepath.Join(vdir, guard.ApplyErrorFile)); err == nil {
		g = grade.Failed(cfg.Config, strings.TrimSpace(string(msg)))
	} else if _, err := os.Stat(filepath.Join(guard.RunDir(vdir, 1), grade.RunJSON)); err != nil {
		why := "the verifier recorded no run"
		if res.TimedOut {
			why = "the verifier did not finish in time"
		} else if console, _ := os.ReadFile(filepath.Join(outDir, "console.log")); len(console) > 0 {
			why += ": " + tail(strings.TrimSpace(string(console)), 300)
		}
		g = grade.Failed(cfg.Config, why)
	} else {
		g = grade.ScoreRun(cfg.Config, guard.RunDir(vdir, 1), cfg.Recipe.Test.Results != "")
	}
	return &g, workspace.WriteJSON(filepath.Join(outDir, grade.GradeJSON), g)
}

// TaskName is the name of the task in folder dir with configuration cfg:
// the last element of its Harbor name (lolbench/<candidate id>), else the
// folder's name.
func TaskName(dir string, cfg *Config) string {
	if i := strings.LastIndexByte(cfg.Task, '/'); i >= 0 {
		return cfg.Task[i+1:]
	}
	return filepath.Base(dir)
}

// sessionScript runs $LOLBENCH_DIR/session.sh as the test user before the
// verifier (the docker executor only: the local one has no users).
func sessionScript(user string) string {
	return fmt.Sprintf(`if [ -z "${LOLBENCH_LOCAL:-}" ]; then
	mkdir -p "$LOLBENCH_ROOT%[2]s" && chmod 0777 "$LOLBENCH_ROOT%[2]s"
	cp "$LOLBENCH_DIR/session.sh" /tmp/session.sh && chmod 0755 /tmp/session.sh
	home=$(awk -F: -v u=%[1]s '$1 == u { print $6 }' /etc/passwd)
	(cd "$LOLBENCH_TESTBED" && HOME="$home" setpriv --reuid=%[1]s --regid=%[1]s --clear-groups sh /tmp/session.sh) >"$LOLBENCH_DIR/out/session.log" 2>&1
	rm -f /tmp/session.sh
fi
`, user, VerifierDir)
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}
