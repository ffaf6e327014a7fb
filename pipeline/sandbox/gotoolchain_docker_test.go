package sandbox

import (
	"archive/tar"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/lolbench/lolbench/internal/testrepo"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/gotoolchain"
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
)

// rangeInt is a module whose go.mod says go 1.22 and whose code and tests
// range over an int, which Go 1.22 added: the image's Go 1.19 cannot
// compile it. The head commit adds a package and its test.
var (
	rangeIntBase = map[string]string{
		"go.mod":       "module example.com/rangeint\n\ngo 1.22\n",
		"sum.go":       "package rangeint\n\n// Sum is 0+1+...+(n-1).\nfunc Sum(n int) int {\n\ts := 0\n\tfor i := range n {\n\t\ts += i\n\t}\n\treturn s\n}\n",
		"sum_test.go":  "package rangeint\n\nimport \"testing\"\n\nfunc TestSum(t *testing.T) {\n\tfor i := range 3 {\n\t\tif i == 2 && Sum(4) != 6 {\n\t\t\tt.Fatal(Sum(4))\n\t\t}\n\t}\n}\n",
		"mathx/doc.go": "// Package mathx is what the task adds to.\npackage mathx\n",
	}
	rangeIntHead = map[string]string{
		"mathx/product.go":      "package mathx\n\n// Product is 1*2*...*n.\nfunc Product(n int) int {\n\tp := 1\n\tfor i := range n {\n\t\tp *= i + 1\n\t}\n\treturn p\n}\n",
		"mathx/product_test.go": "package mathx\n\nimport \"testing\"\n\nfunc TestProduct(t *testing.T) {\n\tif got := Product(4); got != 24 {\n\t\tt.Fatal(got)\n\t}\n}\n",
	}
)

// TestDockerGoToolchain: a repository whose go.mod says go 1.22 and whose
// tests range over an int gets go1.22.0 (the real toolchain, downloaded
// through this host's GOPROXY into its cache the first time, about 70 MB,
// then taken from the cache), root's and first on PATH in an image built
// and run with no network; its tests pass there, and the verifier, which
// refuses PATH folders the test user can write, grades a task on it:
// TestProduct fails before the solution and passes after it, TestSum
// passes on both sides.
func TestDockerGoToolchain(t *testing.T) {
	d := needDocker(t)
	if _, err := gotoolchain.HostVersion(context.Background()); err != nil {
		t.Skip("SKIPPING: no go command on this host to download go1.22.0 with")
	}
	dir := t.TempDir()
	if err := testrepo.Build(dir, testrepo.Step{Files: rangeIntBase, Tag: "base"}, testrepo.Step{Files: rangeIntHead, Tag: "head"}); err != nil {
		t.Fatal(err)
	}
	repo, err := diff.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	base, _ := repo.Resolve("base")
	head, _ := repo.Resolve("head")
	tree := GitTree{Repo: repo, Commit: base}
	r := offlineRecipe("go build ./...", "go test -count=1 -run '^$' ./... >/dev/null").Defaults()
	r.Runs = 1
	logs := t.TempDir()
	var status bytes.Buffer
	ctx := context.Background()
	r, err = ResolveGo(ctx, r, "Go", tree, logs, &status)
	if err != nil || r.Go != "1.22.0" {
		t.Fatalf("ResolveGo: go %q, %v", r.Go, err)
	}
	// The first run on a machine downloads; later ones read the cache.
	deps, err := PrepareDeps(ctx, r, tree, logs, &status)
	if err != nil {
		t.Fatal(err)
	}
	defer deps.Close()
	lines := strings.Split(strings.TrimSpace(status.String()), "\n")
	if lines[0] != "go toolchain: go1.22.0 (go.mod:3 (go 1.22))" || len(lines) != 1 && (len(lines) != 3 ||
		!strings.HasPrefix(lines[1], "go toolchain: downloading go1.22.0 for linux/"+runtime.GOARCH+" (golang.org/toolchain@v0.0.1-go1.22.0.linux-"+runtime.GOARCH+") through GOPROXY=") ||
		!strings.HasPrefix(lines[2], "go toolchain: go1.22.0 for linux/"+runtime.GOARCH+": ")) {
		t.Fatalf("status:\n%s", status.String())
	}
	t.Logf("status:\n%s", status.String())
	start := time.Now()
	env, err := d.Prepare(ctx, Spec{Project: "rangeint", Task: "rangeint-go122", Base: base, Recipe: r, Tree: tree, Deps: deps, LogDir: logs, Status: &status})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("layers 1 and 2 in %.1f s", time.Since(start).Seconds())
	defer env.Close()
	defer d.RemoveImage(ctx, env.Info().TaskImage)
	if !strings.HasPrefix(env.Info().BaseImage, BaseRepo+":go1.22.0-") {
		t.Fatalf("layer 1 %s", env.Info().BaseImage)
	}
	got := runJob(t, env, `go version
command -v go
go env GOROOT GOTOOLCHAIN
go test -p 1 -count=1 ./... | sed 's/[[:space:]]*[0-9.]*s$//'
stat -c '%U %a %n' /usr/local/lib/lolbench/go/bin /usr/local/lib/lolbench/go/bin/go
touch /usr/local/lib/lolbench/go/bin/evil || echo cannot write
(getent hosts proxy.golang.org || echo no network) 2>&1 | tail -n 1`)
	want := "go version go1.22.0 linux/" + runtime.GOARCH + "\n/usr/local/lib/lolbench/go/bin/go\n/usr/local/lib/lolbench/go\nlocal\n" +
		"ok  \texample.com/rangeint\n?   \texample.com/rangeint/mathx\t[no test files]\n" +
		"root 755 /usr/local/lib/lolbench/go/bin\nroot 755 /usr/local/lib/lolbench/go/bin/go\n" +
		"touch: cannot touch '/usr/local/lib/lolbench/go/bin/evil': Permission denied\ncannot write\nno network\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}

	// The verifier's path: a task graded on this image.
	ch, err := repo.Diff(ctx, base, head)
	if err != nil {
		t.Fatal(err)
	}
	var testPaths, solPaths, testFiles []string
	for _, f := range ch.Files {
		if strings.HasSuffix(f.Path(), "_test.go") {
			testPaths, testFiles = append(testPaths, f.Path()), append(testFiles, f.Path())
		} else {
			solPaths = append(solPaths, f.Path())
		}
	}
	tp, _ := repo.Patch(ctx, base, head, testPaths...)
	sp, _ := repo.Patch(ctx, base, head, solPaths...)
	plan := Plan{Recipe: r, Selection: testcmd.Selection(r, testFiles), Language: "Go", TestPatch: tp, Solution: sp, Grader: testGrader(t)}
	start = time.Now()
	rep, err := Validate(ctx, env, plan, filepath.Join(logs, "validate"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("validation (one run a side) in %.1f s", time.Since(start).Seconds())
	if rep.Rejected != "" || !reflect.DeepEqual(rep.FailToPass, []string{"example.com/rangeint/mathx.TestProduct"}) ||
		!reflect.DeepEqual(rep.PassToPass, []string{"example.com/rangeint.TestSum"}) {
		t.Fatalf("report: rejected %q, F2P %q, P2P %q (logs %s)", rep.Rejected, rep.FailToPass, rep.PassToPass, logs)
	}
}

// TestDockerGoToolchainHarbor: the Harbor task's environment/ carries the
// toolchain as toolchain/ and its Dockerfile builds offline into an image
// whose go is the recipe's.
func TestDockerGoToolchainHarbor(t *testing.T) {
	d := needDocker(t)
	if _, err := gotoolchain.HostVersion(context.Background()); err != nil {
		t.Skip("SKIPPING: no go command on this host to download go1.22.0 with")
	}
	ctx := context.Background()
	tree := depsTree(t, rangeIntBase)
	r := offlineRecipe("go build ./...").Defaults()
	r.Go = recipe.GoVersion("1.22")
	r, err := ResolveGo(ctx, r, "Go", tree, "", nil)
	if err != nil || r.Go != "1.22.0" {
		t.Fatalf("ResolveGo: %q %v", r.Go, err)
	}
	deps, err := PrepareDeps(ctx, r, tree, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer deps.Close()
	envDir := t.TempDir()
	if err := deps.WriteDir(envDir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(envDir, "Dockerfile"), []byte(HarborDockerfile(r, strings.Repeat("0", 39)+"5", "rangeint-harbor", deps)), 0o644); err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	go func() {
		tw := tar.NewWriter(pw)
		err := tree.WriteTar(tw, "repo/")
		if err == nil {
			err = tw.Close()
		}
		pw.CloseWithError(err)
	}()
	if err := Extract(pr, envDir, 1<<30); err != nil {
		t.Fatal(err)
	}
	env, err := d.Prepare(ctx, Spec{Project: "rangeint", Task: "rangeint-harbor", Recipe: r, HarborEnv: envDir, LogDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	defer d.RemoveImage(ctx, env.Info().TaskImage)
	if got := runJob(t, env, "go version && go vet ./..."); got != "go version go1.22.0 linux/"+runtime.GOARCH+"\n" {
		t.Fatalf("got %q", got)
	}
}
