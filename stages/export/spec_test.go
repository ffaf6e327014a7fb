package export

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/internal/testbuilt"
	"github.com/lolbench/lolbench/internal/testcand"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/stages/spec"
)

// builtTinykv is a workspace with the tinykv sample built (without
// Docker) and its instruction.spec.md written, which neither variant may
// copy.
func builtTinykv(t *testing.T) (*pipeline.Env, *pipeline.Candidate) {
	t.Helper()
	ws, c, err := testbuilt.Build(t.TempDir(), testcand.Tinykv(filepath.Join("..", "..")))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := spec.Write(context.Background(), ws, c); err != nil {
		t.Fatal(err)
	}
	return &pipeline.Env{Workspace: ws, Version: "test"}, c
}

func read(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// section is the tinykv spec section, checked line by line in stages/spec.
func section(t *testing.T, env *pipeline.Env, c *pipeline.Candidate) string {
	t.Helper()
	s, err := spec.Load(context.Background(), env.Workspace, c)
	if err != nil {
		t.Fatal(err)
	}
	md := string(s.Markdown())
	if !strings.Contains(md, "\nfunc (s *Store) TTL(key string) time.Duration // new\n") {
		t.Fatalf("section without the new TTL method:\n%s", md)
	}
	return md
}

func TestExportHarborSpec(t *testing.T) {
	env, c := builtTinykv(t)
	out := t.TempDir()
	plain := &Stage{Format: Harbor, Out: out, IncludeUnreviewed: true}
	if err := plain.Run(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	st := &Stage{Format: Harbor, Variant: Spec, Out: out, IncludeUnreviewed: true}
	if err := st.Run(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	if st.Path != filepath.Join(out, "harbor-spec") || !reflect.DeepEqual(st.Exported, []string{"tinykv-tkep-0002-spec"}) || len(st.Skipped) != 0 {
		t.Fatalf("path %s, exported %v, skipped %v", st.Path, st.Exported, st.Skipped)
	}
	pdir := filepath.Join(out, "harbor", "tinykv-tkep-0002")
	sdir := filepath.Join(out, "harbor-spec", "tinykv-tkep-0002-spec")
	task := filepath.Join(c.Dir, "task")
	// The plain task is the built one without instruction.spec.md.
	if got, want := read(t, filepath.Join(pdir, "instruction.md")), read(t, filepath.Join(task, "instruction.md")); got != want {
		t.Fatalf("plain instruction.md changed")
	}
	for _, d := range []string{pdir, sdir} {
		if _, err := os.Stat(filepath.Join(d, "instruction.spec.md")); !os.IsNotExist(err) {
			t.Fatalf("%s: instruction.spec.md copied (%v)", d, err)
		}
	}
	// The spec task: the spec instruction, which is instruction.spec.md.
	inst := read(t, filepath.Join(sdir, "instruction.md"))
	if want := read(t, filepath.Join(task, "instruction.md")) + "\n---\n\n" + section(t, env, c); inst != want {
		t.Fatalf("spec instruction.md:\n%s", inst)
	}
	if want := read(t, filepath.Join(task, "instruction.spec.md")); inst != want {
		t.Fatalf("spec instruction.md differs from lolbench spec's instruction.spec.md")
	}
	// task.toml: the name and the variant, nothing else.
	ptoml := read(t, filepath.Join(pdir, "task.toml"))
	wantToml := strings.Replace(ptoml, "name = 'lolbench/tinykv-tkep-0002'\n", "name = 'lolbench/tinykv-tkep-0002-spec'\n", 1)
	wantToml = strings.Replace(wantToml, "[metadata]\n", "[metadata]\nvariant = 'spec'\n", 1)
	if wantToml == ptoml {
		t.Fatalf("plain task.toml has no name line to replace:\n%s", ptoml)
	}
	if got := read(t, filepath.Join(sdir, "task.toml")); got != wantToml {
		t.Fatalf("spec task.toml:\n%s\nwant:\n%s", got, wantToml)
	}
	wantReadme := read(t, filepath.Join(pdir, "README.md")) + "\n## Specification variant\n\n" +
		"This is lolbench/tinykv-tkep-0002-spec, the specification variant of lolbench/tinykv-tkep-0002: `instruction.md` adds to the proposal " +
		"the files the reference solution changes and the signatures of the public classes and functions it adds or changes, with the public fields and constants it adds (`lolbench spec`). " +
		"The environment, the reference solution and the verifier are the plain task's; `reward.json` names the plain task.\n"
	if got := read(t, filepath.Join(sdir, "README.md")); got != wantReadme {
		t.Fatalf("spec README.md:\n%s", got)
	}
	// Everything else is the plain task's, byte for byte and mode for mode.
	var files []string
	filepath.WalkDir(pdir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(pdir, p)
			files = append(files, rel)
		}
		return nil
	})
	if len(files) < 8 {
		t.Fatalf("plain task has %d files: %v", len(files), files)
	}
	for _, rel := range files {
		switch rel {
		case "instruction.md", "task.toml", "README.md":
			continue
		}
		a, _ := os.Lstat(filepath.Join(pdir, rel))
		b, err := os.Lstat(filepath.Join(sdir, rel))
		if err != nil || a.Mode() != b.Mode() || read(t, filepath.Join(pdir, rel)) != read(t, filepath.Join(sdir, rel)) {
			t.Errorf("%s differs between the variants (%v)", rel, err)
		}
	}
}

func TestExportSWEBenchSpec(t *testing.T) {
	env, c := builtTinykv(t)
	out := t.TempDir()
	lines := map[string]map[string]any{}
	for _, v := range []string{"", Spec} {
		st := &Stage{Format: SWEBench, Variant: v, Out: out, IncludeUnreviewed: true}
		if err := st.Run(context.Background(), env); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"": "swebench.jsonl", Spec: "swebench-spec.jsonl"}[v]
		if st.Path != filepath.Join(out, want) {
			t.Fatalf("path %s", st.Path)
		}
		data := []byte(read(t, st.Path))
		if bytes.Count(data, []byte("\n")) != 1 {
			t.Fatalf("%s: %d lines", st.Path, bytes.Count(data, []byte("\n")))
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		lines[v] = m
	}
	plain, sp := lines[""], lines[Spec]
	if plain["instance_id"] != "tinykv-tkep-0002" || sp["instance_id"] != "tinykv-tkep-0002-spec" {
		t.Fatalf("instance ids %v, %v", plain["instance_id"], sp["instance_id"])
	}
	ep := read(t, filepath.Join(c.Dir, "ep.md"))
	if plain["problem_statement"] != ep {
		t.Fatalf("plain problem_statement is not the EP")
	}
	if want := ep + "\n---\n\n" + section(t, env, c); sp["problem_statement"] != want {
		t.Fatalf("spec problem_statement:\n%s", sp["problem_statement"])
	}
	// Every other field is the plain line's.
	for k, v := range plain {
		if k != "instance_id" && k != "problem_statement" && !reflect.DeepEqual(sp[k], v) {
			t.Errorf("%s: spec %v, plain %v", k, sp[k], v)
		}
	}
	if len(sp) != len(plain) {
		t.Errorf("spec line has %d fields, plain %d", len(sp), len(plain))
	}
}

// TestExportSpecSkips: a candidate the spec cannot be made for is skipped
// with the reason, like one that was not built.
func TestExportSpecSkips(t *testing.T) {
	env := builtWorkspace(t)
	st := &Stage{Format: SWEBench, Variant: Spec, Out: t.TempDir(), IncludeUnreviewed: true}
	if err := st.Run(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"p-pep-0009": "candidate p-pep-0009 has no task (task/instruction.md); run lolbench build p-pep-0009",
		"p-pep-0010": "build rejected: no fail-to-pass test: x", "p-pep-0011": "not built; run lolbench build",
	}
	if len(st.Exported) != 0 || !reflect.DeepEqual(st.Skipped, want) {
		t.Fatalf("exported %v, skipped %v", st.Exported, st.Skipped)
	}
	if got := read(t, st.Path); got != "" {
		t.Fatalf("jsonl %q", got)
	}
}

func TestExportUnknownVariant(t *testing.T) {
	err := (&Stage{Format: Harbor, Variant: "hints"}).Run(context.Background(), builtWorkspace(t))
	if err == nil || err.Error() != `export: unknown variant "hints" (known: plain, spec)` {
		t.Fatalf("err = %v", err)
	}
}
