package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/internal/dockertest"
	"github.com/lolbench/lolbench/internal/testcand"
)

// TestBuildCheckTinykv: lolbench build --check on the Go sample with
// Docker prints its outcome exactly (the time and the layer-2 tag
// normalised) and exits 0; a broken test command is one problem line and
// exit status 1. --json has the same outcome.
func TestBuildCheckTinykv(t *testing.T) {
	dockertest.Executor(t)
	dir := t.TempDir()
	spec := testcand.Tinykv(filepath.Join("..", ".."))
	_, c, err := testcand.Build(dir, spec)
	if err != nil {
		t.Fatal(err)
	}
	recipe, err := os.ReadFile(filepath.Join(spec.Sample, "recipe.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(c.Dir, "recipe.yaml"), recipe, 0o644)
	norm := func(s string) string {
		s = regexp.MustCompile(`\(\d+(m\d+)?s\)`).ReplaceAllString(s, "(TIME)")
		return regexp.MustCompile(`lolbench/env:[a-z]+-[0-9a-f-]+`).ReplaceAllString(s, "lolbench/env:TAG")
	}
	out, errOut, code := runCLI(t, "build", "--check", c.ID, "--workspace", dir, "--projects", filepath.Join(dir, "none.yaml"))
	want := `tinykv-tkep-0002: recipe check: no problem found (TIME)
  install: ok, environment lolbench/env:TAG (reused)
  tests: server/pyclient_test.go (./server), 1 run after the reference solution: exit code 1 (2 planted canaries fail on purpose), 3 passed
  logs: ` + filepath.Join(c.Dir, "build", "check") + "\n"
	// Another test of this binary may have built layer 2 first.
	if got := strings.Replace(norm(out), "(built)", "(reused)", 1); code != 0 || got != want {
		t.Errorf("code %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s", code, got, want, errOut)
	}
	if !strings.HasPrefix(errOut, "tinykv-tkep-0002: checking the recipe\n") {
		t.Errorf("stderr %q", errOut)
	}

	os.WriteFile(filepath.Join(c.Dir, "recipe.yaml"), []byte(strings.Replace(string(recipe), "command: go test", "command: gotest", 1)), 0o644)
	out, _, code = runCLI(t, "build", "--check", c.ID, "--workspace", dir, "--projects", filepath.Join(dir, "none.yaml"), "--json")
	var res struct {
		OK       bool     `json:"ok"`
		Problems []string `json:"problems"`
		TestFile string   `json:"test_file"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	wantProblems := []string{"the test command reported no go-json results (exit code 127): check test.command and test.format of the recipe (log build/check/after/run-1/test-output.log)"}
	if code != 1 || res.OK || strings.Join(res.Problems, "\n") != wantProblems[0] || res.TestFile != "server/pyclient_test.go" {
		t.Errorf("code %d, %+v", code, res)
	}
}
