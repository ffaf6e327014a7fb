package rules

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/lolbench/lolbench/internal/sampletask"
	"github.com/lolbench/lolbench/pipeline/mapping"
)

// TestSamples validates the bundled sample candidates under data/samples:
// mapping.md passes every rule with the EP in both formats, and
// mapping-flawed.md breaks exactly the rules its inline expectations name.
func TestSamples(t *testing.T) {
	samples, _ := filepath.Glob("../data/samples/*/mapping.md")
	if len(samples) == 0 {
		t.Fatal("no sample candidates found under data/samples")
	}
	for _, mp := range samples {
		dir := filepath.Dir(mp)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			task, err := sampletask.Load(context.Background(), "..", t.TempDir(), filepath.Base(dir))
			if err != nil {
				t.Fatal(err)
			}
			ch, scopes := task.Change, task.Scopes
			for _, name := range []string{"mapping.md", "mapping-flawed.md"} {
				path := filepath.Join(dir, name)
				if _, err := os.Stat(path); err != nil {
					continue
				}
				wants := parseExpectations(t, path)
				m, err := mapping.ParseFile(path)
				if err != nil {
					t.Fatal(err)
				}
				for _, epName := range []string{"ep.md", "ep.rst"} {
					if _, err := os.Stat(filepath.Join(dir, epName)); err != nil {
						continue // a sample may have its EP in one format only
					}
					t.Run(name+"/"+epName, func(t *testing.T) {
						doc := loadEP(t, filepath.Join(dir, epName))
						rep, err := Run(&Input{EP: doc, Change: ch, Scopes: scopes, Mapping: m}, All)
						if err != nil {
							t.Fatal(err)
						}
						compare(t, path, wants, rep)
					})
				}
			}
		})
	}
}
