package sandbox

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline/gotoolchain"
	"github.com/lolbench/lolbench/pipeline/recipe"
)

// fakeGoCache makes the host's toolchain cache a temporary folder holding
// a fake release whose bin/go version prints its version, GOROOT and
// GOTOOLCHAIN (and whose go env and go list, which the environment check
// runs, fail), and returns its GOROOT.
func fakeGoCache(t *testing.T, version string) string {
	t.Helper()
	root := t.TempDir()
	t.Setenv(gotoolchain.CacheEnv, root)
	dir := filepath.Join(root, "go"+version+".linux-"+runtime.GOARCH)
	goroot := filepath.Join(dir, "go")
	if err := os.MkdirAll(filepath.Join(goroot, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\n[ \"$1\" = version ] || exit 2\necho \"fake go" + version + " GOROOT=$GOROOT GOTOOLCHAIN=$GOTOOLCHAIN\"\n"
	if err := os.WriteFile(filepath.Join(goroot, "bin", "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(gotoolchain.Toolchain{Version: version, Arch: runtime.GOARCH, Sum: "h1:fake"})
	if err := os.WriteFile(filepath.Join(dir, "toolchain.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return goroot
}

// TestGoBaseDockerfile: a recipe naming a Go release gets the toolchain
// in layer 1, its bin first on PATH (before the recipe's PATH, or the
// image's), GOTOOLCHAIN=local unless the recipe sets it; the release is in
// layer 1's tag and a changed release renames layers 1 and 2 and the
// environment key. go: system and no go: are the image's Go.
func TestGoBaseDockerfile(t *testing.T) {
	r := offlineRecipe().Defaults()
	plain := baseDockerfileBody(r)
	for _, g := range []recipe.GoVersion{"", recipe.GoSystem} {
		r.Go = g
		if baseDockerfileBody(r) != plain || strings.Contains(plain, "toolchain") || strings.HasPrefix(baseImageName(r), BaseRepo+":go") {
			t.Fatalf("go: %q changed layer 1:\n%s", g, baseDockerfileBody(r))
		}
	}
	r.Go = "1.22.0"
	arch := runtime.GOARCH
	want := "RUN (id -u lolbench >/dev/null 2>&1 || useradd -m -s /bin/sh lolbench || adduser -D -s /bin/sh lolbench)\n" +
		"# Go 1.22.0 for linux/" + arch + " (golang.org/toolchain, downloaded on the host)\n" +
		"COPY toolchain/ /usr/local/lib/lolbench/go/\n" +
		`ENV CGO_ENABLED="0" GOTOOLCHAIN="local" PATH="/usr/local/lib/lolbench/go/bin:${PATH:-/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin}"` + "\n" +
		"WORKDIR /testbed\n"
	if got := baseDockerfileBody(r); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	r.Env = map[string]string{"PATH": "/home/lolbench/go/bin:/usr/bin:/bin", "GOTOOLCHAIN": "go1.22.0+path"}
	if got := baseDockerfileBody(r); !strings.Contains(got, `ENV GOTOOLCHAIN="go1.22.0+path" PATH="/usr/local/lib/lolbench/go/bin:/home/lolbench/go/bin:/usr/bin:/bin"`+"\n") {
		t.Fatalf("with the recipe's PATH and GOTOOLCHAIN:\n%s", got)
	}
	// A go command before 1.18 refuses the offline image's -buildvcs
	// flag: layer 1 clears GOFLAGS unless the recipe sets it.
	r.Env, r.Go = nil, "1.17.13"
	if got := baseDockerfileBody(r); !strings.Contains(got, `ENV GOFLAGS="" GOTOOLCHAIN="local" PATH=`) {
		t.Fatalf("go1.17.13:\n%s", got)
	}
	r = offlineRecipe().Defaults()
	r.Go = "1.22.0"
	name := baseImageName(r)
	if !strings.HasPrefix(name, BaseRepo+":go1.22.0-") || len(name) != len(BaseRepo+":go1.22.0-")+12 {
		t.Fatalf("layer 1 %s", name)
	}
	spec := Spec{Project: "p", Base: "0123456789abcdef0123456789abcdef01234567", Recipe: r, Tree: DirTree{ID: "x"}}
	other := spec
	other.Recipe.Go = "1.22.4"
	if baseImageName(other.Recipe) == name || envImageName(other, nil) == envImageName(spec, nil) || EnvKey(other.Recipe, spec.Base) == EnvKey(r, spec.Base) {
		t.Fatal("a changed Go release kept a layer's name or the environment key")
	}
	// The Harbor Dockerfile copies the same toolchain folder.
	if df := HarborDockerfile(r, spec.Base, "t", nil); !strings.Contains(df, "COPY toolchain/ /usr/local/lib/lolbench/go/\n") {
		t.Fatalf("Harbor Dockerfile:\n%s", df)
	}
	// A minor version the proxy decides is refused where images are made.
	r.Go = "1.17"
	if _, err := goRelease(r); err == nil || err.Error() != `recipe: go: "1.17" names a minor version before 1.21, whose newest patch release the Go module proxy decides; lolbench build resolves it; or name a release ("1.17.13")` {
		t.Fatalf("err = %v", err)
	}
}

// TestResolveGo: the release a build settles, from the recipe or go.mod,
// said on the status writer and in deps.log.
func TestResolveGo(t *testing.T) {
	goMod := func(s string) map[string]string { return map[string]string{"go.mod": s, "x.go": "package x\n"} }
	tests := []struct {
		name     string
		goField  recipe.GoVersion
		language string
		files    map[string]string
		want     recipe.GoVersion
		status   string
		err      string
	}{
		{"go line", "", "Go", goMod("module m\n\ngo 1.22\n"), "1.22.0", "go toolchain: go1.22.0 (go.mod:3 (go 1.22))\n", ""},
		{"toolchain line", "", "go", goMod("module m\n\ngo 1.21.3\n\ntoolchain go1.22.4\n"), "1.22.4", "go toolchain: go1.22.4 (go.mod:5 (toolchain go1.22.4))\n", ""},
		{"recipe override", "1.23", "Go", goMod("module m\n\ngo 1.22\n"), "1.23.0", "go toolchain: go1.23.0 (recipe go: 1.23)\n", ""},
		{"recipe override, any language", "1.22.4", "Python", map[string]string{"setup.py": ""}, "1.22.4", "go toolchain: go1.22.4 (recipe go: 1.22.4)\n", ""},
		{"system", recipe.GoSystem, "Go", goMod("module m\n\ngo 1.22\n"), recipe.GoSystem, "", ""},
		{"other language", "", "Python", goMod("module m\n\ngo 1.22\n"), "", "", ""},
		{"no go.mod", "", "Go", map[string]string{"x.go": "package x\n"}, recipe.GoSystem,
			"go toolchain: the repository has no go.mod at its root: the image's Go (set go: in the recipe to choose one)\n", ""},
		{"malformed go.mod", "", "Go", goMod("module m\n\ngo 1.22 1.23\n"), "", "",
			"go.mod:3: go directive expects exactly one argument; fix go.mod at the base commit, or set go: in the recipe"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := offlineRecipe().Defaults()
			r.Go = tt.goField
			logs := t.TempDir()
			var status bytes.Buffer
			got, err := ResolveGo(context.Background(), r, tt.language, DirTree{Dir: writeTree(t, tt.files), ID: "x"}, logs, &status)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("err = %v\nwant %s", err, tt.err)
				}
				return
			}
			if err != nil || got.Go != tt.want || status.String() != tt.status {
				t.Fatalf("got go %q, status %q, %v; want %q, %q", got.Go, status.String(), err, tt.want, tt.status)
			}
			log, _ := os.ReadFile(filepath.Join(logs, "deps.log"))
			if string(log) != tt.status {
				t.Fatalf("deps.log %q, want %q", log, tt.status)
			}
		})
	}
}

// TestResolveGoNoProxy: a go 1.17 line needs the proxy's list, and a
// host whose GOPROXY is off cannot give it: the error names go.mod's line
// and the go command's reason.
func TestResolveGoNoProxy(t *testing.T) {
	hostGo(t)
	t.Setenv("GOPROXY", "off")
	_, err := ResolveGo(context.Background(), offlineRecipe().Defaults(), "Go", DirTree{Dir: writeTree(t, map[string]string{"go.mod": "module m\n\ngo 1.17\n"}), ID: "x"}, t.TempDir(), nil)
	want := "go.mod:3 (go 1.17): list the Go releases of the module proxy: go list -m -versions -json golang.org/toolchain: exit status 1: "
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "GOPROXY=off") {
		t.Fatalf("err = %v\nwant %s...GOPROXY=off...", err, want)
	}
}

// TestDepsToolchain: PrepareDeps takes the recipe's toolchain from the
// host's cache, and the Harbor task's environment/ gets it as toolchain/
// beside deps/, with its commands executable.
func TestDepsToolchain(t *testing.T) {
	goroot := fakeGoCache(t, "1.22.0")
	r := offlineRecipe().Defaults()
	r.Go = "1.22.0"
	var status bytes.Buffer
	d, err := PrepareDeps(context.Background(), r, DirTree{Dir: writeTree(t, map[string]string{"go.mod": "module m\n\ngo 1.22\n"}), ID: "x"}, t.TempDir(), &status)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.GoRoot() != goroot || status.Len() != 0 {
		t.Fatalf("GoRoot %q, status %q", d.GoRoot(), status.String())
	}
	dir := t.TempDir()
	if err := d.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	var got []string
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		rel, _ := filepath.Rel(dir, p)
		got = append(got, rel+" "+fi.Mode().String())
		return err
	})
	want := []string{". drwx------", "toolchain drwxr-xr-x", "toolchain/bin drwxr-xr-x", "toolchain/bin/go -rwxr-xr-x"}
	if !slices.Equal(got[1:], want[1:]) {
		t.Fatalf("environment/ holds %q, want %q", got, want)
	}
	// Layer 1's build context: the same files, root's.
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	if err := writeToolchain(tw, "", goroot); err != nil {
		t.Fatal(err)
	}
	tw.Close()
	tr := tar.NewReader(&buf)
	var hdrs []string
	for h, err := tr.Next(); err == nil; h, err = tr.Next() {
		hdrs = append(hdrs, h.Name+" "+os.FileMode(h.Mode).String()+" "+string(rune('0'+h.Uid)))
	}
	if !reflect.DeepEqual(hdrs, []string{"toolchain/ -rwxr-xr-x 0", "toolchain/bin/ -rwxr-xr-x 0", "toolchain/bin/go -rwxr-xr-x 0"}) {
		t.Fatalf("tar %q", hdrs)
	}
	// A recipe whose toolchain was never fetched cannot be written.
	if err := (&Deps{r: r}).WriteDir(t.TempDir()); err == nil || err.Error() != "deps: the Go toolchain go1.22.0 was not fetched" {
		t.Fatalf("err = %v", err)
	}
}

// TestLocalGoToolchain: the local executor runs install commands and jobs
// with the recipe's toolchain first on PATH, before the recipe's PATH and
// the host's, with its GOROOT (not the host's) and GOTOOLCHAIN=local.
func TestLocalGoToolchain(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("SKIPPING: the toolchains are linux's")
	}
	goroot := fakeGoCache(t, "1.22.0")
	t.Setenv("GOROOT", "/usr/local/go")
	r := offlineRecipe("go version >install.txt").Defaults()
	r.Go = "1.22.0"
	r.Env["PATH"] = "/usr/bin:/bin"
	ex := NewLocal(nil)
	env, err := ex.Prepare(context.Background(), Spec{Project: "p", Task: "p-1", Base: "b", Recipe: r,
		Tree: DirTree{Dir: writeTree(t, map[string]string{"go.mod": "module m\n\ngo 1.22\n"}), ID: "x"}, LogDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	got := runJob(t, env, `cat install.txt; go version; command -v go; echo "$PATH" | cut -d: -f1-3`)
	want := "fake go1.22.0 GOROOT=" + goroot + " GOTOOLCHAIN=local\n" + "fake go1.22.0 GOROOT=" + goroot + " GOTOOLCHAIN=local\n" +
		goroot + "/bin/go\n" + goroot + "/bin:/usr/bin:/bin\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
