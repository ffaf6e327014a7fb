package results

import (
	"reflect"
	"slices"
	"testing"
)

func TestJudge(t *testing.T) {
	cases := []struct {
		name    string
		results []Result
		exit    Exit
		want    Verdict
	}{
		{
			name:    "clean pass",
			results: r("passed", "a", "skipped", "b"),
			exit:    Exit{Code: 0},
			want:    Verdict{Status: Passed, Results: r("passed", "a", "skipped", "b")},
		},
		{
			name:    "failures and a non-zero exit agree",
			results: r("passed", "a", "failed", "b"),
			exit:    Exit{Code: 1},
			want:    Verdict{Status: Failed, Results: r("passed", "a", "failed", "b")},
		},
		{
			name:    "only errors",
			results: r("passed", "a", "error", "b"),
			exit:    Exit{Code: 2},
			want:    Verdict{Status: Error, Results: r("passed", "a", "error", "b")},
		},
		{
			// The SWE-bench exploit: a log that shows only passes from a
			// command that failed. Every pass is downgraded.
			name:    "non-zero exit, log reports no failures",
			results: r("passed", "a", "passed", "b", "skipped", "c"),
			exit:    Exit{Code: 1},
			want: Verdict{Status: Error, Results: r("error", "a", "error", "b", "skipped", "c"), Downgraded: 2,
				Reason: "exit code 1 but the log reports no failed test; 2 passed result(s) not trusted"},
		},
		{
			name:    "non-zero exit, empty log",
			results: nil,
			exit:    Exit{Code: 101},
			want:    Verdict{Status: Error, Results: r(), Reason: "exit code 101 and no test results in the log"},
		},
		{
			name:    "exit 0, empty log is never a pass",
			results: r(),
			exit:    Exit{Code: 0},
			want:    Verdict{Status: Error, Results: r(), Reason: "no test results in the log"},
		},
		{
			name:    "exit 0, everything skipped",
			results: r("skipped", "a", "skipped", "b"),
			exit:    Exit{Code: 0},
			want:    Verdict{Status: Error, Results: r("skipped", "a", "skipped", "b"), Reason: "all 2 test(s) were skipped"},
		},
		{
			name:    "exit 0 does not erase a reported failure",
			results: r("passed", "a", "failed", "b"),
			exit:    Exit{Code: 0},
			want: Verdict{Status: Failed, Results: r("passed", "a", "failed", "b"),
				Reason: "exit code 0 but the log reports 1 failed or errored test(s)"},
		},
		{
			name:    "a green log cannot override a timeout",
			results: r("passed", "a", "passed", "b"),
			exit:    Exit{Code: 0, TimedOut: true},
			want: Verdict{Status: Error, Results: r("error", "a", "error", "b"), Downgraded: 2,
				Reason: "the test command timed out; 2 passed result(s) not trusted"},
		},
		{
			name:    "a green log cannot override a kill",
			results: r("passed", "a", "failed", "b"),
			exit:    Exit{Code: 137, Killed: true},
			want: Verdict{Status: Error, Results: r("error", "a", "failed", "b"), Downgraded: 1,
				Reason: "the test command was killed (exit code 137); 1 passed result(s) not trusted"},
		},
		{
			name:    "duplicates are merged worst-wins before judging",
			results: r("passed", "a", "failed", "a", "passed", "b"),
			exit:    Exit{Code: 1},
			want:    Verdict{Status: Failed, Results: r("failed", "a", "passed", "b")},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := append([]Result(nil), tc.results...)
			got := Judge(tc.results, tc.exit)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Judge =\n%+v\nwant\n%+v", got, tc.want)
			}
			if !slices.Equal(in, tc.results) {
				t.Errorf("Judge changed its input: %v", tc.results)
			}
		})
	}
}

// TestJudgeNeverPassesUnlessClean checks the rule exhaustively over small
// result sets: a run passes only with exit 0, no timeout or kill, at least one
// pass and no failed or errored test.
func TestJudgeNeverPassesUnlessClean(t *testing.T) {
	statuses := []Status{Passed, Failed, Error, Skipped, Conflicting}
	exits := []Exit{{Code: 0}, {Code: 1}, {Code: -1}, {Code: 0, TimedOut: true}, {Code: 0, Killed: true}, {Code: 137, Killed: true}}
	for n := 0; n <= 3; n++ {
		total := 1
		for i := 0; i < n; i++ {
			total *= len(statuses)
		}
		for combo := 0; combo < total; combo++ {
			var res []Result
			c := combo
			passes, bads := 0, 0
			for i := 0; i < n; i++ {
				s := statuses[c%len(statuses)]
				c /= len(statuses)
				res = append(res, Result{Name: string(rune('a' + i)), Status: s})
				switch s {
				case Passed:
					passes++
				case Failed, Error, Conflicting:
					bads++
				}
			}
			for _, e := range exits {
				v := Judge(res, e)
				clean := e.Code == 0 && !e.TimedOut && !e.Killed && passes > 0 && bads == 0
				if (v.Status == Passed) != clean {
					t.Errorf("Judge(%v, %+v).Status = %s", res, e, v.Status)
				}
				if !clean && v.Status != Passed && v.Status != Failed && v.Status != Error {
					t.Errorf("Judge(%v, %+v).Status = %q", res, e, v.Status)
				}
				trusted := 0
				for _, x := range v.Results {
					if x.Status == Passed {
						trusted++
					}
				}
				if (e.TimedOut || e.Killed || (e.Code != 0 && bads == 0)) && trusted != 0 {
					t.Errorf("Judge(%v, %+v) kept %d passes", res, e, trusted)
				}
			}
		}
	}
}

func TestNames(t *testing.T) {
	res := r("passed", "b", "failed", "c", "passed", "a")
	if got, want := Names(res, Passed), []string{"a", "b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Names(passed) = %v, want %v", got, want)
	}
	if got := Names(res, Error); got == nil || len(got) != 0 {
		t.Errorf("Names(error) = %#v, want empty non-nil", got)
	}
}
