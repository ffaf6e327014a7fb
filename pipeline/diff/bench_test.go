package diff

import (
	"context"
	"testing"
)

// BenchmarkDiff diffs a generated change of 1,000 files and about 100,000
// changed lines (GenerateChange); the repository is built once.
func BenchmarkDiff(b *testing.B) {
	dir, base, head := GenerateChange(b, 1000, 110, 1)
	r, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	var c *Change
	b.ResetTimer()
	for b.Loop() {
		if c, err = r.Diff(context.Background(), base.String(), head.String()); err != nil {
			b.Fatal(err)
		}
	}
	s := c.Stats()
	b.ReportMetric(float64(s.Files), "files")
	b.ReportMetric(float64(s.Inserted+s.Deleted), "changed-lines")
}
