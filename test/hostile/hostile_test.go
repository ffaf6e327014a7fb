// Package hostile runs the lolbench binary on the hostile inputs and faults
// of issue 14, as a user would meet them, and asserts the exact message and
// exit status of each: path escapes and unbounded reads, parsers past their
// bounds, registry errors, GitHub faults and crash hygiene. Time and memory
// bounds are not timed here: they are benchmarks (go test -bench
// ParseHostile ./pipeline/ep ./pipeline/registry/safeyaml).
package hostile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lolbench/lolbench/pipeline/workspace"
)

var root = func() string { r, _ := filepath.Abs("../.."); return r }()

var (
	buildOnce sync.Once
	bin       string
	buildErr  error
)

// lolbench builds the binary once and runs it in dir with env added.
func lolbench(t *testing.T, dir string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	buildOnce.Do(func() {
		out, err := os.MkdirTemp("", "lolbench-hostile-")
		if err != nil {
			buildErr = err
			return
		}
		bin = filepath.Join(out, "lolbench")
		cmd := exec.Command("go", "build", "-o", bin, "./cmd/lolbench")
		cmd.Dir = root
		if b, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, b)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "LOLBENCH_LLM_") && !strings.HasPrefix(kv, "GITHUB_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// check compares a run with the expected stderr ($DIR stands for dir) and
// exit status.
func check(t *testing.T, dir, gotErr string, gotCode int, wantErr string, wantCode int) {
	t.Helper()
	wantErr = strings.ReplaceAll(wantErr, "$DIR", dir)
	if gotCode != wantCode || gotErr != wantErr {
		t.Errorf("exit %d, stderr:\n%s\nwant exit %d, stderr:\n%s", gotCode, gotErr, wantCode, wantErr)
	}
}

// Path escapes and unbounded reads: the EP size cap, regular files only.
func TestEPReads(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "big.md"), strings.Repeat("x", 1<<20+1))
	os.Symlink("/etc/passwd", filepath.Join(dir, "passwd.md"))
	tests := []struct {
		name string
		args []string
		err  string
		code int
	}{
		{"over the size cap", []string{"ep", "headings", "big.md"}, "lolbench: read EP document: big.md: 1048577 bytes, more than the EP size cap of 1 MiB\n", 2},
		{"a link to a host file", []string{"ep", "headings", "passwd.md"}, "lolbench: read EP document: passwd.md: a symbolic link; only regular files are read\n", 2},
		{"a device", []string{"ep", "headings", "/dev/zero", "--format", "md"}, "lolbench: read EP document: /dev/zero: a device; only regular files are read\n", 2},
		{"validate applies the same cap", []string{"validate", "--ep", "big.md", "--repo", ".", "--base", "a", "--head", "b", "--mapping", "m.md"},
			"lolbench: read EP document: big.md: 1048577 bytes, more than the EP size cap of 1 MiB\n", 2},
		{"a mapping that is a device", []string{"mapping", "show", "/dev/zero"}, "lolbench: read mapping /dev/zero: /dev/zero: a device; only regular files are read\n", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := lolbench(t, dir, nil, tt.args...)
			check(t, dir, stderr, code, tt.err, tt.code)
		})
	}
}

// Parsers are bounded: what is past a bound is refused with one line
// naming the file, the line and the bound; the shapes that took minutes
// parse (their time is BenchmarkParseHostile's).
func TestEPParseBounds(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"quotes.md":  strings.Repeat(">", 400000) + "\n",
		"lists.md":   "# A\n" + strings.Repeat("- ", 50000) + "x\n",
		"nul.md":     "# A\n\nte\x00xt\n",
		"deep-fm.md": "---\ntitle: x\nk: " + strings.Repeat("[", 40000) + "\n---\n# A\n",
		"keys-fm.md": "---\n" + func() string {
			var b strings.Builder
			for i := range 200 {
				fmt.Fprintf(&b, "k%d: v\n", i)
			}
			return b.String()
		}() + "---\n# A\n",
		"headings.md": strings.Repeat("#\n", 10001),
		"titles.rst":  strings.Repeat("T\n=\n\n", 10001),
		"links.md":    "# Title [a](\n\n" + strings.Repeat("[a](", 75000) + "\n",
		"deflist.md": "# A\n\n" + func() string {
			var b strings.Builder
			for i := 0; b.Len() < 400000; i++ {
				fmt.Fprintf(&b, "[r%d]: /u\n", i)
			}
			return b.String()
		}(),
	}
	for name, content := range files {
		write(t, filepath.Join(dir, name), content)
	}
	tests := []struct {
		file, out, err string
		code           int
	}{
		{"quotes.md", "", "lolbench: parse quotes.md: line 1: 400000 nested block quotes or list items on one line, more than the 16 an EP may open\n", 2},
		{"lists.md", "", "lolbench: parse lists.md: line 2: 50000 nested block quotes or list items on one line, more than the 16 an EP may open\n", 2},
		{"nul.md", "", "lolbench: parse nul.md: line 3: NUL byte (EP documents are text)\n", 2},
		{"deep-fm.md", "", "lolbench: parse deep-fm.md: line 3: front matter: YAML nested more than 32 levels deep\n", 2},
		{"keys-fm.md", "", "lolbench: parse keys-fm.md: line 130: front matter: a YAML mapping with more than 128 keys\n", 2},
		{"headings.md", "", "lolbench: parse headings.md: line 10001: more than 10000 headings; an EP has a few hundred at most\n", 2},
		{"titles.rst", "", "lolbench: parse titles.rst: line 30001: more than 10000 headings; an EP has a few hundred at most\n", 2},
		{"deflist.md", "", "lolbench: parse deflist.md: line 3: too many link reference definitions at the head of a long paragraph; end them with a blank line\n", 2},
		{"links.md", "1 Title [a]( (line 1)\n", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			stdout, stderr, code := lolbench(t, dir, nil, "ep", "headings", tt.file)
			check(t, dir, stderr, code, tt.err, tt.code)
			if stdout != tt.out {
				t.Errorf("stdout %q, want %q", stdout, tt.out)
			}
		})
	}
}

// A mapping with a byte order mark reads as without one; a NUL byte is an
// error at its line.
func TestMappingReads(t *testing.T) {
	dir := t.TempDir()
	sample, err := os.ReadFile(filepath.Join(root, "data/samples/tinykv/mapping.md"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "plain.md"), string(sample))
	write(t, filepath.Join(dir, "bom.md"), "\ufeff"+string(sample))
	plain, _, code := lolbench(t, dir, nil, "mapping", "show", "plain.md", "--json")
	withBOM, _, code2 := lolbench(t, dir, nil, "mapping", "show", "bom.md", "--json")
	if code != 0 || code2 != 0 || plain != withBOM {
		t.Errorf("with a BOM: exit %d and %d, same output %v", code, code2, plain == withBOM)
	}
	write(t, filepath.Join(dir, "nul.md"), strings.Replace(string(sample), "# Mapping:", "# Mapp\x00ing:", 1))
	_, stderr, code := lolbench(t, dir, nil, "mapping", "show", "nul.md")
	if code != 2 || !strings.HasPrefix(stderr, "nul.md:1: NUL byte; a mapping artifact is text\n") {
		t.Errorf("NUL: exit %d, stderr:\n%s", code, stderr)
	}
}

// project is a registry entry of a local project whose proposals are in
// eps/; extra is appended to it.
func project(extra string) string {
	return "projects:\n  - name: demo\n    path: repo\n    language: Go\n    domain: d\n    eps: {kind: local, dir: eps, glob: \"*.md\", name: \"DEP-{n}\"}\n" + extra
}

// Registry errors are exact and complete; paths stay in the registry's
// folder.
func TestRegistries(t *testing.T) {
	tests := []struct {
		name, registry, err string
	}{
		{"paths leave the registry's folder", project("    links:\n      curated:\n        - {ep: 1, pr: 1, base: a, head: b, created_at: 2026-01-01, merged_at: 2026-01-02, mapping: /etc/passwd}\n        - {ep: 2, pr: 2, base: a, head: b, created_at: 2026-01-01, merged_at: 2026-01-02, mapping: ../../../dev/zero}\n"),
			"lolbench: $DIR/p.yaml:9: projects[0].links.curated[0].mapping: \"/etc/passwd\" must be a path inside the registry's folder: relative to it, without '..'\n" +
				"$DIR/p.yaml:10: projects[0].links.curated[1].mapping: \"../../../dev/zero\" must be a path inside the registry's folder: relative to it, without '..'\n"},
		{"every error at once", project("    links: {curated: [{ep: 1, pr: 1.5, base: a, head: b, created_at: 2026-01-01, merged_at: 2026-01-02}]}\n    thresholds:\n      min_files: 9.99\n      min_loc: lots\n      colour: red\n    domain: again\n"),
			"lolbench: $DIR/p.yaml:7: projects[0].links.curated[0].pr: want an integer, got 1.5\n" +
				"$DIR/p.yaml:9: projects[0].thresholds.min_files: want an integer, got 9.99\n" +
				"$DIR/p.yaml:10: projects[0].thresholds.min_loc: want an integer, got \"lots\"\n" +
				"$DIR/p.yaml:11: projects[0].thresholds.colour: unknown field \"colour\"\n" +
				"$DIR/p.yaml:12: projects[0].domain: duplicate key; first defined at line 5\n"},
		{"nested 40,000 levels", project("    links:\n      curated: " + strings.Repeat("[", 40000) + "\n"),
			"lolbench: $DIR/p.yaml:8: YAML nested more than 32 levels deep\n"},
		{"NUL byte", project("    links: {curated: []}\n    language: \x00\n"), "lolbench: $DIR/p.yaml:8: NUL byte; YAML is text\n"},
		{"over the size cap", project("#" + strings.Repeat("x", 256<<10) + "\n"),
			"lolbench: registry: $DIR/p.yaml: 262281 bytes, more than the registry size cap of 256 KiB\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "p.yaml"), tt.registry)
			_, stderr, code := lolbench(t, dir, nil, "collect", "--projects", filepath.Join(dir, "p.yaml"), "--workspace", filepath.Join(dir, "work"), "--offline")
			check(t, dir, stderr, code, tt.err, 2)
		})
	}
}

// A curated mapping that is a link to a host file is refused; nothing of
// the file reaches the workspace. With a byte order mark, the registry
// reads as without one.
func TestCuratedMappingLink(t *testing.T) {
	dir := t.TempDir()
	writeLocalProject(t, dir)
	os.Symlink("/etc/passwd", filepath.Join(dir, "curated", "leak.md"))
	write(t, filepath.Join(dir, "p.yaml"), "\ufeff"+project("    links:\n      curated:\n        - {ep: 1, pr: 1, base: base, head: head, created_at: 2026-03-01, merged_at: 2026-03-02, mapping: curated/leak.md}\n    thresholds: {min_loc: 1, min_changed_lines: 1, min_files: 1, min_test_files: 0}\n"))
	_, stderr, code := lolbench(t, dir, nil, "collect", "--projects", "p.yaml", "--workspace", "work", "--offline")
	want := "lolbench: project demo: DEP-1 #1: p.yaml:9: projects[0].links.curated[0].mapping: $DIR/curated/leak.md: a symbolic link; only regular files are read\n"
	if !strings.HasSuffix(stderr, strings.ReplaceAll(want, "$DIR", dir)) || code != 2 {
		t.Errorf("exit %d, stderr:\n%s\nwant it to end with:\n%s", code, stderr, strings.ReplaceAll(want, "$DIR", dir))
	}
	filepath.WalkDir(filepath.Join(dir, "work"), func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte("root:x:0:0")) {
				t.Errorf("%s holds /etc/passwd", p)
			}
		}
		return nil
	})

	// The same registry with a regular mapping collects the candidate.
	os.Remove(filepath.Join(dir, "curated", "leak.md"))
	write(t, filepath.Join(dir, "curated", "leak.md"), "# Mapping: demo-dep-0001\n")
	_, stderr, code = lolbench(t, dir, nil, "collect", "--projects", "p.yaml", "--workspace", "work", "--offline")
	got, _ := os.ReadFile(filepath.Join(dir, "work", "candidates", "demo-dep-0001", "mapping.md"))
	if code != 0 || string(got) != "# Mapping: demo-dep-0001\n" {
		t.Errorf("exit %d, mapping %q, stderr:\n%s", code, got, stderr)
	}
}

// writeLocalProject builds repo/ (tags base and head), eps/0001-x.md and
// curated/.
func writeLocalProject(t *testing.T, dir string) {
	t.Helper()
	base, head := t.TempDir(), t.TempDir()
	write(t, filepath.Join(base, "a.go"), "package a\n")
	write(t, filepath.Join(head, "a.go"), "package a\n\nfunc A() {}\n")
	write(t, filepath.Join(head, "a_test.go"), "package a\n")
	gitRepo(t, filepath.Join(dir, "repo"), base, head)
	write(t, filepath.Join(dir, "eps", "0001-x.md"), "---\ncreated: 2026-01-01\n---\n# X\n")
	os.MkdirAll(filepath.Join(dir, "curated"), 0o755)
}

// GitHub faults: a token echoed by an error answer is redacted; a 404 on
// one PR drops its proposal with the reason; an incomplete search is not
// recorded as final and runs again.
func TestGitHubFaults(t *testing.T) {
	const token = "ghp_hostileTOKEN0123456789"
	var mu sync.Mutex
	mode := "echo"
	searches := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch {
		case mode == "echo":
			w.WriteHeader(422)
			fmt.Fprintf(w, `{"message":"Validation Failed for Authorization: %s"}`, r.Header.Get("Authorization"))
		case r.URL.Path == "/search/issues":
			searches++
			fmt.Fprintf(w, `{"total_count":0,"incomplete_results":%v,"items":[]}`, searches == 1)
		default:
			w.WriteHeader(404)
			fmt.Fprint(w, `{"message":"Not Found"}`)
		}
	}))
	defer srv.Close()
	env := []string{"GITHUB_TOKEN=" + token, "GITHUB_API_URL=" + srv.URL + "/"}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "eps", "0001-x.md"), "---\ncreated: 2026-01-01\n---\n# X\n")
	reg := "projects:\n  - name: demo\n    repo: acme/demo\n    language: Go\n    domain: d\n    eps: {kind: local, dir: eps, glob: \"*.md\", name: \"DEP-{n}\"}\n    links:\n      search: {patterns: [\"DEP-{n}\"]}\n      curated: [{ep: 1, pr: 99}]\n"
	write(t, filepath.Join(dir, "p.yaml"), reg)
	collect := func() (string, int) {
		_, stderr, code := lolbench(t, dir, env, "collect", "--projects", "p.yaml", "--workspace", "work")
		return stderr, code
	}

	stderr, code := collect()
	if code != 2 || strings.Contains(stderr, token) || !strings.HasSuffix(stderr,
		"lolbench: project demo: DEP-1: github pull request acme/demo#99: GET "+srv.URL+"/repos/acme/demo/pulls/99: 422 Validation Failed for Authorization: Bearer [token] []\n") {
		t.Errorf("token echo: exit %d, stderr:\n%s", code, stderr)
	}

	mode = "faults"
	stderr, code = collect()
	var f struct {
		Projects []struct {
			Dropped []struct {
				EP, Step, Reason string
			} `json:"dropped"`
			Incomplete []string `json:"incomplete_searches"`
		} `json:"projects"`
	}
	data, _ := os.ReadFile(filepath.Join(dir, "work", "collect", "funnel.json"))
	json.Unmarshal(data, &f)
	q := `repo:acme/demo is:pr in:title,body "DEP-1"`
	if code != 0 || len(f.Projects) != 1 || len(f.Projects[0].Dropped) != 1 ||
		f.Projects[0].Dropped[0].Reason != "curated PR #99 of DEP-1: github pull request acme/demo#99: not found on GitHub (404)" ||
		len(f.Projects[0].Incomplete) != 1 || f.Projects[0].Incomplete[0] != q {
		t.Errorf("404 and incomplete search: exit %d, funnel %s\nstderr:\n%s", code, data, stderr)
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "work", "collect", "demo", "github", "search-*.json"))
	if len(matches) != 0 {
		t.Errorf("an incomplete search was recorded: %v", matches)
	}
	if _, _, code := lolbench(t, dir, env, "collect", "--projects", "p.yaml", "--workspace", "work"); code != 0 || searches != 2 {
		t.Errorf("second run: exit %d, %d searches in all, want 2", code, searches)
	}
	matches, _ = filepath.Glob(filepath.Join(dir, "work", "collect", "demo", "github", "search-*.json"))
	if len(matches) != 1 {
		t.Errorf("the complete search was not recorded: %v", matches)
	}
}

// Crash hygiene: a second run on a workspace in use exits with a message;
// a run removes what the writes of a killed run left.
func TestCrashHygiene(t *testing.T) {
	dir := t.TempDir()
	ws, err := workspace.Open(filepath.Join(dir, "work"), true)
	if err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(ws.Root, "llm", "ab", ".abcd.json.tmp-4242")
	write(t, stale, "half a file")

	lock, err := ws.LockRun("")
	if err != nil {
		t.Fatal(err)
	}
	_, stderr, code := lolbench(t, dir, nil, "run", "--workspace", "work", "--executor", "local")
	lock.Release()
	host, _ := os.Hostname()
	prefix := fmt.Sprintf("lolbench: the workspace is in use by another lolbench run: %s is locked by pid %d on %s since ", ws.Root, os.Getpid(), host)
	if code != 2 || !strings.HasPrefix(stderr, prefix) || !strings.HasSuffix(stderr, "("+filepath.Join(ws.Root, "locks", "run.lock")+"); wait for it to finish\n") {
		t.Errorf("busy workspace: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(stale); err != nil {
		t.Fatalf("the refused run touched the workspace: %v", err)
	}

	_, stderr, code = lolbench(t, dir, nil, "run", "--workspace", "work", "--executor", "local", "--to", "map")
	if _, err := os.Stat(stale); !os.IsNotExist(err) || code != 0 || !strings.HasPrefix(stderr, "removed 1 temporary file left by an interrupted run\n") {
		t.Errorf("stale file: %v, exit %d, stderr %q", err, code, stderr)
	}
}
