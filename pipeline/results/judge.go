package results

import (
	"fmt"
	"sort"
)

// Exit is how a test command ended, as the executor saw it.
type Exit struct {
	// Code is the command's exit code.
	Code int `json:"code"`
	// TimedOut is set when the executor stopped the command at its deadline.
	TimedOut bool `json:"timed_out,omitempty"`
	// Killed is set when the command died by a signal or was killed from
	// outside (OOM killer, container removed), whatever Code says.
	Killed bool `json:"killed,omitempty"`
	// Explained is set when tests that must fail (the verifier's canaries,
	// taken out of the results) account for a non-zero Code.
	Explained bool `json:"explained,omitempty"`
}

// Verdict is a run judged on its log and its exit status together.
type Verdict struct {
	// Status is the run's outcome: Passed, Failed or Error.
	Status Status `json:"status"`
	// Results are the per-test statuses after the exit-code rule, sorted
	// by name. They are the ones to build F2P/P2P lists from.
	Results []Result `json:"results"`
	// Downgraded counts the "passed" results that the rule turned into
	// errors.
	Downgraded int `json:"downgraded,omitempty"`
	// Reason says why the log was not taken at its word; empty when the log
	// and the exit status agree.
	Reason string `json:"reason,omitempty"`
}

// Judge applies the exit-code rule to a parsed log. The rule exists because
// a log is written by the code under test: an agent's patch can print
// "PASSED" lines, swallow a crash, or exit non-zero after a green summary,
// and a harness that trusts the log alone grades those as passes (the
// SWE-bench exploit). So:
//
//  1. A run that timed out or was killed is an error, and every "passed"
//     result becomes an error: nothing after the deadline can be trusted,
//     whatever the log claims.
//  2. A run that exited non-zero while its log shows no failed or errored
//     test is an error, and every "passed" result becomes an error: the
//     failure is real (the command said so) and the log does not say where.
//     Unless Exit.Explained: tests that had to fail, taken out of the log,
//     account for the exit status.
//  3. A run with no results, or with only skipped ones, is an error: a run
//     that tested nothing never passes.
//  4. A run whose log shows failures is Failed (Error if it shows only
//     errors), whatever the exit code: a zero exit does not erase a failure
//     the log reports (a "|| true" in a recipe), and failures are never
//     upgraded.
//  5. Otherwise (exit 0, at least one pass, no failure) the run Passed.
//
// Results are never upgraded, and skipped results stay skipped.
func Judge(results []Result, exit Exit) Verdict {
	res := Merge(results)
	counts := map[Status]int{}
	for _, r := range res {
		counts[r.Status]++
	}
	// Anything neither passed nor skipped is bad: failed, error, and a
	// status no honest run gives (Conflicting).
	nBad := len(res) - counts[Passed] - counts[Skipped]
	v := Verdict{Results: res}

	downgrade := func() {
		for i := range v.Results {
			if v.Results[i].Status == Passed {
				v.Results[i].Status = Error
				v.Downgraded++
			}
		}
	}
	switch {
	case exit.TimedOut || exit.Killed:
		how := "timed out"
		if !exit.TimedOut {
			how = fmt.Sprintf("was killed (exit code %d)", exit.Code)
		}
		v.Status = Error
		downgrade()
		v.Reason = fmt.Sprintf("the test command %s; %d passed result(s) not trusted", how, v.Downgraded)
	case exit.Code != 0 && !exit.Explained && nBad == 0:
		v.Status = Error
		downgrade()
		if len(res) == 0 {
			v.Reason = fmt.Sprintf("exit code %d and no test results in the log", exit.Code)
		} else {
			v.Reason = fmt.Sprintf("exit code %d but the log reports no failed test; %d passed result(s) not trusted", exit.Code, v.Downgraded)
		}
	case len(res) == 0:
		v.Status = Error
		v.Reason = "no test results in the log"
	case counts[Skipped] == len(res):
		v.Status = Error
		v.Reason = fmt.Sprintf("all %d test(s) were skipped", len(res))
	case nBad > 0:
		v.Status = Failed
		if counts[Failed] == 0 {
			v.Status = Error
		}
		if exit.Code == 0 {
			v.Reason = fmt.Sprintf("exit code 0 but the log reports %d failed or errored test(s)", nBad)
		}
	default:
		v.Status = Passed
	}
	return v
}

// Names returns the names of the results with status s, sorted: the raw
// material of the F2P and P2P lists.
func Names(results []Result, s Status) []string {
	out := []string{}
	for _, r := range results {
		if r.Status == s {
			out = append(out, r.Name)
		}
	}
	sort.Strings(out)
	return out
}
