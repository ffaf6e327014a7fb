package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/internal/testcand"
)

func TestReportFlags(t *testing.T) {
	for _, tt := range []struct {
		name    string
		args    []string
		want    *ReportOptions
		wantErr string
	}{
		{"defaults", nil, &ReportOptions{Workspace: "work"}, ""},
		{"all flags", []string{"--workspace", "w", "--out", "site", "--json"}, &ReportOptions{Workspace: "w", Out: "site", JSON: true}, ""},
		{"no arguments", []string{"x"}, nil, `unknown command "x"`},
		{"unknown flag", []string{"--format", "pdf"}, nil, "unknown flag: --format"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got *ReportOptions
			cmd := newCmdReport(&Factory{IO: &IOStreams{}}, func(o *ReportOptions) error { got = o; return nil })
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

func TestReportRun(t *testing.T) {
	dir := t.TempDir()
	spec := testcand.Tinykv("../..")
	_, c, err := testcand.Build(dir, spec)
	if err != nil {
		t.Fatal(err)
	}
	if err := testcand.CopyMapping(spec, c, "mapping.md"); err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(dir, "reports", "index.html")
	page := filepath.Join(dir, "reports", "candidates", spec.ID+".html")

	out, errOut, code := runCLI(t, "report", "--workspace", dir)
	if code != 0 || out != index+"\n" || errOut != "report: 1 candidate page(s), statistics measured for 1, cached for 0\n" {
		t.Fatalf("code %d, stdout %q, stderr %q", code, out, errOut)
	}
	html, err := os.ReadFile(page)
	if err != nil || !strings.Contains(string(html), `<h1>tinykv-tkep-0002</h1>`) {
		t.Fatalf("page %s: %v", page, err)
	}

	out, errOut, code = runCLI(t, "report", "--workspace", dir, "--json")
	var got reportResult
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil {
		t.Fatalf("code %d, stdout %q, stderr %q", code, out, errOut)
	}
	want := reportResult{Index: index, Dir: filepath.Join(dir, "reports"), Candidates: map[string]string{spec.ID: page}}
	if !reflect.DeepEqual(got, want) || errOut != "report: 1 candidate page(s), statistics measured for 0, cached for 1\n" {
		t.Fatalf("json %+v, stderr %q\nwant %+v", got, errOut, want)
	}

	site := filepath.Join(t.TempDir(), "site")
	out, _, code = runCLI(t, "report", "--workspace", dir, "--out", site)
	if code != 0 || out != filepath.Join(site, "index.html")+"\n" {
		t.Fatalf("--out: code %d, stdout %q", code, out)
	}
}

func TestReportBadInput(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	_, errOut, code := runCLI(t, "report", "--workspace", missing)
	if code != exitBadInput || errOut != "lolbench: workspace "+missing+" does not exist\n" {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	_, errOut, code = runCLI(t, "report", "extra")
	if code != exitBadInput || !strings.Contains(errOut, `unknown command "extra" for "lolbench report"`) {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
}

func TestReportHelp(t *testing.T) {
	out, _, code := runCLI(t, "report", "--help")
	if code != 0 || !strings.Contains(out, "Table 1 of the LoLBench paper") || !strings.Contains(out, "lolbench report --workspace work") {
		t.Fatalf("code %d, help %q", code, out)
	}
}
