package grade

import (
	"path/filepath"
	"sort"
	"strings"

	"github.com/lolbench/lolbench/pipeline/results"
)

// Verdicts of a run, in grade.json and reward.json's reason.
const (
	VerdictPassed = "passed"
	VerdictFailed = "failed"
	tampered      = "tampered: "
)

// IsTampered reports whether a verdict says the run was tampered with.
func IsTampered(verdict string) bool { return strings.HasPrefix(verdict, tampered) }

// Judge is results.Judge, and when the parser returned an error, no pass
// is trusted: the run is an error and its passes become errors.
func Judge(res []results.Result, exit results.Exit, parseErr error) results.Verdict {
	v := results.Judge(res, exit)
	if parseErr != nil {
		for i := range v.Results {
			if v.Results[i].Status == results.Passed {
				v.Results[i].Status = results.Error
				v.Downgraded++
			}
		}
		v.Status = results.Error
		if v.Reason != "" {
			v.Reason += "; "
		}
		v.Reason += "results not readable: " + parseErr.Error()
	}
	return v
}

// Judged is a guarded run judged as a whole: its test results with the
// canaries taken out and the exit-code rule applied, and whether the run
// counts at all.
type Judged struct {
	results.Verdict
	// Void is the reason the run does not count ("tampered: canary
	// passed", "error: ..."); empty when it counts.
	Void string
	// Canaries are the planted canaries' statuses, by name ("" missing).
	Canaries map[string]results.Status
}

// JudgeRun judges one guarded run. listed names the tests whose failure
// explains a unit's crash (the F2P and P2P lists when grading; nil, meaning
// every test, during the build's validation).
//
// The canaries decide first. One reported passed or skipped means
// something rewrote the results: the run is void, "tampered". One missing
// beside passing tests of its unit means the same, unless its unit failed
// as a whole, or, for a canary planted last, a listed test of its unit
// failed first (a crash stops the rest of a Go test binary). Then
// the canaries are taken out and results.Judge applies the exit-code rule;
// when every canary failed as it must, the non-zero exit they cause is not
// held against the other results.
func JudgeRun(rec *RunRecord, res []results.Result, parseErr error, listed map[string]bool) Judged {
	j := Judged{Canaries: map[string]results.Status{}}
	if rec.Error != "" {
		j.Verdict = results.Verdict{Status: results.Error, Reason: rec.Error}
		j.Void = "error: " + rec.Error
		return j
	}
	if len(rec.Survivors) > 0 {
		j.Verdict = results.Verdict{Status: results.Error, Reason: "processes of the test run survived being killed"}
		j.Void = tampered + "processes survived (" + strings.Join(rec.Survivors, ", ") + ")"
		return j
	}
	byName := map[string]string{} // canary name -> result id
	var real []results.Result
	for _, r := range results.Merge(res) {
		if c, ok := canaryOf(r.Name, rec.Canaries); ok {
			if old, seen := j.Canaries[c.Name]; seen {
				r.Status = results.Worse(old, r.Status)
			}
			j.Canaries[c.Name] = r.Status
			byName[c.Name] = r.Name
			continue
		}
		real = append(real, r)
	}
	exit := ExitOf(rec.Exit)
	exit.TimedOut = exit.TimedOut || rec.TimedOut
	if why := canaryTampering(rec, real, j.Canaries, exit, listed); why != "" {
		j.Verdict = results.Verdict{Status: results.Error, Reason: why}
		j.Void = tampered + why
		return j
	}
	// The canaries' failures make the command exit non-zero.
	exit.Explained = len(rec.Canaries) > 0 && allFailed(rec.Canaries, j.Canaries)
	j.Verdict = Judge(real, exit, parseErr)
	if rec.LogTruncated {
		j.Verdict.Reason = strings.TrimPrefix(j.Verdict.Reason+"; the output was cut at its size cap", "; ")
	}
	return j
}

func allFailed(cs []Canary, st map[string]results.Status) bool {
	for _, c := range cs {
		if s := st[c.Name]; s != results.Failed && s != results.Error {
			return false
		}
	}
	return true
}

// canaryTampering says why the canaries show tampering, or "": a canary
// reported passed or skipped, or missing beside tests that passed.
func canaryTampering(rec *RunRecord, real []results.Result, st map[string]results.Status, exit results.Exit, listed map[string]bool) string {
	var names []string
	for _, c := range rec.Canaries {
		names = append(names, c.Name)
	}
	sort.Strings(names)
	for _, c := range rec.Canaries {
		switch st[c.Name] {
		case results.Passed, results.Conflicting:
			// A canary the log reports both failed and passed passed:
			// a forged log wrote its pass after its real failure (libtest,
			// when the canary's thread lost the race; issue 34's CI run).
			return "canary passed (" + c.File + ")"
		case results.Skipped:
			return "canary skipped (" + c.File + ")"
		}
	}
	if len(real) == 0 && len(st) == 0 || exit.TimedOut || exit.Killed {
		// Nothing was reported, or the run was cut short: an error of its
		// own, judged below, not evidence of tampering.
		return ""
	}
	for _, c := range rec.Canaries {
		if _, ok := st[c.Name]; ok {
			continue
		}
		if !passedIn(c, real) || unitFailed(c, real, listed) {
			continue
		}
		return "canary missing (" + c.File + ")"
	}
	return ""
}

// passedIn reports whether a test of the canary's unit (of the run, when
// the unit is not known) passed. A canary goes missing honestly when its
// tests never ran (a collection error stops pytest, a package does not
// build); it is a sign of tampering only beside passes.
func passedIn(c Canary, real []results.Result) bool {
	for _, r := range real {
		if r.Status != results.Passed {
			continue
		}
		// Go's ids are "importpath.TestX", cargo's "binary::path::name".
		if c.Unit == "" || strings.HasPrefix(r.Name, c.Unit+".") || strings.HasPrefix(r.Name, c.Unit+"::") {
			return true
		}
	}
	return false
}

// unitFailed reports whether a missing canary is explained: its unit failed
// as a whole ("pkg [package]"), or, for a canary that runs last, a listed
// test of its unit failed or errored (the binary stopped there).
func unitFailed(c Canary, real []results.Result, listed map[string]bool) bool {
	if c.Unit == "" {
		return false
	}
	for _, r := range real {
		if r.Name == c.Unit+results.PackageMarker {
			return true
		}
		rest, ok := strings.CutPrefix(r.Name, c.Unit+".")
		if !c.Last || !ok || rest == "" || rest[0] < 'A' || rest[0] > 'Z' {
			continue
		}
		if (r.Status == results.Failed || r.Status == results.Error) && (listed == nil || listed[r.Name]) {
			return true
		}
	}
	return false
}

// canaryOf returns the canary a result id belongs to: the id ends in the
// canary's name after "::", "." or "#", as every format writes test ids.
func canaryOf(id string, cs []Canary) (Canary, bool) {
	for _, c := range cs {
		if id == c.Name {
			return c, true
		}
		for _, sep := range []string{"::", ".", "#", " "} {
			if strings.HasSuffix(id, sep+c.Name) {
				return c, true
			}
		}
		// A module that failed to import is reported by its name; the
		// canary's module is named after the canary. A canary appended to
		// a real test file (Rust's, which names its unit) is not.
		if c.Unit == "" && c.File != "" && strings.Contains(id, strings.TrimSuffix(filepath.Base(c.File), filepath.Ext(c.File))) {
			return c, true
		}
	}
	return Canary{}, false
}
