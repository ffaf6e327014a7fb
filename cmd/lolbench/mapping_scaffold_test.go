package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/internal/testcand"
	"github.com/lolbench/lolbench/internal/testrepo"
	"github.com/lolbench/lolbench/pipeline"
)

// scaffoldGolden is the tinykv scaffold that pipeline/mapping's golden
// test checks.
const scaffoldGolden = "../../pipeline/mapping/testdata/scaffold/tinykv.md"

// TestMappingScaffoldArgs: argv to options, with the run stubbed out.
func TestMappingScaffoldArgs(t *testing.T) {
	flags := []string{"--ep", "e.md", "--repo", "r", "--base", "b", "--head", "h"}
	tests := []struct {
		name    string
		args    []string
		want    MappingScaffoldOptions
		wantErr string
	}{
		{name: "flags", args: append(flags, "--id", "x-1", "-o", "-", "--format", "rst", "--force"),
			want: MappingScaffoldOptions{EP: "e.md", EPFormat: "rst", Repo: "r", Base: "b", Head: "h", ID: "x-1", Output: "-", Force: true, Workspace: "work"}},
		{name: "candidate", args: []string{"tinykv-tkep-0002", "--workspace", "w"},
			want: MappingScaffoldOptions{Candidate: "tinykv-tkep-0002", Workspace: "w"}},
		{name: "candidate and output", args: []string{"c", "--output", "draft.md"},
			want: MappingScaffoldOptions{Candidate: "c", Workspace: "work", Output: "draft.md"}},
		{name: "missing head", args: flags[:6], wantErr: "mapping scaffold: --head is required without a CANDIDATE (see 'lolbench mapping scaffold --help')"},
		{name: "candidate with --ep", args: []string{"c", "--ep", "e.md"}, wantErr: "mapping scaffold: --ep cannot be given with a candidate, whose candidate.json names it"},
		{name: "workspace without candidate", args: append(flags, "--workspace", "w"), wantErr: "mapping scaffold: --workspace needs a CANDIDATE"},
		{name: "two candidates", args: []string{"a", "b"}, wantErr: "accepts at most 1 arg(s), received 2"},
		{name: "bad format", args: append(flags, "--format", "docx"), wantErr: `unknown EP format "docx"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got *MappingScaffoldOptions
			f := &Factory{IO: &IOStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
			cmd := newCmdMappingScaffold(f, func(o *MappingScaffoldOptions) error { got = o; return nil })
			cmd.SetArgs(tt.args)
			cmd.SetOut(&bytes.Buffer{})
			cmd.SetErr(&bytes.Buffer{})
			err := cmd.Execute()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got.IO = nil
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("options %+v, want %+v", *got, tt.want)
			}
		})
	}
}

// scaffoldWorkspace builds a workspace holding the tinykv candidate and
// returns it with the candidate's folder.
func scaffoldWorkspace(t *testing.T) (ws, dir string) {
	t.Helper()
	ws = t.TempDir()
	_, c, err := testcand.Build(ws, testcand.Tinykv("../.."))
	if err != nil {
		t.Fatal(err)
	}
	return ws, c.Dir
}

func TestMappingScaffold(t *testing.T) {
	want, err := os.ReadFile(scaffoldGolden)
	if err != nil {
		t.Fatal(err)
	}
	ws, dir := scaffoldWorkspace(t)
	mappingPath := filepath.Join(dir, pipeline.MappingFile)

	t.Run("candidate", func(t *testing.T) {
		out, errOut, code := runCLI(t, "mapping", "scaffold", "tinykv-tkep-0002", "--workspace", ws)
		wantErr := "wrote " + mappingPath + ": 14 sections, 14 PR files, 55 scope rows; 101 cells hold TODO: fill them, then run lolbench validate --fix\n"
		if code != 0 || out != "" || errOut != wantErr {
			t.Fatalf("code %d, stdout %q, stderr %q", code, out, errOut)
		}
		got, err := os.ReadFile(mappingPath)
		if err != nil || string(got) != string(want) {
			t.Fatalf("%s differs from %s (err %v):\n%s", mappingPath, scaffoldGolden, err, got)
		}
	})
	t.Run("an existing mapping is kept", func(t *testing.T) {
		os.WriteFile(mappingPath, []byte("curated"), 0o644)
		_, errOut, code := runCLI(t, "mapping", "scaffold", "tinykv-tkep-0002", "--workspace", ws)
		wantErr := "lolbench: " + mappingPath + " exists; a scaffold would overwrite it: give --force, or --output another file\n"
		got, _ := os.ReadFile(mappingPath)
		if code != exitBadInput || errOut != wantErr || string(got) != "curated" {
			t.Fatalf("code %d, stderr %q, file %q", code, errOut, got)
		}
		_, _, code = runCLI(t, "mapping", "scaffold", "tinykv-tkep-0002", "--workspace", ws, "--force")
		got, _ = os.ReadFile(mappingPath)
		if code != 0 || string(got) != string(want) {
			t.Fatalf("--force: code %d, file:\n%s", code, got)
		}
	})
	t.Run("flags, to standard output", func(t *testing.T) {
		repo := t.TempDir()
		sample := filepath.Join("..", "..", "data", "samples", "tinykv")
		if err := testrepo.Build(repo,
			testrepo.Step{Overlay: filepath.Join(sample, "base"), Tag: "base"},
			testrepo.Step{Overlay: filepath.Join(sample, "pr"), Tag: "head"}); err != nil {
			t.Fatal(err)
		}
		out, errOut, code := runCLI(t, "mapping", "scaffold", "--ep", filepath.Join(sample, "ep.md"), "--repo", repo,
			"--base", "base", "--head", "head", "--id", "tinykv-tkep-0002", "--output", "-")
		if code != 0 || out != string(want) || errOut != "" {
			t.Fatalf("code %d, stderr %q, stdout:\n%s", code, errOut, out)
		}
	})
	t.Run("unknown candidate", func(t *testing.T) {
		_, errOut, code := runCLI(t, "mapping", "scaffold", "nope", "--workspace", ws)
		if code != exitBadInput || errOut != "lolbench: no candidate nope in workspace "+ws+"\n" {
			t.Fatalf("code %d, stderr %q", code, errOut)
		}
	})
}
