package sandbox

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
)

// LocalWarning is printed once by every local executor: it is the whole
// difference between the executors, and a user must not miss it.
const LocalWarning = "warning: the local executor is NOT isolated: test commands run on this host, " +
	"with its network, its tools and your user's permissions, and a patch under test can do anything you can. " +
	"Use it only where no Docker engine is available, and only on code you trust."

// Local is the local executor: the same jobs as Docker, run in temporary
// git work trees on the host. Prepare copies the base tree into a
// temporary folder, makes it a one-commit repository (as layer 2 does) and
// runs the install commands there once; every job then gets a copy of that
// folder. Each job has its own TMPDIR, so a test's temporary files do not
// outlive its side, as in a container.
type Local struct {
	// Env are extra variables for install commands and jobs, NAME=value
	// (PATH, to pick the toolchain the recipe expects).
	Env []string
	// Warn receives LocalWarning once.
	Warn io.Writer
	// TempDir is where work trees are made; the system's by default.
	TempDir string
	once    sync.Once
}

// NewLocal returns a local executor that warns on warn.
func NewLocal(warn io.Writer) *Local { return &Local{Warn: warn} }

// Name implements Executor.
func (l *Local) Name() string { return "local" }

// Isolated implements Executor.
func (l *Local) Isolated() bool { return false }

// Prepare implements Executor. Spec.HarborEnv is not used: the local
// executor builds no image, only the tree and the install commands.
func (l *Local) Prepare(ctx context.Context, spec Spec) (Env, error) {
	l.once.Do(func() {
		if l.Warn != nil {
			fmt.Fprintln(l.Warn, LocalWarning)
		}
	})
	if spec.Tree == nil {
		return nil, errors.New("prepare: no repository tree")
	}
	spec.Tree = WithOmit(spec.Tree, spec.Recipe.Omit)
	if r := spec.Recipe; len(r.Files) > 0 || r.Wheels != "" || len(r.Requirements) > 0 {
		// They go to recipe.FilesDir in an image; on this host the install
		// commands would not find them there, and pip would install into
		// the user's own Python.
		return nil, fmt.Errorf("prepare: the local executor does not bring a recipe's files, wheels or requirements (they go into the image at %s); use --executor docker", recipe.FilesDir)
	}
	// The recipe's Go toolchain, from the host's cache (issue 31 §1), as
	// layer 1 would have it.
	goV, err := goRelease(spec.Recipe)
	if err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	if err := checkLocalGo(goV); err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	goroot := spec.Deps.GoRoot()
	if goV != "" && goroot == "" {
		if goroot, err = fetchGo(ctx, spec.Recipe, spec.LogDir, spec.Status); err != nil {
			return nil, fmt.Errorf("prepare: %w", err)
		}
	}
	root, err := os.MkdirTemp(l.TempDir, "lolbench-local-")
	if err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	env := &localEnv{l: l, spec: spec, root: root, tmpl: filepath.Join(root, "env"), goRoot: goroot}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(root)
		}
	}()
	if err := os.Mkdir(env.tmpl, 0o755); err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	pr, pw := io.Pipe()
	go func() {
		tw := tar.NewWriter(pw)
		err := spec.Tree.WriteTar(tw, "")
		if err == nil {
			err = tw.Close()
		}
		pw.CloseWithError(err)
	}()
	if err := Extract(pr, env.tmpl, 1<<40); err != nil {
		pr.CloseWithError(err)
		return nil, fmt.Errorf("prepare: %w", err)
	}
	// The base tree's file list, as the environment image keeps it for the
	// verifier (guard.PristineDir).
	if err := os.MkdirAll(env.pristine(), 0o700); err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	list := exec.CommandContext(ctx, "sh", "-c", "find . -mindepth 1 ! -type d -print0 >"+testcmd.Quote(filepath.Join(env.pristine(), "tracked")))
	list.Dir = env.tmpl
	if out, err := list.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("prepare: list the base tree: %v: %s", err, out)
	}
	logf, err := openLog(spec.LogDir, "local-env.log")
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	status(spec.Status, "preparing a local work tree in %s", env.tmpl)
	// Go modules need nothing here: the go command downloads them through
	// this host's GOPROXY, as the tests will. The steps are layer 2's
	// (setupScript), with the check run on this work tree.
	os.MkdirAll(filepath.Join(root, "tmp"), 0o755)
	cmd := exec.CommandContext(ctx, "sh", "-c", setupScript(spec.Recipe, layout{}, env.tmpl))
	cmd.Dir = env.tmpl
	cmd.Env = env.environ(filepath.Join(root, "tmp"), nil)
	var steps stepLog
	cmd.Stdout = io.MultiWriter(logf, &steps)
	cmd.Stderr = cmd.Stdout
	setProcessGroup(cmd, true)
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("prepare: %w", steps.err("", "the install step: "+err.Error(), logf.Name()))
	}
	if out, err := exec.CommandContext(ctx, "cp", "-a", env.tmpl, filepath.Join(env.pristine(), "testbed")).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("prepare: keep a pristine copy: %v: %s", err, out)
	}
	env.info = EnvInfo{Executor: l.Name(), Dir: env.tmpl}
	ok = true
	return env, nil
}

type localEnv struct {
	l    *Local
	spec Spec
	root string // temporary folder of the environment
	tmpl string // the prepared work tree
	// goRoot is the recipe's Go toolchain in the host's cache, "" for the
	// host's own Go.
	goRoot string
	info   EnvInfo
	n      int
	mu     sync.Mutex
}

// Info implements Env.
func (e *localEnv) Info() EnvInfo { return e.info }

// pristine is what the verifier puts back from (guard.PristineDir in an
// image).
func (e *localEnv) pristine() string { return filepath.Join(e.root, "pristine") }

// Close implements Env: the temporary work trees go.
func (e *localEnv) Close() error { return os.RemoveAll(e.root) }

// environ is the host's environment without git's variables (GIT_DIR would
// point git elsewhere), with the recipe's variables, the executor's and
// the job's, and TMPDIR. The recipe's PATH names the image's folders: here
// they come first, and the host's own folders follow (localPath); the
// recipe's Go toolchain comes before all of them, with its GOROOT.
func (e *localEnv) environ(tmp string, extra []string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GIT_") || strings.HasPrefix(kv, "TMPDIR=") || strings.HasPrefix(kv, "LOLBENCH_") {
			continue
		}
		env = append(env, kv)
	}
	for _, k := range sortedKeys(e.spec.Recipe.Env) {
		v := e.spec.Recipe.Env[k]
		if k == "PATH" {
			v = localPath(v, os.Getenv("PATH"))
		}
		env = append(env, k+"="+v)
	}
	env = append(env, e.l.Env...)
	if e.goRoot != "" {
		// The toolchain's bin before whatever PATH the rest made (the
		// last value of a variable is the one exec keeps).
		path := ""
		for _, kv := range env {
			if v, ok := strings.CutPrefix(kv, "PATH="); ok {
				path = v
			}
		}
		env = append(env, localGoEnv(e.goRoot, path)...)
	}
	env = append(env, "TMPDIR="+tmp)
	return append(env, extra...)
}

// Run implements Env. Absolute paths of Mounts and Collect are placed
// under the job's own root folder, named by LOLBENCH_ROOT, so that scripts
// written for a container ("$LOLBENCH_ROOT/tests/test.sh") run here too.
func (e *localEnv) Run(ctx context.Context, job Job) (*JobResult, error) {
	if err := checkJob(job); err != nil {
		return nil, err
	}
	e.mu.Lock()
	e.n++
	n := e.n
	e.mu.Unlock()
	jd := filepath.Join(e.root, fmt.Sprintf("job-%d-%s", n, job.Name))
	defer os.RemoveAll(jd)
	testbed, lb, root, tmp := filepath.Join(jd, "testbed"), filepath.Join(jd, "lolbench"), filepath.Join(jd, "root"), filepath.Join(jd, "tmp")
	for _, d := range []string{filepath.Join(lb, "out"), root, tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("job %s: %w", job.Name, err)
		}
	}
	if out, err := exec.CommandContext(ctx, "cp", "-a", e.tmpl, testbed).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("job %s: copy the work tree: %v: %s", job.Name, err, out)
	}
	if err := os.WriteFile(filepath.Join(lb, "job.sh"), []byte(job.Script), 0o755); err != nil {
		return nil, fmt.Errorf("job %s: %w", job.Name, err)
	}
	for name, data := range job.Files {
		p := filepath.Join(lb, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, fmt.Errorf("job %s: %w", job.Name, err)
		}
		mode := os.FileMode(0o644)
		if job.Executables[name] {
			mode = 0o755
		}
		if err := os.WriteFile(p, data, mode); err != nil {
			return nil, fmt.Errorf("job %s: %w", job.Name, err)
		}
	}
	for dst, src := range job.Mounts {
		d := filepath.Join(root, filepath.FromSlash(dst))
		if err := os.MkdirAll(filepath.Dir(d), 0o755); err != nil {
			return nil, fmt.Errorf("job %s: %w", job.Name, err)
		}
		if out, err := exec.CommandContext(ctx, "cp", "-a", src, d).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("job %s: copy %s: %v: %s", job.Name, src, err, out)
		}
	}
	for _, c := range job.Collect {
		if err := os.MkdirAll(filepath.Join(root, filepath.FromSlash(c)), 0o755); err != nil {
			return nil, fmt.Errorf("job %s: %w", job.Name, err)
		}
	}
	timeout := job.Timeout
	if timeout <= 0 {
		timeout = time.Duration(e.spec.Recipe.Limits.TimeoutSec)*time.Second + time.Minute
	}
	jctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.Command("sh", "-c", `sh "$LOLBENCH_DIR/job.sh" >"$LOLBENCH_DIR/out/console.log" 2>&1`)
	cmd.Dir = testbed
	cmd.Env = e.environ(tmp, append([]string{"LOLBENCH_DIR=" + lb, "LOLBENCH_TESTBED=" + testbed, "LOLBENCH_ROOT=" + root,
		"LOLBENCH_LOCAL=1", "LOLBENCH_PRISTINE=" + e.pristine()}, job.Env...))
	setProcessGroup(cmd, false)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("job %s: %w", job.Name, err)
	}
	stopFollow := follow(ctx, readLocal(filepath.Join(lb, "out"), root))
	defer stopFollow()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	res := &JobResult{}
	select {
	case err := <-done:
		res.ExitCode = exitCode(err)
	case <-jctx.Done():
		killProcessGroup(cmd)
		<-done
		if ctx.Err() != nil {
			return nil, fmt.Errorf("job %s: %w", job.Name, ctx.Err())
		}
		res.TimedOut, res.ExitCode = true, 137
	}
	res.Duration = time.Since(start)
	if err := os.MkdirAll(job.OutDir, 0o755); err != nil {
		return nil, fmt.Errorf("job %s: %w", job.Name, err)
	}
	if out, err := exec.Command("cp", "-a", filepath.Join(lb, "out")+"/.", job.OutDir).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("job %s: collect out/: %v: %s", job.Name, err, out)
	}
	for _, c := range job.Collect {
		src := filepath.Join(root, filepath.FromSlash(c))
		if out, err := exec.Command("cp", "-a", src, filepath.Join(job.OutDir, filepath.Base(c))).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("job %s: collect %s: %v: %s", job.Name, c, err, out)
		}
	}
	return res, nil
}

// localPath is the PATH of the local executor's install commands and jobs
// when the recipe sets one (issue 25 §3): the recipe's folders first, in
// its order, then the host's folders it lacks. A recipe's PATH describes
// its image (/home/lolbench/go/bin:...:/usr/bin); on this host the tools
// the recipe expects are found first where the image would have them (a
// Debian python3 with pytest before a pyenv build), and the toolchains
// installed elsewhere (Go in /usr/local/go/bin, the official installer's
// place) are still found. Empty and relative folders of the host's PATH
// are dropped: a test's own files must not stand in for its tools.
func localPath(recipePath, hostPath string) string {
	var dirs []string
	seen := map[string]bool{}
	for i, list := range []string{recipePath, hostPath} {
		for _, d := range filepath.SplitList(list) {
			if d == "" || seen[d] || i == 1 && !filepath.IsAbs(d) {
				continue
			}
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	return strings.Join(dirs, string(filepath.ListSeparator))
}

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if c := ee.ExitCode(); c >= 0 {
			return c
		}
		return 137 // killed by a signal
	}
	return 127
}
