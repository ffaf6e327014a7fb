package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/internal/testcand"
)

func TestMutateFlags(t *testing.T) {
	cases := []struct {
		args []string
		want MutateOptions
		err  string
	}{
		{args: []string{"c1"}, want: MutateOptions{LLMOptions: LLMOptions{Candidates: []string{"c1"}, Workspace: "work"},
			Methods: []string{"revert", "ops", "llm"}, Executor: "docker", Jobs: 1}},
		{args: []string{"--methods", "ops,revert", "--operators", "flip-comparison,delete-call", "--sections", "3.1", "--jobs", "2",
			"--max-per-operator", "5", "--all-tests", "--executor", "local", "--force", "--workspace", "w"},
			want: MutateOptions{LLMOptions: LLMOptions{Workspace: "w", Candidates: []string{}}, Methods: []string{"ops", "revert"},
				Operators: []string{"flip-comparison", "delete-call"}, Sections: []string{"3.1"}, Executor: "local", Jobs: 2,
				MaxPerOperator: 5, AllTests: true, Force: true}},
		{args: []string{"--methods", "llm,mutants"}, err: `mutate: --methods "mutants": want some of revert,ops,llm`},
		{args: []string{"--operators", "swap"}, err: `mutate: --operators "swap": unknown operator (see 'lolbench mutate --help')`},
		{args: []string{"--executor", "podman"}, err: `invalid argument "podman" for "--executor" flag: want docker or local`},
		{args: []string{"--jobs", "0"}, err: "mutate: --jobs must be at least 1 and --max-per-operator at least 0"},
	}
	for _, c := range cases {
		var got *MutateOptions
		f := &Factory{IO: &IOStreams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
		cmd := newCmdMutate(f, func(o *MutateOptions) error { got = o; return nil })
		cmd.SetArgs(c.args)
		cmd.SetOut(&bytes.Buffer{})
		cmd.SetErr(&bytes.Buffer{})
		err := cmd.Execute()
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%v: error %v, want %q", c.args, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", c.args, err)
			continue
		}
		got.Factory, got.Evidence, got.NewExecutor = nil, c.want.Evidence, nil
		if !reflect.DeepEqual(*got, c.want) {
			t.Errorf("%v:\n got %+v\nwant %+v", c.args, *got, c.want)
		}
	}
}

// Without a built task the stage has nothing to mutate: it says so and
// the command succeeds; bad input is exit status 2.
func TestMutateCommand(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := testcand.Build(dir, testcand.Tinykv(filepath.Join("..", ".."))); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "mutate", "tinykv-tkep-0002", "--workspace", dir, "--executor", "local", "--methods", "revert,ops")
	if code != 0 || out != "tinykv-tkep-0002\n  mutate: skipped: no build/build.json: run lolbench build tinykv-tkep-0002 first\n" {
		t.Errorf("code %d\nout %q\nerr %q", code, out, errOut)
	}
	out, _, code = runCLI(t, "mutate", "--workspace", dir, "--executor", "local", "--json")
	var got mutateOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 {
		t.Fatalf("json: %v %d %s", err, code, out)
	}
	if len(got.Candidates) != 1 || got.Candidates[0].Stages[0].Result != "skipped" || got.Summary == nil || got.Summary.Tasks != 0 {
		t.Errorf("json %+v", got)
	}
	for _, args := range [][]string{
		{"mutate", "nope", "--workspace", dir},
		{"mutate", "--methods", "x", "--workspace", dir},
	} {
		if _, errOut, code := runCLI(t, args...); code != exitBadInput || !strings.HasPrefix(errOut, "lolbench: ") {
			t.Errorf("%v: code %d, stderr %q", args, code, errOut)
		}
	}
	out, _, code = runCLI(t, "mutate", "--help")
	for _, s := range []string{"lolbench mutate tinykv-tkep-0002 --methods revert,ops", "negate-condition", "swap-if-else", "Table 8", "--all-tests"} {
		if code != 0 || !strings.Contains(out, s) {
			t.Errorf("help lacks %q", s)
		}
	}
}
