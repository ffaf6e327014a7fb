package harbor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
)

// VerifierDir is where Harbor's verifier writes, inside the container.
const VerifierDir = "/logs/verifier"

// Verify scores a candidate solution (a patch against the base commit; an
// empty patch scores the untouched repository) on a task folder, the way
// Harbor would: the environment is built from environment/Dockerfile
// (docker) or from environment/repo (local), the solution applied, tests/
// copied in and tests/test.sh run. The verifier's output is kept in
// outDir/verifier. A solution that does not apply scores 0 with that
// reason.
func Verify(ctx context.Context, ex sandbox.Executor, dir string, solution []byte, outDir string, w io.Writer) (*grade.Grade, error) {
	cfg, err := LoadConfig(dir)
	if err != nil {
		return nil, err
	}
	for _, f := range Files {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); err != nil {
			return nil, fmt.Errorf("harbor task %s: %w", dir, err)
		}
	}
	id := filepath.Base(dir)
	if i := strings.LastIndexByte(cfg.Task, '/'); i >= 0 {
		id = cfg.Task[i+1:]
	}
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
	script := `set -u
cd "$LOLBENCH_TESTBED" || exit 90
if [ -s "$LOLBENCH_DIR/solution.patch" ]; then
	if ! git apply --whitespace=nowarn "$LOLBENCH_DIR/solution.patch" 2>"$LOLBENCH_DIR/out/apply-solution.err"; then
		echo solution >"$LOLBENCH_DIR/out/apply-failed"
		exit 0
	fi
fi
LOLBENCH_VERIFIER_DIR="$LOLBENCH_ROOT` + VerifierDir + `" sh "$LOLBENCH_ROOT/tests/test.sh"
`
	job := sandbox.Job{
		Name:    "verify",
		Script:  script,
		Files:   map[string][]byte{},
		Mounts:  map[string]string{"/tests": filepath.Join(dir, "tests")},
		Timeout: time.Duration(cfg.Recipe.Limits.TimeoutSec+300) * time.Second,
		OutDir:  outDir,
		Collect: []string{VerifierDir},
	}
	if len(solution) > 0 {
		job.Files["solution.patch"] = solution
	}
	os.RemoveAll(filepath.Join(outDir, "verifier"))
	res, err := env.Run(ctx, job)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(outDir, "apply-failed")); err == nil {
		msg, _ := os.ReadFile(filepath.Join(outDir, "apply-solution.err"))
		g := grade.Failed(cfg.Config, "the solution does not apply: "+firstLine(strings.TrimSpace(string(msg))))
		return &g, grade.Write(filepath.Join(outDir, "verifier"), g)
	}
	g, err := grade.Read(filepath.Join(outDir, "verifier"))
	if err != nil {
		if res.TimedOut {
			g := grade.Failed(cfg.Config, "the verifier did not finish in time")
			return &g, nil
		}
		console, _ := os.ReadFile(filepath.Join(outDir, "console.log"))
		return nil, errors.Join(err, fmt.Errorf("verifier output: %s", tail(string(console), 800)))
	}
	return g, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}
