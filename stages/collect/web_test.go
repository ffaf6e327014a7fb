package collect

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/registry"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// jepPage is a JEP-shaped page of our own.
const jepPage = `<!DOCTYPE html><html><head><title>JEP 9001: Scoped Widget Pools</title><script>var x = "# no";</script></head>
<body><div id="main"><h1>JEP 9001: Scoped Widget Pools</h1>
<table class="head"><tr><th>Owner</th><td>A. Author</td></tr><tr><th>Status</th><td>Closed&#8201;/&#8201;Delivered</td></tr>
<tr><th>Created</th><td>2026/01/15 10:30</td></tr></table>
<h2>Summary</h2><p>Add <em>scoped widget pools</em> to <code>widget</code>.</p>
<h2>Description</h2><p>A pool lends widgets for the extent of a block.</p>
</div><div id="sidebar"><h2>Navigation</h2></div></body></html>
`

// jepServer serves JEP-shaped pages: 9001 as it is, 9002 not found, 9003
// in Latin-1, 9004 over the size cap; it counts the requests.
func jepServer(t *testing.T) (*httptest.Server, *int) {
	t.Helper()
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		if got := r.Header.Get("User-Agent"); got != "lolbench/test" {
			t.Errorf("User-Agent %q", got)
		}
		switch r.URL.Path {
		case "/jeps/9001":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(jepPage))
		case "/jeps/9003":
			w.Header().Set("Content-Type", "text/html; charset=iso-8859-1")
			w.Write([]byte("<html><body><div id=main><h1>JEP 9003: Caf\xe9 Widgets</h1><h2>Summary</h2></div></body></html>"))
		case "/jeps/9004":
			w.Write(bytes.Repeat([]byte("x"), ep.MaxSize+1))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// closedURL is an address where nothing listens.
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/jeps/9005"
}

func webRegistry(t *testing.T, dir, body string) *registry.Registry {
	t.Helper()
	p := filepath.Join(dir, "projects.yaml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	reg, err := registry.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// FetchPages saves each page with its record, names every page it could
// not fetch, skips saved pages, and fetches them again with Force.
func TestFetchPages(t *testing.T) {
	srv, hits := jepServer(t)
	dir := t.TempDir()
	dead := closedURL(t)
	reg := webRegistry(t, dir, `projects:
  - name: jdk
    repo: openjdk/jdk
    language: Java
    domain: language runtime
    eps:
      kind: web
      url: "`+srv.URL+`/jeps/{n}"
      pages: [{ep: 9001}, {ep: 9002}, {ep: 9003}, {ep: 9004}, {ep: 9005, url: "`+dead+`"}]
      name: "JEP {n}"
    links: {search: {patterns: ["JEP {n}"]}}
`)
	p := reg.Projects[0]
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	var progress []string
	opts := FetchOptions{UserAgent: "lolbench/test", Now: func() time.Time { return now },
		Progress: func(f Fetch) { progress = append(progress, f.EP) }}
	recs, err := FetchPages(context.Background(), reg, p, opts)
	if err == nil {
		t.Fatal("no error for the pages that failed")
	}
	lines := strings.Split(err.Error(), "\n")
	want := []string{
		"project jdk: 3 of 5 pages not fetched:",
		"  JEP 9002 (" + srv.URL + "/jeps/9002): HTTP 404 Not Found",
		"  JEP 9004 (" + srv.URL + "/jeps/9004): more than the EP size cap of 1 MiB",
		"  JEP 9005 (" + dead + "): Get \"" + dead + "\": dial tcp " + strings.TrimPrefix(strings.TrimSuffix(dead, "/jeps/9005"), "http://") + ": connect: connection refused",
	}
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("error:\n%s\nwant:\n%s", err, strings.Join(want, "\n"))
	}
	if !reflect.DeepEqual(progress, []string{"9001", "9002", "9003", "9004", "9005"}) {
		t.Errorf("progress %v", progress)
	}
	web := filepath.Join(dir, "web", "jdk")
	var rec Fetch
	if err := workspace.ReadJSON(filepath.Join(web, "9001.json"), &rec); err != nil {
		t.Fatal(err)
	}
	wantRec := Fetch{EP: "9001", URL: srv.URL + "/jeps/9001", FetchedAt: now, Status: 200, ContentType: "text/html; charset=utf-8",
		Bytes: len(jepPage), SHA256: rec.SHA256, File: "9001.html"}
	if rec != wantRec || len(rec.SHA256) != 64 || recs[0] != wantRec {
		t.Errorf("record %+v\nwant %+v", rec, wantRec)
	}
	if data, _ := os.ReadFile(filepath.Join(web, "9001.html")); string(data) != jepPage {
		t.Errorf("saved page %q", data)
	}
	// Latin-1 is saved as UTF-8.
	if data, _ := os.ReadFile(filepath.Join(web, "9003.html")); !strings.Contains(string(data), "Café Widgets") {
		t.Errorf("9003.html = %q", data)
	}
	for _, n := range []string{"9002", "9004", "9005"} {
		if _, err := os.Stat(filepath.Join(web, n+".json")); !os.IsNotExist(err) {
			t.Errorf("%s saved: %v", n, err)
		}
	}

	// Again: the saved pages are skipped, the others asked again.
	before := *hits
	recs, _ = FetchPages(context.Background(), reg, p, opts)
	if !recs[0].Skipped || !recs[2].Skipped || recs[1].Skipped || *hits-before != 2 {
		t.Errorf("second run: %+v, %d requests", recs, *hits-before)
	}
	before = *hits
	opts.Force = true
	FetchPages(context.Background(), reg, p, opts)
	if *hits-before != 4 {
		t.Errorf("--force: %d requests, want 4", *hits-before)
	}
}

// A kind web project is collected from its saved pages only: the
// candidate's ep.md is the page's Markdown rendering, and candidate.json
// records the page's address, when it was fetched, and that ep.md is a
// rendering. A page not saved yet is dropped with the command that saves
// it.
func TestCollectWebProject(t *testing.T) {
	srv, _ := jepServer(t)
	dir := t.TempDir()
	r, err := git.PlainInit(filepath.Join(dir, "jdk"), false)
	if err != nil {
		t.Fatal(err)
	}
	baseAt := time.Date(2026, 2, 1, 9, 0, 0, 0, time.UTC)
	base := commitAt(t, r, filepath.Join(dir, "jdk"), map[string]string{"src/a.go": goFile("a", 80)}, baseAt, baseAt)
	head := commitAt(t, r, filepath.Join(dir, "jdk"), map[string]string{"src/pool.go": goFile("a", 40), "src/pool_test.go": goFile("a", 10)}, baseAt.Add(time.Hour), baseAt.Add(time.Hour))
	reg := webRegistry(t, dir, `projects:
  - name: jdk
    path: jdk
    language: Go
    domain: language runtime
    eps:
      kind: web
      url: "`+srv.URL+`/jeps/{n}"
      pages: [{ep: 9001}, {ep: 9003}]
      name: "JEP {n}"
    links:
      curated:
        - {ep: 9001, pr: 1, base: `+base.String()+`, head: `+head.String()+`, created_at: 2026-02-01T09:00:00Z, merged_at: 2026-02-02T09:00:00Z}
    thresholds: {min_loc: 50, min_changed_lines: 40, min_files: 2, min_test_files: 1}
`)
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	// Only 9001 is saved: 9003 is dropped, naming the command.
	srvReg := *reg
	srvReg.Projects = []*registry.Project{{}}
	*srvReg.Projects[0] = *reg.Projects[0]
	srvReg.Projects[0].EPs.Pages = reg.Projects[0].EPs.Pages[:1]
	if _, err := FetchPages(context.Background(), &srvReg, srvReg.Projects[0], FetchOptions{UserAgent: "lolbench/test", Now: func() time.Time { return now }}); err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.Open(filepath.Join(dir, "work"), true)
	if err != nil {
		t.Fatal(err)
	}
	st := &Stage{Registry: reg, Offline: true, Log: func(string, ...any) {}}
	if err := st.Run(context.Background(), &pipeline.Env{Workspace: ws, Status: &bytes.Buffer{}, Getenv: func(string) string { return "" }}); err != nil {
		t.Fatal(err)
	}
	f := st.Funnel.Projects[0]
	if f.Proposals != "web pages saved in "+filepath.Join(dir, "web", "jdk") || f.Software != "local repository "+filepath.Join(dir, "jdk") {
		t.Errorf("funnel sources %q, %q", f.Proposals, f.Software)
	}
	wantDrop := Drop{EP: "9003.html", Path: "9003.html", Step: StepEPs,
		Reason: "unreadable: " + srv.URL + "/jeps/9003 is not saved in " + filepath.Join(dir, "web", "jdk") + " yet; run lolbench ep fetch --projects " + reg.File + " --project jdk"}
	if !reflect.DeepEqual(f.Dropped, []Drop{wantDrop}) || !reflect.DeepEqual(f.Kept, []string{"jdk-jep-9001"}) {
		t.Fatalf("dropped %+v\nkept %v", f.Dropped, f.Kept)
	}
	c, err := pipeline.OpenCandidate(ws, "jdk-jep-9001")
	if err != nil {
		t.Fatal(err)
	}
	info, err := c.LoadInfo()
	if err != nil {
		t.Fatal(err)
	}
	wantEP := pipeline.EPInfo{ID: "JEP 9001", Title: "Scoped Widget Pools", File: "ep.md", Status: "Closed / Delivered",
		Created: time.Date(2026, 1, 15, 10, 30, 0, 0, time.UTC), URL: srv.URL + "/jeps/9001", RenderedFrom: "html", Fetched: now}
	if info.EP != wantEP {
		t.Errorf("ep %+v\nwant %+v", info.EP, wantEP)
	}
	text, _ := os.ReadFile(filepath.Join(c.Dir, "ep.md"))
	wantText := "# JEP 9001: Scoped Widget Pools\n\n| Owner | A. Author |\n| --- | --- |\n| Status | Closed / Delivered |\n| Created | 2026/01/15 10:30 |\n\n" +
		"## Summary\n\nAdd *scoped widget pools* to `widget`.\n\n## Description\n\nA pool lends widgets for the extent of a block.\n"
	if string(text) != wantText {
		t.Errorf("ep.md:\n%s\nwant:\n%s", text, wantText)
	}
	// The candidate's ep.md reads as the page does.
	doc, err := ep.Load(filepath.Join(c.Dir, "ep.md"), "")
	if err != nil || len(doc.Sections) != 3 || doc.Sections[1].Title != "Summary" {
		t.Errorf("ep.md parses to %v, %v", doc, err)
	}
}
