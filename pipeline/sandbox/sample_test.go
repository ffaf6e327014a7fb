package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"testing"

	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
)

// sampleTask is a sample project (data/samples/NAME) split into a plan the
// way the build stage splits a PR: test files make the test patch, every
// other file the reference solution.
type sampleTask struct {
	name       string
	repo       *diff.Repo
	base, head string
	recipe     recipe.Recipe
	plan       Plan
	testFiles  []string
	testPaths  []string
}

var (
	samplesMu sync.Mutex
	samples   = map[string]*sampleTask{}
)

// loadSample builds data/samples/NAME's repository once per test binary.
func loadSample(t testing.TB, name string) *sampleTask {
	t.Helper()
	samplesMu.Lock()
	defer samplesMu.Unlock()
	if s, ok := samples[name]; ok {
		return s
	}
	src, err := filepath.Abs(filepath.Join("..", "..", "data", "samples", name))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(sampleRoot(t), name)
	if out, err := exec.Command("bash", filepath.Join(src, "make-repo.sh"), dir).CombinedOutput(); err != nil {
		t.Fatalf("make-repo.sh %s: %v: %s", name, err, out)
	}
	repo, err := diff.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	base, _ := repo.Resolve("base")
	head, _ := repo.Resolve("head")
	rec, err := recipe.Load(filepath.Join(src, "recipe.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	ch, err := repo.Diff(context.Background(), base, head)
	if err != nil {
		t.Fatal(err)
	}
	var testPaths, solPaths, testFiles []string
	for _, f := range ch.Files {
		paths := []string{f.Path()}
		if f.Status == diff.Renamed {
			paths = []string{f.OldPath, f.NewPath}
		}
		if f.Category == lang.Test || f.Category == lang.TestData {
			testPaths = append(testPaths, paths...)
			if f.Category == lang.Test && f.Status != diff.Deleted {
				testFiles = append(testFiles, f.Path())
			}
		} else {
			solPaths = append(solPaths, paths...)
		}
	}
	sort.Strings(testFiles)
	tp, err := repo.Patch(context.Background(), base, head, testPaths...)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := repo.Patch(context.Background(), base, head, solPaths...)
	if err != nil {
		t.Fatal(err)
	}
	r := rec.Defaults()
	s := &sampleTask{name: name, repo: repo, base: base, head: head, recipe: r, testFiles: testFiles, testPaths: testPaths,
		plan: Plan{Recipe: r, Selection: testcmd.Selection(r, testFiles), Language: sampleLanguage[name], TestPatch: tp, Solution: sp, Grader: testGrader(t)}}
	samples[name] = s
	return s
}

// sampleLanguage is each sample's language (its canary).
var sampleLanguage = map[string]string{"tinykv": "Go", "unitconv": "Python"}

var (
	rootOnce sync.Once
	rootDir  string

	graderOnce sync.Once
	graderPath string
	graderErr  error
)

// testGrader builds lolbench-grade once per test binary.
func testGrader(t testing.TB) string {
	t.Helper()
	graderOnce.Do(func() {
		graderPath = filepath.Join(sampleRoot(t), "lolbench-grade")
		graderErr = BuildGrader(context.Background(), os.Getenv, runtime.GOARCH, graderPath)
	})
	if graderErr != nil {
		t.Fatal(graderErr)
	}
	return graderPath
}

// sampleRoot is a folder shared by the tests of this binary, removed by
// TestMain.
func sampleRoot(t testing.TB) string {
	rootOnce.Do(func() {
		var err error
		rootDir, err = os.MkdirTemp("", "lolbench-sandbox-test-")
		if err != nil {
			t.Fatal(err)
		}
	})
	return rootDir
}

func (s *sampleTask) spec(task string) Spec {
	return Spec{Project: s.name, Task: task, Base: s.base, Recipe: s.recipe, Tree: GitTree{Repo: s.repo, Commit: s.base}}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if rootDir != "" && os.Getenv("LOLBENCH_KEEP_TEST_DIR") == "" {
		os.RemoveAll(rootDir)
	}
	os.Exit(code)
}
