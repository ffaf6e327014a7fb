package ep

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestFormatFromPath(t *testing.T) {
	tests := []struct {
		path    string
		want    Format
		wantErr string
	}{
		{"keps/sig-node/123/README.md", Markdown, ""},
		{"design.MARKDOWN", Markdown, ""},
		{"peps/pep-0617.rst", RST, ""},
		{"pep-0008.txt", RST, ""},
		{"jeps/444.html", HTML, ""},
		{"kip.HTM", HTML, ""},
		{"enumerations.dokuwiki", DokuWiki, ""},
		{"notes.adoc", "", `notes.adoc: unsupported EP file extension ".adoc" (want .md, .markdown, .rst, .txt, .html, .htm or .dokuwiki)`},
		{"README", "", `README: unsupported EP file extension "" (want .md, .markdown, .rst, .txt, .html, .htm or .dokuwiki)`},
	}
	for _, tc := range tests {
		got, err := FormatFromPath(tc.path)
		if got != tc.want || errString(err) != tc.wantErr {
			t.Errorf("FormatFromPath(%q) = %q, %q; want %q, %q", tc.path, got, errString(err), tc.want, tc.wantErr)
		}
	}
}

func TestParseFormat(t *testing.T) {
	for _, s := range []string{"md", "rst", "html", "dokuwiki"} {
		if f, err := ParseFormat(s); err != nil || string(f) != s {
			t.Errorf("ParseFormat(%q) = %q, %v", s, f, err)
		}
	}
	if _, err := ParseFormat("markdown"); errString(err) != `unknown EP format "markdown" (want md, rst, html or dokuwiki)` {
		t.Errorf("ParseFormat(markdown) error = %q", errString(err))
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		format  Format
		wantErr string
	}{
		{"unknown format", "# A\n", "adoc", `unknown EP format "adoc" (want md, rst, html or dokuwiki)`},
		{"empty format", "# A\n", "", `unknown EP format "" (want md, rst, html or dokuwiki)`},
		{"latin-1 on line 3", "# A\n\ncaf\xe9\n", Markdown, "line 3: invalid UTF-8 encoding (EP documents must be UTF-8)"},
		{"truncated sequence at the end", "A\n=\n\xe2\x82", RST, "line 3: invalid UTF-8 encoding (EP documents must be UTF-8)"},
	}
	for _, tc := range tests {
		d, err := Parse([]byte(tc.src), tc.format)
		if d != nil || errString(err) != tc.wantErr {
			t.Errorf("%s: Parse = %v, %q; want nil, %q", tc.name, d, errString(err), tc.wantErr)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	rst := write("pep-0001.txt", "PEP: 1\n\nA\n=\n")
	md := write("design.txt", "# Title\n")
	bad := write("bad.md", "# caf\xe9\n")
	missing := filepath.Join(dir, "missing.md")

	d, err := Load(rst, "")
	if err != nil || d.Path != rst || d.Format != RST || len(d.Sections) != 1 || d.Metadata["PEP"] != "1" {
		t.Fatalf("Load(%s) = %+v, %v", rst, d, err)
	}
	d, err = Load(md, Markdown)
	if err != nil || d.Format != Markdown || len(d.Sections) != 1 || d.Sections[0].Title != "Title" {
		t.Fatalf("Load(%s, md) = %+v, %v", md, d, err)
	}
	errs := []struct {
		path    string
		format  Format
		wantErr string
	}{
		{bad, "", "parse " + bad + ": line 1: invalid UTF-8 encoding (EP documents must be UTF-8)"},
		{missing, "", "read EP document: open " + missing + ": no such file or directory"},
		{dir, "md", "read EP document: " + dir + ": a folder, not a file"},
		{md, "adoc", md + `: unknown EP format "adoc" (want md, rst, html or dokuwiki)`},
		{filepath.Join(dir, "x.doc"), "", filepath.Join(dir, "x.doc") + `: unsupported EP file extension ".doc" (want .md, .markdown, .rst, .txt, .html, .htm or .dokuwiki)`},
	}
	for _, tc := range errs {
		if _, err := Load(tc.path, tc.format); errString(err) != tc.wantErr {
			t.Errorf("Load(%s, %q) error = %q, want %q", tc.path, tc.format, errString(err), tc.wantErr)
		}
	}
}

func TestDocumentAccessors(t *testing.T) {
	src := "# A\nline two\n\n## B\n"
	d, err := Parse([]byte(src), Markdown)
	if err != nil {
		t.Fatal(err)
	}
	lines := []struct{ offset, line int }{
		{-5, 1}, {0, 1}, {3, 1}, {4, 2}, {12, 2}, {13, 3}, {14, 4}, {len(src), 5}, {1000, 5},
	}
	for _, tc := range lines {
		if got := d.LineAt(tc.offset); got != tc.line {
			t.Errorf("LineAt(%d) = %d, want %d", tc.offset, got, tc.line)
		}
		// A hand-built Document has no line index and must agree.
		bare := &Document{Source: d.Source}
		if got := bare.LineAt(tc.offset); got != tc.line {
			t.Errorf("bare LineAt(%d) = %d, want %d", tc.offset, got, tc.line)
		}
	}
	texts := []struct {
		r    Range
		want string
	}{
		{Range{0, 3}, "# A"},
		{Range{-2, 1}, "#"},
		{Range{14, 99}, "## B\n"},
		{Range{5, 2}, ""},
	}
	for _, tc := range texts {
		if got := d.Text(tc.r); got != tc.want {
			t.Errorf("Text(%+v) = %q, want %q", tc.r, got, tc.want)
		}
	}
	if d.Section("1.1") == nil || d.Section("1.1").Title != "B" || d.Section("2") != nil || d.Section("") != nil {
		t.Errorf("Section lookups wrong: %s", fmtRows(rows(d)))
	}
	bare := &Document{Sections: d.Sections}
	if bare.Section("1.1") != d.Section("1.1") || bare.Section("3") != nil {
		t.Errorf("Section on a hand-built Document wrong")
	}
}

func TestSectionJSON(t *testing.T) {
	d, err := Parse([]byte("Title\n=====\n\ntext\n\nSub\n---\n"), RST)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(d.Sections)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"id":"1","level":1,"title":"Title","line":1,"heading":{"start":0,"end":12},"own":{"start":12,"end":19},"subtree":{"start":12,"end":27}},` +
		`{"id":"1.1","level":2,"title":"Sub","line":6,"heading":{"start":19,"end":27},"own":{"start":27,"end":27},"subtree":{"start":27,"end":27}}]`
	if string(got) != want {
		t.Errorf("JSON:\n got %s\nwant %s", got, want)
	}
}
