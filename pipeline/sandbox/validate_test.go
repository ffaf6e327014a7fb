package sandbox

import (
	"testing"

	"github.com/lolbench/lolbench/pipeline/results"
)

// TestRunDescribe: the one-line account of a run names the canaries,
// which fail on purpose and make the exit code 1 when every test passes.
func TestRunDescribe(t *testing.T) {
	for _, tt := range []struct {
		run  Run
		want string
	}{
		{Run{Exit: results.Exit{Code: 1}, Canaries: 2, Counts: map[results.Status]int{results.Passed: 2}}, "exit code 1 (2 planted canaries fail on purpose), 2 passed"},
		{Run{Exit: results.Exit{Code: 1}, Canaries: 1, Counts: map[results.Status]int{results.Error: 7, results.Skipped: 1}}, "exit code 1 (1 planted canary fails on purpose), 7 error, 1 skipped"},
		{Run{Exit: results.Exit{Code: 2}, Reason: "exit code 2 and no test results in the log"}, "exit code 2, no results; exit code 2 and no test results in the log"},
	} {
		if got := tt.run.Describe(); got != tt.want {
			t.Errorf("Describe() = %q, want %q", got, tt.want)
		}
	}
}
