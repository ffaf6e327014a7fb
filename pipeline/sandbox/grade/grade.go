// Package grade scores one test run of a task against its fail-to-pass and
// pass-to-pass lists (paper §3.3): the verifier of every Harbor task
// (lolbench-grade, run by tests/test.sh) and `lolbench verify` both use it.
//
// The reward is 1 only when every F2P and every P2P test passed, judged by
// the log and the exit status together (results.Judge): a log that reports
// no failure while the test command exited non-zero is not a pass.
//
// Grading reads in one direction, one file per step: read.go reads a run's
// record and test results, judge.go judges them (the exit-code rule, the
// canaries, tampering), score.go turns the verdict into a Grade; grade.go
// holds the Grade and its files.
package grade

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/lolbench/lolbench/pipeline/results"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// Config is what a verifier knows of its task; tests/config.json.
type Config struct {
	Task       string   `json:"task"`
	Format     string   `json:"format"`
	FailToPass []string `json:"FAIL_TO_PASS"`
	PassToPass []string `json:"PASS_TO_PASS"`
	// Sections maps an F2P test to the EP sections it checks, when the
	// mapping tells (rank and augment refine it).
	Sections map[string][]string `json:"f2p_sections,omitempty"`
	// Implementable are the mapping's implementable sections, every one
	// the Section Classification Summary marks so, with or without a
	// test: Completed's denominator (paper §4.1).
	Implementable []string `json:"implementable_sections,omitempty"`
}

// SectionResult is one implementable section's outcome: completed when it
// has mapped F2P tests and all of them passed.
type SectionResult struct {
	ID        string `json:"id"`
	Tests     int    `json:"tests"`
	Passed    int    `json:"passed"`
	Completed bool   `json:"completed"`
	// Why says why a section is not completed.
	Why string `json:"why,omitempty"`
}

// Test is one listed test's outcome.
type Test struct {
	Name   string         `json:"name"`
	List   string         `json:"list"`   // "FAIL_TO_PASS" or "PASS_TO_PASS"
	Status results.Status `json:"status"` // "" when the run did not report it
	Passed bool           `json:"passed"`
}

// Grade is the verdict on one run.
type Grade struct {
	Task              string `json:"task,omitempty"`
	Reward            int    `json:"reward"`
	F2PPassed         int    `json:"f2p_passed"`
	F2PTotal          int    `json:"f2p_total"`
	P2PPassed         int    `json:"p2p_passed"`
	P2PTotal          int    `json:"p2p_total"`
	SectionsCompleted int    `json:"sections_completed"`
	SectionsTotal     int    `json:"sections_total"`
	// Sections says, per implementable section, whether it is completed
	// and why not.
	Sections []SectionResult `json:"sections,omitempty"`
	// Run is the judged run's status and, when the log was not taken at
	// its word, why.
	Run    results.Status `json:"run"`
	Reason string         `json:"reason,omitempty"`
	Exit   results.Exit   `json:"exit"`
	// Verdict is the grade in one line: "passed", "failed", "tampered:
	// WHY" or "error: WHY" (issue 11, "a visible verdict").
	Verdict string `json:"verdict"`
	// Tampered says why the run is void because the tested code tampered
	// with it (a canary passed or went missing, processes survived).
	Tampered string `json:"tampered,omitempty"`
	// Error is set when the tests could not run at all (the solution did
	// not apply).
	Error string `json:"error,omitempty"`
	// Isolated is false when the tests ran unisolated (local executor);
	// Canaries counts the canaries planted in the run.
	Isolated bool   `json:"isolated"`
	Canaries int    `json:"canaries"`
	Tests    []Test `json:"tests"`
}

// Reward is reward.json. Harbor reads reward.txt before reward.json, and
// reads reward.json's numbers only; the reason for a 0 is there for people
// and for lolbench eval, with tampered as a number too.
type Reward struct {
	Reward            int `json:"reward"`
	F2PPassed         int `json:"f2p_passed"`
	F2PTotal          int `json:"f2p_total"`
	P2PPassed         int `json:"p2p_passed"`
	P2PTotal          int `json:"p2p_total"`
	SectionsCompleted int `json:"sections_completed"`
	SectionsTotal     int `json:"sections_total"`
	// Tampered is 1 when the run was void for tampering.
	Tampered int `json:"tampered"`
	// Reason is the verdict: "passed", "failed", "tampered: ..." or
	// "error: ...".
	Reason string `json:"reason"`
}

// RewardFields returns the reward.json fields of g.
func (g Grade) RewardFields() Reward {
	r := Reward{Reward: g.Reward, F2PPassed: g.F2PPassed, F2PTotal: g.F2PTotal, P2PPassed: g.P2PPassed, P2PTotal: g.P2PTotal,
		SectionsCompleted: g.SectionsCompleted, SectionsTotal: g.SectionsTotal, Reason: g.Verdict}
	if g.Tampered != "" {
		r.Tampered = 1
	}
	return r
}

// Files of the verifier's output folder (/logs/verifier).
const (
	RewardTxt  = "reward.txt"
	RewardJSON = "reward.json"
	GradeJSON  = "grade.json"
)

// Write writes reward.txt ("1" or "0"), reward.json and grade.json (the
// per-test detail) into dir.
func Write(dir string, g Grade) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("verifier output: %w", err)
	}
	if err := workspace.WriteFile(filepath.Join(dir, RewardTxt), []byte(fmt.Sprintf("%d\n", g.Reward)), 0o644); err != nil {
		return err
	}
	if err := workspace.WriteJSON(filepath.Join(dir, RewardJSON), g.RewardFields()); err != nil {
		return err
	}
	return workspace.WriteJSON(filepath.Join(dir, GradeJSON), g)
}

// Read reads grade.json from a verifier output folder, checked against
// reward.txt.
func Read(dir string) (*Grade, error) {
	var g Grade
	if err := readJSON(filepath.Join(dir, GradeJSON), &g); err != nil {
		return nil, err
	}
	txt, err := os.ReadFile(filepath.Join(dir, RewardTxt))
	if err != nil {
		return nil, fmt.Errorf("verifier output: %w", err)
	}
	if strings.TrimSpace(string(txt)) != fmt.Sprint(g.Reward) {
		return nil, fmt.Errorf("verifier output %s: reward.txt says %q, grade.json %d", dir, strings.TrimSpace(string(txt)), g.Reward)
	}
	return &g, nil
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("verifier output: %w", err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("verifier output %s: %w", path, err)
	}
	return nil
}
