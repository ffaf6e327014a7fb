package baseimage

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCargoTestItems runs lolbench-cargo-test against a stand-in cargo
// that prints a workspace's metadata and records every other call: the
// items become one cargo run per target (after one quiet build of them
// all), test files their targets, test ids --exact names, and an unknown
// item is refused with exit status 2.
func TestCargoTestItems(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	wrapper, err := filepath.Abs(filepath.Join("rust", "lolbench-cargo-test"))
	if err != nil {
		t.Fatal(err)
	}
	proj := t.TempDir()
	for _, f := range []string{"src/lib.rs", "src/req.rs", "tests/req.rs", "tests/parse.rs", "src/bin/tool.rs"} {
		os.MkdirAll(filepath.Join(proj, filepath.Dir(f)), 0o755)
		os.WriteFile(filepath.Join(proj, f), nil, 0o644)
	}
	proj, _ = filepath.EvalSymlinks(proj)
	target := func(kind, name, src string) string {
		return fmt.Sprintf(`{"kind":["%s"],"name":"%s","src_path":"%s/%s","test":true,"doctest":%v}`, kind, name, proj, src, kind == "lib")
	}
	meta := fmt.Sprintf(`{"packages":[{"name":"my-crate","manifest_path":"%s/Cargo.toml","targets":[%s,%s,%s,%s]}]}`, proj,
		target("lib", "my_crate", "src/lib.rs"), target("bin", "tool", "src/bin/tool.rs"), target("test", "req", "tests/req.rs"), target("test", "parse", "tests/parse.rs"))
	bin := t.TempDir()
	log := filepath.Join(bin, "calls")
	os.WriteFile(filepath.Join(bin, "meta.json"), []byte(meta), 0o644)
	// With FAIL_REQ set, the run of the req target fails as libtest does.
	fake := "#!/bin/sh\nif [ \"$1\" = metadata ]; then cat " + filepath.Join(bin, "meta.json") + "; exit 0; fi\necho \"$*\" >>" + log +
		"\ncase \"$FAIL_REQ $*\" in 1*--no-fail-fast*--test\\ req*) exit 101 ;; esac\nexit 0\n"
	os.WriteFile(filepath.Join(bin, "cargo"), []byte(fake), 0o755)
	run := func(failReq string, items ...string) (string, int) {
		os.Remove(log)
		cmd := exec.Command("python3", append([]string{wrapper}, items...)...)
		cmd.Dir = proj
		cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "FAIL_REQ="+failReq)
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		calls, _ := os.ReadFile(log)
		return string(calls) + string(out), code
	}
	cases := []struct {
		items []string
		want  string
		code  int
	}{
		{[]string{"."}, `test --offline --no-run -p my-crate --lib --bin tool --test req --test parse
test --offline --no-fail-fast -p my-crate --lib
test --offline --no-fail-fast -p my-crate --doc
test --offline --no-fail-fast -p my-crate --bin tool
test --offline --no-fail-fast -p my-crate --test req
test --offline --no-fail-fast -p my-crate --test parse
`, 0},
		{[]string{"tests/req.rs", "src/req.rs"}, `test --offline --no-run -p my-crate --test req --lib
test --offline --no-fail-fast -p my-crate --test req
test --offline --no-fail-fast -p my-crate --lib
`, 0},
		{[]string{"my_crate::req::tests::a", "req::b", "req::c", "my-crate::d"}, `test --offline --no-run -p my-crate --lib --test req
test --offline --no-fail-fast -p my-crate --lib -- --exact req::tests::a d
test --offline --no-fail-fast -p my-crate --test req -- --exact b c
`, 0},
		{[]string{"nope::x"}, "lolbench-cargo-test: nope::x: no library, binary or test target is named nope\n", 2},
		{[]string{"--evil"}, "lolbench-cargo-test: unknown option --evil\n", 2},
		{[]string{"../outside.rs"}, "lolbench-cargo-test: ../outside.rs is no test target's file and lies in no package of the workspace\n", 2},
	}
	for _, c := range cases {
		got, code := run("", c.items...)
		if got != c.want || code != c.code {
			t.Errorf("%s: exit %d\n%s\nwant exit %d\n%s", strings.Join(c.items, " "), code, got, c.code, c.want)
		}
	}
	// A failing target fails the whole run, and the others still run.
	if got, code := run("1", "tests/req.rs", "tests/parse.rs"); code != 101 || !strings.HasSuffix(got, "--test parse\n") {
		t.Errorf("a failing target: exit %d\n%s", code, got)
	}
}
