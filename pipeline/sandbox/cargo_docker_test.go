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

// TestDockerCargoVendor: a recipe's `cargo vendor` output comes from the
// host through files: (a tar file), and a CARGO_HOME of the recipe's own
// replaces crates.io with it (docs/projects.md, "Rust"). The stand-in for
// a curator's networked `cargo vendor` is Debian's registry: its crate
// folders, each with its .cargo-checksum.json, are what cargo vendor
// writes (with --versioned-dirs), so a copy of memchr's is the vendor
// folder. The verso sample's memchr then resolves from the vendored copy,
// with no network, and its tests pass.
func TestDockerCargoVendor(t *testing.T) {
	d := needDocker(t)
	rust := baseimage.Rust.Tag(os.Getenv)
	if id, err := d.ImageID(context.Background(), rust); err != nil || id == "" {
		t.Fatalf("no offline Rust image %s (%v): run '%s' (make test does)", rust, err, baseimage.Rust.BuildCommand())
	}
	dir := t.TempDir()
	base, err := filepath.Abs(filepath.Join("..", "..", "data", "samples", "verso", "base"))
	if err != nil {
		t.Fatal(err)
	}
	vendor := exec.Command("sh", "-c", `docker run --rm --network none "$0" sh -c 'mkdir /tmp/v && cd /tmp/v && mkdir vendor && cp -RL /usr/share/cargo/registry/memchr-2.5.0 vendor/ && tar -cf - vendor' >"$1"`,
		rust, filepath.Join(dir, "cargo-vendor.tar"))
	if out, err := vendor.CombinedOutput(); err != nil {
		t.Fatalf("cargo vendor: %v: %s", err, out)
	}
	home := "/home/" + recipe.DefaultUser + "/.cargo"
	r := recipe.Recipe{Image: baseimage.Name, Language: "rust", Files: []string{"cargo-vendor.tar"}, Dir: dir,
		Env: map[string]string{"CARGO_HOME": home},
		Install: []string{
			`mkdir -p "$CARGO_HOME" && tar -xf ` + recipe.FilesDir + `/cargo-vendor.tar -C "$CARGO_HOME"`,
			`printf '[source.crates-io]\nreplace-with = "vendored"\n\n[source.vendored]\ndirectory = "%s/vendor"\n\n[net]\noffline = true\n' "$CARGO_HOME" >"$CARGO_HOME/config.toml"`,
			"cargo test --offline --no-run",
		},
		Test:   recipe.Test{Command: "lolbench-cargo-test {tests} 2>&1", Suite: []string{"."}, Select: recipe.SelectNone, Format: "cargo"},
		Limits: recipe.Limits{CPUs: 2, MemoryMB: 2048, TimeoutSec: 300}}.Defaults()
	tree := DirTree{Dir: base, ID: "cargo-vendor-test:verso-base"}
	env, err := d.Prepare(context.Background(), Spec{Project: "verso-vendor", Task: "verso-vendor-test", Base: "0000000000000000000000000000000000000003",
		Recipe: r, Tree: tree, LogDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	defer d.RemoveImage(context.Background(), env.Info().TaskImage)
	got := runJob(t, env, `cargo metadata --offline --format-version 1 | grep -o '"manifest_path":"[^"]*memchr[^"]*"'
lolbench-cargo-test . >/dev/null 2>&1; echo "tests exit $?"
touch /usr/local/cargo/x 2>/dev/null || echo cannot write`)
	want := `"manifest_path":"` + home + "/vendor/memchr-2.5.0/Cargo.toml\"\ntests exit 0\ncannot write\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
