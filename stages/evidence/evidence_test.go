package evidence

import (
	"context"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/internal/testcand"
	"github.com/lolbench/lolbench/prompts"
)

func loadTinykv(t *testing.T, opts Options) *Evidence {
	t.Helper()
	spec := testcand.Tinykv("../..")
	ws, c, err := testcand.Build(t.TempDir(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if err := testcand.CopyMapping(spec, c, "mapping.md"); err != nil {
		t.Fatal(err)
	}
	ev, err := Load(context.Background(), ws, c, opts)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

func TestLoadTinykv(t *testing.T) {
	ev := loadTinykv(t, Options{})
	d := ev.Data()
	if d.Candidate != "tinykv-tkep-0002" || len(d.EP.Sections) != 14 || len(d.PR.Files) != 14 || d.EP.Truncated {
		t.Fatalf("candidate %q, %d sections, %d files, truncated %v", d.Candidate, len(d.EP.Sections), len(d.PR.Files), d.EP.Truncated)
	}
	for _, f := range d.PR.Files {
		if f.Note != "" || !strings.HasPrefix(f.Patch, "diff --git ") {
			t.Errorf("%s: note %q, patch %.40q", f.Path, f.Note, f.Patch)
		}
	}
	if len(d.Scopes) == 0 || d.Mapping == "" {
		t.Fatalf("%d scopes, mapping %d bytes", len(d.Scopes), len(d.Mapping))
	}
	for _, name := range prompts.Names() {
		p, err := prompts.Render(name, ev.Data())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Logf("%s: system %d bytes, user %d bytes", name, len(p.System), len(p.User))
	}
}

func TestCut(t *testing.T) {
	for _, tc := range []struct {
		in    string
		limit int
		text  string
		kept  int
		cut   bool
	}{
		{"a\nb\n", 10, "a\nb\n", 4, false},
		{"a\nb\n", 4, "a\nb\n", 4, false},
		{"a\nb\n", 3, "a\n", 2, true},
		{"abc\n", 2, "", 0, true},
		{"abc", 10, "abc\n", 3, false}, // a final newline is added, not counted
		{"", 10, "", 0, false},
		{"a\n\xffb\n", 10, "a\n\uFFFDb\n", 5, false},
		{"a\nb\n", 0, "", 0, true},
		{"a\nb\n", -1, "", 0, true},
	} {
		text, kept, cut := Cut([]byte(tc.in), tc.limit)
		if text != tc.text || kept != tc.kept || cut != tc.cut {
			t.Errorf("Cut(%q, %d) = %q %d %v, want %q %d %v", tc.in, tc.limit, text, kept, cut, tc.text, tc.kept, tc.cut)
		}
	}
}

func TestLinks(t *testing.T) {
	text := "See https://peps.python.org/pep-0617/. Also [spec](https://example.com/a_(b)) and\n" +
		"<https://example.com/x?y=1>, https://peps.python.org/pep-0617/ again, `https://code.example/z` and http://\n"
	want := []string{"https://peps.python.org/pep-0617/", "https://example.com/a_(b)", "https://example.com/x?y=1", "https://code.example/z"}
	if got := Links(text); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("Links = %q, want %q", got, want)
	}
	if got := Links("no links here"); got != nil {
		t.Fatalf("Links = %q", got)
	}
}

// TestPatchBudget checks that source files are served first, that a long
// patch is cut with a marker and that the rest is omitted with another.
func TestPatchBudget(t *testing.T) {
	ev := loadTinykv(t, Options{FileLimit: 1000, Budget: 3000})
	d := ev.Data()
	spent := 0
	notes := map[string]string{}
	for _, f := range d.PR.Files {
		spent += len(f.Patch)
		notes[f.Path] = f.Note
	}
	if spent > 3000 {
		t.Fatalf("%d bytes of patches, budget 3000", spent)
	}
	// Source files come first, in path order: client.py (1240 bytes, cut
	// at its last newline before 1000), main.go, server.go, ...;
	// documentation and tests are reached only after the budget is gone.
	if notes["clients/python/tinykv/client.py"] != "[patch cut: 960 of 1240 bytes shown]" {
		t.Errorf("client.py note %q", notes["clients/python/tinykv/client.py"])
	}
	for _, p := range []string{"CHANGELOG.md", "README.md", "store/store_test.go"} {
		if notes[p] != "[patch omitted: the 3000-byte budget for all patches is used up]" {
			t.Errorf("%s note %q", p, notes[p])
		}
	}
	for _, f := range d.PR.Files {
		if f.Note == "" && !strings.HasSuffix(f.Patch, "\n") || f.Patch != "" && !strings.HasPrefix(f.Patch, "diff --git ") {
			t.Errorf("%s: patch %.30q note %q", f.Path, f.Patch, f.Note)
		}
	}
	if ps := (Options{}).Params(); len(ps) != 1 || ps[0] != "patch budget 16384 per file, 163840 in all; EP budget 262144" {
		t.Errorf("params %q", ps)
	}
}

func TestEPBudget(t *testing.T) {
	ev := loadTinykv(t, Options{EPLimit: 100})
	d := ev.Data()
	if !d.EP.Truncated || d.EP.Shown != 91 || d.EP.Bytes != len(ev.EP.Source) || d.EP.Text != string(ev.EP.Source[:91]) {
		t.Fatalf("EP: truncated %v, %d of %d bytes, %q", d.EP.Truncated, d.EP.Shown, d.EP.Bytes, d.EP.Text)
	}
	p, err := prompts.Render(prompts.MapPrompt, d)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.User, "</proposal>\n[The proposal is longer than the budget: only its first 91 of 3289 bytes are shown above.]") {
		t.Fatal("no truncation marker")
	}
}

func TestPlaceholderRendersEveryPrompt(t *testing.T) {
	for _, name := range prompts.Names() {
		if _, err := prompts.Render(name, Placeholder()); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
