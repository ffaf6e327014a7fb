package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// prRepo builds a two-commit repository with go-git: the second commit
// modifies a Go file, deletes the README, renames a test, changes a binary
// file and adds a document whose name has a space. v1 tags the first
// commit; main is the second.
func prRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	repo, err := git.PlainInitWithOptions(dir, &git.PlainInitOptions{InitOptions: git.InitOptions{DefaultBranch: plumbing.Main}})
	if err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	when := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	commit := func(files map[string]string, remove ...string) plumbing.Hash {
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
		for _, name := range remove {
			if _, err := wt.Remove(name); err != nil {
				t.Fatal(err)
			}
		}
		when = when.Add(time.Hour)
		sig := &object.Signature{Name: "Ada", Email: "ada@example.com", When: when}
		h, err := wt.Commit("change\n", &git.CommitOptions{Author: sig, Committer: sig})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	c1 := commit(map[string]string{
		"main.go":      "package main\n\nfunc main() {}\n",
		"README.md":    "hello\nworld\n",
		"util_test.go": "package main\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n",
		"logo.png":     "\x89PNG\x00\x01",
	})
	commit(map[string]string{
		"main.go":        "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println() }\n",
		"helper_test.go": "package main\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n",
		"logo.png":       "\x89PNG\x00\x02",
		"docs/a b.md":    "one\ntwo\nthree\n",
	}, "README.md", "util_test.go")
	if _, err := repo.CreateTag("v1", c1, nil); err != nil {
		t.Fatal(err)
	}
	return dir
}

const (
	wantPRStatsJSON = `{"files":5,"inserted":6,"deleted":3,"categories":{` +
		`"source":{"files":1,"inserted":3,"deleted":1},` +
		`"test":{"files":1,"inserted":0,"deleted":0},` +
		`"test-data":{"files":0,"inserted":0,"deleted":0},` +
		`"data":{"files":1,"inserted":0,"deleted":0},` +
		`"build":{"files":0,"inserted":0,"deleted":0},` +
		`"documentation":{"files":2,"inserted":3,"deleted":2},` +
		`"generated":{"files":0,"inserted":0,"deleted":0},` +
		`"vendor":{"files":0,"inserted":0,"deleted":0}},` +
		`"source_share":0.444}` + "\n"
	wantPRStatsTable = `category       files  inserted  deleted
source             1         3        1
test               1         0        0
test-data          0         0        0
data               1         0        0
build              0         0        0
documentation      2         3        2
generated          0         0        0
vendor             0         0        0
total              5         6        3

source share of changed lines: 44.4% (4 of 9)
`
	wantPRFilesJSON = `[` +
		`{"old_path":"README.md","new_path":"","path":"README.md","status":"deleted","binary":false,"category":"documentation","language":"","inserted":0,"deleted":2,"old_lines":[1,2],"new_lines":[]},` +
		`{"old_path":"","new_path":"docs/a b.md","path":"docs/a b.md","status":"added","binary":false,"category":"documentation","language":"","inserted":3,"deleted":0,"old_lines":[],"new_lines":[1,2,3]},` +
		`{"old_path":"util_test.go","new_path":"helper_test.go","path":"helper_test.go","status":"renamed","binary":false,"category":"test","language":"Go","inserted":0,"deleted":0,"old_lines":[],"new_lines":[]},` +
		`{"old_path":"logo.png","new_path":"logo.png","path":"logo.png","status":"modified","binary":true,"category":"data","language":"","inserted":0,"deleted":0,"old_lines":[],"new_lines":[]},` +
		`{"old_path":"main.go","new_path":"main.go","path":"main.go","status":"modified","binary":false,"category":"source","language":"Go","inserted":3,"deleted":1,"old_lines":[3],"new_lines":[3,4,5]}` +
		`]` + "\n"
	wantPRFilesTable = `path                            category       status    binary  inserted  deleted
README.md                       documentation  deleted   no             0        2
docs/a b.md                     documentation  added     no             3        0
util_test.go -> helper_test.go  test           renamed   no             0        0
logo.png                        data           modified  yes            0        0
main.go                         source         modified  no             3        1
`
	wantPRNoChangeJSON = `{"files":0,"inserted":0,"deleted":0,"categories":{` +
		`"source":{"files":0,"inserted":0,"deleted":0},` +
		`"test":{"files":0,"inserted":0,"deleted":0},` +
		`"test-data":{"files":0,"inserted":0,"deleted":0},` +
		`"data":{"files":0,"inserted":0,"deleted":0},` +
		`"build":{"files":0,"inserted":0,"deleted":0},` +
		`"documentation":{"files":0,"inserted":0,"deleted":0},` +
		`"generated":{"files":0,"inserted":0,"deleted":0},` +
		`"vendor":{"files":0,"inserted":0,"deleted":0}},` +
		`"source_share":0}` + "\n"
)

func TestPR(t *testing.T) {
	dir := prRepo(t)
	tests := []struct {
		name string
		args []string
		out  string
	}{
		{"stats json", []string{"pr", "stats", "--repo", dir, "--base", "v1", "--head", "main", "--json"}, wantPRStatsJSON},
		{"stats table", []string{"pr", "stats", "--repo", dir, "--base", "HEAD~1", "--head", "HEAD"}, wantPRStatsTable},
		{"stats no change", []string{"pr", "stats", "--repo", dir, "--base", "main", "--head", "HEAD", "--json"}, wantPRNoChangeJSON},
		{"files json", []string{"pr", "files", "--repo", dir, "--base", "v1", "--head", "main", "--json"}, wantPRFilesJSON},
		{"files table", []string{"pr", "files", "--base", "main^", "--head", "main", "--repo", dir}, wantPRFilesTable},
		{"files no change", []string{"pr", "files", "--repo", dir, "--base", "v1", "--head", "v1", "--json"}, "[]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tt.args...)
			if code != 0 || out != tt.out || errOut != "" {
				t.Errorf("code %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s", code, out, tt.out, errOut)
			}
		})
	}
}

func TestPRShortSHA(t *testing.T) {
	dir := prRepo(t)
	out, _, code := runCLI(t, "pr", "files", "--repo", dir, "--base", "v1", "--head", "main", "--json")
	if code != 0 || out != wantPRFilesJSON {
		t.Fatalf("code %d, out %s", code, out)
	}
	repo, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	head, err := repo.Head()
	if err != nil {
		t.Fatal(err)
	}
	out, _, code = runCLI(t, "pr", "files", "--repo", dir, "--base", head.Hash().String()[:7]+"~1", "--head", head.Hash().String()[:9], "--json")
	if code != 0 || out != wantPRFilesJSON {
		t.Fatalf("short SHAs: code %d, out %s", code, out)
	}
}

func TestPRBadInput(t *testing.T) {
	dir := prRepo(t)
	empty := t.TempDir()
	tests := []struct {
		name   string
		args   []string
		errOut string
	}{
		{"missing base and head", []string{"pr", "stats", "--repo", dir},
			`lolbench: required flag(s) "base", "head" not set` + "\n"},
		{"missing head", []string{"pr", "files", "--repo", dir, "--base", "v1"},
			`lolbench: required flag(s) "head" not set` + "\n"},
		{"not a repository", []string{"pr", "stats", "--repo", empty, "--base", "v1", "--head", "main"},
			"lolbench: " + empty + ": not a git repository\n"},
		{"missing directory", []string{"pr", "files", "--repo", empty + "/nope", "--base", "v1", "--head", "main"},
			"lolbench: " + empty + "/nope: not a git repository\n"},
		{"unknown base", []string{"pr", "stats", "--repo", dir, "--base", "v9", "--head", "main"},
			`lolbench: unknown revision "v9" in ` + dir + "\n"},
		{"unknown head", []string{"pr", "files", "--repo", dir, "--base", "v1", "--head", "main~5"},
			`lolbench: unknown revision "main~5" in ` + dir + "\n"},
		{"option as revision", []string{"pr", "files", "--repo", dir, "--base", "v1", "--head=--output=x"},
			`lolbench: unknown revision "--output=x" in ` + dir + "\n"},
		{"extra argument", []string{"pr", "stats", "--repo", dir, "--base", "v1", "--head", "main", "extra"},
			`lolbench: unknown command "extra" for "lolbench pr stats"` + "\n"},
		{"unknown subcommand", []string{"pr", "scope"},
			`lolbench: unknown command "scope" for "lolbench pr"` + "\n"},
		{"unknown flag", []string{"pr", "files", "--rev", "x"},
			"lolbench: unknown flag: --rev (see 'lolbench pr files --help')\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tt.args...)
			if code != exitBadInput || out != "" || errOut != tt.errOut {
				t.Errorf("code %d\nstdout %q\nstderr %q\nwant   %q", code, out, errOut, tt.errOut)
			}
		})
	}
}

func TestPRWithoutGit(t *testing.T) {
	dir := prRepo(t)
	t.Setenv("PATH", t.TempDir())
	out, errOut, code := runCLI(t, "pr", "stats", "--repo", dir, "--base", "v1", "--head", "main")
	want := "lolbench: git not found on PATH: lolbench needs the git command for line diffs and rename detection; install git 2.32 or newer\n"
	if code != exitBadInput || out != "" || errOut != want {
		t.Errorf("code %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestPRHelp(t *testing.T) {
	for _, args := range [][]string{{"pr", "--help"}, {"pr", "stats", "--help"}, {"pr", "files", "--help"}} {
		out, _, code := runCLI(t, args...)
		if code != 0 || !strings.Contains(out, "Usage:") || !strings.Contains(out, "lolbench pr") {
			t.Errorf("%v: code %d, out %q", args, code, out)
		}
	}
	out, _, _ := runCLI(t, "pr", "stats", "--help")
	if !strings.Contains(out, "Examples:") || !strings.Contains(out, "--base") {
		t.Errorf("stats help has no example or flags: %s", out)
	}
}
