package sandbox

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/lolbench/lolbench/pipeline/recipe"
)

// Executor prepares environments and runs jobs in them.
type Executor interface {
	// Name is "docker" or "local".
	Name() string
	// Isolated reports whether jobs run sandboxed: no network, resource
	// limits, no access to the host.
	Isolated() bool
	// Prepare makes the environment of a repository at a base commit
	// ready, reusing what earlier calls built.
	Prepare(ctx context.Context, spec Spec) (Env, error)
}

// Env is a prepared environment. Every job runs in a fresh copy of it.
type Env interface {
	// Run runs one job and collects its out/ folder.
	Run(ctx context.Context, job Job) (*JobResult, error)
	// Info describes what Prepare built or reused.
	Info() EnvInfo
	// Close releases what the environment holds on the host (temporary
	// folders); images are kept for reuse.
	Close() error
}

// Spec is what an environment is made of.
type Spec struct {
	// Project names the repository in image names ("tinykv").
	Project string
	// Task is the task (candidate) id, for the thin task image.
	Task string
	// Base is the base commit SHA.
	Base string
	// Recipe, with defaults applied (recipe.Recipe.Defaults).
	Recipe recipe.Recipe
	// Tree gives the repository's files at Base.
	Tree Tree
	// Deps, when set, is what PrepareDeps made for Recipe and Tree (the
	// build stage makes it once, for the image and the Harbor task); nil:
	// the docker executor makes it itself when it builds layer 2.
	Deps *Deps
	// HarborEnv, when set, is a Harbor task's environment/ folder: the
	// docker executor builds its Dockerfile (the self-contained form of
	// layers 1 to 3) as the task image, as Harbor would.
	HarborEnv string
	// LogDir receives the build logs; created when missing.
	LogDir string
	// Status receives progress lines; nil discards them.
	Status io.Writer
}

// EnvInfo describes a prepared environment.
type EnvInfo struct {
	Executor string `json:"executor"`
	// Isolated is Executor.Isolated: false for the local executor.
	Isolated bool `json:"isolated"`
	// BaseImage, EnvImage and TaskImage are the three layers (docker).
	BaseImage string `json:"base_image,omitempty"`
	EnvImage  string `json:"env_image,omitempty"`
	TaskImage string `json:"task_image,omitempty"`
	// EnvImageID is the environment image's id; two tasks of one
	// repository and base commit share it.
	EnvImageID string `json:"env_image_id,omitempty"`
	// EnvReused is set when the environment image existed already.
	EnvReused bool `json:"env_reused"`
	// Dir is the local executor's prepared work tree.
	Dir string `json:"dir,omitempty"`
}

// Job is one script run in a fresh copy of an environment.
type Job struct {
	// Name names the job in logs and container names ("before").
	Name string
	// Script is a POSIX shell script run with sh in the repository's
	// folder; LOLBENCH_DIR and LOLBENCH_TESTBED are set.
	Script string
	// Files are written to LOLBENCH_DIR before the script runs; names are
	// slash paths that may not leave it. Executables names those that get
	// the executable bit.
	Files       map[string][]byte
	Executables map[string]bool
	// AsRoot runs the script as root with the powers the verifier needs
	// (pipeline/sandbox/guard), instead of as the recipe's user; the job's
	// folders are then root's alone.
	AsRoot bool
	// Mounts are host folders copied to absolute paths in the sandbox
	// (Harbor's /tests and /solution).
	Mounts map[string]string
	// Env are extra variables, NAME=value.
	Env []string
	// Timeout bounds the whole job; past it the sandbox is killed.
	Timeout time.Duration
	// OutDir receives LOLBENCH_DIR/out and, for Harbor verification,
	// /logs/verifier.
	OutDir string
	// Collect names further absolute folders of the sandbox to copy into
	// OutDir, under their base names ("/logs/verifier" -> verifier/).
	Collect []string
}

// JobResult is how a job ended.
type JobResult struct {
	// ExitCode is the script's exit status.
	ExitCode int
	// TimedOut is set when the job hit Job.Timeout and was killed.
	TimedOut bool
	// Duration is the job's wall-clock time.
	Duration time.Duration
}

// checkJob validates a job before an executor touches anything.
func checkJob(job Job) error {
	if !jobNameRE.MatchString(job.Name) {
		return fmt.Errorf("job name %q: letters, digits, - and _ only", job.Name)
	}
	if job.OutDir == "" {
		return fmt.Errorf("job %s: no output folder", job.Name)
	}
	for name := range job.Files {
		if name == "" || strings.HasPrefix(name, "/") || strings.Contains(name, "\\") {
			return fmt.Errorf("job %s: file name %q is not a relative slash path", job.Name, name)
		}
		for _, el := range strings.Split(name, "/") {
			if el == ".." || el == "." || el == "" {
				return fmt.Errorf("job %s: file name %q is not a clean relative path", job.Name, name)
			}
		}
	}
	for dst := range job.Mounts {
		if !filepath.IsAbs(dst) || filepath.Clean(dst) != dst || dst == "/" {
			return fmt.Errorf("job %s: mount target %q is not a clean absolute path", job.Name, dst)
		}
	}
	for _, c := range job.Collect {
		if !strings.HasPrefix(c, "/") || filepath.Clean(c) != c || c == "/" {
			return fmt.Errorf("job %s: collect path %q is not a clean absolute path", job.Name, c)
		}
	}
	return nil
}

var jobNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$`)

// openLog creates a log file in dir; without dir, the output is dropped
// (os.DevNull opened for writing: a read-only one fails the first write,
// and the install step then dies of SIGPIPE).
func openLog(dir, name string) (*os.File, error) {
	if dir == "" {
		return os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("log folder: %w", err)
	}
	return os.Create(filepath.Join(dir, name))
}

func status(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format+"\n", args...)
	}
}

// heartbeat writes line's answer to w every period until the returned
// function is called: a long step that has nothing else to say says that
// it is still going (issue 36 §5). No writer, no goroutine.
func heartbeat(w io.Writer, period time.Duration, line func(elapsed time.Duration) string) (stop func()) {
	if w == nil || period <= 0 {
		return func() {}
	}
	start := time.Now()
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				fmt.Fprintln(w, line(time.Since(start)))
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}
