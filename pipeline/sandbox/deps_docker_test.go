package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline/recipe"
)

// depsTree is a tree of files whose key is a hash of their content, so
// that each test's environment image is its own and a changed test never
// reuses a stale one.
func depsTree(t *testing.T, files map[string]string) DirTree {
	t.Helper()
	var b strings.Builder
	for _, k := range sortedKeys(files) {
		b.WriteString(k + "\x00" + files[k] + "\x00")
	}
	return DirTree{Dir: writeTree(t, files), ID: "deps-test:" + hash12(b.String())}
}

// offlineRecipe is a recipe on the offline base image.
func offlineRecipe(install ...string) recipe.Recipe {
	return recipe.Recipe{Image: "lolbench/offline-base", Install: install, Env: map[string]string{"CGO_ENABLED": "0"},
		Test:   recipe.Test{Command: "go test -json -count=1 {tests}", Suite: []string{"./..."}, Select: recipe.SelectPackages, Format: "go-json"},
		Limits: recipe.Limits{CPUs: 1, MemoryMB: 1024, TimeoutSec: 300}}
}

// runJob runs script in env and returns what it wrote to out/result.
func runJob(t *testing.T, env Env, script string) string {
	t.Helper()
	out := t.TempDir()
	if _, err := env.Run(context.Background(), Job{Name: "deps", Script: "{\n" + script + "\n} >\"$LOLBENCH_DIR/out/result\" 2>&1\n", OutDir: out}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(out, "result"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestDockerGoModules: the module a go.mod requires is downloaded on the
// host (here from a fake proxy), goes into layer 2's module cache, and the
// tests build and pass offline with GOFLAGS=-mod=mod GOPROXY=off; the
// cache is root's, so the tests cannot change a dependency.
func TestDockerGoModules(t *testing.T) {
	d := needDocker(t)
	hostGo(t)
	r := offlineRecipe("go build ./...").Defaults()
	env, err := d.Prepare(context.Background(), Spec{Project: "usesdep", Task: "usesdep-test", Base: "0000000000000000000000000000000000000001",
		Recipe: r, Tree: depsTree(t, goDepRepo), LogDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	defer d.RemoveImage(context.Background(), env.Info().TaskImage)
	got := runJob(t, env, `go env GOFLAGS GOPROXY GOSUMDB GOMODCACHE
go test -count=1 ./... | sed 's/[[:space:]]*[0-9.]*s$//'
touch /opt/lolbench-deps/gomod/example.com/dep@v1.0.0/dep.go || echo cannot write
ls /opt/lolbench-deps`)
	want := "-buildvcs=false -mod=mod\noff\noff\n/opt/lolbench-deps/gomod\nok  \texample.com/usesdep\n" +
		"touch: cannot touch '/opt/lolbench-deps/gomod/example.com/dep@v1.0.0/dep.go': Permission denied\ncannot write\ngomod\nrecipe\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// TestDockerWheels: a recipe's wheels (one built here) and requirement
// file install with pip --no-index as the test user, and its files are in
// the image, read-only to the tests. The wheels folder already holds the
// requirement, so the host asks no index. The project has pypa/packaging's
// layout, its packages under src/, and builds because the recipe's
// PYTHONPATH puts the testbed before Debian's python3-packaging (the fix
// TestDockerShadowing's error names).
func TestDockerWheels(t *testing.T) {
	d := needDocker(t)
	hostPip(t)
	name, data := wheel(t, "tinydep", "1.0", "X = 42\n")
	dir := writeTree(t, map[string]string{
		"deps/requirements.txt": "tinydep==1.0\n",
		"deps/wheels/" + name:   string(data),
		"notes/hello.txt":       "hello from the host\n",
	})
	r := recipe.Recipe{Image: "lolbench/offline-base", Dir: dir, Wheels: "deps/wheels", Requirements: []string{"deps/requirements.txt"},
		Files: []string{"notes/hello.txt"}, Install: []string{`python3 -c "import tinydep, mypkg"`}, Env: map[string]string{"PYTHONPATH": "/testbed/src"},
		Test: recipe.Test{Command: "python3 -m pytest {tests}", Format: "junit", Results: "r.xml"}}.Defaults()
	tree := depsTree(t, map[string]string{"src/mypkg/__init__.py": "from tinydep import X\n", "src/packaging/__init__.py": "__version__ = '99'\n",
		"tests/test_x.py": "import mypkg\n\ndef test_x():\n    assert mypkg.X == 42\n"})
	env, err := d.Prepare(context.Background(), Spec{Project: "wheels", Task: "wheels-test", Base: "0000000000000000000000000000000000000002",
		Recipe: r, Tree: tree, LogDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	defer d.RemoveImage(context.Background(), env.Info().TaskImage)
	got := runJob(t, env, `python3 -c "import tinydep, packaging; print(tinydep.X, tinydep.__file__, packaging.__file__)"
python3 -m pytest -q -p no:cacheprovider tests | tail -n 1 | sed 's/ in .*//'
cat /opt/lolbench-deps/recipe/notes/hello.txt
ls /opt/lolbench-deps/recipe/deps/wheels
touch /opt/lolbench-deps/recipe/notes/hello.txt || echo cannot write`)
	want := "42 /home/lolbench/.local/lib/python3.11/site-packages/tinydep/__init__.py /testbed/src/packaging/__init__.py\n1 passed\nhello from the host\n" + name + "\n" +
		"touch: cannot touch '/opt/lolbench-deps/recipe/notes/hello.txt': Permission denied\ncannot write\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// TestDockerShadowing: after install, layer 2 fails to build when the
// project under test is imported from elsewhere, in one line naming where.
// pypa/packaging's layout: the package under src/, which is not on
// sys.path, so Debian's python3-packaging (pytest needs it) is imported
// instead. TestDockerWheels builds the same layout with the testbed first;
// TestCheckScript runs the check's other cases on the host.
func TestDockerShadowing(t *testing.T) {
	d := needDocker(t)
	r := recipe.Recipe{Image: "lolbench/offline-base", Test: recipe.Test{Command: "python3 -m pytest {tests}", Format: "junit", Results: "r.xml"}}
	logs := t.TempDir()
	spec := Spec{Project: "shadow", Task: "shadow-test", Base: strings.Repeat("0", 39) + "a", Recipe: r.Defaults(),
		Tree: depsTree(t, map[string]string{"src/packaging/__init__.py": "__version__ = '99'\n", "tests/test_v.py": "def test_v():\n    pass\n"}), LogDir: logs}
	_, err := d.Prepare(context.Background(), spec)
	want := "environment check failed: Python module packaging is imported from /usr/lib/python3/dist-packages/packaging/__init__.py, not from /testbed: " +
		"an installed package shadows the project under test; put the testbed first on sys.path (the recipe's env PYTHONPATH, or pip install -e . in install) or remove that package" +
		" (log " + filepath.Join(logs, "image-env.log") + ")"
	if err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
}

// TestCheckScript runs the environment check on the host, in a testbed of
// its own: a named module that does not import, a Go workspace file
// outside the testbed, and a testbed that passes.
func TestCheckScript(t *testing.T) {
	for _, tool := range []string{"go", "python3"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("SKIPPING: no %s on this host", tool)
		}
	}
	outside := writeTree(t, map[string]string{"go.work": "go 1.19\n\nuse ./m\n", "m/go.mod": "module example.com/shadowed\n\ngo 1.19\n"})
	tests := []struct {
		name    string
		files   map[string]string
		imports []string
		env     []string
		want    string // with TB for the testbed's real path
	}{
		{"named module missing", map[string]string{"packaging/__init__.py": ""}, []string{"packaging", "nosuchmod"}, nil,
			"lolbench-check: Python module nosuchmod does not import in TB: ModuleNotFoundError: No module named 'nosuchmod'\n"},
		{"go workspace", map[string]string{"go.mod": "module example.com/shadowed\n\ngo 1.19\n", "s.go": "package shadowed\n"}, nil,
			[]string{"GOWORK=" + filepath.Join(outside, "go.work")},
			"lolbench-check: Go module example.com/shadowed resolves through the workspace file " + filepath.Join(outside, "go.work") +
				", outside TB: unset GOWORK (or set it to off) in the recipe's env\n"},
		{"from the testbed", map[string]string{"go.mod": "module example.com/fine\n\ngo 1.19\n", "fine.go": "package fine\n", "src/fine/__init__.py": ""}, nil,
			[]string{"PYTHONPATH=src"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb, err := filepath.EvalSymlinks(writeTree(t, tt.files))
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("/bin/sh", "-c", CheckScript(tb, tt.imports))
			cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=", "GOWORK=")
			cmd.Env = append(cmd.Env, tt.env...)
			out, err := cmd.CombinedOutput()
			want := strings.ReplaceAll(tt.want, "TB", tb)
			if string(out) != want || (err == nil) != (want == "") {
				t.Fatalf("exit %v, output\n%s\nwant\n%s", err, out, want)
			}
		})
	}
}

// TestLocalShadowing: the local executor runs the same check after its
// install commands, and a recipe's host files are refused there.
func TestLocalShadowing(t *testing.T) {
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("SKIPPING: no /usr/bin/python3 on this host")
	}
	outside := writeTree(t, map[string]string{"shadowme/__init__.py": ""})
	r := toyRecipe()
	r.Env = map[string]string{"PYTHONPATH": outside}
	tree := depsTree(t, map[string]string{"src/shadowme/__init__.py": "", "run.sh": ""})
	logs := t.TempDir()
	_, err := localExecutor().Prepare(context.Background(), Spec{Project: "shadow", Task: "shadow-local", Base: "b", Recipe: r.Defaults(), Tree: tree, LogDir: logs})
	real, _ := filepath.EvalSymlinks(outside)
	if err == nil || !strings.HasPrefix(err.Error(), "prepare: environment check failed: Python module shadowme is imported from "+real+"/shadowme/__init__.py, not from ") ||
		!strings.HasSuffix(err.Error(), " or remove that package (log "+filepath.Join(logs, "local-env.log")+")") {
		t.Fatalf("err = %v", err)
	}
	r = toyRecipe()
	r.Files, r.Dir = []string{"x"}, t.TempDir()
	_, err = localExecutor().Prepare(context.Background(), Spec{Project: "shadow", Task: "shadow-local", Base: "b", Recipe: r.Defaults(), Tree: tree, LogDir: logs})
	if err == nil || err.Error() != "prepare: the local executor does not bring a recipe's files, wheels or requirements (they go into the image at /opt/lolbench-deps/recipe); use --executor docker" {
		t.Fatalf("err = %v", err)
	}
}
