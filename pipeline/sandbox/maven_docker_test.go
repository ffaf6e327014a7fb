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

// TestDockerMavenRepo: a recipe's maven_repo, here a copy of Debian's
// /usr/share/maven-repo taken from the Java image (links resolved), goes
// into layer 2 and becomes the test user's local repository, offline: Maven
// resolves the coinage sample's plugins and JUnit from it, with no network,
// and the copy is root's.
func TestDockerMavenRepo(t *testing.T) {
	d := needDocker(t)
	java := baseimage.Java.Tag(os.Getenv)
	if id, err := d.ImageID(context.Background(), java); err != nil || id == "" {
		t.Fatalf("no offline Java image %s (%v): run '%s' (make test does)", java, err, baseimage.Java.BuildCommand())
	}
	dir := t.TempDir()
	m2 := filepath.Join(dir, "m2")
	if err := os.Mkdir(m2, 0o755); err != nil {
		t.Fatal(err)
	}
	export := exec.Command("sh", "-c", `docker run --rm --network none "$0" tar -chf - -C /usr/share/maven-repo . | tar -xf - -C "$1"`, java, m2)
	if out, err := export.CombinedOutput(); err != nil {
		t.Fatalf("copying Debian's Maven repository: %v: %s", err, out)
	}
	r := recipe.Recipe{Image: baseimage.Name, Language: "java", MavenRepo: "m2", Dir: dir, Install: []string{"mvn -B -o -q test-compile"},
		Test:   recipe.Test{Command: "lolbench-maven-test -q {tests}", Suite: []string{"."}, Select: recipe.SelectNone, Format: "junit", Results: "target/surefire-reports/TEST-*.xml"},
		Limits: recipe.Limits{CPUs: 2, MemoryMB: 2048, TimeoutSec: 300}}.Defaults()
	tree := DirTree{Dir: filepath.Join("..", "..", "data", "samples", "coinage", "base"), ID: "maven-repo-test:coinage-base"}
	env, err := d.Prepare(context.Background(), Spec{Project: "coinage-m2", Task: "coinage-m2-test", Base: "0000000000000000000000000000000000000002",
		Recipe: r, Tree: tree, LogDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	defer d.RemoveImage(context.Background(), env.Info().TaskImage)
	got := runJob(t, env, `mvn -B -o -X validate 2>&1 | grep -o 'Using local repository at .*'
lolbench-maven-test -q . >/dev/null 2>&1; echo "tests exit $?"; ls target/surefire-reports | grep -c '^TEST-'
touch /opt/lolbench-deps/recipe/m2/x 2>/dev/null || echo cannot write`)
	// The base tree's four test classes, each with its report.
	want := "Using local repository at " + recipe.FilesDir + "/m2\ntests exit 0\n4\ncannot write\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
