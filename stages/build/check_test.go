package build

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline/results"
	"github.com/lolbench/lolbench/pipeline/sandbox"
)

// TestCheckTinykv checks the Go sample's recipe with Docker: one test
// file, one run after the reference solution, no problem; then broken
// recipes, each reported in one line.
func TestCheckTinykv(t *testing.T) {
	d := needDocker(t)
	env := newEnv(t)
	c := sampleCandidate(t, env.Workspace, "tinykv", "tinykv-tkep-0002", "ep.md", nil)
	var seen []sandbox.TestProgress
	st := &Stage{Executor: d, Progress: func(id string, p sandbox.TestProgress) {
		if id == c.ID {
			seen = append(seen, p)
		}
	}}
	res, err := st.Check(context.Background(), env, c)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || len(res.Problems) != 0 || res.TestFile != "server/pyclient_test.go" || !reflect.DeepEqual(res.Selection, []string{"./server"}) ||
		res.Command != "go test -json -count=1 ./server" || res.Env == nil || res.Env.EnvImage == "" {
		t.Fatalf("check: %+v", res)
	}
	// The first test file's package, server, has 3 tests, all
	// fail-to-pass; the run exits 1 because the planted canaries fail, as
	// they must.
	if res.Run.Exit.Code != 1 || res.Run.Status != results.Passed || !reflect.DeepEqual(res.Run.Counts, map[results.Status]int{results.Passed: 3}) {
		t.Fatalf("run: %+v", res.Run)
	}
	// The progress counts the 2 canaries beside the 3 tests; with no build
	// before, no count was known.
	if last := seen[len(seen)-1]; seen[0] != (sandbox.TestProgress{Side: sandbox.After, Run: 1, Runs: 1}) ||
		last != (sandbox.TestProgress{Side: sandbox.After, Run: 1, Runs: 1, Done: 5, Ended: true, Over: true}) {
		t.Fatalf("progress %+v", seen)
	}
	// A check writes its logs and nothing else.
	if _, err := os.Stat(filepath.Join(c.Dir, RecordFile)); !os.IsNotExist(err) {
		t.Fatalf("a check wrote %s: %v", RecordFile, err)
	}
	if _, err := os.Stat(filepath.Join(c.Dir, CheckDir, "after", "run-1", "test-output.log")); err != nil {
		t.Fatal(err)
	}

	recipeYAML, _ := os.ReadFile(filepath.Join(c.Dir, RecipeFile))
	tests := []struct {
		name, old, new string
		want           string // the one problem, exactly; "a...b" for its start and what follows
	}{
		{"no results", "command: go test -json -count=1 {tests}", "command: gotest -json -count=1 {tests}",
			"the test command reported no go-json results (exit code 127): check test.command and test.format of the recipe (log build/check/after/run-1/test-output.log)"},
		{"bad format", "format: go-json", "format: tap",
			`recipe ` + filepath.Join(c.Dir, RecipeFile) + `: test.format: unknown test-result format "tap" (known: junit, go-json, cargo, pytest-ra)`},
		{"install fails", "  - go build ./...\n", "  - go build ./...\n  - go vet ./nowhere\n", "environment: build lolbench/env:tinykv-...: install 2 of 3 (go vet ./nowhere) failed with exit status 1; last output: ...stat /testbed/nowhere: directory not found (log " + filepath.Join(c.Dir, CheckDir, "logs", "image-env.log") + ")"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			broken := strings.Replace(string(recipeYAML), tt.old, tt.new, 1)
			if broken == string(recipeYAML) {
				t.Fatalf("%q not in the recipe", tt.old)
			}
			os.WriteFile(filepath.Join(c.Dir, RecipeFile), []byte(broken), 0o644)
			defer os.WriteFile(filepath.Join(c.Dir, RecipeFile), recipeYAML, 0o644)
			res, err := st.Check(context.Background(), env, c)
			if err != nil {
				t.Fatal(err)
			}
			if res.OK || len(res.Problems) != 1 || strings.Contains(res.Problems[0], "\n") {
				t.Fatalf("problems %q", res.Problems)
			}
			if matches(res.Problems[0], tt.want) {
				return
			}
			t.Errorf("problem:\n%s\nwant\n%s", res.Problems[0], tt.want)
		})
	}
}

// matches reports whether s is want, where each "..." of want stands for
// any text (a container id, an image tag's hash).
func matches(s, want string) bool {
	parts := strings.Split(want, "...")
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for i, p := range parts[1:] {
		if i == len(parts)-2 {
			return strings.HasSuffix(s, p)
		}
		j := strings.Index(s, p)
		if j < 0 {
			return false
		}
		s = s[j+len(p):]
	}
	return s == ""
}
