package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline/registry"
	"github.com/lolbench/lolbench/stages/collect"
)

func TestCollectFlags(t *testing.T) {
	loc, lines, share := int64(1000), 50, 0.25
	tests := []struct {
		name    string
		args    []string
		want    *CollectOptions
		wantErr string
	}{
		{"defaults", nil, &CollectOptions{Registry: "data/projects.yaml", Workspace: "work"}, ""},
		{"everything", []string{"--projects", "p.yaml", "--workspace", "w", "--project", "a,b", "--project", "c", "--offline", "--json",
			"--min-loc", "1000", "--min-changed-lines", "50", "--min-source-share", "0.25"},
			&CollectOptions{Registry: "p.yaml", Workspace: "w", Projects: []string{"a", "b", "c"}, Offline: true, JSON: true,
				Overrides: registry.Overrides{MinLoC: &loc, MinChangedLines: &lines, MinSourceShare: &share}}, ""},
		{"a flag equal to its default still wins", []string{"--min-loc", "50000"}, &CollectOptions{Registry: "data/projects.yaml", Workspace: "work",
			Overrides: registry.Overrides{MinLoC: ptr(int64(50000))}}, ""},
		{"bad number", []string{"--min-files", "many"}, nil, `invalid argument "many" for "--min-files"`},
		{"stray argument", []string{"x"}, nil, `unknown command "x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got *CollectOptions
			cmd := newCmdCollect(&Factory{IO: &IOStreams{}}, func(o *CollectOptions) error { got = o; return nil })
			cmd.SetArgs(tt.args)
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
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("options = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// localRegistry sets up the offline tinykv project exactly as
// docs/projects.md shows it: the sample repository from make-repo.sh, the
// EP folder, and the registry block of the documentation.
func localRegistry(t *testing.T) (dir, reg string) {
	t.Helper()
	dir = t.TempDir()
	out, err := exec.Command("bash", "../../data/samples/tinykv/make-repo.sh", filepath.Join(dir, "repo")).CombinedOutput()
	if err != nil {
		t.Fatalf("make-repo.sh: %v\n%s", err, out)
	}
	ep, err := os.ReadFile("../../data/samples/tinykv/ep.md")
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "eps"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "eps", "tkep-0002.md"), ep, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := os.ReadFile("../../data/samples/tinykv/mapping.md")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mapping.md"), m, 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../docs/projects.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "### A local project")
	_, block, ok2 := strings.Cut(section, "```yaml\n")
	block, _, ok3 := strings.Cut(block, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("docs/projects.md has no local project example")
	}
	reg = filepath.Join(dir, "projects.yaml")
	if err := os.WriteFile(reg, []byte(block), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, reg
}

func TestCollectLocalProject(t *testing.T) {
	dir, reg := localRegistry(t)
	ws := filepath.Join(dir, "work")
	out, errOut, code := runCLI(t, "collect", "--projects", reg, "--workspace", ws, "--offline")
	if code != 0 {
		t.Fatalf("collect: code %d\n%s", code, errOut)
	}
	want := `tinykv: 1 EP, 1 EP-PR pair -> 1 candidate
  proposals: local folder ` + filepath.Join(dir, "eps") + `
  software: local repository ` + filepath.Join(dir, "repo") + `
  #  step                   unit   considered  kept  dropped
     eps                    eps    1           1     0
     status                 eps    1           1     0
     linked                 eps    1           1     0
  4  one-merged-pr          pairs  1           1     0
  3  ep-predates-pr         pairs  1           1     0
  2  pr-size                pairs  1           1     0
  5  has-tests              pairs  1           1     0
     revisions              pairs  1           1     0
  1  source-loc             pairs  1           1     0
  6  implementable-section  pairs  1           -     -  (pending: the mapping stage enforces it)
  paired: TKEP-2 #1 by curated (projects.yaml:14 (projects[0].links.curated[0]))
`
	if out != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", out, want)
	}
	for _, line := range []string{"tinykv: linking 1/1 TKEP-2\n", "tinykv: checking 1/1 TKEP-2 #1\n"} {
		if !strings.Contains(errOut, line) {
			t.Errorf("stderr lacks %q:\n%s", line, errOut)
		}
	}
	// The funnel's headline is stdout's, not repeated as progress.
	if strings.Contains(errOut, "-> 1 candidate") {
		t.Errorf("stderr repeats the funnel's headline:\n%s", errOut)
	}

	// The curated mapping seeds the candidate; a later collect keeps the
	// candidate's own, edited copy.
	cm := filepath.Join(ws, "candidates", "tinykv-tkep-0002", "mapping.md")
	got, _ := os.ReadFile(cm)
	sample, _ := os.ReadFile(filepath.Join(dir, "mapping.md"))
	if string(got) != string(sample) {
		t.Errorf("candidate mapping.md is not the curated one")
	}
	os.WriteFile(cm, []byte("edited"), 0o644)
	if _, errOut, code := runCLI(t, "collect", "--projects", reg, "--workspace", ws, "--offline"); code != 0 {
		t.Fatalf("second collect: %s", errOut)
	}
	if got, _ := os.ReadFile(cm); string(got) != "edited" {
		t.Errorf("a second collect overwrote the candidate's mapping.md")
	}

	out, _, code = runCLI(t, "candidates", "list", "--workspace", ws)
	wantList := "id                ep      pr  collected  stages  title\ntinykv-tkep-0002  TKEP-2  #1  kept       -       Key expiry\n"
	if code != 0 || out != wantList {
		t.Errorf("candidates list: code %d\n%s\nwant:\n%s", code, out, wantList)
	}
	out, _, code = runCLI(t, "candidates", "list", "--workspace", ws, "--json")
	var rows []candidateRow
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 1 || !rows[0].Kept || rows[0].PRTitle != "Add key expiry (TKEP-2)" ||
		!reflect.DeepEqual(rows[0].Pending, []string{"implementable-section"}) {
		t.Errorf("candidates list --json: code %d\n%s", code, out)
	}

	// --json prints the workspace funnel; a flag stricter than the
	// registry drops the candidate, and the listing says why.
	out, _, code = runCLI(t, "collect", "--projects", reg, "--workspace", ws, "--offline", "--json", "--min-loc", "1000")
	saved, _ := os.ReadFile(filepath.Join(ws, "collect", "funnel.json"))
	if code != 0 || out != string(saved) {
		t.Fatalf("--json: code %d, stdout differs from funnel.json:\n%s\n%s", code, out, saved)
	}
	var f struct {
		Projects []struct {
			Candidates int      `json:"candidates"`
			Stale      []string `json:"stale"`
			Dropped    []struct {
				Step, Reason string
			} `json:"dropped"`
		} `json:"projects"`
	}
	if err := json.Unmarshal(saved, &f); err != nil || len(f.Projects) != 1 || f.Projects[0].Candidates != 0 ||
		len(f.Projects[0].Dropped) != 1 || f.Projects[0].Dropped[0].Reason != "385 source LoC at the base commit, fewer than 1000" {
		t.Fatalf("funnel after --min-loc 1000: %v\n%s", err, saved)
	}
	out, _, _ = runCLI(t, "candidates", "list", "--workspace", ws)
	if !strings.Contains(out, "tinykv-tkep-0002  TKEP-2  #1  dropped (source-loc)") {
		t.Errorf("candidates list after the drop:\n%s", out)
	}
}

func TestCollectBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("projects:\n  - name: x\n    repo: o/r\n    language: Go\n    domain: d\n    eps: {kind: local, dir: e, glob: \"*\", name: \"X {n}\"}\n    links:\n      search:\n        patterns: [\"X\"]\n"), 0o644)
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"bad registry", []string{"collect", "--projects", bad, "--workspace", dir}, "lolbench: " + bad + `:9: projects[0].links.search.patterns[0]: "X" must hold {n} exactly once` + "\n"},
		{"missing registry", []string{"collect", "--projects", filepath.Join(dir, "none.yaml"), "--workspace", dir},
			"lolbench: registry: open " + filepath.Join(dir, "none.yaml") + ": no such file or directory\n"},
		{"bad threshold", []string{"collect", "--projects", "../../data/projects.yaml", "--workspace", dir, "--min-source-share", "1.5"},
			"lolbench: --min-source-share must be at least 0 and below 1, got 1.5\n"},
		{"unknown project", []string{"collect", "--projects", "../../data/projects.yaml", "--workspace", dir, "--project", "nope"},
			`lolbench: ../../data/projects.yaml has no project "nope"; it has cpython, mypy, django, scikit-learn, numpy, pandas, kubernetes, kueue, cert-manager, rust, cargo, grpc-go, prometheus, presto, opentofu, roslyn, go, jdk, kafka, flink, php, typescript, ruff, datafusion, vitess, aspnetcore, iceberg, arrow, duckdb, fastapi` + "\n"},
		{"offline without clones", []string{"collect", "--projects", "../../data/projects.yaml", "--workspace", dir, "--project", "cpython", "--offline"},
			"lolbench: project cpython: proposals: no clone of https://github.com/python/peps.git at " + filepath.Join(dir, "repos", "cpython.eps") +
				": offline; run once without --offline to clone it\n"},
		{"list a missing workspace", []string{"candidates", "list", "--workspace", filepath.Join(dir, "none")},
			"lolbench: workspace " + filepath.Join(dir, "none") + " does not exist\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := runCLI(t, tt.args...)
			if code != exitBadInput || !strings.HasSuffix(errOut, tt.wantErr) {
				t.Fatalf("code %d, stderr:\n%s\nwant suffix:\n%s", code, errOut, tt.wantErr)
			}
		})
	}
}

func TestCandidatesListProblems(t *testing.T) {
	ws := t.TempDir()
	_, errOut, code := runCLI(t, "candidates", "list", "--workspace", ws)
	if code != 0 || errOut != "no candidates in "+ws+"; run lolbench collect first\n" {
		t.Errorf("empty workspace: code %d, %q", code, errOut)
	}
	os.MkdirAll(filepath.Join(ws, "candidates", "x-1"), 0o755)
	os.WriteFile(filepath.Join(ws, "candidates", "x-1", "candidate.json"), []byte("{\"id\": 1"), 0o644)
	os.MkdirAll(filepath.Join(ws, "candidates", "x-2"), 0o755)
	out, _, code := runCLI(t, "candidates", "list", "--workspace", ws)
	want := "id   ep  pr  collected  stages  title\n" +
		"x-1  -   -   error      -       read " + filepath.Join(ws, "candidates", "x-1", "candidate.json") + ": unexpected EOF\n" +
		"x-2  -   -   error      -       candidate x-2 has no candidate.json; run lolbench collect first\n"
	if code != exitFindings || out != want {
		t.Errorf("code %d\n%s\nwant:\n%s", code, out, want)
	}
}

// On a terminal the progress is a bar, and log lines clear it first.
func TestProgressOnATerminal(t *testing.T) {
	var buf strings.Builder
	p := newProgress(&buf, true)
	p.event(collect.Event{Project: "tinykv", Phase: "linking", Done: 0, Total: 2, Item: "TKEP-2"})
	p.log("cloning %s", "x")
	p.event(collect.Event{Project: "tinykv", Phase: "checking", Done: 1, Total: 2, Item: "TKEP-2 #1"})
	p.finish()
	out := buf.String()
	for _, want := range []string{"tinykv: linking TKEP-2", "cloning x\n", "tinykv: checking TKEP-2 #1"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%q", want, out)
		}
	}
	var plain strings.Builder
	q := newProgress(&plain, false)
	q.event(collect.Event{Project: "tinykv", Phase: "linking", Done: 0, Total: 2, Item: "TKEP-2"})
	q.event(collect.Event{Project: "tinykv", Phase: "linking", Done: 2, Total: 2})
	q.log("done")
	if plain.String() != "tinykv: linking 1/2 TKEP-2\ndone\n" {
		t.Errorf("plain progress = %q", plain.String())
	}
}
