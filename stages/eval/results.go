package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/lolbench/lolbench/pipeline/trajectory"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// Files and folders under <workspace>/eval.
const (
	Dir              = "eval"
	ResultsFile      = "results.jsonl"      // eval/<agent>/results.jsonl
	EventsDir        = "events"             // eval/<agent>/events/<task>.<attempt>.jsonl
	RunsDir          = "runs"               // eval/<agent>/runs/<task>.<attempt>/ (predictions' verifier output)
	AttributionsFile = "attributions.jsonl" // eval/<agent>/attributions.jsonl
	MetricsFile      = "metrics.json"       // eval/metrics.json (Table 2, Figure 4, efficiency)
	AnalysisFile     = "analysis.json"      // eval/analysis.json (Table 3, Tables 10–17)
)

// Sources of a row.
const (
	SourceHarbor      = "harbor"
	SourcePredictions = "predictions"
)

// How a row was graded.
const (
	// GradedHost: the host graded the verifier's raw run (a Harbor
	// trial's verifier/run-1, or lolbench's own verify of a prediction).
	GradedHost = "host"
	// GradedRewardJSON: the verifier's reward.json, as recorded (no raw
	// run in the trial).
	GradedRewardJSON = "reward.json"
	// GradedResultJSON: only Harbor's verifier_result reward in result.json.
	GradedResultJSON = "result.json"
	// GradedNone: the trial has no verifier result (the agent crashed or
	// timed out before verification): it counts as failed, with none of
	// the task's tests passed and no section completed (paper §4.1).
	GradedNone = "none"
)

// Row is one line of eval/<agent>/results.jsonl: one attempt of one agent
// on one task. Counts are nil when the grading did not give them; every
// rate is recomputed from the counts when the tables are built.
type Row struct {
	Agent     string `json:"agent"`
	Scaffold  string `json:"scaffold"`
	Model     string `json:"model"`
	Task      string `json:"task"`      // the instance: the candidate id, with "-spec" for the spec variant
	Candidate string `json:"candidate"` // the candidate id
	Variant   string `json:"variant"`   // "plain" or "spec"
	Attempt   int    `json:"attempt"`
	Source    string `json:"source"`
	// Origin names the input: the trial folder, or "FILE:LINE" of a
	// prediction.
	Origin string `json:"origin"`

	Reward   int    `json:"reward"`
	Resolved bool   `json:"resolved"`
	Verdict  string `json:"verdict"`
	GradedBy string `json:"graded_by"`

	F2PPassed *int `json:"f2p_passed"`
	F2PTotal  *int `json:"f2p_total"`
	P2PPassed *int `json:"p2p_passed"`
	P2PTotal  *int `json:"p2p_total"`
	// SectionsCompleted counts the sections whose mapped F2P tests all
	// passed; Sections is the paper's denominator as the task's verifier
	// grades it: the task's implementable_sections (tests/config.json),
	// else the sections its tests are mapped to.
	SectionsCompleted *int `json:"sections_completed"`
	Sections          *int `json:"sections"`

	// Reference and Solution are the scopes the reference solution and
	// the agent's solution change; Inspected those the agent's reads
	// showed.
	Reference    *Scopes       `json:"reference"`
	Solution     *Scopes       `json:"solution"`
	Inspected    *Scopes       `json:"inspected"`
	Localization *Localization `json:"localization"`
	Efficiency   *Efficiency   `json:"efficiency"`
	// DAG is the attempt against the task's section dependency graph:
	// Completed along the graph, regressions and plan fidelity; nil when
	// the candidate has no dag.json.
	DAG *DAGScore `json:"dag,omitempty"`
	// Trajectory is the normalized events file, relative to the agent's
	// folder ("events/<task>.<attempt>.jsonl"); "" without a trajectory.
	Trajectory string `json:"trajectory"`
	// Ended is why the run ended when it hit a limit or crashed
	// (trajectory.EndReasons).
	Ended string `json:"ended,omitempty"`
	// Notes say what could not be measured, and why.
	Notes []string `json:"notes,omitempty"`
}

// Localization is Figure 4 for one attempt: the files and functions the
// agent inspected, and those it modified, against those the reference
// solution modified (paper section 4.5), new ones left out. A view is nil
// when its side is unknown (no trajectory, no solution, no reference).
type Localization struct {
	Inspected *View `json:"inspected"`
	Modified  *View `json:"modified"`
}

// View compares one view at the two levels.
type View struct {
	Files     Match `json:"files"`
	Functions Match `json:"functions"`
}

// Match compares the agent's set with the reference's at one level.
type Match struct {
	Hit       int      `json:"hit"`
	Agent     int      `json:"agent"`
	Reference int      `json:"reference"`
	Precision *float64 `json:"precision"`
	Recall    *float64 `json:"recall"`
}

func match(agent, ref []string) Match {
	p, r := precisionRecall(agent, ref)
	in := map[string]bool{}
	for _, x := range ref {
		in[x] = true
	}
	m := Match{Agent: len(agent), Reference: len(ref), Precision: p, Recall: r}
	for _, x := range agent {
		if in[x] {
			m.Hit++
		}
	}
	return m
}

func compare(agent, ref *Scopes) *View {
	if agent == nil || ref == nil {
		return nil
	}
	return &View{Files: match(agent.located(), ref.located()), Functions: match(agent.Functions, ref.Functions)}
}

func localize(inspected, sol, ref *Scopes) *Localization {
	l := &Localization{Inspected: compare(inspected, ref), Modified: compare(sol, ref)}
	if l.Inspected == nil && l.Modified == nil {
		return nil
	}
	return l
}

// Efficiency is what the trajectory (or the trial) says of the cost of an
// attempt. Tokens are non-cached input, cached input and generated, every
// figure exact as read.
type Efficiency struct {
	Turns        *int     `json:"turns"`
	WallSec      *float64 `json:"wall_time_sec"`
	InputTokens  *int64   `json:"input_tokens"`
	CachedTokens *int64   `json:"cached_tokens"`
	OutputTokens *int64   `json:"output_tokens"`
	CostUSD      *float64 `json:"cost_usd"`
	// TokensFrom and CostFrom say where the totals come from:
	// "final_metrics" (the trajectory's totals, which count the model
	// calls outside its steps), "steps" (the steps' sums and the
	// subagents' trajectories found in the trial) or "agent_result" (the
	// trial's).
	TokensFrom string `json:"tokens_from,omitempty"`
	CostFrom   string `json:"cost_from,omitempty"`
	// Subagents counts the subagent trajectories read in the trial.
	Subagents int `json:"subagents,omitempty"`
	// PhaseTokens split the steps' non-cached input and generated tokens
	// by activity phase, first attempt and repair loops (Figure 9);
	// Unattributed is the rest of the totals, which no phase claims (the
	// closing message, context summarization, subagents).
	PhaseTokens  []PhaseTokens     `json:"phase_tokens,omitempty"`
	Unattributed *trajectory.Usage `json:"unattributed,omitempty"`
}

// PhaseTokens is one activity phase's tokens.
type PhaseTokens struct {
	Phase  string           `json:"phase"`
	First  trajectory.Usage `json:"first"`
	Repair trajectory.Usage `json:"repair"`
}

// agentPattern restricts agent names to what a folder name can safely be.
var agentPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,127}$`)

// AgentName makes a folder-safe agent name of a scaffold and a model:
// lower case, runs of other characters as "-", joined by "__"
// ("openhands__anthropic-claude-sonnet-4"); "unknown" stands for a missing
// part.
func AgentName(scaffold, model string) string {
	clean := func(s string) string {
		var b strings.Builder
		dash := false
		for _, r := range strings.ToLower(s) {
			if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r == '.' || r == '_' {
				b.WriteRune(r)
				dash = false
			} else if !dash && b.Len() > 0 {
				b.WriteByte('-')
				dash = true
			}
		}
		out := strings.Trim(b.String(), "-._")
		if out == "" {
			return "unknown"
		}
		return out
	}
	name := clean(scaffold) + "__" + clean(model)
	if len(name) > 128 {
		name = name[:128]
	}
	return name
}

// CheckAgent checks a name given with --agent.
func CheckAgent(name string) error {
	if !agentPattern.MatchString(name) || strings.Contains(name, "..") {
		return fmt.Errorf("agent name %q: use lower-case letters, digits, '.', '_' and '-' (at most 128)", name)
	}
	return nil
}

// Agents lists the agents with results under the workspace's eval folder.
func Agents(ws *workspace.Workspace) ([]string, error) {
	dir, err := ws.Path(Dir)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list agents: %w", err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && CheckAgent(e.Name()) == nil {
			if _, err := os.Stat(filepath.Join(dir, e.Name(), ResultsFile)); err == nil {
				out = append(out, e.Name())
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

// AgentDir is eval/<agent>.
func AgentDir(ws *workspace.Workspace, agent string) (string, error) {
	if err := CheckAgent(agent); err != nil {
		return "", err
	}
	return ws.Path(Dir, agent)
}

// maxRowBytes bounds one results line; a row with the file lists of a
// very large solution is still far below it.
const maxRowBytes = 64 << 20

// ReadResults streams eval/<agent>/results.jsonl, strictly: an unknown
// field or a malformed line is an error naming the file and line.
func ReadResults(path string, each func(*Row) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("results: %w", err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(line) > maxRowBytes {
			return fmt.Errorf("%s:%d: line longer than %d bytes", path, n, maxRowBytes)
		}
		if len(bytes.TrimSpace(line)) > 0 {
			var r Row
			dec := json.NewDecoder(bytes.NewReader(line))
			dec.DisallowUnknownFields()
			if derr := dec.Decode(&r); derr != nil {
				if strings.Contains(derr.Error(), "unknown field") {
					return fmt.Errorf("%s:%d: %w (written by another version of lolbench: run lolbench eval again)", path, n, derr)
				}
				return fmt.Errorf("%s:%d: %w", path, n, derr)
			}
			if r.Task == "" || r.Attempt < 1 || CheckAgent(r.Agent) != nil {
				return fmt.Errorf("%s:%d: a row needs an agent, a task and an attempt ≥ 1", path, n)
			}
			if strings.Contains(r.Trajectory, "..") || filepath.IsAbs(r.Trajectory) {
				return fmt.Errorf("%s:%d: trajectory %q leaves the agent's folder", path, n, r.Trajectory)
			}
			if err := each(&r); err != nil {
				return err
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
}

// writeResults writes an agent's rows, sorted by task and attempt.
func writeResults(path string, rows []*Row) error {
	slices.SortFunc(rows, func(a, b *Row) int {
		if c := strings.Compare(a.Task, b.Task); c != 0 {
			return c
		}
		return a.Attempt - b.Attempt
	})
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, r := range rows {
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return workspace.WriteFile(path, buf.Bytes(), 0o644)
}

// eventsName is the events file of an attempt, relative to the agent's
// folder.
func eventsName(task string, attempt int) string {
	return filepath.ToSlash(filepath.Join(EventsDir, fmt.Sprintf("%s.%d.jsonl", task, attempt)))
}

// ReadEvents streams an attempt's normalized events.
func ReadEvents(agentDir string, r *Row, emit func(*trajectory.Event) error) error {
	p, err := workspace.SafeJoin(agentDir, filepath.FromSlash(r.Trajectory))
	if err != nil {
		return err
	}
	f, err := os.Open(p)
	if err != nil {
		return fmt.Errorf("events of %s attempt %d: %w", r.Task, r.Attempt, err)
	}
	defer f.Close()
	return trajectory.ReadJSONL(f, p, emit)
}
