package guard

import (
	"context"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
)

// A toy Python project: its base tree, the PR's test patch (a new test
// module and a changed one) and the reference solution.
var toyBase = map[string]string{
	"calc/__init__.py":   "def add(a, b):\n    return a + b\n",
	"tests/test_add.py":  "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
	"pyproject.toml":     "[project]\nname = \"calc\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n",
	"docs/guide.md":      "# guide\n",
	"tests/data/in.json": "{}\n",
}

const toyTestPatch = `diff --git a/tests/test_mul.py b/tests/test_mul.py
new file mode 100644
--- /dev/null
+++ b/tests/test_mul.py
@@ -0,0 +1,5 @@
+from calc import mul
+
+
+def test_mul():
+    assert mul(2, 3) == 6
`

const toySolution = `diff --git a/calc/__init__.py b/calc/__init__.py
--- a/calc/__init__.py
+++ b/calc/__init__.py
@@ -1,2 +1,6 @@
 def add(a, b):
     return a + b
+
+
+def mul(a, b):
+    return a * b
`

// toy lays out a testbed and its pristine copy as an environment image
// keeps them, and the verifier's configuration and test patch.
func toy(t *testing.T) (opts Options) {
	t.Helper()
	if exec.Command("/usr/bin/python3", "-c", "import pytest").Run() != nil {
		t.Skip("SKIPPING: the local verifier test needs the host's python3 with pytest (test/setup.sh test installs it)")
	}
	dir := t.TempDir()
	testbed, pristine := filepath.Join(dir, "testbed"), filepath.Join(dir, "pristine")
	writeTree(t, testbed, toyBase)
	os.MkdirAll(pristine, 0o700)
	var tracked []string
	for p := range toyBase {
		tracked = append(tracked, "./"+p)
	}
	os.WriteFile(filepath.Join(pristine, "tracked"), []byte(strings.Join(tracked, "\x00")+"\x00"), 0o600)
	// An install output: a virtual environment inside the repository.
	writeTree(t, testbed, map[string]string{".venv/lib/site.py": "pristine\n"})
	if out, err := exec.Command("cp", "-a", testbed, filepath.Join(pristine, "testbed")).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v: %s", err, out)
	}
	// The host's Debian python3, which has pytest, as the environment the
	// executor sets.
	t.Setenv("PATH", "/usr/bin:/bin")
	t.Setenv("PYTHONDONTWRITEBYTECODE", "1")
	r := recipe.Recipe{Image: "x",
		Test: recipe.Test{Command: "python3 -m pytest -p no:cacheprovider --junitxml=reports/junit.xml {tests}", Format: "junit", Results: "reports/*.xml", Suite: []string{"tests"}}}
	r = r.Defaults()
	r.Limits.TimeoutSec = 60
	cfg := &Config{Language: "Python", Recipe: r, Selection: []string{"tests"}}
	cfg.Format = "junit"
	tp := filepath.Join(dir, "test.patch")
	os.WriteFile(tp, []byte(toyTestPatch), 0o644)
	return Options{Config: cfg, TestPatch: tp, Runs: 1, Out: filepath.Join(dir, "out"), Testbed: testbed, Pristine: pristine, Local: true}
}

func patchFile(t *testing.T, body string) string {
	p := filepath.Join(t.TempDir(), "solution.patch")
	os.WriteFile(p, []byte(body), 0o644)
	return p
}

// TestRunLocal runs the verifier unisolated (the local executor's mode) on
// the toy: what the solution did to test infrastructure is undone, the
// test patch applied, a canary planted and gone afterwards, the reports
// collected, and the grade is exact.
func TestRunLocal(t *testing.T) {
	cfg := grade.Config{Format: "junit", FailToPass: []string{"tests.test_mul::test_mul"}, PassToPass: []string{"tests.test_add::test_add"}}
	// A solution that implements mul, and cheats on the side: a conftest
	// that passes everything, an edited existing test, a pytest option
	// that loads it as a plugin, a file in the virtual environment.
	cheat := toySolution + `diff --git a/tests/conftest.py b/tests/conftest.py
new file mode 100644
--- /dev/null
+++ b/tests/conftest.py
@@ -0,0 +1 @@
+raise SystemExit("the agent's conftest ran")
diff --git a/tests/test_add.py b/tests/test_add.py
--- a/tests/test_add.py
+++ b/tests/test_add.py
@@ -1,5 +1,5 @@
 from calc import add
 
 
 def test_add():
-    assert add(1, 2) == 3
+    assert True
diff --git a/pyproject.toml b/pyproject.toml
--- a/pyproject.toml
+++ b/pyproject.toml
@@ -3,3 +3,4 @@ name = "calc"
 
 [tool.pytest.ini_options]
 testpaths = ["tests"]
+addopts = "-p tests.conftest"
diff --git a/.venv/lib/site.py b/.venv/lib/site.py
--- a/.venv/lib/site.py
+++ b/.venv/lib/site.py
@@ -1 +1 @@
-pristine
+tampered
`
	tests := []struct {
		name, solution, verdict string
		reward                  int
		reset                   grade.Reset
	}{
		{"reference", toySolution, "passed", 1, grade.Reset{}},
		{"no solution", "", "failed", 0, grade.Reset{}},
		{"reference and cheats", cheat, "passed", 1, grade.Reset{
			Removed:  []string{"tests/conftest.py"},
			Restored: []string{"tests/test_add.py"},
			Sections: []string{"pyproject.toml: tool.pytest"},
			Synced:   []string{".venv"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := toy(t)
			if tt.solution != "" {
				opts.Solution = patchFile(t, tt.solution)
			}
			o, err := Run(context.Background(), opts)
			if err != nil || o.ApplyError != "" || len(o.Runs) != 1 {
				t.Fatalf("run: %v %q %v", err, o.ApplyError, o)
			}
			rec := o.Runs[0]
			if rec.Isolated || len(rec.Canaries) != 1 || rec.Canaries[0].Dir != "tests" || !reflect.DeepEqual(rec.Reset, tt.reset) {
				t.Fatalf("record %+v", rec)
			}
			g := grade.ScoreRun(cfg, RunDir(opts.Out, 1), true)
			if g.Reward != tt.reward || g.Verdict != tt.verdict || g.Canaries != 1 {
				t.Fatalf("grade %+v", g)
			}
			if _, err := os.Stat(filepath.Join(opts.Testbed, rec.Canaries[0].File)); err == nil {
				t.Fatal("the canary was left in the repository")
			}
			if data, _ := os.ReadFile(filepath.Join(opts.Testbed, "tests", "test_mul.py")); !strings.Contains(string(data), "mul(2, 3) == 6") {
				t.Fatal("the test patch was not applied")
			}
		})
	}
	t.Run("does not apply", func(t *testing.T) {
		opts := toy(t)
		opts.Solution = patchFile(t, "diff --git a/nope b/nope\n--- a/nope\n+++ b/nope\n@@ -1 +1 @@\n-a\n+b\n")
		o, err := Run(context.Background(), opts)
		if err != nil || o.ApplyError != "the solution does not apply: error: nope: No such file or directory" || len(o.Runs) != 0 {
			t.Fatalf("%v %+v", err, o)
		}
		if data, _ := os.ReadFile(filepath.Join(opts.Out, ApplyErrorFile)); string(data) != o.ApplyError+"\n" {
			t.Fatalf("apply-error.txt %q", data)
		}
	})
	t.Run("a tampering hook", func(t *testing.T) {
		opts := toy(t)
		hook := toySolution[:strings.Index(toySolution, "+\n+\n+def mul")] + `+
+
+def mul(a, b):
+    return 0
+
+
+import _pytest.reports as _r
+_orig = _r.TestReport.from_item_and_call.__func__
+def _forged(cls, item, call):
+    rep = _orig(cls, item, call)
+    rep.outcome = "passed"
+    return rep
+_r.TestReport.from_item_and_call = classmethod(_forged)
`
		hook = strings.Replace(hook, "@@ -1,2 +1,6 @@", "@@ -1,2 +1,15 @@", 1)
		opts.Solution = patchFile(t, hook)
		if _, err := Run(context.Background(), opts); err != nil {
			t.Fatal(err)
		}
		g := grade.ScoreRun(cfg, RunDir(opts.Out, 1), true)
		if g.Reward != 0 || !strings.HasPrefix(g.Verdict, "tampered: canary passed (tests/test_") || g.Tampered == "" {
			t.Fatalf("grade %+v", g)
		}
	})
}

// TestRunNeedsRoot: the isolated verifier refuses to work as anybody but
// root, and refuses a root test user.
func TestRunNeedsRoot(t *testing.T) {
	r := recipe.Recipe{Image: "x", Test: recipe.Test{Command: "true {tests}", Format: "junit"}}.Defaults()
	opts := Options{Config: &Config{Recipe: r}, Out: t.TempDir(), Testbed: t.TempDir()}
	_, err := Run(context.Background(), opts)
	switch {
	case os.Geteuid() != 0:
		if err == nil || !strings.Contains(err.Error(), "not root") {
			t.Fatalf("err = %v", err)
		}
	default:
		opts.Config.Recipe.User = "root"
		if _, err := Run(context.Background(), opts); err == nil || !strings.Contains(err.Error(), "tests must run unprivileged") {
			t.Fatalf("err = %v", err)
		}
	}
}

// TestKillUser: as root, every process of a user dies at once, the
// verifier itself untouched. It needs root and the user nobody.
func TestKillUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("SKIPPING: needs root")
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		t.Skipf("SKIPPING: no user nobody: %v", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	// A process that forks a detached grandchild, as a background exploit
	// does.
	cmd := exec.Command("/bin/sh", "-c", "(setsid sleep 300 &); exec sleep 300")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	deadline := time.Now().Add(5 * time.Second)
	for len(userProcs(uid)) < 2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := len(userProcs(uid)); n < 2 {
		t.Fatalf("%d processes of nobody started", n)
	}
	if err := killUser(uid, gid); err != nil {
		t.Fatal(err)
	}
	if left := waitGone(func(p procInfo) bool { return p.ownedBy(uid) }, 5*time.Second); len(left) > 0 {
		t.Fatalf("survivors: %v", left)
	}
	if os.Getuid() != 0 {
		t.Fatal("the verifier lost its identity")
	}
}
