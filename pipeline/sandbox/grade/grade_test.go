package grade

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lolbench/lolbench/pipeline/results"
)

func res(pairs ...string) []results.Result {
	var out []results.Result
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, results.Result{Name: pairs[i], Status: results.Status(pairs[i+1])})
	}
	return out
}

func TestScore(t *testing.T) {
	cfg := Config{Task: "lolbench/x", Format: "pytest-ra",
		FailToPass: []string{"f1", "f2", "f3"}, PassToPass: []string{"p1"},
		Sections: map[string][]string{"f1": {"3.1"}, "f2": {"3.1", "3.2"}, "f3": {"3.3"}}}
	tests := []struct {
		name     string
		res      []results.Result
		exit     results.Exit
		parseErr error
		want     Reward
		run      results.Status
	}{
		{"all pass", res("f1", "passed", "f2", "passed", "f3", "passed", "p1", "passed", "other", "failed"), results.Exit{Code: 1},
			nil, nums(1, 3, 3, 1, 1, 3, 3), results.Failed},
		{"partial", res("f1", "passed", "f2", "failed", "f3", "passed", "p1", "passed"), results.Exit{Code: 1},
			nil, nums(0, 2, 3, 1, 1, 1, 3), results.Failed},
		{"p2p broken", res("f1", "passed", "f2", "passed", "f3", "passed", "p1", "error"), results.Exit{Code: 1},
			nil, nums(0, 3, 3, 0, 1, 3, 3), results.Error},
		{"missing test", res("f1", "passed", "f2", "passed", "p1", "passed"), results.Exit{Code: 0},
			nil, nums(0, 2, 3, 1, 1, 2, 3), results.Passed},
		// A log that claims success while the command exited non-zero
		// does not pass (the SWE-bench exploit).
		{"forged log", res("f1", "passed", "f2", "passed", "f3", "passed", "p1", "passed"), results.Exit{Code: 1},
			nil, nums(0, 0, 3, 0, 1, 0, 3), results.Error},
		{"timed out", res("f1", "passed", "f2", "passed", "f3", "passed", "p1", "passed"), ExitOf(124),
			nil, nums(0, 0, 3, 0, 1, 0, 3), results.Error},
		{"unreadable", res("f1", "passed", "f2", "passed", "f3", "passed", "p1", "passed"), results.Exit{Code: 0},
			errors.New("bad xml"), nums(0, 0, 3, 0, 1, 0, 3), results.Error},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := Score(cfg, tt.res, tt.exit, tt.parseErr)
			got := g.RewardFields()
			got.Reason = ""
			if got != tt.want || g.Run != tt.run {
				t.Fatalf("got %+v run %s, want %+v run %s (%s)", got, g.Run, tt.want, tt.run, g.Reason)
			}
			if len(g.Tests) != 4 || g.Tests[0].List != "FAIL_TO_PASS" || g.Tests[3].List != "PASS_TO_PASS" {
				t.Fatalf("tests %+v", g.Tests)
			}
		})
	}
}

func TestScoreNoF2PNeverRewards(t *testing.T) {
	if g := Score(Config{PassToPass: []string{"p"}}, res("p", "passed"), results.Exit{}, nil); g.Reward != 0 {
		t.Fatal("a task without FAIL_TO_PASS tests rewards")
	}
}

func TestExitOf(t *testing.T) {
	for code, want := range map[int]results.Exit{0: {}, 1: {Code: 1}, 124: {Code: 124, TimedOut: true}, 137: {Code: 137, Killed: true}, 2: {Code: 2}} {
		if got := ExitOf(code); got != want {
			t.Errorf("ExitOf(%d) = %+v, want %+v", code, got, want)
		}
	}
}

func TestWriteRead(t *testing.T) {
	dir := t.TempDir()
	g := Failed(Config{Task: "lolbench/x", FailToPass: []string{"a"}, PassToPass: []string{"b"}}, "the test patch does not apply")
	if err := Write(dir, g); err != nil {
		t.Fatal(err)
	}
	txt, _ := os.ReadFile(filepath.Join(dir, RewardTxt))
	js, _ := os.ReadFile(filepath.Join(dir, RewardJSON))
	wantJS := `{
  "reward": 0,
  "f2p_passed": 0,
  "f2p_total": 1,
  "p2p_passed": 0,
  "p2p_total": 1,
  "sections_completed": 0,
  "sections_total": 0,
  "tampered": 0,
  "reason": "error: the test patch does not apply"
}
`
	if string(txt) != "0\n" || string(js) != wantJS {
		t.Fatalf("reward.txt %q\nreward.json %s", txt, js)
	}
	back, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*back, g) {
		t.Fatalf("read back %+v\nwrote %+v", *back, g)
	}
	os.WriteFile(filepath.Join(dir, RewardTxt), []byte("1\n"), 0o644)
	if _, err := Read(dir); err == nil {
		t.Fatal("a reward.txt that disagrees with grade.json is accepted")
	}
}

func TestReadResults(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	os.WriteFile(log, []byte("== short test summary info ==\nPASSED t::a\nFAILED t::b - x\n"), 0o644)
	got, err := ReadResults("pytest-ra", log, "")
	if err != nil || !reflect.DeepEqual(got, res("t::a", "passed", "t::b", "failed")) {
		t.Fatalf("log: %v %v", got, err)
	}
	rd := filepath.Join(dir, "results")
	os.Mkdir(rd, 0o755)
	if got, err := ReadResults("junit", log, rd); err != nil || len(got) != 0 {
		t.Fatalf("empty results folder: %v %v", got, err)
	}
	os.WriteFile(filepath.Join(rd, "1-a.xml"), []byte(`<testsuite><testcase classname="c" name="x"/></testsuite>`), 0o644)
	os.WriteFile(filepath.Join(rd, "2-b.xml"), []byte(`<testsuite><testcase classname="c" name="x"><failure/></testcase></testsuite>`), 0o644)
	if got, err := ReadResults("junit", log, rd); err != nil || !reflect.DeepEqual(got, res("c::x", "failed")) {
		t.Fatalf("merged results: %v %v", got, err)
	}
}

// nums is a Reward with its numbers only.
func nums(reward, f2p, f2pTotal, p2p, p2pTotal, secs, secsTotal int) Reward {
	return Reward{Reward: reward, F2PPassed: f2p, F2PTotal: f2pTotal, P2PPassed: p2p, P2PTotal: p2pTotal, SectionsCompleted: secs, SectionsTotal: secsTotal}
}

// TestCompletedDenominator: every implementable section counts, with or
// without a mapped test (paper §4.1); an untested one is not completed.
func TestCompletedDenominator(t *testing.T) {
	cfg := Config{FailToPass: []string{"f1", "f2", "f3"}, PassToPass: []string{"p1"},
		Sections:      map[string][]string{"f1": {"3.1"}, "f2": {"3.1", "3.2"}, "f3": {"3.3"}},
		Implementable: []string{"3.1", "3.2", "3.3", "4", "6.1"}}
	g := Score(cfg, res("f1", "passed", "f2", "passed", "f3", "failed", "p1", "passed", "canary", "failed"), results.Exit{Code: 1}, nil)
	want := []SectionResult{
		{ID: "3.1", Tests: 2, Passed: 2, Completed: true},
		{ID: "3.2", Tests: 1, Passed: 1, Completed: true},
		{ID: "3.3", Tests: 1, Passed: 0, Why: "1 of its 1 mapped FAIL_TO_PASS tests did not pass"},
		{ID: "4", Why: "untested: no FAIL_TO_PASS test is mapped to it"},
		{ID: "6.1", Why: "untested: no FAIL_TO_PASS test is mapped to it"},
	}
	if g.SectionsCompleted != 2 || g.SectionsTotal != 5 || !reflect.DeepEqual(g.Sections, want) {
		t.Fatalf("sections %d/%d %+v", g.SectionsCompleted, g.SectionsTotal, g.Sections)
	}
}

// TestScoreGoSubtestForgery: a log the tested code wrote to cannot pass a
// listed Go subtest by forging subtests of it, nor one whose parent failed
// on its own: the parent's failure goes down to every leaf below it.
func TestScoreGoSubtestForgery(t *testing.T) {
	ev := func(action, test string) string {
		return `{"Action":"` + action + `","Package":"m/p","Test":"` + test + `"}` + "\n"
	}
	cfg := Config{Format: "go-json", FailToPass: []string{"m/p.Test/A", "m/p.TestX/a"}, PassToPass: []string{"m/p.Test/B"},
		Sections: map[string][]string{"m/p.Test/A": {"1"}, "m/p.TestX/a": {"2"}}, Implementable: []string{"1", "2"}}
	log := ev("run", "Test") + ev("run", "Test/A") + ev("fail", "Test/A") +
		ev("pass", "Test/A/forged") + // printed by the solution
		ev("run", "Test/B") + ev("pass", "Test/B") + ev("fail", "Test") +
		ev("run", "TestX") + ev("run", "TestX/a") + ev("pass", "TestX/a") + ev("fail", "TestX") // TestX's own check failed
	res, err := results.GoJSON{}.Parse([]byte(log))
	if err != nil {
		t.Fatal(err)
	}
	g := Score(cfg, res, results.Exit{Code: 1}, nil)
	if g.Reward != 0 || g.F2PPassed != 0 || g.P2PPassed != 1 || g.SectionsCompleted != 0 {
		t.Fatalf("reward %d, F2P %d, P2P %d, sections %d; want 0, 0, 1, 0\n%+v", g.Reward, g.F2PPassed, g.P2PPassed, g.SectionsCompleted, g.Tests)
	}
	want := []Test{
		{Name: "m/p.Test/A", List: "FAIL_TO_PASS", Status: results.Failed},
		{Name: "m/p.TestX/a", List: "FAIL_TO_PASS", Status: results.Failed},
		{Name: "m/p.Test/B", List: "PASS_TO_PASS", Status: results.Passed, Passed: true},
	}
	if !reflect.DeepEqual(g.Tests, want) {
		t.Fatalf("tests %+v\nwant %+v", g.Tests, want)
	}
}
