package eval

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/lolbench/lolbench/data/taxonomy"
	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/trajectory"
	"github.com/lolbench/lolbench/prompts"
)

// Budgets of the judge's prompt, in bytes.
const (
	DefaultInstructionBudget = 32 << 10
	DefaultStepsBudget       = 64 << 10
)

// Judge asks an LLM which semantic failure modes (the taxonomy's "llm"
// rows) a failed attempt's process shows. It is blinded to the outcome:
// its prompt holds the task's instruction and the attempt's events, never
// the reference solution, the verifier's results or the reward. Every
// exchange goes through the shared client, so it is recorded and replayed.
type Judge struct {
	Client *llm.Client
	Modes  []taxonomy.Mode
	// Budgets; 0 means the defaults.
	InstructionBudget, StepsBudget int
}

// Dropped is a judgment that does not count, and why.
type Dropped struct {
	Mode string `json:"mode,omitempty"`
	Why  string `json:"why"`
}

// Why a judgment is dropped.
const (
	DropLowConfidence = "low confidence"
	DropNoCitation    = "present without a cited step"
	DropBadCitation   = "cites a step it was not shown"
	DropUnparseable   = "unparseable answer"
)

// judgeAnswer is the judge's answer.
type judgeAnswer struct {
	Modes []judgeItem `json:"modes"`
}

type judgeItem struct {
	Mode       string `json:"mode"`
	Present    bool   `json:"present"`
	Confidence string `json:"confidence"`
	Steps      []int  `json:"steps"`
	Evidence   string `json:"evidence"`
}

// Validate checks the shape only (every judged mode of the embedded
// taxonomy exactly once, a known confidence); what the judgment says is
// filtered afterwards, so that a bad citation is dropped, not argued with.
func (a *judgeAnswer) Validate() error {
	want := taxonomy.Default().ByDetection(taxonomy.LLM)
	seen := map[string]bool{}
	for _, it := range a.Modes {
		if _, ok := taxonomy.Default().Lookup(it.Mode); !ok || !slices.ContainsFunc(want, func(m taxonomy.Mode) bool { return m.Mode == it.Mode }) {
			return fmt.Errorf("%q is not one of the listed behaviours", it.Mode)
		}
		if seen[it.Mode] {
			return fmt.Errorf("%q is given twice", it.Mode)
		}
		seen[it.Mode] = true
		if it.Confidence != High && it.Confidence != Medium && it.Confidence != Low {
			return fmt.Errorf("%s: confidence %q: high, medium or low", it.Mode, it.Confidence)
		}
	}
	for _, m := range want {
		if !seen[m.Mode] {
			return fmt.Errorf("no entry for %q", m.Mode)
		}
	}
	return nil
}

// Prompt renders the judge's prompt for one attempt and returns the steps
// it shows.
func (j *Judge) Prompt(instruction string, events []trajectory.Event) (prompts.Prompt, map[int]bool, error) {
	d := &prompts.AnalyzeJudge{}
	for _, m := range j.Modes {
		d.Modes = append(d.Modes, prompts.AnalyzeMode{Mode: m.Mode, Phase: m.Phase, Doc: m.Doc})
	}
	ib := j.InstructionBudget
	if ib == 0 {
		ib = DefaultInstructionBudget
	}
	d.Instruction = strings.TrimSpace(instruction)
	if len(d.Instruction) > ib {
		d.InstructionNote = fmt.Sprintf("The task is longer than the budget: only its first %d of %d bytes are shown above.", ib, len(d.Instruction))
		d.Instruction = strings.ToValidUTF8(d.Instruction[:ib], "")
	}
	steps := renderSteps(events)
	sb := j.StepsBudget
	if sb == 0 {
		sb = DefaultStepsBudget
	}
	total := 0
	for _, s := range steps {
		total += len(s.Text)
	}
	shown := map[int]bool{}
	if total <= sb {
		d.Steps = steps
	} else {
		// The first and last steps, half the budget each.
		var head, tail []prompts.AnalyzeStep
		used := 0
		for _, s := range steps {
			if used+len(s.Text) > sb/2 {
				break
			}
			head = append(head, s)
			used += len(s.Text)
		}
		used = 0
		for i := len(steps) - 1; i >= len(head); i-- {
			if used+len(steps[i].Text) > sb/2 {
				break
			}
			tail = append([]prompts.AnalyzeStep{steps[i]}, tail...)
			used += len(steps[i].Text)
		}
		d.Steps = append(head, tail...)
		left := len(steps) - len(d.Steps)
		first, last := steps[len(head)].N, steps[len(steps)-len(tail)-1].N
		d.Omitted = fmt.Sprintf("%d step%s, numbered %d to %d, are left out for length", left, plural(left), first, last)
	}
	for _, s := range d.Steps {
		shown[s.N] = true
	}
	p, err := prompts.RenderAnalyzeJudge(d)
	return p, shown, err
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// renderSteps writes each step's events as text, cut to bounded sizes.
func renderSteps(events []trajectory.Event) []prompts.AnalyzeStep {
	var out []prompts.AnalyzeStep
	var b strings.Builder
	cur := -1
	flush := func() {
		if cur >= 0 {
			out = append(out, prompts.AnalyzeStep{N: cur, Text: strings.TrimRight(b.String(), "\n")})
		}
		b.Reset()
	}
	for i := range events {
		e := &events[i]
		if e.Step != cur {
			flush()
			cur = e.Step
		}
		switch e.Type {
		case trajectory.Message:
			if e.Text != "" {
				fmt.Fprintf(&b, "%s: %s\n", e.Source, trajectory.Cut(e.Text, 1500))
			}
			if e.Reasoning != "" {
				fmt.Fprintf(&b, "%s (reasoning): %s\n", e.Source, trajectory.Cut(e.Reasoning, 1000))
			}
		case trajectory.ToolCall:
			what := e.Command
			if what == "" {
				what = e.Args
			}
			if what == "" && len(e.FilesRead)+len(e.FilesWritten) > 0 {
				what = strings.Join(append(append([]string{}, e.FilesRead...), e.FilesWritten...), ", ")
			}
			fmt.Fprintf(&b, "calls %s: %s\n", e.Tool, trajectory.Cut(what, 600))
		case trajectory.Result:
			code := ""
			if e.ExitCode != nil {
				code = fmt.Sprintf(" (exit code %d)", *e.ExitCode)
			}
			fmt.Fprintf(&b, "result%s: %s\n", code, trajectory.Cut(e.Text, 1000))
		case trajectory.Edit:
			if e.Error {
				fmt.Fprintf(&b, "edit of %s was not applied\n", e.Path)
			} else {
				fmt.Fprintf(&b, "edited %s (%s)\n", e.Path, e.Op)
			}
		case trajectory.TestRun:
			outcome := "outcome unknown"
			if e.Passed != nil {
				outcome = map[bool]string{true: "passed", false: "failed"}[*e.Passed]
			}
			fmt.Fprintf(&b, "the agent's own test run: %s\n", outcome)
		case trajectory.End:
			fmt.Fprintf(&b, "the session ended: %s\n", strings.ReplaceAll(e.Reason, "_", " "))
		}
	}
	flush()
	return out
}

// Ask runs the judge on a rendered prompt and keeps the judgments that
// count: present, with medium or high confidence, citing at least one step
// and only steps it was shown. An answer that stays unparseable after the
// client's re-asks drops every judgment of the attempt. Other failures (no
// record in replay-only mode, a cancelled run, an endpoint that keeps
// failing) are errors.
func (j *Judge) Ask(ctx context.Context, p prompts.Prompt, shown map[int]bool) ([]Detection, []Dropped, error) {
	var ans judgeAnswer
	_, err := j.Client.JSON(ctx, llm.Request{
		Stage:    "analyze",
		Schema:   "eval.judgeAnswer",
		Messages: []llm.Message{{Role: llm.RoleSystem, Content: p.System}, {Role: llm.RoleUser, Content: p.User}},
	}, &ans)
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, llm.ErrNoRecord) || !strings.Contains(err.Error(), "no valid answer") {
			return nil, nil, err
		}
		// The same words live and in replay (where the record's error is
		// quoted inside the client's).
		msg := err.Error()
		msg = msg[strings.Index(msg, "no valid answer"):]
		return nil, []Dropped{{Why: DropUnparseable + ": " + firstLine(msg)}}, nil
	}
	var kept []Detection
	var dropped []Dropped
	for _, it := range ans.Modes {
		if !it.Present {
			continue
		}
		m, _ := taxonomy.Default().Lookup(it.Mode)
		switch {
		case it.Confidence == Low:
			dropped = append(dropped, Dropped{Mode: it.Mode, Why: DropLowConfidence})
			continue
		case len(it.Steps) == 0:
			dropped = append(dropped, Dropped{Mode: it.Mode, Why: DropNoCitation})
			continue
		}
		badStep, bad := 0, false
		for _, s := range it.Steps {
			if !shown[s] {
				badStep, bad = s, true
				break
			}
		}
		if bad {
			dropped = append(dropped, Dropped{Mode: it.Mode, Why: fmt.Sprintf("%s (%d)", DropBadCitation, badStep)})
			continue
		}
		steps := slices.Clone(it.Steps)
		slices.Sort(steps)
		kept = append(kept, Detection{Mode: it.Mode, Phase: m.Phase, Detection: taxonomy.LLM, Confidence: it.Confidence,
			Finding: Finding{Steps: slices.Compact(steps)}, Reason: trajectory.Cut(it.Evidence, 600)})
	}
	return kept, dropped, nil
}

// Steps renders a trajectory's steps as the judge reads them, texts cut;
// the report shows them beside an attempt's failure modes.
func Steps(events []trajectory.Event) []prompts.AnalyzeStep { return renderSteps(events) }
