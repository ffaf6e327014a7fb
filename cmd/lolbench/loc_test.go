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

// locTree writes a small tree: one Go file, one JSON file, a vendored and
// a generated Go file.
func locTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"main.go":       "package main\n\n// Main.\nfunc main() {}\n",
		"data.json":     "{\"a\": 1}\n",
		"vendor/v/v.go": "package v\n",
		"api/x.pb.go":   "package api\n",
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const (
	locJSON = `{"languages":{"Go":{"files":1,"code":2,"comment":1,"blank":1},"JSON":{"files":1,"code":1,"comment":0,"blank":0}},` +
		`"total":{"files":2,"code":3,"comment":1,"blank":1},` +
		`"skipped":{"vendored":1,"generated":1,"unknown":0,"empty":0,"large":0,"binary":0,"unreadable":0}}` + "\n"
	locAllJSON = `{"languages":{"Go":{"files":3,"code":4,"comment":1,"blank":1},"JSON":{"files":1,"code":1,"comment":0,"blank":0}},` +
		`"total":{"files":4,"code":5,"comment":1,"blank":1},` +
		`"skipped":{"vendored":0,"generated":0,"unknown":0,"empty":0,"large":0,"binary":0,"unreadable":0}}` + "\n"
	locTable = `-------------------------------------------------------------------------------
Language                     files          blank        comment           code
-------------------------------------------------------------------------------
Go                               1              1              1              2
JSON                             1              0              0              1
-------------------------------------------------------------------------------
SUM:                             2              1              1              3
-------------------------------------------------------------------------------
`
	locStderr    = "skipped files: 1 vendored, 1 generated\nsoftware code lines (no data, markup or docs): 2\n"
	locAllStderr = "software code lines (no data, markup or docs): 4\n"
)

func TestLoc(t *testing.T) {
	dir := locTree(t)
	tests := []struct {
		name        string
		args        []string
		out, errOut string
	}{
		{"table", []string{"loc", dir}, locTable, locStderr},
		{"json", []string{"loc", dir, "--json"}, locJSON, locStderr},
		{"all", []string{"loc", "--all", "--json", dir}, locAllJSON, locAllStderr},
		{"one worker", []string{"loc", "--workers", "1", "--json", dir}, locJSON, locStderr},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tt.args...)
			if code != 0 || out != tt.out || errOut != tt.errOut {
				t.Errorf("code %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s\nwant:\n%s", code, out, tt.out, errOut, tt.errOut)
			}
		})
	}
}

func TestLocRev(t *testing.T) {
	dir := locTree(t)
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		t.Fatal(err)
	}
	sig := &object.Signature{Name: "t", Email: "t@example.com", When: time.Unix(1700000000, 0)}
	if _, err := wt.Commit("one", &git.CommitOptions{Author: sig}); err != nil {
		t.Fatal(err)
	}
	// A file added after the commit is on disk but not at HEAD.
	if err := os.WriteFile(filepath.Join(dir, "later.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "loc", dir, "--rev", "HEAD", "--json")
	if code != 0 || out != locJSON || errOut != locStderr {
		t.Errorf("code %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s", code, out, locJSON, errOut)
	}
}

func TestLocBadInput(t *testing.T) {
	plain := t.TempDir()
	missing := filepath.Join(plain, "missing")
	repoDir := t.TempDir()
	if _, err := git.PlainInit(repoDir, false); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no such directory", []string{"loc", missing}, "lolbench: no such directory: " + missing + "\n"},
		{"rev without repository", []string{"loc", plain, "--rev", "HEAD"}, "lolbench: not a git repository: " + plain + "\n"},
		{"unknown revision", []string{"loc", repoDir, "--rev", "v9.9"}, `lolbench: unknown revision "v9.9" in ` + repoDir + "\n"},
		{"no argument", []string{"loc"}, "lolbench: accepts 1 arg(s), received 0\n"},
		{"negative workers", []string{"loc", plain, "--workers", "-1"}, "lolbench: --workers must not be negative, got -1\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tt.args...)
			if code != exitBadInput || out != "" || errOut != tt.want {
				t.Errorf("code %d, stdout %q, stderr %q; want code 2, stderr %q", code, out, errOut, tt.want)
			}
		})
	}
}

func TestLocHelp(t *testing.T) {
	out, _, code := runCLI(t, "loc", "--help")
	for _, want := range []string{"lolbench loc ./work/repos/cpython --rev", "--all", "cloc"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("help lacks %q (code %d):\n%s", want, code, out)
		}
	}
}
