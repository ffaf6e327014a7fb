package rules

import (
	"bytes"
	"os"
	"testing"
)

// TestRulesDocIsCurrent fails when docs/rules.md no longer matches the rule
// docs; regenerate it with `make docs`.
func TestRulesDocIsCurrent(t *testing.T) {
	got, err := os.ReadFile("../docs/rules.md")
	if err != nil {
		t.Fatalf("read docs/rules.md: %v (generate it with `make docs`)", err)
	}
	if !bytes.Equal(got, Markdown()) {
		t.Fatal("docs/rules.md is stale: run `make docs` (lolbench rules doc > docs/rules.md)")
	}
}
