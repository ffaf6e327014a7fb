// Package taxonomy is the failure-mode taxonomy of the evaluation (paper,
// Appendix F, Table 10: 7 phases, 24 modes, 18 found by rules and 6 by a
// judge) as data. modes.tsv holds one row per mode with its phase, how it
// is detected ("rule": a predicate over the trajectory's events and the
// reference solution, stages/eval; "llm": the outcome-blinded judge) and
// its documentation, which is the one definition `lolbench analyze
// --modes`, the judge's prompt, the report and docs/evaluation.md show.
// Phases are ordered by their first row, modes by their row; names are the
// paper's. A rule mode needs its predicate too, registered under the same
// name (stages/eval checks that the two agree).
//
// signals.tsv lists lolbench's own diagnostics: behaviours worth showing
// beside the attribution that the paper's table does not have. They never
// take a share of a failure's unit.
package taxonomy

import (
	_ "embed"
	"fmt"
	"regexp"
	"strings"
)

//go:embed modes.tsv
var table string

//go:embed signals.tsv
var signalTable string

// Detections.
const (
	Rule = "rule"
	LLM  = "llm"
)

// Mode is one failure mode.
type Mode struct {
	Phase     string `json:"phase"`
	Mode      string `json:"mode"`
	Detection string `json:"detection"`
	Doc       string `json:"doc"`
}

// Signal is a diagnostic reported beside the attribution, never in it.
type Signal struct {
	Signal string `json:"signal"`
	Doc    string `json:"doc"`
}

// Taxonomy is the parsed table.
type Taxonomy struct {
	Phases  []string
	Modes   []Mode
	Signals []Signal
	byName  map[string]int
}

// phaseNames are the paper's names of the phases (Table 10), for display.
var phaseNames = map[string]string{
	"requirement_understanding": "Requirement Understanding",
	"task_planning":             "Task Planning",
	"code_localization":         "Code Localization",
	"code_editing":              "Code Editing",
	"code_verification":         "Code Verification",
	"self_repair":               "Self-Repair",
	"tool_use":                  "Tool Use",
}

// PhaseName is a phase's name as the paper writes it; the identifier
// itself for a phase the paper does not name.
func PhaseName(phase string) string {
	if n, ok := phaseNames[phase]; ok {
		return n
	}
	return phase
}

var snake = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// Parse reads a taxonomy table: a header "phase mode detection doc" and
// one tab-separated row per mode. Names are snake_case and unique; the
// rows of one phase are contiguous.
func Parse(name, src string) (*Taxonomy, error) {
	t := &Taxonomy{byName: map[string]int{}}
	lines := strings.Split(strings.TrimRight(src, "\n"), "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "phase\tmode\tdetection\tdoc" {
		return nil, fmt.Errorf("%s:1: the header must be phase, mode, detection, doc (tab-separated)", name)
	}
	done := map[string]bool{}
	for i, line := range lines[1:] {
		n := i + 2
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("%s:%d: %d fields, want 4 (tab-separated)", name, n, len(f))
		}
		m := Mode{Phase: f[0], Mode: f[1], Detection: f[2], Doc: strings.TrimSpace(f[3])}
		switch {
		case !snake.MatchString(m.Phase):
			return nil, fmt.Errorf("%s:%d: phase %q is not snake_case", name, n, m.Phase)
		case !snake.MatchString(m.Mode):
			return nil, fmt.Errorf("%s:%d: mode %q is not snake_case", name, n, m.Mode)
		case m.Detection != Rule && m.Detection != LLM:
			return nil, fmt.Errorf("%s:%d: detection %q: rule or llm", name, n, m.Detection)
		case m.Doc == "":
			return nil, fmt.Errorf("%s:%d: mode %s has no doc", name, n, m.Mode)
		}
		if _, dup := t.byName[m.Mode]; dup {
			return nil, fmt.Errorf("%s:%d: mode %s is listed twice", name, n, m.Mode)
		}
		if len(t.Phases) == 0 || t.Phases[len(t.Phases)-1] != m.Phase {
			if done[m.Phase] {
				return nil, fmt.Errorf("%s:%d: the rows of phase %s are not together", name, n, m.Phase)
			}
			done[m.Phase] = true
			t.Phases = append(t.Phases, m.Phase)
		}
		t.byName[m.Mode] = len(t.Modes)
		t.Modes = append(t.Modes, m)
	}
	if len(t.Modes) == 0 {
		return nil, fmt.Errorf("%s: no modes", name)
	}
	return t, nil
}

// ParseSignals reads a signal table: a header "signal doc" and one
// tab-separated row per signal, snake_case and unique, none named like a
// mode of t.
func (t *Taxonomy) ParseSignals(name, src string) error {
	lines := strings.Split(strings.TrimRight(src, "\n"), "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "signal\tdoc" {
		return fmt.Errorf("%s:1: the header must be signal, doc (tab-separated)", name)
	}
	seen := map[string]bool{}
	for i, line := range lines[1:] {
		n := i + 2
		f := strings.Split(line, "\t")
		if len(f) != 2 {
			return fmt.Errorf("%s:%d: %d fields, want 2 (tab-separated)", name, n, len(f))
		}
		s := Signal{Signal: f[0], Doc: strings.TrimSpace(f[1])}
		switch {
		case !snake.MatchString(s.Signal):
			return fmt.Errorf("%s:%d: signal %q is not snake_case", name, n, s.Signal)
		case s.Doc == "":
			return fmt.Errorf("%s:%d: signal %s has no doc", name, n, s.Signal)
		case seen[s.Signal]:
			return fmt.Errorf("%s:%d: signal %s is listed twice", name, n, s.Signal)
		case t.Index(s.Signal) >= 0:
			return fmt.Errorf("%s:%d: %s is a failure mode, not a signal", name, n, s.Signal)
		}
		seen[s.Signal] = true
		t.Signals = append(t.Signals, s)
	}
	return nil
}

var std = func() *Taxonomy {
	t, err := Parse("data/taxonomy/modes.tsv", table)
	if err == nil {
		err = t.ParseSignals("data/taxonomy/signals.tsv", signalTable)
	}
	if err != nil {
		panic(err) // the embedded tables are checked by the package's tests
	}
	return t
}()

// Default returns the embedded taxonomy (modes.tsv, signals.tsv).
func Default() *Taxonomy { return std }

// Lookup returns the mode named name.
func (t *Taxonomy) Lookup(name string) (Mode, bool) {
	i, ok := t.byName[name]
	if !ok {
		return Mode{}, false
	}
	return t.Modes[i], true
}

// Index is the position of mode name in the table, or -1.
func (t *Taxonomy) Index(name string) int {
	if i, ok := t.byName[name]; ok {
		return i
	}
	return -1
}

// ByDetection lists the modes detected one way, in table order.
func (t *Taxonomy) ByDetection(d string) []Mode {
	var out []Mode
	for _, m := range t.Modes {
		if m.Detection == d {
			out = append(out, m)
		}
	}
	return out
}

// InPhase lists the modes of one phase, in table order.
func (t *Taxonomy) InPhase(phase string) []Mode {
	var out []Mode
	for _, m := range t.Modes {
		if m.Phase == phase {
			out = append(out, m)
		}
	}
	return out
}
