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

// TestDockerFetchContentCache: a CMake project that fetches GoogleTest
// with FetchContent builds with no network when its sources come from the
// host through files: (docs/projects.md, "C and C++"): a tarball, here of
// Debian's /usr/src/googletest taken from the C and C++ image as the
// stand-in for what the host downloaded, unpacked by the install step and
// named by FETCHCONTENT_SOURCE_DIR_GOOGLETEST.
func TestDockerFetchContentCache(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPING the FetchContent build in -short mode")
	}
	d := needDocker(t)
	img := baseimage.CFamily.Tag(os.Getenv)
	if id, err := d.ImageID(context.Background(), img); err != nil || id == "" {
		t.Fatalf("no offline C and C++ image %s (%v): run '%s' (make test does)", img, err, baseimage.CFamily.BuildCommand())
	}
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "deps"), 0o755)
	export := exec.Command("sh", "-c", `docker run --rm --network none "$0" tar -czf - -C /usr/src googletest >"$1"`, img, filepath.Join(dir, "deps", "googletest.tar.gz"))
	if out, err := export.CombinedOutput(); err != nil {
		t.Fatalf("copying Debian's GoogleTest sources: %v: %s", err, out)
	}
	const src = "/home/lolbench/deps/googletest"
	r := recipe.Recipe{Image: baseimage.Name, Language: "c++", Files: []string{"deps/googletest.tar.gz"}, Dir: dir,
		Env: map[string]string{"LOLBENCH_CMAKE_ARGS": "-DFETCHCONTENT_FULLY_DISCONNECTED=ON -DFETCHCONTENT_SOURCE_DIR_GOOGLETEST=" + src},
		Install: []string{"mkdir -p ~/deps && tar -xzf " + recipe.FilesDir + "/deps/googletest.tar.gz -C ~/deps",
			"cmake -S . -B build -DCMAKE_BUILD_TYPE=Debug $LOLBENCH_CMAKE_ARGS && cmake --build build -j2"},
		Test:   recipe.Test{Command: "lolbench-ctest {tests}", Suite: []string{"."}, Select: recipe.SelectNone, Format: "junit", Results: "build/ctest-junit.xml"},
		Limits: recipe.Limits{CPUs: 2, MemoryMB: 2048, TimeoutSec: 600}}.Defaults()
	tree := DirTree{Dir: filepath.Join("testdata", "fetchcontent"), ID: "fetchcontent-test"}
	env, err := d.Prepare(context.Background(), Spec{Project: "fetchcontent", Task: "fetchcontent-test", Base: "0000000000000000000000000000000000000003",
		Recipe: r, Tree: tree, LogDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	defer d.RemoveImage(context.Background(), env.Info().TaskImage)
	got := runJob(t, env, `lolbench-ctest . >/dev/null 2>&1; echo "tests exit $?"; grep -o 'testcase name="[^"]*"' build/ctest-junit.xml
grep -c '^FETCHCONTENT_SOURCE_DIR_GOOGLETEST:PATH=`+src+`$' build/CMakeCache.txt`)
	want := "tests exit 0\ntestcase name=\"Fc.Works\"\n1\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
