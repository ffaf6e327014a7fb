package grade

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lolbench/lolbench/pipeline/results"
)

// Score grades a run's parsed results, Go subtests in place of their
// parents (results.Leaves). parseErr, when set, is an error the parser
// returned: what it read is kept but no pass is trusted.
func Score(cfg Config, res []results.Result, exit results.Exit, parseErr error) Grade {
	g := score(cfg, Judge(results.Leaves(cfg.Format, res), exit, parseErr), exit)
	g.Verdict = verdictOf(g)
	return g
}

// score grades judged results against the lists.
func score(cfg Config, v results.Verdict, exit results.Exit) Grade {
	g := Grade{Task: cfg.Task, Run: v.Status, Reason: v.Reason, Exit: exit}
	passed := map[string]bool{}
	add := func(list string, names []string, n *int) {
		for _, name := range names {
			// A list written before lists named leaves may name a Go
			// test whose subtests the run reports in its place.
			s := results.StatusOf(cfg.Format, v.Results, name)
			ok := s == results.Passed
			passed[name] = ok
			if ok {
				*n++
			}
			g.Tests = append(g.Tests, Test{Name: name, List: list, Status: s, Passed: ok})
		}
	}
	add("FAIL_TO_PASS", cfg.FailToPass, &g.F2PPassed)
	add("PASS_TO_PASS", cfg.PassToPass, &g.P2PPassed)
	g.F2PTotal, g.P2PTotal = len(cfg.FailToPass), len(cfg.PassToPass)
	if g.F2PTotal > 0 && g.F2PPassed == g.F2PTotal && g.P2PPassed == g.P2PTotal {
		g.Reward = 1
	}
	// A section is completed when it has mapped F2P tests and every one
	// passed (paper §4.1); the denominator is every implementable section,
	// so a section no test checks counts as not completed.
	secTests := map[string][]string{}
	var mapped []string
	for _, t := range cfg.FailToPass {
		for _, s := range cfg.Sections[t] {
			if secTests[s] == nil {
				mapped = append(mapped, s)
			}
			secTests[s] = append(secTests[s], t)
		}
	}
	total := cfg.Implementable
	if len(total) == 0 {
		// A task built before the denominator was known: the mapped ones.
		total = mapped
		sort.Strings(total)
	}
	g.SectionsTotal = len(total)
	for _, id := range total {
		ts := secTests[id]
		r := SectionResult{ID: id, Tests: len(ts)}
		for _, t := range ts {
			if passed[t] {
				r.Passed++
			}
		}
		switch {
		case len(ts) == 0:
			r.Why = "untested: no FAIL_TO_PASS test is mapped to it"
		case r.Passed < len(ts):
			r.Why = fmt.Sprintf("%d of its %d mapped FAIL_TO_PASS tests did not pass", len(ts)-r.Passed, len(ts))
		default:
			r.Completed = true
			g.SectionsCompleted++
		}
		g.Sections = append(g.Sections, r)
	}
	return g
}

// Failed is the grade of a run that could not happen: reward 0, every
// listed test unreported.
func Failed(cfg Config, why string) Grade {
	g := Score(cfg, nil, results.Exit{Code: 1}, nil)
	g.Error, g.Run, g.Reason = why, results.Error, ""
	g.Verdict = verdictOf(g)
	return g
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
