package mapping

import (
	"os"
	"strings"
	"testing"
)

// FuzzFix: Fix never panics; what it writes parses, and a second Fix
// changes nothing (the computed cells it wrote are the ones it computes).
func FuzzFix(f *testing.F) {
	for _, p := range []string{"testdata/fix/wrong.md", "testdata/scaffold/tinykv.md", "testdata/small.md", "testdata/valid.md"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b), uint16(5), uint16(4))
	}
	f.Add(docExample(f), uint16(6), uint16(4))
	f.Fuzz(func(t *testing.T, src string, sections, files uint16) {
		tot := Totals{EPSections: int(sections), PRFiles: int(files)}
		out, _, err := Fix([]byte(src), tot)
		if err != nil {
			return
		}
		if _, err := Parse(out); err != nil {
			t.Fatalf("Fix wrote an artifact that does not parse: %v\ninput:\n%s\noutput:\n%s", err, src, out)
		}
		again, changes, err := Fix(out, tot)
		if err != nil || len(changes) != 0 || string(again) != string(out) {
			var b strings.Builder
			for _, c := range changes {
				b.WriteString(c.Format("x") + "\n")
			}
			t.Fatalf("second Fix: err %v, changes:\n%s\ninput:\n%s\noutput:\n%s", err, b.String(), src, out)
		}
	})
}
