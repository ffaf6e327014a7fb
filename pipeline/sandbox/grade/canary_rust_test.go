package grade

import (
	"testing"

	"github.com/lolbench/lolbench/pipeline/results"
)

// TestRustCanaryResults: a Rust canary appended to tests/parse.rs (unit
// parse) claims only its own result, not every id that contains "parse";
// a Python canary's module still claims the import error named after it.
// Missing, an appended canary is tampering only beside a passed test of
// its binary ("parse::..."), not beside another binary's.
func TestRustCanaryResults(t *testing.T) {
	rust := []Canary{{Dir: "tests", File: "tests/parse.rs", Name: "zorabik", Unit: "parse"}}
	for id, want := range map[string]bool{"parse::zorabik": true, "req::parses_comparators": false, "parse::orders_numerically": false} {
		if _, ok := canaryOf(id, rust); ok != want {
			t.Errorf("canaryOf(%q) = %v", id, ok)
		}
	}
	py := []Canary{{Dir: "tests", File: "tests/test_vobeluk.py", Name: "test_vobeluk"}}
	if _, ok := canaryOf("tests/test_vobeluk.py", py); !ok {
		t.Error("a Python canary's import error")
	}
	other := []results.Result{{Name: "req::parses_comparators", Status: results.Passed}}
	own := []results.Result{{Name: "parse::orders_numerically", Status: results.Passed}}
	if passedIn(rust[0], other) || !passedIn(rust[0], own) {
		t.Error("passedIn does not tell the canary's binary from another")
	}
}
