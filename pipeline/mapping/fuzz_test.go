package mapping

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// FuzzParse: no input panics the parser; every error names a line of the
// input (or the one after its last); and whatever parses cleanly survives
// Render and Parse again unchanged, line numbers aside (and the parts it
// left out, which come back empty).
func FuzzParse(f *testing.F) {
	small := readTestdata(f, "small.md")
	f.Add(small)
	f.Add(readTestdata(f, "valid.md"))
	f.Add(docExample(f))
	f.Add("")
	f.Add(strings.Replace(small, "> Make it so.\n\n", "> Make it so.\n", 1))
	f.Add(strings.Replace(small, "| direct | 1 | - |", "| direct | 1 | - | x |", 1))
	f.Add(small + "\n<!-- note\n")
	f.Fuzz(func(t *testing.T, src string) {
		m, err := Parse([]byte(src))
		if m == nil {
			t.Fatal("Parse returned a nil model")
		}
		if err != nil {
			list, ok := errors.AsType[*ErrorList](err)
			if !ok || len(list.Errors) == 0 {
				t.Fatalf("Parse error %v is not a non-empty *ErrorList", err)
			}
			lines := strings.Count(src, "\n") + 1
			for _, e := range list.Errors {
				if e.Line < 1 || e.Line > lines+1 {
					t.Errorf("error %q has line %d outside 1..%d", e.Msg, e.Line, lines+1)
				}
			}
			return
		}
		out := Render(m)
		back, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse(Render(m)): %v\ninput:\n%s\nrendered:\n%s", err, src, out)
		}
		// A part left out is read as empty (rule 4 reports it) and
		// rendered as "None.": the round trip adds it.
		for _, part := range Parts {
			if _, ok := m.PartLines[part]; ok {
				continue
			}
			m.PartLines[part] = back.PartLines[part]
			switch part {
			case PartSCS:
				m.SCS = back.SCS
			case PartPFS:
				m.PFS = back.PFS
			case PartMappedSections:
				m.Blocks = back.Blocks
			case PartUnmappedSections:
				m.UnmappedSections = back.UnmappedSections
			case PartUnmappedFiles:
				m.UnmappedFiles = back.UnmappedFiles
			case PartStats:
				m.Stats = back.Stats
			}
		}
		walkLines(reflect.ValueOf(m), func(l *int) { *l = 0 })
		walkLines(reflect.ValueOf(back), func(l *int) { *l = 0 })
		for i := range m.Blocks {
			m.Blocks[i].Quote.Raw = back.Blocks[i].Quote.Raw
		}
		if !reflect.DeepEqual(m, back) {
			t.Fatalf("round trip changed the model\ninput:\n%s\nrendered:\n%s\nbefore %s\nafter %s", src, out, mustJSON(t, m), mustJSON(t, back))
		}
	})
}
