package trajectory

import (
	"time"
)

// Activity phases of a turn, for the token distribution (paper, section
// 4.3 and Appendix E, Figure 9). They are the taxonomy's phases but error
// recovery, which is the other dimension: every turn is either in the
// first attempt or in a repair loop.
const (
	PhaseUnderstanding  = "requirement_understanding"
	PhasePlanning       = "planning"
	PhaseLocalization   = "localization"
	PhaseImplementation = "implementation"
	PhaseVerification   = "verification"
	PhaseTermination    = "termination"
)

// Phases lists the activity phases in order.
var Phases = []string{PhaseUnderstanding, PhasePlanning, PhaseLocalization, PhaseImplementation, PhaseVerification, PhaseTermination}

// PhaseSplit is the tokens of one phase: in the first attempt and in
// repair loops.
type PhaseSplit struct {
	First  int64 `json:"first"`
	Repair int64 `json:"repair"`
}

// Summary accumulates what the evaluation measures of a trajectory, one
// event at a time (Add), in constant memory.
//
// A turn is an agent message. Its phase is, by what the turn did:
// implementation when it edited a file (or wrote with a command whose
// files are unknown, as git apply), else verification when it ran tests or
// a build, else localization when it read, listed or searched; a turn that
// ran another command or tool is localization before the first edit and
// verification after it; a turn with no tool call is requirement
// understanding before the first tool call of the run, termination when it
// is the run's last turn, and planning otherwise. A turn is in a repair
// loop when it comes after a failed verification run that followed an
// edit; until then it is in the first attempt.
type Summary struct {
	Turns  int
	Tokens Tokens
	// HasTokens is set when some turn reported tokens; CostUSD sums the
	// turns' costs and HasCost says whether any reported one.
	HasTokens bool
	CostUSD   float64
	HasCost   bool
	// First and Last are the earliest and latest step times seen.
	First, Last time.Time
	// PhaseTokens are the turns' tokens by phase (Phases).
	PhaseTokens map[string]*PhaseSplit

	cur         turn
	pending     *turn // a turn without tool calls, whose phase waits on what follows
	sawToolCall bool
	sawEdit     bool
	repair      bool
}

type turn struct {
	open                             bool
	step                             int
	tokens                           int64
	repair                           bool
	edit, write, test, read, runLike bool
	tools                            bool
	failedTestAfterEdit              bool
}

// NewSummary returns an empty summary.
func NewSummary() *Summary {
	s := &Summary{PhaseTokens: map[string]*PhaseSplit{}}
	for _, p := range Phases {
		s.PhaseTokens[p] = &PhaseSplit{}
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
		s.Turns++
		s.cur = turn{open: true, step: e.Step, repair: s.repair}
		if e.Tokens != nil {
			s.HasTokens = true
			s.Tokens.Input += e.Tokens.Input
			s.Tokens.Cached += e.Tokens.Cached
			s.Tokens.Output += e.Tokens.Output
			s.cur.tokens = e.Tokens.Total()
		}
		if e.CostUSD != nil {
			s.HasCost = true
			s.CostUSD += *e.CostUSD
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
	case Edit:
		s.cur.edit = true
	case TestRun:
		s.cur.test = true
		if e.Passed != nil && !*e.Passed && (s.sawEdit || s.cur.edit) {
			s.cur.failedTestAfterEdit = true
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
		// A turn followed the pending one, so it was not the last.
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
		s.book(t, PhaseImplementation)
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
	ps := s.PhaseTokens[phase]
	if t.repair {
		ps.Repair += t.tokens
	} else {
		ps.First += t.tokens
	}
}

// Finish settles the last turn; call it once, after the last event.
func (s *Summary) Finish() {
	s.closeTurn()
	if s.pending != nil {
		s.book(*s.pending, PhaseTermination)
		s.pending = nil
	}
}

// Wall is the time between the first and the last step, or 0 when the
// trajectory has fewer than two timed steps.
func (s *Summary) Wall() time.Duration {
	if s.First.IsZero() || !s.Last.After(s.First) {
		return 0
	}
	return s.Last.Sub(s.First)
}
