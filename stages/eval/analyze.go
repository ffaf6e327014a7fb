package eval

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/lolbench/lolbench/data/taxonomy"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/trajectory"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/prompts"
	"github.com/lolbench/lolbench/stages/build"
)

// MaxEvents bounds the events of one trajectory that analyze holds.
const MaxEvents = 200_000

// Analyze attributes every failed attempt of every agent under
// <workspace>/eval to failure modes, a pipeline.WorkspaceStage.
type Analyze struct {
	// Judge finds the semantic modes; nil leaves them out (NoJudge says
	// why, in analysis.json).
	Judge   *Judge
	NoJudge string
	// Batch is how many judge requests are in flight; 0 means 4.
	Batch int

	// After Run.
	Analysis *Analysis
}

var _ pipeline.WorkspaceStage = (*Analyze)(nil)

// Name is the command name.
func (*Analyze) Name() string { return "analyze" }

// String is the log title.
func (*Analyze) String() string { return "attributing failures" }

// Analysis is eval/analysis.json.
type Analysis struct {
	Notes  map[string]string `json:"notes"`
	Phases []string          `json:"phases"`
	// Signals are the diagnostics reported beside the attribution.
	Signals []string        `json:"signals"`
	Judge   JudgeSummary    `json:"judge"`
	Agents  []AgentAnalysis `json:"agents"`
}

// JudgeSummary says how the semantic judge was used.
type JudgeSummary struct {
	// Status is "used" or "skipped: <why>".
	Status string `json:"status"`
	Model  string `json:"model,omitempty"`
	// Judged counts the attempts judged; Kept the judgments kept; Dropped
	// the judgments dropped, by reason.
	Judged  int            `json:"judged"`
	Kept    int            `json:"kept"`
	Dropped map[string]int `json:"dropped"`
}

// AgentAnalysis is one agent's attribution.
type AgentAnalysis struct {
	Agent string `json:"agent"`
	// Attempts are all the agent's attempts; Failed those not resolved.
	// NoTrajectory are the failed ones without a trajectory: counted, not
	// attributed, and kept out of the table. Analyzed (N analyzed) are
	// the failed ones with a trajectory; of those, Unattributed showed no
	// mode and Evaluable the rest, whose units the table splits.
	Attempts     int   `json:"attempts"`
	Failed       int   `json:"failed"`
	NoTrajectory int   `json:"no_trajectory"`
	Analyzed     int   `json:"analyzed"`
	Unattributed int64 `json:"unattributed"`
	Evaluable    int64 `json:"evaluable"`
	Table        Table `json:"table"`
	// Signals count the analyzed attempts that show each signal.
	Signals []SignalCount `json:"signals"`
}

// SignalCount is how many analyzed attempts show a signal.
type SignalCount struct {
	Signal   string `json:"signal"`
	Attempts int    `json:"attempts"`
}

// SignalHit is a signal found in one attempt.
type SignalHit struct {
	Signal string `json:"signal"`
	Finding
}

// Attribution is one line of eval/<agent>/attributions.jsonl: one failed
// attempt.
type Attribution struct {
	Task       string      `json:"task"`
	Attempt    int         `json:"attempt"`
	Trajectory string      `json:"trajectory,omitempty"`
	Modes      []Detection `json:"modes"`
	Signals    []SignalHit `json:"signals,omitempty"`
	Dropped    []Dropped   `json:"dropped,omitempty"`
	// Unattributed is set when no mode was found; Skipped says why the
	// attempt was not analyzed.
	Unattributed bool   `json:"unattributed,omitempty"`
	Skipped      string `json:"skipped,omitempty"`
	Judged       bool   `json:"judged"`
}

var analysisNotes = map[string]string{
	"units":    "the tables are in attribution units (paper, Table 3 and Tables 11-17): each evaluable failed attempt (one with a trajectory and at least one admitted candidate) carries one unit, split over its candidates in proportion to their weights (equation 1); a mode's units are the sum of its shares, a phase's the sum of its modes', so an agent's phases add up to its evaluable failed attempts",
	"weights":  "a candidate weighs 1.0 with high confidence and 0.6 with medium; a rule's predicate sets its own confidence; low-confidence judgments, unparseable answers and judgments citing no step or a step the judge was not shown are dropped",
	"apart":    "failed attempts without a trajectory (no_trajectory) and analyzed attempts with no candidate (unattributed) are counted but carry no unit",
	"rounding": "units are rounded to one decimal by largest remainder, first across the phases so that each agent's total stays its number of evaluable failed attempts, then across each phase's modes so that they keep the phase's rounded total; \"naive\" is each value rounded on its own; \"percent\" is an extra, the exact units over the evaluable attempts",
	"signals":  "signals are diagnostics beside the attribution, never in it: the number of analyzed attempts that show each",
}

// Run implements pipeline.WorkspaceStage.
func (a *Analyze) Run(ctx context.Context, env *pipeline.Env) error {
	ws := env.Workspace
	status := env.Status
	if status == nil {
		status = io.Discard
	}
	agents, err := Agents(ws)
	if err != nil {
		return err
	}
	if len(agents) == 0 {
		return fmt.Errorf("analyze: no results under %s; run lolbench eval first", filepath.Join(ws.Root, Dir))
	}
	tx := taxonomy.Default()
	if err := CheckRuleModes(tx); err != nil {
		return err
	}
	an := &Analysis{Notes: analysisNotes, Phases: slices.Clone(tx.Phases), Agents: []AgentAnalysis{},
		Judge: JudgeSummary{Status: "used", Dropped: map[string]int{}}}
	for _, sg := range tx.Signals {
		an.Signals = append(an.Signals, sg.Signal)
	}
	if a.Judge == nil {
		an.Judge.Status = "skipped: " + a.NoJudge
	} else {
		an.Judge.Model = a.Judge.Client.Config().ModelFor("analyze")
	}
	var mu sync.Mutex
	instructions := map[string]string{}
	for _, agent := range agents {
		dir, err := AgentDir(ws, agent)
		if err != nil {
			return err
		}
		z := &analyzer{tx: tx, judge: a.Judge, batch: a.Batch, tally: NewTally(tx), summary: &an.Judge, signals: map[string]int{},
			instruction: func(r *Row) (string, error) {
				mu.Lock()
				defer mu.Unlock()
				return instruction(ws, r, instructions)
			}}
		aa := AgentAnalysis{Agent: agent}
		count := func(r *Row) {
			aa.Attempts++
			if !r.Resolved {
				aa.Failed++
				if r.Trajectory == "" {
					aa.NoTrajectory++
				} else {
					aa.Analyzed++
				}
			}
		}
		load := func(r *Row, buf []trajectory.Event) ([]trajectory.Event, error) { return loadEvents(dir, r, buf) }
		err = writeAtomic(filepath.Join(dir, AttributionsFile), func(w io.Writer) error {
			z.enc = json.NewEncoder(w)
			z.enc.SetEscapeHTML(false)
			return z.run(ctx, filepath.Join(dir, ResultsFile), runtime.GOMAXPROCS(0), load, count)
		})
		if err != nil {
			return err
		}
		aa.Table = z.tally.Table()
		aa.Evaluable, aa.Unattributed = z.tally.n, z.tally.unattributed
		for _, sg := range tx.Signals {
			aa.Signals = append(aa.Signals, SignalCount{Signal: sg.Signal, Attempts: z.signals[sg.Signal]})
		}
		an.Agents = append(an.Agents, aa)
		fmt.Fprintf(status, "analyze: %s: %d failed attempt(s), %d analyzed, %d unattributed, %d without a trajectory\n", agent, aa.Failed, aa.Analyzed, aa.Unattributed, aa.NoTrajectory)
	}
	a.Analysis = an
	p, err := ws.Path(Dir, AnalysisFile)
	if err != nil {
		return err
	}
	return workspace.WriteJSON(p, an)
}

// CheckRuleModes checks that RuleModes are exactly the taxonomy's
// rule-based modes and SignalChecks its signals, in its order.
func CheckRuleModes(tx *taxonomy.Taxonomy) error {
	want := tx.ByDetection(taxonomy.Rule)
	if len(want) != len(RuleModes) {
		return fmt.Errorf("analyze: the taxonomy has %d rule-based modes, the code %d", len(want), len(RuleModes))
	}
	for i, m := range want {
		if RuleModes[i].Name != m.Mode {
			return fmt.Errorf("analyze: rule-based mode %d is %s in the taxonomy, %s in the code", i+1, m.Mode, RuleModes[i].Name)
		}
	}
	if len(tx.Signals) != len(SignalChecks) {
		return fmt.Errorf("analyze: the taxonomy has %d signals, the code %d", len(tx.Signals), len(SignalChecks))
	}
	for i, s := range tx.Signals {
		if SignalChecks[i].Name != s.Signal {
			return fmt.Errorf("analyze: signal %d is %s in the taxonomy, %s in the code", i+1, s.Signal, SignalChecks[i].Name)
		}
	}
	return nil
}

// RuleDetections runs every rule-based mode on a trace, in the
// taxonomy's order; each found mode has the confidence its predicate set.
func RuleDetections(tx *taxonomy.Taxonomy, tr *Trace) []Detection {
	ds := []Detection{}
	for _, rm := range RuleModes {
		if f, conf := rm.Check(tr); conf != "" {
			m, _ := tx.Lookup(rm.Name)
			ds = append(ds, Detection{Mode: rm.Name, Phase: m.Phase, Detection: taxonomy.Rule, Confidence: conf, Finding: f})
		}
	}
	return ds
}

// Signals runs every signal on a trace, in the taxonomy's order.
func Signals(tr *Trace) []SignalHit {
	var out []SignalHit
	for _, sc := range SignalChecks {
		if f, ok := sc.Check(tr); ok {
			out = append(out, SignalHit{Signal: sc.Name, Finding: f})
		}
	}
	return out
}

// loadEvents reads an attempt's events, at most MaxEvents, into buf.
func loadEvents(agentDir string, r *Row, buf []trajectory.Event) ([]trajectory.Event, error) {
	events := buf[:0]
	err := ReadEvents(agentDir, r, func(e *trajectory.Event) error {
		if len(events) == MaxEvents {
			return fmt.Errorf("events of %s attempt %d: more than %d events", r.Task, r.Attempt, MaxEvents)
		}
		events = append(events, *e)
		return nil
	})
	return events, err
}

// instruction is the task's instruction as the agent received it: the
// built task's instruction.md, or instruction.spec.md for the spec variant.
func instruction(ws *workspace.Workspace, r *Row, cache map[string]string) (string, error) {
	if s, ok := cache[r.Task]; ok {
		return s, nil
	}
	if err := workspace.ValidID(r.Candidate); err != nil {
		return "", fmt.Errorf("row %s attempt %d: %w", r.Task, r.Attempt, err)
	}
	dir := filepath.Join(ws.Root, "candidates", r.Candidate, build.TaskDir)
	names := []string{"instruction.md"}
	if r.Variant == Spec {
		names = []string{"instruction.spec.md", "instruction.md"}
	}
	for _, n := range names {
		if data, err := (folderFS{dir}).read(n, 16<<20); err == nil {
			cache[r.Task] = string(data)
			return string(data), nil
		}
	}
	return "", fmt.Errorf("task %s: no instruction in %s; the judge needs the task as the agent saw it", r.Task, dir)
}

// analyzer attributes one agent's failed attempts in order, judging them
// in batches.
type analyzer struct {
	tx          *taxonomy.Taxonomy
	judge       *Judge
	batch       int
	tally       *Tally
	enc         *json.Encoder
	summary     *JudgeSummary
	signals     map[string]int
	instruction func(*Row) (string, error)
	pending     []*pendingAttempt
}

type pendingAttempt struct {
	att    *Attribution
	prompt *judgePrompt
}

type judgePrompt struct {
	prompt  prompts.Prompt
	shown   map[int]bool
	kept    []Detection
	dropped []Dropped
	err     error
}

// run analyzes one agent's results (the file results): rows are read in
// order; the failed attempts' events are loaded (load may reuse the buffer
// it is given) and checked by the rule-based modes on workers goroutines;
// the attempts are then judged, tallied and written in their order. At
// most a few attempts per worker are in flight, so memory does not grow
// with the number of attempts. count sees every row.
func (z *analyzer) run(ctx context.Context, results string, workers int, load func(*Row, []trajectory.Event) ([]trajectory.Event, error), count func(*Row)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type item struct {
		p   *pendingAttempt
		err error
	}
	type job struct {
		r   *Row
		out chan item
	}
	workers = max(workers, 1)
	jobs := make(chan job, workers)
	order := make(chan chan item, 2*workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []trajectory.Event
			for j := range jobs {
				if err := ctx.Err(); err != nil {
					j.out <- item{err: err}
					continue
				}
				evs, err := load(j.r, buf)
				if err != nil {
					j.out <- item{err: err}
					continue
				}
				buf = evs
				p, err := z.prepare(j.r, evs)
				j.out <- item{p, err}
			}
		}()
	}
	produced := make(chan error, 1)
	go func() {
		err := ReadResults(results, func(r *Row) error {
			count(r)
			if r.Resolved {
				return nil
			}
			ch := make(chan item, 1)
			if r.Trajectory == "" {
				ch <- item{p: &pendingAttempt{att: &Attribution{Task: r.Task, Attempt: r.Attempt, Modes: []Detection{}, Skipped: "no trajectory"}}}
			} else {
				select {
				case jobs <- job{r, ch}:
				case <-ctx.Done():
					return ctx.Err()
				}
			}
			select {
			case order <- ch:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
		close(jobs)
		close(order)
		produced <- err
	}()
	var first error
	for ch := range order {
		it := <-ch
		switch {
		case first != nil:
		case it.err != nil:
			first = it.err
			cancel()
		default:
			if err := z.push(ctx, it.p); err != nil {
				first = err
				cancel()
			}
		}
	}
	wg.Wait()
	if err := <-produced; first == nil {
		first = err
	}
	if first != nil {
		return first
	}
	return z.flush(ctx)
}

// prepare runs the rule-based modes on one failed attempt and renders its
// judge prompt; it is safe for concurrent use.
func (z *analyzer) prepare(r *Row, events []trajectory.Event) (*pendingAttempt, error) {
	tr := &Trace{Events: events}
	if r.Reference != nil {
		tr.Reference = r.Reference.Files
	}
	if r.Solution != nil {
		tr.Solution, tr.Added = r.Solution.Files, r.Solution.Added
		if tr.Solution == nil {
			tr.Solution = []string{}
		}
	}
	att := &Attribution{Task: r.Task, Attempt: r.Attempt, Trajectory: r.Trajectory, Modes: RuleDetections(z.tx, tr), Signals: Signals(tr)}
	p := &pendingAttempt{att: att}
	if z.judge != nil {
		instr, err := z.instruction(r)
		if err != nil {
			return nil, err
		}
		pr, shown, err := z.judge.Prompt(instr, events)
		if err != nil {
			return nil, err
		}
		p.prompt = &judgePrompt{prompt: pr, shown: shown}
	}
	return p, nil
}

// push queues a prepared attempt; a full batch is judged and written.
func (z *analyzer) push(ctx context.Context, p *pendingAttempt) error {
	z.pending = append(z.pending, p)
	n := z.batch
	if n <= 0 {
		n = 4
	}
	if len(z.pending) >= n {
		return z.flush(ctx)
	}
	return nil
}

// flush judges the queued attempts concurrently, then tallies and writes
// them in order.
func (z *analyzer) flush(ctx context.Context) error {
	var wg sync.WaitGroup
	for _, p := range z.pending {
		if p.prompt == nil {
			continue
		}
		wg.Add(1)
		go func(jp *judgePrompt) {
			defer wg.Done()
			jp.kept, jp.dropped, jp.err = z.judge.Ask(ctx, jp.prompt, jp.shown)
		}(p.prompt)
	}
	wg.Wait()
	for _, p := range z.pending {
		if jp := p.prompt; jp != nil {
			if jp.err != nil {
				return fmt.Errorf("analyze: judge of %s attempt %d: %w", p.att.Task, p.att.Attempt, jp.err)
			}
			p.att.Judged = true
			p.att.Modes = append(p.att.Modes, jp.kept...)
			p.att.Dropped = jp.dropped
			z.summary.Judged++
			z.summary.Kept += len(jp.kept)
			for _, d := range jp.dropped {
				z.summary.Dropped[dropKind(d.Why)]++
			}
		}
		slices.SortStableFunc(p.att.Modes, func(a, b Detection) int { return z.tx.Index(a.Mode) - z.tx.Index(b.Mode) })
		if p.att.Skipped == "" {
			z.tally.Add(p.att.Modes)
			p.att.Unattributed = len(p.att.Modes) == 0
			for _, sg := range p.att.Signals {
				z.signals[sg.Signal]++
			}
		}
		if err := z.enc.Encode(p.att); err != nil {
			return err
		}
	}
	z.pending = z.pending[:0]
	return nil
}

func dropKind(why string) string {
	for _, k := range []string{DropLowConfidence, DropNoCitation, DropBadCitation, DropUnparseable} {
		if len(why) >= len(k) && why[:len(k)] == k {
			return k
		}
	}
	return why
}

// writeAtomic writes a file through a temporary file in its folder.
func writeAtomic(path string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	bw := bufio.NewWriterSize(f, 256<<10)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return errors.Join(err, os.Remove(f.Name()))
	}
	return nil
}

// ReadAttributions streams eval/<agent>/attributions.jsonl.
func ReadAttributions(path string, each func(*Attribution) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("attributions: %w", err)
	}
	defer f.Close()
	dec := json.NewDecoder(bufio.NewReaderSize(f, 256<<10))
	dec.DisallowUnknownFields()
	for n := 1; ; n++ {
		var a Attribution
		if err := dec.Decode(&a); err == io.EOF {
			return nil
		} else if err != nil {
			return fmt.Errorf("%s: attribution %d: %w", path, n, err)
		}
		if err := workspace.ValidID(strings.TrimSuffix(a.Task, SpecSuffix)); err != nil || a.Attempt < 1 {
			return fmt.Errorf("%s: attribution %d: task %q attempt %d", path, n, a.Task, a.Attempt)
		}
		if err := each(&a); err != nil {
			return err
		}
	}
}
