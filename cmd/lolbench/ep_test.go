package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEPHeadingsFlags(t *testing.T) {
	tests := []struct {
		args    []string
		want    EPHeadingsOptions
		wantErr string
	}{
		{[]string{"a.md"}, EPHeadingsOptions{File: "a.md"}, ""},
		{[]string{"a.txt", "--format", "md", "--json"}, EPHeadingsOptions{File: "a.txt", Format: "md", JSON: true}, ""},
		{[]string{"--format=rst", "pep.txt"}, EPHeadingsOptions{File: "pep.txt", Format: "rst"}, ""},
		{[]string{}, EPHeadingsOptions{}, "accepts 1 arg(s), received 0"},
		{[]string{"a.md", "b.md"}, EPHeadingsOptions{}, "accepts 1 arg(s), received 2"},
	}
	for _, tc := range tests {
		var got *EPHeadingsOptions
		f := &Factory{IO: &IOStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
		cmd := NewCmdEPHeadings(f, func(o *EPHeadingsOptions) error { got = o; return nil })
		cmd.SetArgs(tc.args)
		cmd.SetOut(&bytes.Buffer{})
		cmd.SetErr(&bytes.Buffer{})
		err := cmd.Execute()
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("%v: error %v, want %q", tc.args, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got == nil {
			t.Fatalf("%v: error %v", tc.args, err)
		}
		if got.File != tc.want.File || got.Format != tc.want.Format || got.JSON != tc.want.JSON || got.IO != f.IO {
			t.Errorf("%v: options %+v, want %+v", tc.args, *got, tc.want)
		}
	}
}

func TestEPHeadingsRun(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	md := write("kep.md", "# KEP-1: Thing\n\n## `Summary`\n\ntext\n")
	rst := write("pep-0001.rst", "PEP: 1\n\nAbstract\n========\n\nSub *part*\n----------\n\nNext\n========\n")
	notes := write("notes.txt", "# Title\n\nnot RST\n")
	plain := write("plain.md", "no headings here\n")
	latin1 := write("latin1.rst", "Title\n=====\n\ncaf\xe9\n")
	other := write("design.adoc", "= Title\n")
	jep := write("jep-9001.html", "<html><body><div id=main><h1>JEP 9001: Scoped Widget Pools</h1><table class=head><tr><th>Status</th><td>Draft</td></tr></table>"+
		"<h2>Summary</h2><p>Text with *stars*.</p><h3>Sub <code>part</code></h3></div><div id=sidebar><h2>Nav</h2></div><script>x = '# no'</script></body></html>")
	wiki := write("sealed.txt", "====== PHP RFC: Sealed Enum Cases ======\n  * Status: Implemented\n\n===== Introduction =====\n\nText.\n")
	missing := filepath.Join(dir, "missing.md")

	tests := []struct {
		name       string
		args       []string
		wantOut    string
		wantErrOut string
		wantCode   int
	}{
		{
			name: "json for a small markdown file",
			args: []string{"ep", "headings", md, "--json"},
			wantOut: `[
  {
    "id": "1",
    "level": 1,
    "title": "KEP-1: Thing",
    "line": 1,
    "heading": {
      "start": 0,
      "end": 15
    },
    "own": {
      "start": 15,
      "end": 16
    },
    "subtree": {
      "start": 15,
      "end": 35
    }
  },
  {
    "id": "1.1",
    "level": 2,
    "title": "Summary",
    "line": 3,
    "heading": {
      "start": 16,
      "end": 29
    },
    "own": {
      "start": 29,
      "end": 35
    },
    "subtree": {
      "start": 29,
      "end": 35
    }
  }
]
`,
		},
		{
			name:    "outline for an RST file",
			args:    []string{"ep", "headings", rst},
			wantOut: "1 Abstract (line 3)\n  1.1 Sub part (line 6)\n2 Next (line 9)\n",
		},
		{
			name:    "--format overrides the extension",
			args:    []string{"ep", "headings", notes, "--format", "md"},
			wantOut: "1 Title (line 1)\n",
		},
		{
			name:       "no headings",
			args:       []string{"ep", "headings", plain},
			wantErrOut: "no headings found in " + plain + "\n",
		},
		{
			name:    "no headings as json",
			args:    []string{"ep", "headings", plain, "--json"},
			wantOut: "[]\n",
		},
		{
			name:       "unreadable file",
			args:       []string{"ep", "headings", missing},
			wantErrOut: "lolbench: read EP document: open " + missing + ": no such file or directory\n",
			wantCode:   exitBadInput,
		},
		{
			name:       "unsupported extension suggests --format",
			args:       []string{"ep", "headings", other},
			wantErrOut: "lolbench: " + other + `: unsupported EP file extension ".adoc" (want .md, .markdown, .rst, .txt, .html, .htm or .dokuwiki); pass --format md, rst, html or dokuwiki` + "\n",
			wantCode:   exitBadInput,
		},
		{
			name:       "invalid --format value",
			args:       []string{"ep", "headings", md, "--format", "adoc"},
			wantErrOut: "lolbench: " + md + `: invalid --format "adoc" (want md, rst, html or dokuwiki)` + "\n",
			wantCode:   exitBadInput,
		},
		{
			name:    "an HTML page: the headings of its rendering",
			args:    []string{"ep", "headings", jep},
			wantOut: "1 JEP 9001: Scoped Widget Pools (line 1)\n  1.1 Summary (line 6)\n    1.1.1 Sub part (line 10)\n",
		},
		{
			name:    "the generic profile keeps the sidebar's heading out too",
			args:    []string{"ep", "headings", jep, "--profile", "generic"},
			wantOut: "1 JEP 9001: Scoped Widget Pools (line 1)\n  1.1 Summary (line 6)\n    1.1.1 Sub part (line 10)\n",
		},
		{
			name:    "DokuWiki text named by --format",
			args:    []string{"ep", "headings", wiki, "--format", "dokuwiki"},
			wantOut: "1 PHP RFC: Sealed Enum Cases (line 1)\n  1.1 Introduction (line 5)\n",
		},
		{
			name:       "--profile is for HTML",
			args:       []string{"ep", "headings", md, "--profile", "jep"},
			wantErrOut: "lolbench: " + md + ": --profile is for HTML pages, and this is md\n",
			wantCode:   exitBadInput,
		},
		{
			name:       "unknown --profile",
			args:       []string{"ep", "headings", jep, "--profile", "wiki"},
			wantErrOut: "lolbench: invalid --profile: unknown HTML profile \"wiki\" (want jep, confluence, generic or auto)\n",
			wantCode:   exitBadInput,
		},
		{
			name:       "render prints the rendering, the metadata on stderr",
			args:       []string{"ep", "render", jep},
			wantOut:    "# JEP 9001: Scoped Widget Pools\n\n| Status | Draft |\n| --- | --- |\n\n## Summary\n\nText with \\*stars\\*.\n\n### Sub `part`\n",
			wantErrOut: "Number: 9001\nStatus: Draft\nTitle: Scoped Widget Pools\n",
		},
		{
			name:    "render as JSON",
			args:    []string{"ep", "render", wiki, "--format", "dokuwiki", "--json"},
			wantOut: "{\n  \"format\": \"dokuwiki\",\n  \"metadata\": {\n    \"Status\": \"Implemented\",\n    \"Title\": \"Sealed Enum Cases\"\n  },\n  \"text\": \"# PHP RFC: Sealed Enum Cases\\n\\n- Status: Implemented\\n\\n## Introduction\\n\\nText.\\n\"\n}\n",
		},
		{
			name:       "non-UTF-8 content",
			args:       []string{"ep", "headings", latin1},
			wantErrOut: "lolbench: parse " + latin1 + ": line 4: invalid UTF-8 encoding (EP documents must be UTF-8)\n",
			wantCode:   exitBadInput,
		},
		{
			name:       "missing file argument",
			args:       []string{"ep", "headings"},
			wantErrOut: "lolbench: accepts 1 arg(s), received 0\n",
			wantCode:   exitBadInput,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tc.args...)
			if out != tc.wantOut || errOut != tc.wantErrOut || code != tc.wantCode {
				t.Errorf("code %d, stdout:\n%s\nstderr:\n%s\nwant code %d, stdout:\n%s\nstderr:\n%s",
					code, out, errOut, tc.wantCode, tc.wantOut, tc.wantErrOut)
			}
		})
	}
}

func TestEPGroup(t *testing.T) {
	out, _, code := runCLI(t, "ep")
	if code != 0 || !strings.Contains(out, "headings    Print the section outline of an EP document") {
		t.Errorf("ep: code %d\n%s", code, out)
	}
	_, errOut, code := runCLI(t, "ep", "bogus")
	if code != exitBadInput || errOut != "lolbench: unknown command \"bogus\" for \"lolbench ep\"\n" {
		t.Errorf("ep bogus: code %d, stderr %q", code, errOut)
	}
}

func TestEPHelpHasExample(t *testing.T) {
	out, _, code := runCLI(t, "ep", "headings", "--help")
	if code != 0 || !strings.Contains(out, "$ lolbench ep headings pep-0617.rst") || !strings.Contains(out, "--format string") {
		t.Errorf("help: code %d\n%s", code, out)
	}
}
