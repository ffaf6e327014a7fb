package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/recipe"
)

func TestBuildFlags(t *testing.T) {
	tests := []struct {
		args []string
		want BuildOptions
		err  string
	}{
		{[]string{"a-1"}, BuildOptions{Candidates: []string{"a-1"}, Workspace: "work", Registry: "data/projects.yaml", Executor: "docker"}, ""},
		{[]string{"--all", "--executor", "local", "--workspace", "w", "--force", "--json"}, BuildOptions{Candidates: []string{}, All: true, Workspace: "w", Registry: "data/projects.yaml", Executor: "local", Force: true, JSON: true}, ""},
		{[]string{}, BuildOptions{}, "build: name candidates or give --all (see 'lolbench build --help')"},
		{[]string{"a", "--all"}, BuildOptions{}, "build: name candidates or give --all (see 'lolbench build --help')"},
		{[]string{"a", "--executor", "podman"}, BuildOptions{}, `invalid argument "podman" for "--executor" flag: want docker or local`},
		{[]string{"--check", "a-1", "--runs", "1"}, BuildOptions{Candidates: []string{"a-1"}, Workspace: "work", Registry: "data/projects.yaml", Executor: "docker", Check: true, Runs: 1}, ""},
		{[]string{"a-1", "--runs", "2"}, BuildOptions{Candidates: []string{"a-1"}, Workspace: "work", Registry: "data/projects.yaml", Executor: "docker", Runs: 2}, ""},
		{[]string{"a-1", "--include-unreviewed"}, BuildOptions{Candidates: []string{"a-1"}, Workspace: "work", Registry: "data/projects.yaml", Executor: "docker", IncludeUnreviewed: true}, ""},
		{[]string{"--check", "a", "b"}, BuildOptions{}, "build: --check takes one candidate (see 'lolbench build --help')"},
		{[]string{"--check", "--all"}, BuildOptions{}, "build: --check takes one candidate (see 'lolbench build --help')"},
		{[]string{"a", "--runs", "-1"}, BuildOptions{}, "build: --runs -1: want 1 or more (0: the recipe's)"},
	}
	for _, tt := range tests {
		var got *BuildOptions
		f := &Factory{IO: &IOStreams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
		cmd := newCmdBuild(f, func(o *BuildOptions) error { got = o; return nil })
		cmd.SetArgs(tt.args)
		cmd.SetOut(&bytes.Buffer{})
		cmd.SetErr(&bytes.Buffer{})
		err := cmd.Execute()
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%q: err %v, want %s", tt.args, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.args, err)
			continue
		}
		if got.Candidates == nil {
			got.Candidates = []string{}
		}
		if tt.want.Candidates == nil {
			tt.want.Candidates = []string{}
		}
		if !reflect.DeepEqual(*got, tt.want) {
			t.Errorf("%q: got %+v, want %+v", tt.args, *got, tt.want)
		}
	}
}

func TestVerifyFlags(t *testing.T) {
	var got *VerifyOptions
	f := &Factory{IO: &IOStreams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
	cmd := newCmdVerify(f, func(o *VerifyOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"task", "--solution", "-", "--executor", "local", "--out", "o", "--json"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	want := VerifyOptions{TaskDir: "task", Solution: "-", Executor: "local", Out: "o", JSON: true}
	if *got != want {
		t.Fatalf("got %+v", *got)
	}
}

func TestExportFlags(t *testing.T) {
	var got *ExportOptions
	f := &Factory{IO: &IOStreams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
	cmd := newCmdExport(f, func(o *ExportOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"--format", "swebench", "--out", "d"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if *got != (ExportOptions{Format: "swebench", Workspace: "work", Out: "d"}) {
		t.Fatalf("got %+v", *got)
	}
}

// TestTaskCommandsBadInput: usage errors exit 2 and say what to do.
func TestTaskCommandsBadInput(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"build"}, "build: name candidates or give --all"},
		{[]string{"build", "x", "--workspace", dir + "/none"}, "workspace " + dir + "/none does not exist"},
		{[]string{"build", "nope", "--workspace", dir, "--executor", "local"}, "build: no candidate nope in " + dir},
		{[]string{"verify", dir}, "verify: --solution is required"},
		{[]string{"verify", dir, "--solution", "/dev/null", "--executor", "local"}, "harbor task " + dir + ": no tests/config.json (not a task folder written by lolbench build?)"},
		{[]string{"verify"}, "accepts 1 arg(s), received 0"},
		{[]string{"export", "--format", "csv"}, `export: --format "csv": harbor or swebench`},
		{[]string{"export"}, `export: --format "": harbor or swebench`},
	}
	for _, tt := range tests {
		_, errOut, code := runCLI(t, tt.args...)
		if code != exitBadInput || !strings.Contains(errOut, tt.want) {
			t.Errorf("%q: code %d, stderr %q, want %q", tt.args, code, errOut, tt.want)
		}
	}
}

func TestTaskCommandsHelp(t *testing.T) {
	for _, c := range []string{"build", "verify", "export"} {
		out, _, code := runCLI(t, c, "--help")
		if code != 0 || !strings.Contains(out, "Examples:") || !strings.Contains(out, "lolbench "+c) {
			t.Errorf("%s --help: code %d\n%s", c, code, out)
		}
	}
}

// TestExportEmptyWorkspace exports nothing, cleanly, from a workspace with
// no candidates.
func TestExportEmptyWorkspace(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runCLI(t, "export", "--format", "swebench", "--workspace", dir, "--json")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	want := "{\n  \"exported\": [],\n  \"format\": \"swebench\",\n  \"path\": \"" + dir + "/export/swebench.jsonl\",\n  \"skipped\": {}\n}\n"
	if out != want {
		t.Fatalf("got %s\nwant %s", out, want)
	}
}

// TestRegistryRecipe reads a project's recipe from the registry, strictly.
func TestRegistryRecipe(t *testing.T) {
	dir := t.TempDir()
	reg := `projects:
  - name: tinykv
    path: repo
    language: Go
    domain: storage
    eps: {kind: local, dir: eps, glob: "*.md", name: "TKEP-{n}", id_key: tkep}
    links: {curated: [{ep: 2, pr: 7, title: t, base: base, head: head, created_at: 2026-03-16, merged_at: 2026-03-21T09:00:00Z}]}
    recipe:
      image: golang:1.22
      install: [go build ./...]
      test: {command: "go test -json {tests}", suite: ["./..."], select: packages, format: go-json}
`
	path := filepath.Join(dir, "projects.yaml")
	os.WriteFile(path, []byte(reg), 0o644)
	find := registryRecipe(path)
	r, err := find(&pipeline.Info{Project: "tinykv"})
	if err != nil {
		t.Fatal(err)
	}
	want := &recipe.Recipe{Image: "golang:1.22", Install: []string{"go build ./..."},
		Test: recipe.Test{Command: "go test -json {tests}", Suite: []string{"./..."}, Select: "packages", Format: "go-json"},
		Dir:  dir} // host paths of a registry's recipe are relative to the registry's folder
	if !reflect.DeepEqual(r, want) {
		t.Fatalf("got %+v", r)
	}
	if r, err := find(&pipeline.Info{Project: "nope"}); r != nil || err != nil {
		t.Fatalf("unknown project: %v %v", r, err)
	}
	os.WriteFile(path, []byte(strings.Replace(reg, "go test -json {tests}", "go test -json", 1)), 0o644)
	if _, err := find(&pipeline.Info{Project: "tinykv"}); err == nil || !strings.Contains(err.Error(), `recipe: test.command: "go test -json" has no {tests} placeholder`) {
		t.Fatalf("err = %v", err)
	}
	if r, err := registryRecipe(filepath.Join(dir, "absent.yaml"))(&pipeline.Info{Project: "tinykv"}); r != nil || err != nil {
		t.Fatalf("absent registry: %v %v", r, err)
	}
}
