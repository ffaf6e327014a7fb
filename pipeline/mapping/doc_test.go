package mapping

import (
	"os"
	"strings"
	"testing"
)

// docExample extracts the worked example of docs/mapping-format.md: the
// only block fenced with "````markdown".
func docExample(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile("../../docs/mapping-format.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "\n````markdown\n")
	if !ok {
		t.Fatal("docs/mapping-format.md has no ````markdown example")
	}
	example, _, ok := strings.Cut(rest, "\n````\n")
	if !ok {
		t.Fatal("docs/mapping-format.md: the example is not closed with ````")
	}
	return example + "\n"
}

// TestDocExample keeps the specification honest: its worked example
// parses, is canonical, and its arithmetic follows the conventions it
// documents.
func TestDocExample(t *testing.T) {
	src := docExample(t)
	m, err := Parse([]byte(src))
	if err != nil {
		t.Fatalf("the worked example does not parse:\n%v", err)
	}
	if got := string(Render(m)); got != src {
		t.Errorf("the worked example is not canonical; Render writes:\n%s", got)
	}
	prFiles := len(m.PFS.Rows)
	if len(m.Blocks) != 2 || prFiles != 4 {
		t.Fatalf("example has %d blocks and %d PR files, want 2 and 4", len(m.Blocks), prFiles)
	}
	for _, b := range m.Blocks {
		c := b.Counts
		direct := map[string]bool{}
		for _, r := range b.Direct.Rows {
			direct[r.Path] = true
		}
		assoc := map[string]bool{}
		for _, r := range b.Associated.Rows {
			if !direct[r.Path] {
				assoc[r.Path] = true
			}
		}
		want := Counts{
			Line:              c.Line,
			Direct:            len(direct),
			DirectPercent:     FormatPercent(len(direct), prFiles),
			Associated:        len(assoc),
			AssociatedPercent: FormatPercent(len(assoc), prFiles),
			Accounted:         len(b.Accounted()),
			AccountedPercent:  FormatPercent(len(b.Accounted()), prFiles),
			PRFiles:           prFiles,
		}
		if len(direct)+len(assoc) != len(b.Accounted()) {
			t.Errorf("block %d: direct + associated != accounted", b.Number)
		}
		if c != want {
			t.Errorf("block %d counts %+v, want %+v", b.Number, c, want)
		}
	}
	roles := map[string]int{}
	for _, r := range m.PFS.Rows {
		roles[r.Role]++
	}
	stats := map[string]string{
		MetricPRFiles:    "4",
		MetricPRCoverage: FormatPercent(roles["direct"]+roles["associated"], prFiles),
		MetricEPCoverage: FormatPercent(2, 3),
	}
	for metric, want := range stats {
		if r, ok := m.Stat(metric); !ok || r.Value != want {
			t.Errorf("Global Statistics %q = %q, want %q", metric, r.Value, want)
		}
	}
}
