package sandbox

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/lolbench/lolbench/pipeline/recipe"
)

// entries lists a tar's entries as "name type mode size sha" lines, sorted.
func entries(t *testing.T, data []byte) []string {
	t.Helper()
	tr := tar.NewReader(bytes.NewReader(data))
	var out []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(tr)
		out = append(out, fmt.Sprintf("%s %c %o %d %x %s %s", h.Name, h.Typeflag, h.Mode, h.Size, sha256.Sum256(body), h.Linkname, h.ModTime.UTC()))
	}
	sort.Strings(out)
	return out
}

func tarOf(t *testing.T, tree Tree, prefix string) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	if err := tree.WriteTar(tw, prefix); err != nil {
		t.Fatal(err)
	}
	tw.Close()
	return buf.Bytes()
}

// TestGitTreeAndDirTreeAgree: the base tree written from git (layer 2) and
// from a task's environment/repo folder (Harbor's Dockerfile) are the same
// archive entries, so the engine's build cache serves the Harbor build from
// the layers lolbench build made.
func TestGitTreeAndDirTreeAgree(t *testing.T) {
	ty := newToy(t, toyRecipe())
	g := tarOf(t, GitTree{Repo: ty.repo, Commit: ty.base}, "repo/")
	dir := t.TempDir()
	if err := Extract(bytes.NewReader(g), dir, 1<<20); err != nil {
		t.Fatal(err)
	}
	d := tarOf(t, DirTree{Dir: filepath.Join(dir, "repo")}, "repo/")
	ge, de := entries(t, g), entries(t, d)
	if strings.Join(ge, "\n") != strings.Join(de, "\n") {
		t.Fatalf("git tree:\n%s\n\ndir tree:\n%s", strings.Join(ge, "\n"), strings.Join(de, "\n"))
	}
	if !strings.HasPrefix(ge[0], "repo/ 5 755 0 ") {
		t.Fatalf("the prefix folder has no entry of its own: %s", ge[0])
	}
}

func TestExtractRefusesEscapes(t *testing.T) {
	build := func(hs ...*tar.Header) []byte {
		var buf bytes.Buffer
		tw := tar.NewWriter(&buf)
		for _, h := range hs {
			tw.WriteHeader(h)
			if h.Typeflag == tar.TypeReg {
				tw.Write(make([]byte, h.Size))
			}
		}
		tw.Close()
		return buf.Bytes()
	}
	t.Run("dot-dot stays inside", func(t *testing.T) {
		root := t.TempDir()
		dir := filepath.Join(root, "in")
		if err := Extract(bytes.NewReader(build(&tar.Header{Name: "../../escaped", Typeflag: tar.TypeReg, Size: 1, Mode: 0o644})), dir, 100); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(dir, "escaped")); err != nil {
			t.Fatalf("entry not cleaned into the folder: %v", err)
		}
		if _, err := os.Stat(filepath.Join(root, "escaped")); err == nil {
			t.Fatal("entry escaped the folder")
		}
	})
	t.Run("no write through a link", func(t *testing.T) {
		outside := t.TempDir()
		dir := t.TempDir()
		err := Extract(bytes.NewReader(build(
			&tar.Header{Name: "link", Typeflag: tar.TypeSymlink, Linkname: outside},
			&tar.Header{Name: "link/pwned", Typeflag: tar.TypeReg, Size: 1, Mode: 0o644},
		)), dir, 100)
		if err == nil || !strings.Contains(err.Error(), "is a symbolic link") {
			t.Fatalf("err = %v", err)
		}
		if _, err := os.Stat(filepath.Join(outside, "pwned")); err == nil {
			t.Fatal("wrote through a symbolic link")
		}
	})
	t.Run("size cap", func(t *testing.T) {
		err := Extract(bytes.NewReader(build(&tar.Header{Name: "big", Typeflag: tar.TypeReg, Size: 101, Mode: 0o644})), t.TempDir(), 100)
		if err == nil || err.Error() != "extract: more than 100 bytes" {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestHarborDockerfile(t *testing.T) {
	r := recipe.Recipe{Image: "python:3.12-slim", Packages: []string{"make", "git"}, Install: []string{"pip install -e '.[test]'"},
		Env: map[string]string{"PIP_NO_INDEX": "1", "Q": `a "$b"`}, Test: recipe.Test{Command: "pytest {tests}", Format: "junit"}}
	r = r.Defaults()
	got := HarborDockerfile(r, "0123456789abcdef0123456789abcdef01234567", "proj-ep-1", nil)
	want := `# Built by lolbench: the repository at the PR's base commit, in /testbed,
# with its dependencies installed. No network is needed once it is built.
FROM python:3.12-slim
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends git make && rm -rf /var/lib/apt/lists/* && (id -u lolbench >/dev/null 2>&1 || useradd -m -s /bin/sh lolbench || adduser -D -s /bin/sh lolbench)
ENV PIP_NO_INDEX="1" Q="a \"\$b\""
WORKDIR /testbed
COPY --chown=lolbench:lolbench repo/ /testbed/
RUN ["/bin/sh", "-c", ` + jsonString(envScript(r, layout{})) + `]
USER lolbench
LABEL org.lolbench.base-commit=0123456789abcdef0123456789abcdef01234567 org.lolbench.task="proj-ep-1"
`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestImageNames(t *testing.T) {
	r := toyRecipe().Defaults()
	spec := Spec{Project: "My Project!", Task: "proj-ep-0001", Base: "0123456789abcdef0123456789abcdef01234567", Recipe: r, Tree: DirTree{ID: "x"}}
	env := envImageName(spec, nil)
	if !strings.HasPrefix(env, "lolbench/env:my-project-0123456789ab-") || len(env) != len("lolbench/env:my-project-0123456789ab-")+12 {
		t.Fatalf("env image %s", env)
	}
	spec2 := spec
	spec2.Task = "proj-ep-0002"
	if envImageName(spec2, nil) != env {
		t.Fatal("two tasks of one repository, base commit and recipe get different environment images")
	}
	spec2.Recipe.Install = []string{"make"}
	if envImageName(spec2, nil) == env {
		t.Fatal("a different recipe reuses the environment image")
	}
	if k1, k2 := EnvKey(r, spec.Base), EnvKey(r, spec.Base); k1 != k2 || !strings.HasPrefix(k1, "0123456789ab-") {
		t.Fatalf("EnvKey %s, then %s", k1, k2)
	}
	for in, want := range map[string]string{"": "x", "..--A_b.c": "a_b.c", strings.Repeat("a", 60): strings.Repeat("a", 40) + "-"} {
		got := tagPart(in)
		if !strings.HasPrefix(got, want) || len(got) > 48 {
			t.Errorf("tagPart(%q) = %q", in, got)
		}
	}
}

// TestGitTreeOmit: a recipe's omit leaves a file out of the base tree, its
// key and its reads (a python/cpython snapshot lacks Misc/svnmap.txt); a
// file the clone lacks and the recipe does not omit fails with the file
// and the fix named.
func TestGitTreeOmit(t *testing.T) {
	ty := newToy(t, toyRecipe())
	full := GitTree{Repo: ty.repo, Commit: ty.base}
	omit := WithOmit(full, []string{"flip.sh"})
	var names []string
	for _, e := range entries(t, tarOf(t, omit, "repo/")) {
		names = append(names, strings.Fields(e)[0])
	}
	var fullNames []string
	for _, e := range entries(t, tarOf(t, full, "repo/")) {
		if n := strings.Fields(e)[0]; n != "repo/flip.sh" {
			fullNames = append(fullNames, n)
		}
	}
	if strings.Join(names, " ") != strings.Join(fullNames, " ") || len(names) < 3 {
		t.Errorf("omitting flip.sh: %q, want %q", names, fullNames)
	}
	if got, want := omit.Key(), "git:"+ty.base+" omit flip.sh"; got != want {
		t.Errorf("key %q, want %q", got, want)
	}
	if full.Key() != "git:"+ty.base {
		t.Errorf("key without omit %q", full.Key())
	}
	if _, err := omit.ReadFile("flip.sh"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile(flip.sh) of the omitting tree: %v", err)
	}
	if _, err := omit.ReadFile("run.sh"); err != nil {
		t.Errorf("ReadFile(run.sh): %v", err)
	}
	if d := WithOmit(DirTree{Dir: "x"}, []string{"flip.sh"}); d != (DirTree{Dir: "x"}) {
		t.Errorf("WithOmit of a DirTree = %#v", d)
	}

	// The clone loses flip.sh's blob.
	c, err := ty.repo.Git().CommitObject(plumbing.NewHash(ty.base))
	if err != nil {
		t.Fatal(err)
	}
	tree, err := c.Tree()
	if err != nil {
		t.Fatal(err)
	}
	f, err := tree.File("flip.sh")
	if err != nil {
		t.Fatal(err)
	}
	hex := f.Hash.String()
	if err := os.Remove(filepath.Join(ty.repo.Dir(), ".git", "objects", hex[:2], hex[2:])); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	err = full.WriteTar(tar.NewWriter(&buf), "repo/")
	want := "tree of " + ty.base + ": flip.sh: object not found: the clone lacks this file (a repository snapshot or a partial clone); if neither the install commands nor the tests read it, list it in the recipe's omit"
	if err == nil || err.Error() != want {
		t.Errorf("WriteTar without omit = %v\nwant %s", err, want)
	}
	if got := entries(t, tarOf(t, omit, "repo/")); len(got) != len(names) {
		t.Errorf("WriteTar with omit after the loss: %d entries, want %d", len(got), len(names))
	}
}
