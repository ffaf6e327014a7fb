package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/lolbench/lolbench/pipeline/baseimage"
	"github.com/lolbench/lolbench/pipeline/recipe"
)

// TestDockerNodeModules: a JavaScript project's node_modules from the host
// (docs/projects.md, "JavaScript and TypeScript"), packed into one file
// that `files:` copies into layer 2 and the install step unpacks, with no
// network. The module is Debian's yn taken from the node image under a
// name the image does not know (lolbench-yn), so that only the project's
// node_modules can resolve it.
func TestDockerNodeModules(t *testing.T) {
	d := needDocker(t)
	node := baseimage.Node.Tag(os.Getenv)
	if id, err := d.ImageID(context.Background(), node); err != nil || id == "" {
		t.Fatalf("no offline node image %s (%v): run '%s' (make test does)", node, err, baseimage.Node.BuildCommand())
	}
	dir := t.TempDir()
	mod := filepath.Join(dir, "host", "node_modules", "lolbench-yn")
	os.MkdirAll(mod, 0o755)
	os.MkdirAll(filepath.Join(dir, "deps"), 0o755)
	export := exec.Command("sh", "-c", `docker run --rm --network none "$0" tar -chf - -C /usr/share/nodejs/yn . | tar -xf - -C "$1" && tar -czf "$2" -C "$3" node_modules`,
		node, mod, filepath.Join(dir, "deps", "node_modules.tgz"), filepath.Join(dir, "host"))
	if out, err := export.CombinedOutput(); err != nil {
		t.Fatalf("packing Debian's yn as node_modules: %v: %s", err, out)
	}
	repo := filepath.Join(dir, "repo")
	os.MkdirAll(filepath.Join(repo, "test"), 0o755)
	os.WriteFile(filepath.Join(repo, "package.json"), []byte(`{"name": "uses-yn", "private": true}`+"\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "test", "yn.test.js"), []byte("'use strict';\nconst { it } = require('node:test');\nconst assert = require('node:assert');\nconst yn = require('lolbench-yn');\n\nit('reads yes', () => {\n  assert.strictEqual(yn('yes'), true);\n});\n"), 0o644)
	r := recipe.Recipe{Image: baseimage.Name, Language: "javascript", Files: []string{"deps/node_modules.tgz"}, Dir: dir,
		Install: []string{"tar -xzf " + recipe.FilesDir + "/deps/node_modules.tgz"},
		Test:    recipe.Test{Command: "lolbench-node-test {tests}", Suite: []string{"test"}, Format: "junit", Results: "test-results/junit.xml"},
		Limits:  recipe.Limits{CPUs: 2, MemoryMB: 1024, TimeoutSec: 120}}.Defaults()
	env, err := d.Prepare(context.Background(), Spec{Project: "node-modules", Task: "node-modules-test", Base: "0000000000000000000000000000000000000003",
		Recipe: r, Tree: DirTree{Dir: repo, ID: "node-modules-test:uses-yn"}, LogDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	defer d.RemoveImage(context.Background(), env.Info().TaskImage)
	got := runJob(t, env, `lolbench-node-test test >/dev/null 2>&1; echo "tests exit $?"
grep -o '<testcase [^>]*>' test-results/junit.xml
node -e "console.log(require.resolve('lolbench-yn'))"`)
	want := "tests exit 0\n" + `<testcase classname="test/yn.test.js" name="reads yes"/>` + "\n/testbed/node_modules/lolbench-yn/index.js\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
