package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
)

// GraderPackage is the import path of the verifier's result parser.
const GraderPackage = "github.com/lolbench/lolbench/pipeline/sandbox/cmd/lolbench-grade"

// GraderEnv names a prebuilt lolbench-grade binary (static, linux) to use
// instead of building one.
const GraderEnv = "LOLBENCH_GRADER"

// BuildGrader puts a static lolbench-grade for linux/goarch at dst: the
// binary named by $LOLBENCH_GRADER when set, else one built with the Go
// toolchain (CGO_ENABLED=0), from this module's source when lolbench runs
// from a checkout, else from the module proxy at lolbench's version.
func BuildGrader(ctx context.Context, getenv func(string) string, goarch, dst string) error {
	if goarch == "" {
		goarch = runtime.GOARCH
	}
	if p := getenv(GraderEnv); p != "" {
		data, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("grader: %s: %w", GraderEnv, err)
		}
		return os.WriteFile(dst, data, 0o755)
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("grader: no Go toolchain to build lolbench-grade; set %s to a static linux build of %s", GraderEnv, GraderPackage)
	}
	env := append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+goarch, "GOFLAGS=-trimpath -buildvcs=false")
	abs, err := filepath.Abs(dst)
	if err != nil {
		return err
	}
	if dir := sourceRoot(); dir != "" {
		cmd := exec.CommandContext(ctx, gobin, "build", "-ldflags=-s -w", "-o", abs, GraderPackage)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("grader: go build %s in %s: %v: %s", GraderPackage, dir, err, strings.TrimSpace(string(out)))
		}
		return nil
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok || bi.Main.Version == "" || bi.Main.Version == "(devel)" {
		return fmt.Errorf("grader: cannot tell lolbench's version to build lolbench-grade; set %s", GraderEnv)
	}
	tmp, err := os.MkdirTemp("", "lolbench-grader-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	for _, args := range [][]string{
		{"mod", "init", "grader"},
		{"get", bi.Main.Path + "@" + bi.Main.Version},
		{"build", "-ldflags=-s -w", "-o", abs, GraderPackage},
	} {
		cmd := exec.CommandContext(ctx, gobin, args...)
		cmd.Dir, cmd.Env = tmp, env
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("grader: go %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
		}
	}
	return nil
}

// sourceRoot is the root of this module's checkout when the running binary
// was built from one (tests, go run, go build in the checkout).
func sourceRoot() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return ""
	}
	dir := filepath.Dir(filepath.Dir(filepath.Dir(file)))
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil || !strings.Contains(string(data), "module github.com/lolbench/lolbench\n") {
		return ""
	}
	if _, err := os.Stat(filepath.Join(dir, "pipeline", "sandbox", "cmd", "lolbench-grade")); errors.Is(err, os.ErrNotExist) {
		return ""
	}
	return dir
}
