package mutate

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lolbench/lolbench/internal/dockertest"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/build"
)

// The Docker tests share one built task per sample for the whole test
// binary: the environment image is built (or reused) once and the build
// stage's runs happen once.

var (
	builtMu  sync.Mutex
	built    = map[string]*builtTask{}
	rootOnce sync.Once
	rootDir  string
)

type builtTask struct {
	env *pipeline.Env
	c   *pipeline.Candidate
	rec *build.Record
}

func needDocker(t *testing.T) *sandbox.Docker { return dockertest.Executor(t) }

func TestMain(m *testing.M) {
	code := m.Run()
	if rootDir != "" && os.Getenv("LOLBENCH_KEEP_TEST_DIR") == "" {
		os.RemoveAll(rootDir)
	}
	os.Exit(code)
}

// sampleCandidate puts data/samples/NAME into a fresh workspace as a
// collected candidate: the repository from make-repo.sh, candidate.json,
// the EP, the recipe and the mapping.
func sampleCandidate(t testing.TB, name, id, epFile, language string) (*pipeline.Env, *pipeline.Candidate) {
	t.Helper()
	rootOnce.Do(func() {
		var err error
		if rootDir, err = os.MkdirTemp("", "lolbench-mutate-test-"); err != nil {
			t.Fatal(err)
		}
	})
	wsDir, err := os.MkdirTemp(rootDir, name+"-")
	if err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.Open(wsDir, true)
	if err != nil {
		t.Fatal(err)
	}
	src, _ := filepath.Abs(filepath.Join("..", "..", "data", "samples", name))
	repo := filepath.Join(ws.Root, "repos", id)
	if out, err := exec.Command("bash", filepath.Join(src, "make-repo.sh"), repo).CombinedOutput(); err != nil {
		t.Fatalf("make-repo.sh: %v: %s", err, out)
	}
	rev := func(r string) string {
		out, err := exec.Command("git", "-C", repo, "rev-parse", r).Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	c, err := pipeline.OpenCandidate(ws, id)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(c.Dir, 0o755)
	for _, f := range []string{epFile, "recipe.yaml", "mapping.md"} {
		if data, err := os.ReadFile(filepath.Join(src, f)); err == nil {
			os.WriteFile(filepath.Join(c.Dir, f), data, 0o644)
		}
	}
	info := fmt.Sprintf(`{"id":%q,"project":%q,"repo":"example/%s","language":%q,"domain":"testing","repo_dir":"repos/%s",
"ep":{"id":"EP %s","title":"The sample proposal","file":%q,"created":"2026-02-01T00:00:00Z"},
"pr":{"number":42,"title":"Implement it","author":"a","created_at":"2026-03-01T12:00:00Z","merged_at":"2026-03-02T12:00:00Z","base_sha":%q,"head_sha":%q},
"criteria":[]}`, id, name, name, language, id, name, epFile, rev("base"), rev("head"))
	if err := os.WriteFile(filepath.Join(c.Dir, pipeline.InfoFile), []byte(info), 0o644); err != nil {
		t.Fatal(err)
	}
	return &pipeline.Env{Workspace: ws, Getenv: os.Getenv, Version: "test"}, c
}

// builtSample builds a sample's task once per test binary.
func builtSample(t *testing.T, name string) *builtTask {
	t.Helper()
	d := needDocker(t)
	builtMu.Lock()
	defer builtMu.Unlock()
	if b, ok := built[name]; ok {
		return b
	}
	var env *pipeline.Env
	var c *pipeline.Candidate
	switch name {
	case "tinykv":
		env, c = sampleCandidate(t, name, "tinykv-tkep-0002", "ep.md", "Go")
	case "unitconv":
		env, c = sampleCandidate(t, name, "unitconv-ucep-0004", "ep.md", "Python")
	default:
		t.Fatalf("no sample %s", name)
	}
	outs, err := pipeline.RunCandidate(context.Background(), env, c, []pipeline.CandidateStage{&build.Stage{IncludeUnreviewed: true, Executor: d}})
	if err != nil || len(outs) != 1 || outs[0].Result != pipeline.Passed {
		t.Fatalf("build %s: %v %v", name, outs, err)
	}
	rec, err := build.LoadRecord(c)
	if err != nil {
		t.Fatal(err)
	}
	b := &builtTask{env: env, c: c, rec: rec}
	built[name] = b
	return b
}
