package diff

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// ErrNoGit is returned when the git command cannot be found: line diffs and
// rename detection need it (see the package comment for why).
var ErrNoGit = errors.New("git not found on PATH: lolbench needs the git command for line diffs and rename detection; install git 2.32 or newer")

// gitConfig overrides repository configuration that changes diff output.
// diff.context matters even for numstat: with zero context git trims the
// files' common tail before diffing, which can change the counts.
var gitConfig = []string{
	"-c", "core.quotepath=off",
	"-c", "core.attributesFile=/dev/null",
	"-c", "diff.context=3",
	"-c", "diff.interHunkContext=0",
}

// diffFlags pin every option of `git diff` that configuration could change,
// so that the numbers are git's defaults on every machine: myers with the
// indent heuristic is what git (and GitHub) use when nothing is configured,
// and 1000 is git's default rename limit.
var diffFlags = []string{
	"--no-ext-diff", "--no-textconv", "--no-color",
	"-M", "-l1000",
	"--diff-algorithm=myers", "--indent-heuristic",
	"--ignore-submodules=none", "--no-relative",
	"--src-prefix=a/", "--dst-prefix=b/",
	"-O/dev/null",
}

// gitEnv is the process environment for git: the caller's, minus every
// GIT_* variable (GIT_DIR, GIT_DIFF_OPTS, GIT_EXTERNAL_DIFF,
// GIT_CONFIG_PARAMETERS and friends all change the output), plus settings
// that drop system and user configuration.
func gitEnv(gitDir, emptyDir string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GIT_") || strings.HasPrefix(kv, "LC_ALL=") || strings.HasPrefix(kv, "LANGUAGE=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_ATTR_NOSYSTEM=1",
		"GIT_NO_REPLACE_OBJECTS=1",
		"GIT_NO_LAZY_FETCH=1",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_OPTIONAL_LOCKS=0",
		"GIT_LITERAL_PATHSPECS=1",
		"LC_ALL=C",
		"GIT_DIR="+gitDir,
		// An empty work tree and a missing index: attributes come from
		// neither, so the diff depends on the two commits only.
		"GIT_WORK_TREE="+emptyDir,
		"GIT_INDEX_FILE="+emptyDir+"/index",
	)
}

// gitCommand runs `git -c ... ARGS` (gitConfig) in the repository and hands
// its stdout to consume while it runs.
// A non-zero exit is an error that quotes git's first stderr line.
func (r *Repo) gitCommand(ctx context.Context, args []string, consume func(io.Reader) error) error {
	bin, err := exec.LookPath("git")
	if err != nil {
		return ErrNoGit
	}
	empty, err := os.MkdirTemp("", "lolbench-git-")
	if err != nil {
		return fmt.Errorf("git in %s: %w", r.dir, err)
	}
	defer os.RemoveAll(empty)

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	full := append(append([]string(nil), gitConfig...), args...)
	cmd := exec.CommandContext(ctx, bin, full...)
	cmd.Dir = empty
	cmd.Env = gitEnv(r.gitDir, empty)
	var stderr limitedBuffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("git in %s: %w", r.dir, err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git in %s: %w", r.dir, err)
	}
	cerr := consume(stdout)
	if cerr != nil {
		cancel() // stop git; its output is no longer read
	}
	_, _ = io.Copy(io.Discard, stdout)
	werr := cmd.Wait()
	if ctx.Err() != nil && cerr == nil {
		return fmt.Errorf("git %s in %s: %w", args[0], r.dir, ctx.Err())
	}
	if cerr != nil {
		return fmt.Errorf("git %s in %s: %w", args[0], r.dir, cerr)
	}
	if werr != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if msg != "" {
			return fmt.Errorf("git %s in %s: %w: %s", args[0], r.dir, werr, msg)
		}
		return fmt.Errorf("git %s in %s: %w", args[0], r.dir, werr)
	}
	return nil
}

// limitedBuffer keeps the first 64 KiB written to it: enough for git's
// error message, bounded whatever git prints.
type limitedBuffer struct{ bytes.Buffer }

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := 64<<10 - b.Len(); room > 0 {
		if len(p) > room {
			b.Buffer.Write(p[:room])
		} else {
			b.Buffer.Write(p)
		}
	}
	return len(p), nil
}
