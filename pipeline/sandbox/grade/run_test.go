package grade

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lolbench/lolbench/pipeline/results"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// Go canaries of one package: the first runs before its tests, the last
// after them.
var (
	first = Canary{Dir: "store", File: "store/0kab_test.go", Name: "TestKabomir", Unit: "ex.com/m/store"}
	last  = Canary{Dir: "store", File: "store/zzzzlu_test.go", Name: "TestLumavek", Unit: "ex.com/m/store", Last: true}
	py    = Canary{Dir: "tests", File: "tests/test_vosaluk.py", Name: "test_vosaluk"}
)

func TestJudgeRun(t *testing.T) {
	listed := map[string]bool{"ex.com/m/store.TestA": true, "ex.com/m/store.TestB": true}
	tests := []struct {
		name     string
		rec      RunRecord
		res      []results.Result
		void     string
		status   results.Status
		results  []results.Result
		canaries map[string]results.Status
	}{
		{"honest pass", RunRecord{Exit: 1, Canaries: []Canary{first, last}},
			res("ex.com/m/store.TestKabomir", "failed", "ex.com/m/store.TestA", "passed", "ex.com/m/store.TestB", "passed", "ex.com/m/store.TestLumavek", "failed"),
			"", results.Passed, res("ex.com/m/store.TestA", "passed", "ex.com/m/store.TestB", "passed"),
			map[string]results.Status{"TestKabomir": "failed", "TestLumavek": "failed"}},
		{"honest failure", RunRecord{Exit: 1, Canaries: []Canary{first, last}},
			res("ex.com/m/store.TestKabomir", "failed", "ex.com/m/store.TestA", "failed", "ex.com/m/store.TestB", "passed", "ex.com/m/store.TestLumavek", "failed"),
			"", results.Failed, res("ex.com/m/store.TestA", "failed", "ex.com/m/store.TestB", "passed"), nil},
		{"a hook passes everything", RunRecord{Exit: 0, Canaries: []Canary{first, last}},
			res("ex.com/m/store.TestKabomir", "passed", "ex.com/m/store.TestA", "passed", "ex.com/m/store.TestLumavek", "passed"),
			"tampered: canary passed (store/0kab_test.go)", results.Error, nil, nil},
		// A forged log that wrote the canary's pass after its real failure.
		{"the canary failed and passed", RunRecord{Exit: 0, Canaries: []Canary{py}},
			res("tests.test_vosaluk.TestVo::test_vosaluk", "conflicting", "tests.test_a::test_a", "passed"),
			"tampered: canary passed (tests/test_vosaluk.py)", results.Error, nil, nil},
		{"a hook skips the canary", RunRecord{Exit: 1, Canaries: []Canary{py}},
			res("tests.test_vosaluk.TestVo::test_vosaluk", "skipped", "tests.test_a::test_a", "passed"),
			"tampered: canary skipped (tests/test_vosaluk.py)", results.Error, nil, nil},
		// Passes without the canary: something reported them in its place.
		{"forges passes without the canaries", RunRecord{Exit: 0, Canaries: []Canary{first, last}},
			res("ex.com/m/store.TestA", "passed", "ex.com/m/other.TestC", "passed"),
			"tampered: canary missing (store/0kab_test.go)", results.Error, nil, nil},
		// Nothing of the unit ran: nothing was forged either.
		{"exits 0 before any test", RunRecord{Exit: 0, Canaries: []Canary{first, last}},
			res("ex.com/m/other.TestC", "passed"),
			"", results.Passed, res("ex.com/m/other.TestC", "passed"), nil},
		{"pytest stops at a collection error", RunRecord{Exit: 2, Canaries: []Canary{py}},
			res("tests.test_mul", "error"),
			"", results.Error, res("tests.test_mul", "error"), nil},
		// A crash after the first canary stops the last one: explained by
		// a listed test of the unit that failed.
		{"a listed test crashes", RunRecord{Exit: 2, Canaries: []Canary{first, last}},
			res("ex.com/m/store.TestKabomir", "failed", "ex.com/m/store.TestA", "error"),
			"", results.Error, res("ex.com/m/store.TestA", "error"), nil},
		// The same with only an unlisted test to show for it: a forger's
		// decoy.
		{"an unlisted test crashes", RunRecord{Exit: 2, Canaries: []Canary{first, last}},
			res("ex.com/m/store.TestKabomir", "failed", "ex.com/m/store.TestA", "passed", "ex.com/m/store.TestDecoy", "error"),
			"tampered: canary missing (store/zzzzlu_test.go)", results.Error, nil, nil},
		{"the package does not build", RunRecord{Exit: 1, Canaries: []Canary{first, last}},
			res("ex.com/m/store [package]", "error"),
			"", results.Error, res("ex.com/m/store [package]", "error"), nil},
		{"nothing reported", RunRecord{Exit: 4, Canaries: []Canary{py}}, nil,
			"", results.Error, nil, nil},
		{"timed out", RunRecord{Exit: 124, TimedOut: true, Canaries: []Canary{py}},
			res("tests.test_a::test_a", "passed"),
			"", results.Error, res("tests.test_a::test_a", "error"), nil},
		{"processes survived", RunRecord{Exit: 1, Canaries: []Canary{py}, Survivors: []string{"42 sleep"}},
			res("tests.test_vosaluk.TestVo::test_vosaluk", "failed", "tests.test_a::test_a", "passed"),
			"tampered: processes survived (42 sleep)", results.Error, nil, nil},
		{"the verifier failed", RunRecord{Error: "resetting the test infrastructure: x"}, nil,
			"error: resetting the test infrastructure: x", results.Error, nil, nil},
		// Without canaries the exit-code rule applies as it always did.
		{"no canary, forged log", RunRecord{Exit: 1, CanaryGap: "no canary"},
			res("tests/t.sh::a", "passed"),
			"", results.Error, res("tests/t.sh::a", "error"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := JudgeRun(&tt.rec, tt.res, nil, listed)
			if j.Void != tt.void || j.Status != tt.status {
				t.Fatalf("void %q status %s, want %q %s (%s)", j.Void, j.Status, tt.void, tt.status, j.Reason)
			}
			if tt.void == "" && !equalResults(j.Results, tt.results) {
				t.Fatalf("results %v, want %v", j.Results, tt.results)
			}
			for n, st := range tt.canaries {
				if j.Canaries[n] != st {
					t.Fatalf("canary %s: %s, want %s", n, j.Canaries[n], st)
				}
			}
		})
	}
}

func equalResults(a, b []results.Result) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestScoreRun grades a run folder: the verdict, and a void run's listed
// tests all unpassed.
func TestScoreRun(t *testing.T) {
	cfg := Config{Task: "lolbench/x", Format: "pytest-ra", FailToPass: []string{"tests/test_a.py::test_a"}, PassToPass: []string{"tests/test_b.py::test_b"}}
	write := func(rec RunRecord, log string) string {
		dir := t.TempDir()
		if err := workspace.WriteJSON(filepath.Join(dir, RunJSON), rec); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, RunLog), []byte(log), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	summary := "=== short test summary info ===\n"
	tests := []struct {
		name, log, verdict string
		rec                RunRecord
		reward             int
	}{
		{"passed", summary + "PASSED tests/test_a.py::test_a\nPASSED tests/test_b.py::test_b\nFAILED tests/test_vo.py::TestVo::test_vosaluk - x\n",
			"passed", RunRecord{Exit: 1, Canaries: []Canary{py}, Isolated: true}, 1},
		{"failed", summary + "FAILED tests/test_a.py::test_a - x\nPASSED tests/test_b.py::test_b\nFAILED tests/test_vo.py::TestVo::test_vosaluk - x\n",
			"failed", RunRecord{Exit: 1, Canaries: []Canary{py}, Isolated: true}, 0},
		{"tampered", summary + "PASSED tests/test_a.py::test_a\nPASSED tests/test_b.py::test_b\nPASSED tests/test_vo.py::TestVo::test_vosaluk\n",
			"tampered: canary passed (tests/test_vosaluk.py)", RunRecord{Exit: 0, Canaries: []Canary{py}, Isolated: true}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := ScoreRun(cfg, write(tt.rec, tt.log), false)
			if g.Reward != tt.reward || g.Verdict != tt.verdict || g.Canaries != 1 || !g.Isolated {
				t.Fatalf("reward %d verdict %q canaries %d isolated %v; want %d %q", g.Reward, g.Verdict, g.Canaries, g.Isolated, tt.reward, tt.verdict)
			}
			if tt.reward == 0 && (g.F2PPassed != 0 && g.Tampered != "") {
				t.Fatalf("a void run counts passes: %+v", g)
			}
			if r := g.RewardFields(); r.Reason != tt.verdict || (r.Tampered == 1) != (g.Tampered != "") {
				t.Fatalf("reward.json %+v", r)
			}
		})
	}
	if g := ScoreRun(cfg, t.TempDir(), false); g.Reward != 0 || g.Verdict == "passed" || g.Error == "" {
		t.Fatalf("a folder without run.json: %+v", g)
	}
}
