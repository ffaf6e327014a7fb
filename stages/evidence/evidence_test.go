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
	if d.Candidate != "tinykv-tkep-0002" || len(d.EP.Sections) != 14 || len(d.PR.Files) != 13 || d.EP.Truncated {
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
