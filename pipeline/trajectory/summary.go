package trajectory

import (
	"slices"
	"time"
)

// Activity phases of a turn, for the distribution of turns and tokens
// (paper, Figure 3 and Figure 9). They are five; whether a turn is in a
// repair loop is a second dimension, not a phase. A turn no phase claims
// (a closing message) is counted apart as unclaimed and left out of the
// phases, as the paper leaves such usage out of its bars.
const (
	PhaseUnderstanding = "requirement_understanding"
	PhasePlanning      = "task_planning"
	PhaseLocalization  = "code_localization"
	PhaseEditing       = "code_editing"
	PhaseVerification  = "code_verification"
)

// Phases lists the activity phases in order.
var Phases = []string{PhaseUnderstanding, PhasePlanning, PhaseLocalization, PhaseEditing, PhaseVerification}

// Usage is non-cached input tokens and generated tokens: the two figures
// Figure 9 splits by phase (cache reads are left out).
type Usage struct {
	Input  int64 `json:"input"`
	Output int64 `json:"output"`
}

func (u *Usage) add(o Usage) {
	u.Input += o.Input
	u.Output += o.Output
}

// PhaseUsage is one phase's usage in the first attempt and in repair
// loops.
type PhaseUsage struct {
	First  Usage `json:"first"`
	Repair Usage `json:"repair"`
}

// Coverage is what the agent was shown of one file: all of it, or some
// lines (at most MaxRanges ranges; past that the file counts as shown
// whole).
type Coverage struct {
	Whole  bool
	Ranges []Range
}

// Bounds of what a summary keeps of the files the agent read.
const (
	MaxRanges    = 256
	MaxInspected = 10000
)

// Summary accumulates what the evaluation measures of a trajectory, one
// event at a time (Add), in bounded memory.
//
// A turn is an agent message that made a model call (a step whose
// llm_call_count is 0 is orchestration, not a turn). A turn's phase is, by
// what it did: code editing when it edited a file (or wrote with a command
// whose files are unknown, as git apply); else code verification when it
// ran tests or a build; else code localization when it read, listed or
// searched; a turn that ran another command or tool is localization before
// the first edit and verification after it; a turn with no tool call is
// requirement understanding before the first tool call of the run, task
// planning when more turns follow, and unclaimed when it closes the run.
// A turn is in a repair loop when it comes after a failed verification run
// that followed an edit; until then it is in the first attempt.
type Summary struct {
	Turns int
	// Steps sums the agent steps' tokens and cost.
	Steps Totals
	// First and Last are the earliest and latest step times seen.
	First, Last time.Time
	// Phases are the turns' usage by activity phase (Phases); Unclaimed
	// the usage of the turns no phase claims.
	Phases    map[string]*PhaseUsage
	Unclaimed Usage
	// Inspected are the files the agent's tool calls read, and what of
	// them they showed (at most MaxInspected files).
	Inspected map[string]*Coverage

	cur         turn
	pending     *turn // a turn without tool calls, whose phase waits on what follows
	sawToolCall bool
	sawEdit     bool
	repair      bool
}

type turn struct {
	open                             bool
	usage                            Usage
	repair                           bool
	edit, write, test, read, runLike bool
	tools                            bool
	failedTestAfterEdit              bool
}

// NewSummary returns an empty summary.
func NewSummary() *Summary {
	s := &Summary{Phases: map[string]*PhaseUsage{}, Inspected: map[string]*Coverage{}}
	for _, p := range Phases {
		s.Phases[p] = &PhaseUsage{}
	}
	return s
}

// Add takes the next event.
func (s *Summary) Add(e *Event) {
	if e.Time != "" {
		if t, err := time.Parse(time.RFC3339Nano, e.Time); err == nil {
			if s.First.IsZero() || t.Before(s.First) {
				s.First = t
			}
			if t.After(s.Last) {
				s.Last = t
			}
		}
	}
	switch e.Type {
	case Message:
		if e.Source != Agent {
			return
		}
		s.closeTurn()
		if e.LLMCalls == nil || *e.LLMCalls > 0 {
			s.Turns++
		}
		s.cur = turn{open: true, repair: s.repair}
		s.Steps.AddStep(e.Tokens, e.CostUSD)
		if e.Tokens != nil {
			s.cur.usage = Usage{Input: e.Tokens.Input, Output: e.Tokens.Output}
		}
	case ToolCall:
		s.cur.tools = true
		switch e.Action {
		case ActWrite:
			if len(e.FilesWritten) == 0 {
				s.cur.write = true
			}
		case ActRead, ActSearch:
			s.cur.read = true
		case ActRun, ActOther:
			s.cur.runLike = true
		}
		s.inspect(e)
	case Edit:
		s.cur.edit = true
	case TestRun:
		s.cur.test = true
		if e.Passed != nil && !*e.Passed && (s.sawEdit || s.cur.edit) {
			s.cur.failedTestAfterEdit = true
		}
	}
}

// inspect records the files a tool call read and the lines it showed.
func (s *Summary) inspect(e *Event) {
	for _, p := range e.FilesRead {
		c := s.Inspected[p]
		if c == nil {
			if len(s.Inspected) == MaxInspected {
				continue
			}
			c = &Coverage{}
			s.Inspected[p] = c
		}
		i := slices.IndexFunc(e.Ranges, func(r Range) bool { return r.Path == p })
		switch {
		case c.Whole:
		case i < 0 || len(c.Ranges) == MaxRanges:
			c.Whole, c.Ranges = true, nil
		default:
			for _, r := range e.Ranges {
				if r.Path == p {
					c.Ranges = append(c.Ranges, Range{From: r.From, To: r.To})
				}
			}
		}
	}
}

// closeTurn settles the phase of the open turn.
func (s *Summary) closeTurn() {
	t := s.cur
	if !t.open {
		return
	}
	s.cur = turn{}
	if s.pending != nil {
		// A turn followed the pending one, so it did not close the run.
		s.book(*s.pending, PhasePlanning)
		s.pending = nil
	}
	switch {
	case !t.tools:
		if !s.sawToolCall {
			s.book(t, PhaseUnderstanding)
		} else {
			p := t
			s.pending = &p
		}
	case t.edit || t.write:
		s.book(t, PhaseEditing)
	case t.test:
		s.book(t, PhaseVerification)
	case t.read:
		s.book(t, PhaseLocalization)
	case s.sawEdit:
		s.book(t, PhaseVerification)
	default:
		s.book(t, PhaseLocalization)
	}
	if t.tools {
		s.sawToolCall = true
	}
	if t.edit || t.write {
		s.sawEdit = true
	}
	if t.failedTestAfterEdit {
		s.repair = true
	}
}

func (s *Summary) book(t turn, phase string) {
	pu := s.Phases[phase]
	if t.repair {
		pu.Repair.add(t.usage)
	} else {
		pu.First.add(t.usage)
	}
}

// Finish settles the last turn; call it once, after the last event.
func (s *Summary) Finish() {
	s.closeTurn()
	if s.pending != nil {
		s.Unclaimed.add(s.pending.usage)
		s.pending = nil
	}
}

// Claimed is the usage the phases claim, both dimensions together.
func (s *Summary) Claimed() Usage {
	var u Usage
	for _, p := range Phases {
		u.add(s.Phases[p].First)
		u.add(s.Phases[p].Repair)
	}
	return u
}

// Wall is the time between the first and the last step, or 0 when the
// trajectory has fewer than two timed steps.
func (s *Summary) Wall() time.Duration {
	if s.First.IsZero() || !s.Last.After(s.First) {
		return 0
	}
	return s.Last.Sub(s.First)
}
