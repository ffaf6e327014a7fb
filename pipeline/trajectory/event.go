// Package trajectory turns an agent's run into one common sequence of
// events, whatever scaffold produced it (issue 15, "Normalize"): messages,
// tool calls with the files they read or wrote and the commands they ran,
// their results, edits and test runs. Two formats are read: ATIF, the Agent
// Trajectory Interchange Format of Harbor (laude-institute/harbor,
// docs/rfcs/0001-trajectory-format.md; ReadATIF derives the edits and test
// runs from the tool calls and their results), and lolbench's own JSONL
// event format (ReadJSONL), one Event per line, for scaffolds without an
// ATIF exporter, which is the normalized sequence itself and is read as
// written. docs/evaluation.md documents both.
//
// Every input is hostile: a malformed file is an error naming it (and the
// line or step), never a panic; texts are cut to a bounded size; events are
// streamed one at a time, so a reader's memory does not grow with the
// length of the trajectory.
package trajectory

import (
	"fmt"
	"slices"
)

// Event types.
const (
	Message  = "message"   // a system, user or agent message (one agent message per turn)
	ToolCall = "tool_call" // an action the agent asked for
	Result   = "result"    // what an action returned
	Edit     = "edit"      // a file the agent changed
	TestRun  = "test_run"  // a test, build or compile check the agent ran
	End      = "end"       // why the run ended, when it ended on a limit
)

// Types lists the event types.
var Types = []string{Message, ToolCall, Result, Edit, TestRun, End}

// Message sources (ATIF's).
const (
	System = "system"
	User   = "user"
	Agent  = "agent"
)

// Tool-call actions.
const (
	ActRead   = "read"   // reads files (FilesRead)
	ActWrite  = "write"  // writes files (FilesWritten; empty when not known, as for git apply)
	ActSearch = "search" // lists or searches (grep, find, ls, glob)
	ActTest   = "test"   // runs tests, a build or a compile check
	ActRun    = "run"    // runs another command
	ActOther  = "other"  // anything else
)

// Actions lists the tool-call actions.
var Actions = []string{ActRead, ActWrite, ActSearch, ActTest, ActRun, ActOther}

// Edit operations.
const (
	OpCreate = "create"
	OpModify = "modify"
	OpDelete = "delete"
)

// End reasons that are limits (the budget_exhausted signal).
const (
	EndTimeout         = "timeout"
	EndStepLimit       = "step_limit"
	EndTokenLimit      = "token_limit"
	EndCostLimit       = "cost_limit"
	EndContextOverflow = "context_overflow"
	EndError           = "error" // the scaffold crashed; not a limit
)

// EndReasons lists the end reasons.
var EndReasons = []string{EndTimeout, EndStepLimit, EndTokenLimit, EndCostLimit, EndContextOverflow, EndError}

// Tokens are one model call's tokens. Input excludes the cached tokens
// (ATIF's prompt_tokens minus cached_tokens); the three add up to what the
// call processed.
type Tokens struct {
	Input  int64 `json:"input"`
	Cached int64 `json:"cached"`
	Output int64 `json:"output"`
}

// Total is Input + Cached + Output.
func (t Tokens) Total() int64 { return t.Input + t.Cached + t.Output }

// Event is one normalized event. Step numbers the agent's turns as the
// trajectory does (ATIF's step_id), and every event of a turn carries it:
// a judge cites steps, a report shows them.
type Event struct {
	Step int    `json:"step"`
	Type string `json:"type"`
	// Message: Source, Text, Reasoning; an agent message also Model,
	// Tokens and CostUSD when the trajectory has them.
	Source    string   `json:"source,omitempty"`
	Text      string   `json:"text,omitempty"`
	Reasoning string   `json:"reasoning,omitempty"`
	Model     string   `json:"model,omitempty"`
	Tokens    *Tokens  `json:"tokens,omitempty"`
	CostUSD   *float64 `json:"cost_usd,omitempty"`
	// LLMCalls is how many model calls an agent step made, when the
	// trajectory says (ATIF v1.7's llm_call_count); a step with none is an
	// orchestration step, not a turn.
	LLMCalls *int `json:"llm_calls,omitempty"`
	// Time is when the step happened (RFC 3339), when known.
	Time string `json:"time,omitempty"`
	// ToolCall and Result: ID pairs them. A tool call has Tool, Args (its
	// arguments as compact JSON, cut), Action, Command (for a command) and
	// the repository-relative files it read or wrote.
	ID           string   `json:"id,omitempty"`
	Tool         string   `json:"tool,omitempty"`
	Args         string   `json:"args,omitempty"`
	Action       string   `json:"action,omitempty"`
	Command      string   `json:"command,omitempty"`
	FilesRead    []string `json:"files_read,omitempty"`
	FilesWritten []string `json:"files_written,omitempty"`
	// Ranges are the lines a read showed of some of FilesRead (a view
	// range, sed -n, head, tail); a file read without a range was shown
	// whole.
	Ranges []Range `json:"ranges,omitempty"`
	// Result (Text is the output, cut): the exit code when the output
	// tells it; Error when the action failed; the paths it said do not
	// exist; the first error line, normalized (digits as N), so that
	// recurring errors compare equal; Invalid when the scaffold rejected
	// the call itself.
	ExitCode     *int     `json:"exit_code,omitempty"`
	Error        bool     `json:"error,omitempty"`
	MissingPaths []string `json:"missing_paths,omitempty"`
	ErrorLine    string   `json:"error_line,omitempty"`
	Invalid      bool     `json:"invalid,omitempty"`
	// Edit: Path, Op; Error (above) when the tool said the edit was not
	// applied. Revert, on an edit or a tool call, when it undoes earlier
	// edits (undo_edit, git checkout or restore of files, git stash, a
	// reversed patch).
	Path   string `json:"path,omitempty"`
	Op     string `json:"op,omitempty"`
	Revert bool   `json:"revert,omitempty"`
	// TestRun: Command (above); Passed when the outcome is known;
	// BuildError when the output shows a build, syntax or import error.
	Passed     *bool `json:"passed,omitempty"`
	BuildError bool  `json:"build_error,omitempty"`
	// End: Reason, one of EndReasons.
	Reason string `json:"reason,omitempty"`
}

// Range is the lines of a file a read showed: From to To, 1-based and
// inclusive; To 0 is the end of the file; a negative From is the last
// -From lines (tail).
type Range struct {
	Path string `json:"path"`
	From int    `json:"from"`
	To   int    `json:"to"`
}

// Check reports what is wrong with an event, or nil.
func (e *Event) Check() error {
	if e.Step < 0 {
		return fmt.Errorf("step %d is negative", e.Step)
	}
	switch e.Type {
	case Message:
		if !slices.Contains([]string{System, User, Agent}, e.Source) {
			return fmt.Errorf("message source %q: system, user or agent", e.Source)
		}
	case ToolCall:
		if e.Action != "" && !slices.Contains(Actions, e.Action) {
			return fmt.Errorf("tool_call action %q: one of %v", e.Action, Actions)
		}
		for _, r := range e.Ranges {
			if r.Path == "" || r.From == 0 || r.To < 0 || (r.From < 0 && r.To != 0) || (r.To > 0 && r.To < r.From) {
				return fmt.Errorf("tool_call range %+v: from ≥ 1 and to 0 or ≥ from, or from < 0 and to 0", r)
			}
		}
	case Edit:
		if e.Path == "" {
			return fmt.Errorf("edit without a path")
		}
		if !slices.Contains([]string{OpCreate, OpModify, OpDelete}, e.Op) {
			return fmt.Errorf("edit op %q: create, modify or delete", e.Op)
		}
	case End:
		if !slices.Contains(EndReasons, e.Reason) {
			return fmt.Errorf("end reason %q: one of %v", e.Reason, EndReasons)
		}
	case Result, TestRun:
	default:
		return fmt.Errorf("event type %q: one of %v", e.Type, Types)
	}
	if e.Tokens != nil && (e.Tokens.Input < 0 || e.Tokens.Cached < 0 || e.Tokens.Output < 0) {
		return fmt.Errorf("negative token count")
	}
	if e.CostUSD != nil && !(*e.CostUSD >= 0 && *e.CostUSD < 1e9) {
		return fmt.Errorf("cost_usd %v is not a plausible cost", *e.CostUSD)
	}
	if e.LLMCalls != nil && *e.LLMCalls < 0 {
		return fmt.Errorf("llm_calls %d is negative", *e.LLMCalls)
	}
	return nil
}

// IsLimit reports whether an end reason is a limit rather than a crash.
func IsLimit(reason string) bool { return reason != "" && reason != EndError }

// Limits on what an event keeps.
const (
	// MaxText is the most of a message, reasoning or output kept: the
	// first and last halves, with a marker between.
	MaxText = 4000
	// MaxArgs is the most of a tool call's arguments kept.
	MaxArgs = 2000
	// MaxLine is the longest line ReadJSONL accepts.
	MaxLine = 1 << 20
)

// Cut shortens s to about max bytes, keeping its head and tail.
func Cut(s string, max int) string {
	if len(s) <= max {
		return s
	}
	half := max / 2
	head, tail := s[:half], s[len(s)-half:]
	return validUTF8(head) + fmt.Sprintf("\n[... %d bytes cut ...]\n", len(s)-2*half) + validUTF8(tail)
}
