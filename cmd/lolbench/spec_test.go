package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/internal/testbuilt"
	"github.com/lolbench/lolbench/internal/testcand"
)

func TestSpecFlags(t *testing.T) {
	tests := []struct {
		args []string
		want *SpecOptions
		err  string
	}{
		{[]string{"spec", "a-1"}, &SpecOptions{Candidates: []string{"a-1"}, Workspace: "work"}, ""},
		{[]string{"spec", "a-1", "b-2", "--workspace", "w", "--json"}, &SpecOptions{Candidates: []string{"a-1", "b-2"}, Workspace: "w", JSON: true}, ""},
		{[]string{"spec"}, nil, "requires at least 1 arg(s), only received 0"},
		{[]string{"spec", "../x"}, nil, `spec: invalid candidate id "../x": use lower-case letters, digits, '.', '_' and '-'`},
		{[]string{"spec", "a", "--variant", "x"}, nil, "unknown flag: --variant (see 'lolbench spec --help')"},
	}
	for _, tt := range tests {
		var got *SpecOptions
		f := &Factory{IO: &IOStreams{Out: &strings.Builder{}, ErrOut: &strings.Builder{}}, Getenv: func(string) string { return "" }}
		root := NewCmdRoot(f)
		for _, c := range root.Commands() {
			if c.Name() == "spec" {
				root.RemoveCommand(c)
			}
		}
		root.AddCommand(newCmdSpec(f, func(o *SpecOptions) error { got = o; return nil }))
		root.SetArgs(tt.args)
		err := root.Execute()
		switch {
		case tt.err != "":
			if err == nil || err.Error() != tt.err {
				t.Errorf("%q: err %v, want %q", tt.args, err, tt.err)
			}
		case err != nil || !reflect.DeepEqual(got, tt.want):
			t.Errorf("%q: err %v, options %+v, want %+v", tt.args, err, got, tt.want)
		}
	}
}

// TestSpecCommand runs lolbench spec and export --variant spec on the
// tinykv sample, built without Docker.
func TestSpecCommand(t *testing.T) {
	dir := t.TempDir()
	_, c, err := testbuilt.Build(dir, testcand.Tinykv(filepath.Join("..", "..")))
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "spec", "tinykv-tkep-0002", "--workspace", dir)
	path := filepath.Join(c.Dir, "task", "instruction.spec.md")
	if code != 0 || out != path+"\n" || errOut != "tinykv-tkep-0002: 8 file(s), 23 signature(s), 0 file(s) without signatures read\n" {
		t.Fatalf("code %d, stdout %q, stderr %q", code, out, errOut)
	}
	data, err := os.ReadFile(path)
	if err != nil || !strings.HasSuffix(string(data), "func (s *Store) Restore(items []Item) // changed\n```\n") {
		t.Fatalf("instruction.spec.md (%v):\n%s", err, data)
	}

	out, _, code = runCLI(t, "spec", "tinykv-tkep-0002", "--workspace", dir, "--json")
	var rows []struct {
		ID    string
		Path  string
		Files []struct {
			Path       string
			Status     string
			Language   string
			Signatures []struct{ Name, Change string }
		}
	}
	if err := json.Unmarshal([]byte(out), &rows); code != 0 || err != nil || len(rows) != 1 {
		t.Fatalf("code %d, %v: %s", code, err, out)
	}
	var got []string
	for _, f := range rows[0].Files {
		for _, s := range f.Signatures {
			got = append(got, f.Language+" "+s.Name+" "+s.Change)
		}
	}
	want := []string{"Python Client ", "Python Client.set changed", "Python Client.ttl new", "Go Server.Handle changed",
		"Go Save changed", "Go Load changed", "Go Store.Sweep new", "Go Store.StartSweeper new",
		"Go ErrInvalidTTL new", "Go NoExpiry new", "Go Missing new",
		"Go New changed", "Go NewWithClock new", "Go Store.Set changed", "Go Store.SetWithTTL new", "Go Store.TTL new",
		"Go Store.Get changed", "Go Store.Delete changed", "Go Store.Keys changed", "Go Item ", "Go Item.ExpiresAt new",
		"Go Store.Items changed", "Go Store.Restore changed"}
	if rows[0].ID != "tinykv-tkep-0002" || rows[0].Path != path || !reflect.DeepEqual(got, want) {
		t.Fatalf("json: %s %s %q", rows[0].ID, rows[0].Path, got)
	}

	out, errOut, code = runCLI(t, "export", "--format", "harbor", "--variant", "spec", "--workspace", dir, "--include-unreviewed")
	if code != 0 || out != "tinykv-tkep-0002-spec\n" || errOut != "1 task(s) exported to "+filepath.Join(dir, "export", "harbor-spec")+"\n" {
		t.Fatalf("export: code %d, stdout %q, stderr %q", code, out, errOut)
	}
	exported, err := os.ReadFile(filepath.Join(dir, "export", "harbor-spec", "tinykv-tkep-0002-spec", "instruction.md"))
	if err != nil || string(exported) != string(data) {
		t.Fatalf("exported instruction.md is not instruction.spec.md (%v)", err)
	}
}

func TestSpecBadInput(t *testing.T) {
	dir := t.TempDir()
	_, c, err := testbuilt.Build(dir, testcand.Tinykv(filepath.Join("..", "..")))
	if err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(c.Dir, "task"))
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"spec", "tinykv-tkep-0002", "--workspace", dir}, "lolbench: spec: candidate tinykv-tkep-0002 has no task (task/instruction.md); run lolbench build tinykv-tkep-0002\n"},
		{[]string{"spec", "x", "--workspace", dir + "/none"}, "lolbench: workspace " + dir + "/none does not exist"},
		{[]string{"export", "--format", "harbor", "--variant", "hints"}, "lolbench: export: --variant \"hints\": plain or spec\n"},
	}
	for _, tt := range tests {
		out, errOut, code := runCLI(t, tt.args...)
		if code != exitBadInput || out != "" || !strings.HasPrefix(errOut, tt.want) {
			t.Errorf("%q: code %d, stdout %q, stderr %q, want %q", tt.args, code, out, errOut, tt.want)
		}
	}
	out, _, code := runCLI(t, "spec", "--help")
	if code != 0 || !strings.Contains(out, "Examples:") || !strings.Contains(out, "lolbench spec tinykv-tkep-0002") {
		t.Errorf("spec --help: code %d\n%s", code, out)
	}
}
