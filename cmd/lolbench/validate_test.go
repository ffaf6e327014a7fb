package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/internal/testrepo"
	"github.com/lolbench/lolbench/rules"
)

const fixture = "../../rules/testdata/fixture"

// fixtureRepo builds the rules fixture repository (tags base and head).
func fixtureRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := testrepo.Build(dir,
		testrepo.Step{Overlay: filepath.Join(fixture, "base"), Tag: "base"},
		testrepo.Step{Overlay: filepath.Join(fixture, "pr"), Tag: "head"}); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestValidateFlags(t *testing.T) {
	base := []string{"validate", "--ep", "e.md", "--repo", "r", "--base", "b", "--head", "h", "--mapping", "m.md"}
	tests := []struct {
		name    string
		args    []string
		want    *ValidateOptions
		wantErr string
	}{
		{"all flags", append(base, "--rules", "1, R5,27", "--json"), &ValidateOptions{
			Sources: rules.Sources{EP: "e.md", Repo: "r", Base: "b", Head: "h", Mapping: "m.md"},
			Rules:   []int{1, 5, 27}, JSON: true, Workspace: "work"}, ""},
		{"format", append(base, "--format", "rst"), &ValidateOptions{
			Sources: rules.Sources{EP: "e.md", EPFormat: "rst", Repo: "r", Base: "b", Head: "h", Mapping: "m.md"}, Workspace: "work"}, ""},
		{"missing mapping", base[:9], nil, "validate: --mapping is required without a CANDIDATE (see 'lolbench validate --help')"},
		{"candidate", []string{"validate", "c-1", "--workspace", "w", "--fix", "--json"}, &ValidateOptions{
			Candidate: "c-1", Workspace: "w", Fix: true, JSON: true}, ""},
		{"fix", append(base, "--fix"), &ValidateOptions{
			Sources: rules.Sources{EP: "e.md", Repo: "r", Base: "b", Head: "h", Mapping: "m.md"}, Workspace: "work", Fix: true}, ""},
		{"candidate with --mapping", []string{"validate", "c-1", "--mapping", "m.md"}, nil,
			"validate: --mapping cannot be given with a candidate, whose candidate.json names it"},
		{"workspace without candidate", append(base, "--workspace", "w"), nil, "validate: --workspace needs a CANDIDATE"},
		// The mapping as the argument (issue 36: it was read as a
		// candidate id, and --ep was refused with a candidate).
		{"mapping as the argument", append([]string{"validate", "curated/a58.md"}, base[1:9]...), &ValidateOptions{
			Sources: rules.Sources{EP: "e.md", Repo: "r", Base: "b", Head: "h", Mapping: "curated/a58.md"}, Workspace: "work"}, ""},
		{"mapping file without its sources", []string{"validate", "mapping.md"}, nil, "validate: --ep is required without a CANDIDATE"},
		{"two candidates", []string{"validate", "a", "b"}, nil, "accepts at most 1 arg(s), received 2"},
		{"unknown rule", append(base, "--rules", "29"), nil, `no rule "29"`},
		{"bad format", append(base, "--format", "docx"), nil, "docx"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got *ValidateOptions
			f := &Factory{IO: &IOStreams{}}
			cmd := NewCmdValidate(f, func(o *ValidateOptions) error { got = o; return nil })
			cmd.SetArgs(tt.args[1:])
			cmd.SetOut(&strings.Builder{})
			cmd.SetErr(&strings.Builder{})
			err := cmd.Execute()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got.IO = nil
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("options = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestValidateFixture(t *testing.T) {
	repo := fixtureRepo(t)
	args := func(mapping string, extra ...string) []string {
		return append([]string{"validate", "--ep", filepath.Join(fixture, "ep.md"), "--repo", repo,
			"--base", "base", "--head", "head", "--mapping", mapping}, extra...)
	}
	t.Run("canonical mapping passes", func(t *testing.T) {
		out, errOut, code := runCLI(t, args(filepath.Join(fixture, "mapping.md"))...)
		if code != 0 || out != "28 of 28 rules passed, 0 violations\n" || errOut != "" {
			t.Fatalf("code %d, stdout %q, stderr %q", code, out, errOut)
		}
	})
	t.Run("violations exit 1 with the JSON report", func(t *testing.T) {
		out, _, code := runCLI(t, args("../../rules/testdata/r07/fail-direct-count.md", "--rules", "7,18", "--json")...)
		want := `{
  "violations": [
    {
      "rule": 7,
      "where": "section 2.1",
      "line": 36,
      "message": "the Files line of block 1 disagrees with its tables: it says 3 direct but Direct modifications name 2 files (` + "`greet.go`, `tools/greet.py`" + `); write \"**Files:** 2 direct (28.6%), 2 associated (28.6%), 4 accounted (57.1%) of 7 PR files\""
    }
  ],
  "rules": [
    {
      "id": 7,
      "passed": false
    },
    {
      "id": 18,
      "passed": true
    }
  ],
  "forwarded": [],
  "unfilled": [],
  "held_back": 0
}
`
		if code != 1 || out != want {
			t.Fatalf("code %d, stdout:\n%s\nwant:\n%s", code, out, want)
		}
	})
	t.Run("terminal report groups violations by rule", func(t *testing.T) {
		m := "../../rules/testdata/r07/fail-direct-count.md"
		out, _, code := runCLI(t, args(m)...)
		want := "R07 per-section-proportions: 1 violation\n  " + m + ":36: section 2.1: the Files line of block 1 disagrees with its tables: it says 3 direct but Direct modifications name 2 files (`greet.go`, `tools/greet.py`); write \"**Files:** 2 direct (28.6%), 2 associated (28.6%), 4 accounted (57.1%) of 7 PR files\"\n27 of 28 rules passed, 1 violation\n"
		if code != 1 || out != want {
			t.Fatalf("code %d, stdout:\n%s\nwant:\n%s", code, out, want)
		}
	})
	t.Run("unknown revision is bad input", func(t *testing.T) {
		a := args(filepath.Join(fixture, "mapping.md"))
		a[6] = "no-such-rev"
		_, errOut, code := runCLI(t, a...)
		if code != 2 || !strings.Contains(errOut, "no-such-rev") {
			t.Fatalf("code %d, stderr %q", code, errOut)
		}
	})
	t.Run("a part left out is rule 4's, with the other violations", func(t *testing.T) {
		m := "../../rules/testdata/r04/fail-missing-part.md"
		out, errOut, code := runCLI(t, args(m)...)
		want := "R04 vocabularies-and-schemas: 1 violation\n  " + m + ": Unmapped PR Files: the part \"## Unmapped PR Files\" is missing; add it in its place (docs/mapping-format.md), with \"None.\" when it has no rows\n" +
			"R11 pfs-consistency: 1 violation\n  " + m + ":19: file `README.md`: `README.md` has role unmapped but is not listed in Unmapped PR Files; add the row \"| `README.md` | documentation | <reason> |\" with the reason it is left unmapped\n" +
			"26 of 28 rules passed, 2 violations\n"
		if code != 1 || out != want || errOut != "" {
			t.Fatalf("code %d, stderr %q, stdout:\n%s\nwant:\n%s", code, errOut, out, want)
		}
	})
	t.Run("unparseable mapping is bad input", func(t *testing.T) {
		bad := filepath.Join(t.TempDir(), "bad.md")
		os.WriteFile(bad, []byte("# Mapping: x\n\n## Surprise\n"), 0o644)
		_, errOut, code := runCLI(t, args(bad)...)
		if code != 2 || !strings.Contains(errOut, bad+":3:") {
			t.Fatalf("code %d, stderr %q", code, errOut)
		}
	})
}
