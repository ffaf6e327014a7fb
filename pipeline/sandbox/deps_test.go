package sandbox

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"

	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
)

// fakeGoProxy writes a module proxy folder (GOPROXY=file://...) holding
// example.com/dep v1.0.0, whose package dep has Answer() == 42, and returns
// the folder.
func fakeGoProxy(t *testing.T) string {
	t.Helper()
	src := writeTree(t, map[string]string{
		"go.mod": "module example.com/dep\n\ngo 1.19\n",
		"dep.go": "// Package dep is a module from a fake proxy.\npackage dep\n\n// Answer is 42.\nfunc Answer() int { return 42 }\n",
	})
	proxy := t.TempDir()
	v := filepath.Join(proxy, "example.com", "dep", "@v")
	if err := os.MkdirAll(v, 0o755); err != nil {
		t.Fatal(err)
	}
	var zb bytes.Buffer
	if err := modzip.CreateFromDir(&zb, module.Version{Path: "example.com/dep", Version: "v1.0.0"}, src); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"list":        "v1.0.0\n",
		"v1.0.0.info": `{"Version":"v1.0.0","Time":"2026-01-01T00:00:00Z"}`,
		"v1.0.0.mod":  "module example.com/dep\n\ngo 1.19\n",
		"v1.0.0.zip":  zb.String(),
	} {
		if err := os.WriteFile(filepath.Join(v, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return proxy
}

// goDepRepo is a module that requires example.com/dep, with a test that
// uses it.
var goDepRepo = map[string]string{
	"go.mod":      "module example.com/usesdep\n\ngo 1.19\n\nrequire example.com/dep v1.0.0\n",
	"use.go":      "package usesdep\n\nimport \"example.com/dep\"\n\n// Twice is twice dep's answer.\nfunc Twice() int { return 2 * dep.Answer() }\n",
	"use_test.go": "package usesdep\n\nimport (\n\t\"testing\"\n\n\t\"example.com/dep\"\n)\n\nfunc TestTwice(t *testing.T) {\n\tif Twice() != 2*dep.Answer() {\n\t\tt.Fatal(Twice())\n\t}\n}\n",
}

// hostGo points the go command of this test at a fake proxy and a module
// cache of its own, so that nothing touches the network or the real cache.
func hostGo(t *testing.T) (proxy, hostCache string) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("SKIPPING: no go command on this host")
	}
	proxy = fakeGoProxy(t)
	hostCache = filepath.Join(t.TempDir(), "gomodcache")
	t.Setenv("GOPROXY", "file://"+filepath.ToSlash(proxy))
	t.Setenv("GOMODCACHE", hostCache)
	// The fake module is in no checksum database; go.sum gets its lines
	// from the first download.
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOFLAGS", "-modcacherw")
	t.Setenv("GOTOOLCHAIN", "local")
	return proxy, hostCache
}

// tarNames lists the names of the entries write writes, in order.
func tarNames(t *testing.T, write func(tw *tar.Writer) error) []string {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	if err := write(tw); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	var names []string
	tr := tar.NewReader(&buf)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return names
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
	}
}

// TestPlanDeps: Go modules are downloaded for a go.mod that requires
// some, unless the recipe says off or the project vendors them.
func TestPlanDeps(t *testing.T) {
	r := toyRecipe().Defaults()
	off := r
	off.GoModules = recipe.GoModulesOff
	tests := []struct {
		name  string
		r     recipe.Recipe
		files map[string]string
		want  bool
	}{
		{"requires", r, map[string]string{"go.mod": "module m\n\ngo 1.19\n\nrequire example.com/dep v1.0.0\n"}, true},
		{"no requirements", r, map[string]string{"go.mod": "module m\n\ngo 1.19\n"}, false},
		{"no go.mod", r, map[string]string{"setup.py": ""}, false},
		{"vendored", r, map[string]string{"go.mod": "module m\n\ngo 1.19\n\nrequire example.com/dep v1.0.0\n", "vendor/modules.txt": "# example.com/dep v1.0.0\n"}, false},
		{"off", off, map[string]string{"go.mod": "module m\n\ngo 1.19\n\nrequire example.com/dep v1.0.0\n"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := planDeps(tt.r, DirTree{Dir: writeTree(t, tt.files), ID: "x"})
			if err != nil {
				t.Fatal(err)
			}
			if d.goMod != tt.want || (d.Key() != "") != tt.want || d.layout().copyDeps != tt.want {
				t.Fatalf("goMod %v key %q layout %+v, want goMod %v", d.goMod, d.Key(), d.layout(), tt.want)
			}
		})
	}
	_, err := planDeps(r, DirTree{Dir: writeTree(t, map[string]string{"go.mod": "module m\nrequire (\n"}), ID: "x"})
	if err == nil || err.Error() != "go.mod of the base tree: go.mod:3: syntax error (unterminated block started at go.mod:2:1) (set go_modules: off in the recipe to leave modules alone)" {
		t.Fatalf("err = %v", err)
	}
}

// TestDownloadGoModules: go mod download runs on the host through its
// GOPROXY, and the build context's deps/gomod holds the module cache the
// go command needs offline: the module's files, go.mod and zip.
func TestDownloadGoModules(t *testing.T) {
	_, hostCache := hostGo(t)
	r := toyRecipe().Defaults()
	logs := t.TempDir()
	d, err := PrepareDeps(context.Background(), r, DirTree{Dir: writeTree(t, goDepRepo), ID: "x"}, logs, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	// The first run filled the host's own cache.
	if _, err := os.Stat(filepath.Join(hostCache, "example.com", "dep@v1.0.0", "dep.go")); err != nil {
		t.Fatalf("the host's module cache was not filled: %v", err)
	}
	var got []string
	for _, n := range tarNames(t, func(tw *tar.Writer) error { return d.WriteTar(tw, "") }) {
		if !strings.HasSuffix(n, ".lock") {
			got = append(got, n)
		}
	}
	want := []string{
		"deps/", "deps/recipe/", "deps/gomod/",
		"deps/gomod/cache/", "deps/gomod/cache/download/", "deps/gomod/cache/download/example.com/",
		"deps/gomod/cache/download/example.com/dep/", "deps/gomod/cache/download/example.com/dep/@v/",
		"deps/gomod/cache/download/example.com/dep/@v/list",
		"deps/gomod/cache/download/example.com/dep/@v/v1.0.0.info",
		"deps/gomod/cache/download/example.com/dep/@v/v1.0.0.mod",
		"deps/gomod/cache/download/example.com/dep/@v/v1.0.0.zip",
		"deps/gomod/cache/download/example.com/dep/@v/v1.0.0.ziphash",
		"deps/gomod/example.com/", "deps/gomod/example.com/dep@v1.0.0/",
		"deps/gomod/example.com/dep@v1.0.0/dep.go", "deps/gomod/example.com/dep@v1.0.0/go.mod",
	}
	sort.Strings(got)
	sort.Strings(want)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("deps/ holds\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	log, _ := os.ReadFile(filepath.Join(logs, "deps.log"))
	if n := strings.Count(string(log), "go mod download\n"); n != 2 {
		t.Fatalf("%d go mod download runs in the log, want 2:\n%s", n, log)
	}
	tmp := d.tmp
	d.Close()
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Fatalf("Close left %s: %v", tmp, err)
	}
}

// TestDownloadGoModulesFails: a module the proxy does not have fails the
// download with go's own message, the proxy and the log.
func TestDownloadGoModulesFails(t *testing.T) {
	proxy, _ := hostGo(t)
	repo := map[string]string{"go.mod": "module m\n\ngo 1.19\n\nrequire example.com/missing v1.0.0\n"}
	logs := t.TempDir()
	_, err := PrepareDeps(context.Background(), toyRecipe().Defaults(), DirTree{Dir: writeTree(t, repo), ID: "x"}, logs, nil)
	want := "go_modules: go mod download (through GOPROXY file://" + proxy + ") failed: exit status 1: " +
		"go: example.com/missing@v1.0.0: reading file://" + proxy + "/example.com/missing/@v/v1.0.0.mod: no such file or directory (log " + filepath.Join(logs, "deps.log") + ")"
	if err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
}

// TestDepsDockerfile: layer 2 copies deps/ before the repository, sets the
// Go variables for an offline module cache, and installs the requirement
// files from the wheels folder with no index before the install commands.
func TestDepsDockerfile(t *testing.T) {
	r := recipe.Recipe{Image: "debian:bookworm", Install: []string{"make"}, Test: recipe.Test{Command: "x {tests}", Format: "junit"},
		Files: []string{"conftest.py"}, Wheels: "wheels", Requirements: []string{"req/test.txt", "req/lint's.txt"}, Imports: []string{"packaging"}}
	r = r.Defaults()
	body := envDockerfileBody(r, recipeLayout(r, true))
	want := `COPY deps/ /opt/lolbench-deps/
ENV GOMODCACHE=/opt/lolbench-deps/gomod GOFLAGS="${GOFLAGS} -mod=mod" GOPROXY=off GOSUMDB=off
COPY --chown=lolbench:lolbench repo/ /testbed/
RUN ["/bin/sh", "-c", ` + jsonString(envScript(r, recipeLayout(r, true))) + `]
USER lolbench
`
	if body != want {
		t.Fatalf("got\n%s\nwant\n%s", body, want)
	}
	if !strings.Contains(envScript(r, recipeLayout(r, true)), testcmd.Quote(setupScript(r, recipeLayout(r, true), recipe.Workdir))) {
		t.Fatal("the RUN does not run setupScript")
	}
	// Without dependencies, nothing of them.
	plain := envDockerfileBody(r, layout{})
	if strings.Contains(plain, "COPY deps/") || strings.Contains(plain, "GOMODCACHE") || strings.Contains(plain, "-m pip install") {
		t.Fatalf("a recipe without dependencies got their steps:\n%s", plain)
	}
}

// wheel builds a pure-Python wheel of package name at version whose
// __init__.py is init, as pip expects one (METADATA, WHEEL, RECORD with
// hashes), and returns its file name and bytes.
func wheel(t *testing.T, name, version, init string) (string, []byte) {
	t.Helper()
	info := name + "-" + version + ".dist-info"
	files := []struct{ name, body string }{
		{name + "/__init__.py", init},
		{info + "/METADATA", "Metadata-Version: 2.1\nName: " + name + "\nVersion: " + version + "\n"},
		{info + "/WHEEL", "Wheel-Version: 1.0\nGenerator: lolbench-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"},
	}
	var record strings.Builder
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		w, err := zw.Create(f.name)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, f.body)
		h := sha256.Sum256([]byte(f.body))
		fmt.Fprintf(&record, "%s,sha256=%s,%d\n", f.name, base64.RawURLEncoding.EncodeToString(h[:]), len(f.body))
	}
	record.WriteString(info + "/RECORD,,\n")
	w, err := zw.Create(info + "/RECORD")
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, record.String())
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return name + "-" + version + "-py3-none-any.whl", buf.Bytes()
}

// fakeIndex serves a PEP 503 simple index of the given wheels and counts
// the requests it answers.
type fakeIndex struct {
	*httptest.Server
	mu       sync.Mutex
	requests []string
}

func newFakeIndex(t *testing.T, project, file string, data []byte) *fakeIndex {
	t.Helper()
	fi := &fakeIndex{}
	sum := sha256.Sum256(data)
	fi.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		fi.mu.Lock()
		fi.requests = append(fi.requests, req.URL.Path)
		fi.mu.Unlock()
		switch req.URL.Path {
		case "/simple/" + project + "/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, "<!DOCTYPE html>\n<html><body>\n<a href=\"/files/%s#sha256=%s\">%s</a>\n</body></html>\n", file, hex.EncodeToString(sum[:]), file)
		case "/files/" + file:
			w.Write(data)
		default:
			http.NotFound(w, req)
		}
	}))
	t.Cleanup(fi.Close)
	return fi
}

func (fi *fakeIndex) seen() []string {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	return append([]string(nil), fi.requests...)
}

// hostPip skips a test when this host has no pip, and isolates pip from
// the user's configuration. Debian's python3 comes first when there is
// one: it is the image's, and starts faster than a version manager's shim.
func hostPip(t *testing.T) {
	t.Helper()
	t.Setenv("PATH", "/usr/bin:/bin:"+os.Getenv("PATH"))
	if err := exec.Command("python3", "-m", "pip", "--version").Run(); err != nil {
		t.Skip("SKIPPING: no pip on this host (python3 -m pip)")
	}
	t.Setenv("PIP_CONFIG_FILE", os.DevNull)
	t.Setenv("PIP_NO_CACHE_DIR", "1")
	t.Setenv("PIP_DISABLE_PIP_VERSION_CHECK", "1")
}

// TestFillWheels: the host fills the wheels folder from the index pip is
// configured with when a requirement is missing, and asks nothing once the
// folder holds it; with no index reachable it fails naming the folder and
// the requirement files.
func TestFillWheels(t *testing.T) {
	hostPip(t)
	name, data := wheel(t, "tinydep", "1.0", "X = 42\n")
	idx := newFakeIndex(t, "tinydep", name, data)
	t.Setenv("PIP_INDEX_URL", idx.URL+"/simple/")
	dir := writeTree(t, map[string]string{"requirements.txt": "tinydep==1.0\n"})
	r := toyRecipe().Defaults()
	r.Dir, r.Wheels, r.Requirements = dir, "wheels", []string{"requirements.txt"}
	logs := t.TempDir()
	d, err := PrepareDeps(context.Background(), r, DirTree{Dir: writeTree(t, map[string]string{"setup.py": ""}), ID: "x"}, logs, nil)
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(logs, "deps.log"))
		t.Fatalf("%v\n%s", err, log)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "wheels", name))
	if !bytes.Equal(got, data) {
		t.Fatalf("wheels/%s holds %d bytes, want the index's %d", name, len(got), len(data))
	}
	if want := []string{"/simple/tinydep/", "/files/" + name}; !reflect.DeepEqual(idx.seen(), want) {
		t.Fatalf("index requests %q, want %q", idx.seen(), want)
	}
	names := tarNames(t, func(tw *tar.Writer) error { return d.WriteTar(tw, "") })
	if want := []string{"deps/", "deps/recipe/", "deps/recipe/wheels/", "deps/recipe/requirements.txt", "deps/recipe/wheels/" + name}; !reflect.DeepEqual(names, want) {
		t.Fatalf("deps/ holds %q, want %q", names, want)
	}
	key := d.Key()

	// Filled: pip resolves from the folder, and the index hears nothing.
	d2, err := PrepareDeps(context.Background(), r, DirTree{Dir: writeTree(t, map[string]string{"setup.py": ""}), ID: "x"}, logs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(idx.seen()) != 2 || d2.Key() != key {
		t.Fatalf("second fill: requests %q, key %s (first %s)", idx.seen(), d2.Key(), key)
	}

	// A requirement the index lacks.
	if err := os.WriteFile(filepath.Join(dir, "requirements.txt"), []byte("tinydep==1.0\nother==2.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = PrepareDeps(context.Background(), r, DirTree{Dir: writeTree(t, map[string]string{"setup.py": ""}), ID: "x"}, logs, nil)
	want := "recipe: wheels: wheels does not hold every requirement of requirements.txt, and pip download could not fetch them: " +
		"ERROR: No matching distribution found for other==2.0 (log " + filepath.Join(logs, "deps.log") + "); put the wheels there by hand, or make an index reachable (PIP_INDEX_URL)"
	if err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
}

// TestSetupScript: layer 2's one RUN runs each install command in its own
// shell, as separate RUNs would (a cd or a variable does not carry over),
// names every step, and stops at the first failing one with its status,
// which stepLog reads back for both executors' errors.
func TestSetupScript(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIPPING: no git on this host")
	}
	r := recipe.Recipe{Install: []string{"X=1; mkdir sub; cd sub; pwd -P >../where", "echo \"X=${X:-unset} in $(basename \"$(pwd -P)\")\"\nexit 7", "echo never"},
		Test: recipe.Test{Command: "x {tests}", Format: "junit"}}.Defaults()
	script := setupScript(r, layout{}, "/nonexistent-testbed")
	dir := t.TempDir()
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 7 {
		t.Fatalf("exit: %v\n%s", err, out)
	}
	want := "lolbench-step: base commit\n" +
		"lolbench-step: install 1 of 3 (X=1; mkdir sub; cd sub; pwd -P >../where)\n" +
		"lolbench-step: install 2 of 3 (echo \"X=${X:-unset} in $(basename \"$(pwd -P)\")\"...)\n" +
		"X=unset in " + filepath.Base(dir) + "\n" +
		"lolbench-step: install 2 of 3 (echo \"X=${X:-unset} in $(basename \"$(pwd -P)\")\"...) failed with exit status 7\n"
	if string(out) != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
	if tag, err := exec.Command("git", "-C", dir, "tag").Output(); err != nil || string(tag) != BaseTag+"\n" {
		t.Fatalf("base commit: tags %q, %v", tag, err)
	}
	// The local executor writes the output as it comes, in any chunks; the
	// engine's lines reach add one by one.
	var written, added stepLog
	for b := out; len(b) > 0; b = b[min(3, len(b)):] {
		written.Write(b[:min(3, len(b))])
	}
	for _, l := range strings.Split(string(out), "\n") {
		added.add(l)
	}
	want = "build x: install 2 of 3 (echo \"X=${X:-unset} in $(basename \"$(pwd -P)\")\"...) failed with exit status 7; last output: X=unset in " + filepath.Base(dir) + " (log L)"
	for _, steps := range []*stepLog{&written, &added} {
		if got := steps.err("build x: ", "exit status 7", "L").Error(); got != want {
			t.Fatalf("error\n got %s\nwant %s", got, want)
		}
	}
	// A line is kept up to maxStepLine bytes; the last needs no newline.
	var long stepLog
	fmt.Fprintf(&long, "%s\nno newline", strings.Repeat("x", 3*maxStepLine))
	if got, want := long.err("", "failed", "L").Error(), "failed; last output: "+strings.Repeat("x", maxStepLine)+" | no newline (log L)"; got != want {
		t.Fatalf("long line: got %.80s...", got)
	}
}
