package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// scopesRepo builds a two-commit repository: the second commit edits a
// Python method and adds one, adds a line to a Go function, edits a
// document and a Kotlin file. It returns the directory and both SHAs.
func scopesRepo(t *testing.T) (dir, base, head string) {
	t.Helper()
	dir = t.TempDir()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	when := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	commit := func(files map[string]string) string {
		for name, content := range files {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := wt.Add(name); err != nil {
				t.Fatal(err)
			}
		}
		when = when.Add(time.Hour)
		sig := &object.Signature{Name: "Ada", Email: "ada@example.com", When: when}
		h, err := wt.Commit("change\n", &git.CommitOptions{Author: sig, Committer: sig})
		if err != nil {
			t.Fatal(err)
		}
		return h.String()
	}
	base = commit(map[string]string{
		"svc/api.py":  "class Api:\n    def get(self):\n        return 1\n",
		"svc/main.go": "package svc\n\nfunc Run() {\n\tstart()\n}\n",
		"svc/Main.kt": "fun main() {\n}\n",
		"notes.md":    "a\n",
	})
	head = commit(map[string]string{
		"svc/api.py":  "class Api:\n    def get(self):\n        return 2\n    def post(self):\n        return 3\n    retries = 3\n",
		"svc/main.go": "package svc\n\nfunc Run() {\n\tstart()\n\tstop()\n}\n",
		"svc/Main.kt": "fun main() {\n    println()\n}\n",
		"notes.md":    "b\n",
	})
	return dir, base, head
}

func TestPRScopes(t *testing.T) {
	dir, base, head := scopesRepo(t)
	const skipped = "skipped svc/Main.kt: unsupported language (svc/Main.kt: no syntax scopes for Kotlin)\n"
	tests := []struct {
		name       string
		args       []string
		wantOut    string
		wantErrOut string
		wantCode   int
	}{
		{
			name: "json",
			args: []string{"pr", "scopes", "--repo", dir, "--base", base, "--head", head, "--json"},
			wantOut: `[{"file":"svc/api.py","class":"Api","function":"","pre_lines":[],"post_lines":[6],"new":false,"members":[{"name":"retries","pre_lines":[],"post_lines":[6]}]},` +
				`{"file":"svc/api.py","class":"Api","function":"get","pre_lines":[3],"post_lines":[3],"new":false,"members":[]},` +
				`{"file":"svc/api.py","class":"Api","function":"post","pre_lines":[],"post_lines":[4,5],"new":true,"members":[]},` +
				`{"file":"svc/main.go","class":"","function":"Run","pre_lines":[],"post_lines":[5],"new":false,"members":[]}]` + "\n",
			wantErrOut: skipped,
		},
		{
			name: "table",
			args: []string{"pr", "scopes", "--repo", dir, "--base", base, "--head", head, "--workers", "1"},
			wantOut: "svc/api.py   Api       -0 +1  members: retries\n" +
				"svc/api.py   Api.get   -1 +1\n" +
				"svc/api.py   Api.post  -0 +2  (new)\n" +
				"svc/main.go  Run       -0 +1\n",
			wantErrOut: skipped,
		},
		{
			name:    "no change",
			args:    []string{"pr", "scopes", "--repo", dir, "--base", head, "--head", head, "--json"},
			wantOut: "[]\n",
		},
		{
			name:       "unknown revision",
			args:       []string{"pr", "scopes", "--repo", dir, "--base", "nosuchrev", "--head", head},
			wantErrOut: "nosuchrev",
			wantCode:   exitBadInput,
		},
		{
			name:       "missing head",
			args:       []string{"pr", "scopes", "--repo", dir, "--base", base},
			wantErrOut: `required flag(s) "head" not set`,
			wantCode:   exitBadInput,
		},
		{
			name:       "negative workers",
			args:       []string{"pr", "scopes", "--repo", dir, "--base", base, "--head", head, "--workers", "-1"},
			wantErrOut: "--workers -1",
			wantCode:   exitBadInput,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tt.args...)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d; stderr %q", code, tt.wantCode, errOut)
			}
			if out != tt.wantOut {
				t.Errorf("stdout\n got %q\nwant %q", out, tt.wantOut)
			}
			if tt.wantCode == 0 && errOut != tt.wantErrOut {
				t.Errorf("stderr\n got %q\nwant %q", errOut, tt.wantErrOut)
			}
			if tt.wantCode != 0 && !strings.Contains(errOut, tt.wantErrOut) {
				t.Errorf("stderr %q does not mention %q", errOut, tt.wantErrOut)
			}
		})
	}
}

func TestPRScopesHelp(t *testing.T) {
	out, _, code := runCLI(t, "pr", "scopes", "--help")
	if code != 0 || !strings.Contains(out, "lolbench pr scopes --repo") || !strings.Contains(out, `"pre_lines"`) {
		t.Fatalf("code %d, help %q", code, out)
	}
}
