package grade

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/lolbench/lolbench/pipeline/sandbox/results"
)

// Files of a guarded run's folder (issue 11). The verifier inside the
// sandbox writes them as root, out of the tested code's reach, after every
// process of the test run is dead; the host grades from them.
const (
	RunJSON    = "run.json"
	RunLog     = "test-output.log"
	RunReports = "results"
)

// Canary is one planted test that must fail (issue 11, "detect what
// cannot be prevented"). Its name is random per run.
type Canary struct {
	// Dir is the folder it was planted in, File its path; both relative
	// to the repository.
	Dir  string `json:"dir"`
	File string `json:"file"`
	// Name is the test function's name, unique in the run; a result is
	// the canary's when its id ends in it.
	Name string `json:"name"`
	// Unit is what a whole-unit failure is reported as (a Go package's
	// import path, for "pkg [package]"); empty where no such entry exists.
	Unit string `json:"unit,omitempty"`
	// Last is set on a canary that runs after the unit's other tests (Go):
	// a crash of the unit may keep it from running.
	Last bool `json:"last,omitempty"`
}

// Reset says what the verifier put back before a run.
type Reset struct {
	Removed  []string `json:"removed,omitempty"`
	Restored []string `json:"restored,omitempty"`
	Sections []string `json:"sections,omitempty"`
	Synced   []string `json:"synced,omitempty"`
}

// RunRecord is run.json: how one guarded run went.
type RunRecord struct {
	N int `json:"n"`
	// Exit is the test command's exit status as the verifier saw it; 124
	// when it was killed at its deadline.
	Exit     int           `json:"exit_code"`
	TimedOut bool          `json:"timed_out,omitempty"`
	Duration time.Duration `json:"duration_ns"`
	// LogTruncated is set when the output passed the cap and was cut.
	LogTruncated bool     `json:"log_truncated,omitempty"`
	Canaries     []Canary `json:"canaries"`
	// CanaryGap says why no canary was planted, when none was.
	CanaryGap string `json:"canary_gap,omitempty"`
	// Strays are processes found, and killed, before the run (an agent's
	// leftovers); Leftovers those killed after the command ended;
	// Survivors those still alive after that.
	Strays    int      `json:"strays_killed"`
	Leftovers int      `json:"leftovers_killed"`
	Survivors []string `json:"survivors,omitempty"`
	Reset     Reset    `json:"reset"`
	// Isolated is false for the local executor: the tests ran as the
	// grader's own user.
	Isolated bool `json:"isolated"`
	// Error is set when the run could not happen; nothing else counts.
	Error string `json:"error,omitempty"`
}

// maxRunJSON caps run.json; a real one is kilobytes.
const maxRunJSON = 64 << 20

// LoadRun reads run.json from a run folder.
func LoadRun(dir string) (*RunRecord, error) {
	f, err := os.Open(filepath.Join(dir, RunJSON))
	if err != nil {
		return nil, fmt.Errorf("verifier output: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxRunJSON+1))
	if err != nil {
		return nil, fmt.Errorf("verifier output: %w", err)
	}
	if len(data) > maxRunJSON {
		return nil, fmt.Errorf("verifier output %s: larger than %d bytes", f.Name(), maxRunJSON)
	}
	var rec RunRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, fmt.Errorf("verifier output %s: %w", f.Name(), err)
	}
	return &rec, nil
}

// RunResults parses a run folder's results: the report files when the
// recipe names them (results != ""), else the output.
func RunResults(format, dir string, reports bool) ([]results.Result, error) {
	resDir := ""
	if reports {
		resDir = filepath.Join(dir, RunReports)
	}
	return ReadResults(format, filepath.Join(dir, RunLog), resDir)
}

// Verdicts of a run, in grade.json and reward.json's reason.
const (
	VerdictPassed = "passed"
	VerdictFailed = "failed"
	tampered      = "tampered: "
)

// IsTampered reports whether a verdict says the run was tampered with.
func IsTampered(verdict string) bool { return strings.HasPrefix(verdict, tampered) }

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
		case results.Passed:
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

// ScoreRun grades a guarded run folder against cfg. reports says whether
// the recipe writes report files (results/) instead of reading the output.
func ScoreRun(cfg Config, dir string, reports bool) Grade {
	rec, err := LoadRun(dir)
	if err != nil {
		return Failed(cfg, err.Error())
	}
	res, perr := RunResults(cfg.Format, dir, reports)
	if rec.Error != "" {
		res, perr = nil, nil
	}
	listed := map[string]bool{}
	for _, n := range cfg.FailToPass {
		listed[n] = true
	}
	for _, n := range cfg.PassToPass {
		listed[n] = true
	}
	j := JudgeRun(rec, res, perr, listed)
	g := score(cfg, j.Verdict, results.Exit{Code: rec.Exit, TimedOut: rec.TimedOut})
	g.Isolated, g.Canaries = rec.Isolated, len(rec.Canaries)
	if j.Void != "" {
		g = voided(g, j.Void)
	}
	g.Verdict = verdictOf(g)
	return g
}

// voided zeroes a grade: no listed test counts as passed.
func voided(g Grade, why string) Grade {
	g.Reward, g.F2PPassed, g.P2PPassed, g.SectionsCompleted = 0, 0, 0, 0
	for i := range g.Tests {
		g.Tests[i].Passed = false
	}
	for i := range g.Sections {
		g.Sections[i].Passed, g.Sections[i].Completed, g.Sections[i].Why = 0, false, "the run is void: "+why
	}
	if IsTampered(why) {
		g.Tampered = strings.TrimPrefix(why, tampered)
	} else {
		g.Error = strings.TrimPrefix(why, "error: ")
	}
	return g
}

// verdictOf is the one-line verdict of a grade: "passed", "failed",
// "tampered: ..." or "error: ...".
func verdictOf(g Grade) string {
	switch {
	case g.Tampered != "":
		return tampered + g.Tampered
	case g.Error != "":
		return "error: " + g.Error
	case g.Reward == 1:
		return VerdictPassed
	}
	return VerdictFailed
}
