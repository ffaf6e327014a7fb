package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var nameRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// TestRegistry checks what docs/design.md ("Rules are values") promises: ids unique and contiguous,
// every rule documented and checked, and a testdata folder with at least one
// passing and one failing case per rule.
func TestRegistry(t *testing.T) {
	if len(All) != 28 {
		t.Errorf("registry has %d rules, want 28", len(All))
	}
	names := map[string]bool{}
	for i, r := range All {
		if r.ID != i+1 {
			t.Errorf("rule at position %d has id %d", i+1, r.ID)
		}
		if !nameRE.MatchString(r.Name) || names[r.Name] {
			t.Errorf("rule %d: bad or repeated name %q", r.ID, r.Name)
		}
		names[r.Name] = true
		if len(strings.Fields(r.Doc)) < 15 {
			t.Errorf("rule %d: Doc is too short to explain the rule", r.ID)
		}
		if r.Check == nil {
			t.Errorf("rule %d has no Check", r.ID)
		}
		dir := filepath.Join("testdata", fmt.Sprintf("r%02d", r.ID))
		cases, _ := filepath.Glob(filepath.Join(dir, "*.md"))
		var pass, fail int
		for _, c := range cases {
			if strings.HasSuffix(c, ".ep.md") {
				continue
			}
			data, err := os.ReadFile(c)
			if err != nil {
				t.Fatal(err)
			}
			if regexp.MustCompile(fmt.Sprintf(`<!--\s*(want|forward)\s+R%02d\b`, r.ID)).Match(data) {
				fail++
			} else if !wantRE.Match(data) {
				pass++
			}
		}
		if pass == 0 || fail == 0 {
			t.Errorf("rule %d: %s needs a passing case (no expectations) and a failing case (expecting R%02d); has %d and %d", r.ID, dir, r.ID, pass, fail)
		}
	}
}
