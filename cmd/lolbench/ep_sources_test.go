package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/stages/collect"
)

func TestEPListFlags(t *testing.T) {
	tests := []struct {
		args []string
		want EPListOptions
	}{
		{nil, EPListOptions{Registry: "data/projects.yaml", Workspace: "work"}},
		{[]string{"--projects", "p.yaml", "--project", "a,b", "--project", "c", "--workspace", "w", "--json"},
			EPListOptions{Registry: "p.yaml", Projects: []string{"a", "b", "c"}, Workspace: "w", JSON: true}},
	}
	for _, tt := range tests {
		var got *EPListOptions
		f := &Factory{IO: &IOStreams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
		cmd := NewCmdEPList(f, func(o *EPListOptions) error { got = o; return nil })
		cmd.SetArgs(tt.args)
		if err := cmd.Execute(); err != nil {
			t.Fatal(err)
		}
		got.IO = nil
		if !reflect.DeepEqual(*got, tt.want) {
			t.Errorf("%v: %+v, want %+v", tt.args, *got, tt.want)
		}
	}
}

// ep list reads a folder of DEP-shaped proposals that lies outside the
// registry's folder (eps.dir climbs with ".."), and says where each field
// came from and why a file was left out.
func TestEPListRun(t *testing.T) {
	dir := t.TempDir()
	eps := filepath.Join(dir, "clones", "deps")
	os.MkdirAll(eps, 0o755)
	os.WriteFile(filepath.Join(eps, "0014-background-workers.rst"), []byte("==========================\nDEP 0014: Background work\n==========================\n\n:DEP: 0014\n:Author: Jane Doe <jane@example.org>, John Roe\n:Type: Feature\n:Status: Accepted\n:Created: 2024-02-07\n\nImplemented in https://github.com/django/django/pull/17001 and django/deps#86.\n\nAbstract\n========\n"), 0o644)
	os.WriteFile(filepath.Join(eps, "0009-async.rst"), []byte("DEP 9: Async\n============\n\n:DEP: 9\n:Status: Final\n\nText.\n"), 0o644)
	os.WriteFile(filepath.Join(eps, "README.rst"), []byte("Proposals\n=========\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "reg"), 0o755)
	reg := filepath.Join(dir, "reg", "projects.yaml")
	os.WriteFile(reg, []byte(`projects:
  - name: django
    repo: django/django
    language: Python
    domain: web framework
    eps:
      kind: local
      dir: ../clones/deps
      glob: "*.rst"
      format: rst
      metadata: {number: ["field:DEP"]}
      name: "DEP {n}"
    links: {search: {patterns: ["DEP {n}"]}}
  - name: gone
    repo: acme/gone
    language: Go
    domain: tooling
    eps: {kind: local, dir: /nonexistent/eps, glob: "*.md", name: "G {n}"}
    links: {search: {patterns: ["G {n}"]}}
`), 0o644)
	out, errOut, code := runCLI(t, "ep", "list", "--projects", reg, "--project", "django", "--workspace", filepath.Join(dir, "none"))
	want := `django: local folder ` + eps + `
  3 considered: 2 with a number, 2 with a title, 2 with a status, 1 with a created date; 1 dropped
  number from: field:DEP 2
  title from: first heading 2
  status from: field:Status 2
  created from: field:Created 1
  type from: field:Type 1
  authors from: field:Author 1
  ID      TITLE            STATUS    CREATED     TYPE     AUTHORS             LINKS                   PATH
  DEP 9   Async            Final     -           -        -                   -                       0009-async.rst
  DEP 14  Background work  Accepted  2024-02-07  Feature  Jane Doe, John Roe  django/django#17001 +1  0014-background-workers.rst
  dropped:
    README.rst: eps: no proposal number in the metadata or the file name of README.rst
`
	if code != 0 || out != want || errOut != "" {
		t.Errorf("code %d, stderr %q, stdout:\n%s\nwant:\n%s", code, errOut, out, want)
	}

	out, _, code = runCLI(t, "ep", "list", "--projects", reg, "--project", "django", "--json")
	var ls []collect.Listing
	if err := json.Unmarshal([]byte(out), &ls); err != nil || code != 0 {
		t.Fatalf("json: %v, code %d\n%s", err, code, out)
	}
	if len(ls) != 1 || ls[0].Count != (collect.Count{Proposals: 2, Title: 2, Status: 2, Created: 1}) ||
		!reflect.DeepEqual(ls[0].Proposals[1].From, map[string]string{"number": "field:DEP", "title": "first heading", "status": "field:Status", "created": "field:Created", "type": "field:Type", "authors": "field:Author"}) ||
		!reflect.DeepEqual(ls[0].Proposals[1].Authors, []string{"Jane Doe", "John Roe"}) ||
		!reflect.DeepEqual(ls[0].Proposals[1].Links, []collect.Link{{Repo: "django/django", Number: 17001, Kind: "pull"}, {Repo: "django/deps", Number: 86, Kind: "ref"}}) {
		t.Errorf("json listing %+v", ls)
	}

	// A source that cannot be read is named, the others are listed, and
	// the exit status says so.
	out, errOut, code = runCLI(t, "ep", "list", "--projects", reg)
	wantErr := "gone: " + reg + ":18: projects[1].eps.dir: /nonexistent/eps is not a readable folder\n" +
		"lolbench: the EP source of gone could not be read\n"
	if code != exitBadInput || errOut != wantErr || !strings.HasPrefix(out, "django: local folder") ||
		!strings.HasSuffix(out, "\ngone: local folder /nonexistent/eps\n  error: "+reg+":18: projects[1].eps.dir: /nonexistent/eps is not a readable folder\n") {
		t.Errorf("code %d, stderr:\n%s\nstdout:\n%s", code, errOut, out)
	}
	if _, errOut, code = runCLI(t, "ep", "list", "--projects", reg, "--project", "nope"); code != exitBadInput ||
		errOut != "lolbench: "+reg+` has no project "nope"; it has django, gone`+"\n" {
		t.Errorf("unknown project: code %d, %q", code, errOut)
	}
}

// ep fetch saves the pages of a web source and names the page it could
// not fetch; a second run skips what is saved.
func TestEPFetchRun(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/rfc/sealed" {
			w.Write([]byte("====== PHP RFC: Sealed ======\n  * Status: Draft\n"))
			return
		}
		http.Error(w, "gone", http.StatusGone)
	}))
	defer srv.Close()
	dir := t.TempDir()
	reg := filepath.Join(dir, "projects.yaml")
	os.WriteFile(reg, []byte(`projects:
  - name: php
    repo: php/php-src
    language: C
    domain: programming language
    eps:
      kind: web
      format: dokuwiki
      url: "`+srv.URL+`/rfc/{n}?do=export_raw"
      pages: [{ep: sealed, url: "`+srv.URL+`/rfc/sealed"}, {ep: missing}]
      name: "PHP RFC {n}"
    links: {search: {patterns: ["wiki.php.net/rfc/{n}"]}}
`), 0o644)
	out, errOut, code := runCLI(t, "ep", "fetch", "--projects", reg)
	if code != exitBadInput || out != "php\tsealed\tsealed.dokuwiki\t"+srv.URL+"/rfc/sealed\n" {
		t.Errorf("code %d, stdout %q", code, out)
	}
	lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "php: PHP RFC sealed fetched "+srv.URL+"/rfc/sealed: 48 bytes, saved as sealed.dokuwiki at ") ||
		lines[1] != "php: PHP RFC missing "+srv.URL+"/rfc/missing?do=export_raw: HTTP 410 Gone" ||
		lines[2] != "lolbench: project php: 1 of 2 pages not fetched:" ||
		lines[3] != "  PHP RFC missing ("+srv.URL+"/rfc/missing?do=export_raw): HTTP 410 Gone" {
		t.Errorf("stderr:\n%s", errOut)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "web", "php", "sealed.dokuwiki")); err != nil || !strings.HasPrefix(string(data), "====== PHP RFC: Sealed") {
		t.Errorf("saved page %q, %v", data, err)
	}
	_, errOut, _ = runCLI(t, "ep", "fetch", "--projects", reg, "--project", "php")
	if !strings.HasPrefix(errOut, "php: PHP RFC sealed saved already as sealed.dokuwiki (--force fetches it again)\n") {
		t.Errorf("second run: %s", errOut)
	}
	// What was saved is listed.
	out, _, code = runCLI(t, "ep", "list", "--projects", reg)
	if code != 0 || !strings.Contains(out, "  PHP RFC sealed  Sealed  Draft   -        -     -        -      sealed.dokuwiki\n") ||
		!strings.Contains(out, "    missing.dokuwiki: eps: unreadable: "+srv.URL+"/rfc/missing?do=export_raw is not saved in "+filepath.Join(dir, "web", "php")+" yet; run lolbench ep fetch --projects "+reg+" --project php\n") {
		t.Errorf("ep list after fetch: code %d\n%s", code, out)
	}
	if _, errOut, code := runCLI(t, "ep", "fetch", "--projects", reg, "--project", "nope"); code != exitBadInput || errOut != "lolbench: "+reg+` has no project "nope"; it has php`+"\n" {
		t.Errorf("unknown project: %d %q", code, errOut)
	}
}
