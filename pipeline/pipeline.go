// Package pipeline is the engine that runs the stages of the method over
// the candidates of a workspace: the Stage interfaces, the one way to skip
// a stage, rejections, input fingerprints and per-candidate status. It
// never imports stages/; stages/stages.go holds the ordered list.
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/lolbench/lolbench/pipeline/workspace"
)

// Env is the state shared by the stages of one run, passed beside the
// context.
type Env struct {
	Workspace *workspace.Workspace
	// Status receives progress and status lines (stderr).
	Status io.Writer
	// Getenv reads configuration from the environment.
	Getenv func(string) string
	// Version is the tool version; it enters every fingerprint, so a new
	// lolbench reruns every stage.
	Version string
	// Force reruns stages even when they are up to date.
	Force bool
}

// Stage is one step of the method (docs/design.md, "What flows through it"). String is a lower-case log
// title, "validating mappings"; Name is the command name, "validate".
type Stage interface {
	Name() string
	String() string
}

// CandidateStage runs on one candidate at a time.
type CandidateStage interface {
	Stage
	// Inputs names everything the stage reads for the candidate, so that
	// the runner can tell whether it is up to date.
	Inputs(env *Env, c *Candidate) (Inputs, error)
	// Run does the work. It returns nil when the candidate passed, a
	// Skip error when there was nothing to do, a Reject error when the
	// candidate fails the stage's gate, and any other error when the stage
	// could not do its work.
	Run(ctx context.Context, env *Env, c *Candidate) error
}

// WorkspaceStage runs once over the whole workspace (collect, export).
type WorkspaceStage interface {
	Stage
	Run(ctx context.Context, env *Env) error
}

// Inputs are what a stage reads: files (absolute, or relative to the
// candidate folder) and parameters such as thresholds, model names and
// prompt templates.
type Inputs struct {
	Files  []string
	Params []string
}

// SkipError says a stage had nothing to do, with the reason. It is the
// only way to skip a stage.
type SkipError struct{ Reason string }

func (e *SkipError) Error() string { return "skipped: " + e.Reason }

// Skip returns a SkipError; the reason names what to set to run the stage
// ("no LLM endpoint configured; set LOLBENCH_LLM_BASE_URL").
func Skip(format string, args ...any) error {
	return &SkipError{Reason: fmt.Sprintf(format, args...)}
}

// RejectError says the candidate failed the stage's gate; the candidate
// stops there and the reason is recorded.
type RejectError struct{ Reason string }

func (e *RejectError) Error() string { return "rejected: " + e.Reason }

// Reject returns a RejectError.
func Reject(format string, args ...any) error {
	return &RejectError{Reason: fmt.Sprintf(format, args...)}
}

// Result is the outcome of one stage on one candidate.
type Result string

// The results a stage can record.
const (
	Passed   Result = "passed"
	Skipped  Result = "skipped"
	Rejected Result = "rejected"
	Failed   Result = "failed"
)

// Classify turns a stage error into its result and reason. The reason is
// one line, as status.json, the status table and the run's log show it:
// an error that joins several (errors.Join, a list of parse errors) has
// its lines joined with "; ".
func Classify(err error) (Result, string) {
	var skip *SkipError
	var reject *RejectError
	switch {
	case err == nil:
		return Passed, ""
	case errors.As(err, &skip):
		return Skipped, OneLine(skip.Reason)
	case errors.As(err, &reject):
		return Rejected, OneLine(reject.Reason)
	}
	return Failed, OneLine(err.Error())
}

// OneLine joins the lines of s with "; " (a space after a line that ends
// in ":", ";" or ","), dropping blank ones and the white space around each.
func OneLine(s string) string {
	if !strings.ContainsAny(s, "\n\r") {
		return s
	}
	var b strings.Builder
	for _, l := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if l = strings.TrimSpace(l); l == "" {
			continue
		}
		if b.Len() > 0 {
			if strings.ContainsAny(b.String()[b.Len()-1:], ":;,") {
				b.WriteByte(' ')
			} else {
				b.WriteString("; ")
			}
		}
		b.WriteString(l)
	}
	return b.String()
}
