// Package eval scores agents' solutions on the benchmark's tasks and
// attributes their failures (issue 15; paper, section 4 and Appendices
// E–F). It is two workspace stages.
//
// Stage (`lolbench eval`) reads Harbor job folders (trials, their
// verifier output and ATIF trajectories) or SWE-bench predictions files,
// grades every solution through the tamper-proof path (a prediction runs
// lolbench's verifier, harbor.Verify; a Harbor trial is re-graded on the
// host from its verifier's raw run, grade.ScoreRun, when the trial kept
// it), measures localization against the reference solution with rule
// 27's scopes, and efficiency from the trajectory. It writes
// eval/<agent>/results.jsonl (one row per agent, task and attempt), the
// trajectories normalized to lolbench's events
// (eval/<agent>/events/<task>.<attempt>.jsonl) and the aggregate tables,
// eval/metrics.json (Table 2, Figure 4 and the efficiency figures).
//
// Analyze (`lolbench analyze`) attributes every failed attempt to the
// failure modes of data/taxonomy: the rule-based modes are predicates over
// the events and the reference solution (modes.go); the semantic ones come
// from an outcome-blinded LLM judge (judge.go). Each failed attempt carries
// one unit of attribution, split over its modes by confidence weight
// (equation 1), summed per mode and phase (equation 2) and rounded by
// largest remainder (attribution.go). It writes
// eval/<agent>/attributions.jsonl and eval/analysis.json (Table 3 and the
// per-phase tables). docs/evaluation.md says what every number means.
package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
	"github.com/lolbench/lolbench/pipeline/sandbox/guard"
	"github.com/lolbench/lolbench/pipeline/sandbox/harbor"
	"github.com/lolbench/lolbench/pipeline/trajectory"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/build"
)

// Variants of a task (stages/export): the spec variant's instance is the
// candidate id with SpecSuffix.
const (
	Plain      = "plain"
	Spec       = "spec"
	SpecSuffix = "-spec"
)

// Stage scores solutions, a pipeline.WorkspaceStage.
type Stage struct {
	// Jobs are Harbor job folders; Predictions SWE-bench predictions
	// files. Exactly one of the two is given.
	Jobs        []string
	Predictions []string
	// Trajectories is an optional folder of the predictions'
	// trajectories, <instance_id>.json (ATIF) or <instance_id>.jsonl.
	Trajectories string
	// Agent names every solution's agent instead of the trial metadata or
	// the predictions' model_name_or_path.
	Agent string
	// Executor runs lolbench's verifier on predictions.
	Executor sandbox.Executor

	// After Run: the agents scored, the rows written and the tables.
	Agents  []string
	Rows    int
	Metrics *Metrics
}

var _ pipeline.WorkspaceStage = (*Stage)(nil)

// Name is the command name.
func (*Stage) Name() string { return "eval" }

// String is the log title.
func (*Stage) String() string { return "scoring agents' solutions" }

// input is one solution to score.
type input struct {
	agent, scaffold, model string
	task                   string // the task as the input names it
	origin                 string
	order                  string // orders the attempts of one agent on one task
	trial                  *Trial
	pred                   *Prediction
}

// Run implements pipeline.WorkspaceStage.
func (s *Stage) Run(ctx context.Context, env *pipeline.Env) error {
	if (len(s.Jobs) == 0) == (len(s.Predictions) == 0) {
		return errors.New("eval: give Harbor job folders (--jobs) or predictions files (--predictions), not both")
	}
	if s.Agent != "" {
		if err := CheckAgent(s.Agent); err != nil {
			return err
		}
	}
	if len(s.Predictions) > 0 && s.Executor == nil {
		return errors.New("eval: predictions are graded by running the verifier; no executor was given")
	}
	status := env.Status
	if status == nil {
		status = io.Discard
	}
	ws := env.Workspace
	var inputs []*input
	if len(s.Jobs) > 0 {
		trials, err := FindTrials(s.Jobs)
		if err != nil {
			return err
		}
		for _, t := range trials {
			scaffold, model := t.scaffoldModel()
			// Attempts are ordered by start time (UTC, so that zones
			// compare), then trial name.
			start := t.Result.StartedAt
			if ts, ok := parseTime(start); ok {
				start = ts.UTC().Format("2006-01-02T15:04:05.000000000")
			}
			in := &input{scaffold: scaffold, model: model, task: t.Result.TaskName, origin: t.Dir, trial: t, order: start + "\x00" + t.Result.TrialName}
			inputs = append(inputs, in)
		}
	} else {
		for _, f := range s.Predictions {
			preds, err := ReadPredictions(f)
			if err != nil {
				return err
			}
			for i := range preds {
				p := &preds[i]
				inputs = append(inputs, &input{scaffold: "predictions", model: p.Model, task: p.InstanceID, origin: p.Origin, pred: p, order: fmt.Sprintf("%08d", len(inputs))})
			}
		}
	}
	tasks := &taskCache{ws: ws, byName: map[string]*taskInfo{}}
	defer tasks.close()
	byAgent := map[string][]*input{}
	for _, in := range inputs {
		ti, err := tasks.get(ctx, in.task, in.origin)
		if err != nil {
			return err
		}
		in.task = ti.instance
		in.agent = s.Agent
		if in.agent == "" {
			in.agent = AgentName(in.scaffold, in.model)
			if ti.variant == Spec {
				in.agent += "__spec"
			}
		}
		byAgent[in.agent] = append(byAgent[in.agent], in)
	}
	s.Agents, s.Rows = nil, 0
	for _, agent := range sortedKeys(byAgent) {
		ins := byAgent[agent]
		slices.SortStableFunc(ins, func(a, b *input) int {
			return cmpStrings(a.task, b.task, a.order, b.order, a.origin, b.origin)
		})
		dir, err := AgentDir(ws, agent)
		if err != nil {
			return err
		}
		if err := os.RemoveAll(filepath.Join(dir, EventsDir)); err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dir, EventsDir), 0o755); err != nil {
			return err
		}
		var rows []*Row
		attempt := map[string]int{}
		for _, in := range ins {
			if err := ctx.Err(); err != nil {
				return err
			}
			attempt[in.task]++
			ti := tasks.byName[in.task]
			row, err := s.score(ctx, ws, dir, ti, in, attempt[in.task], status)
			if err != nil {
				return err
			}
			rows = append(rows, row)
			fmt.Fprintf(status, "eval: %s %s attempt %d: %s\n", agent, row.Task, row.Attempt, row.Verdict)
		}
		if err := writeResults(filepath.Join(dir, ResultsFile), rows); err != nil {
			return err
		}
		s.Agents = append(s.Agents, agent)
		s.Rows += len(rows)
	}
	m, err := ComputeMetrics(ws)
	if err != nil {
		return err
	}
	s.Metrics = m
	p, err := ws.Path(Dir, MetricsFile)
	if err != nil {
		return err
	}
	return workspace.WriteJSON(p, m)
}

func cmpStrings(pairs ...string) int {
	for i := 0; i+1 < len(pairs); i += 2 {
		if c := strings.Compare(pairs[i], pairs[i+1]); c != 0 {
			return c
		}
	}
	return 0
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// score grades one solution and measures it.
func (s *Stage) score(ctx context.Context, ws *workspace.Workspace, agentDir string, ti *taskInfo, in *input, attempt int, status io.Writer) (*Row, error) {
	row := &Row{Agent: in.agent, Scaffold: in.scaffold, Model: in.model, Task: ti.instance, Candidate: ti.candidate, Variant: ti.variant,
		Attempt: attempt, Origin: in.origin, Reference: ti.ref}
	if ti.refNote != "" {
		row.Notes = append(row.Notes, ti.refNote)
	}
	var g *grade.Grade
	var patch []byte
	if in.pred != nil {
		row.Source = SourcePredictions
		patch = []byte(in.pred.Patch)
		var err error
		if g, err = s.verify(ctx, agentDir, ti, patch, attempt, status); err != nil {
			return nil, err
		}
		row.GradedBy = GradedHost
	} else {
		row.Source = SourceHarbor
		var err error
		if g, row.GradedBy, err = gradeTrial(in.trial, ti, row); err != nil {
			return nil, err
		}
	}
	row.Reward, row.Verdict = g.Reward, g.Verdict
	row.Resolved = g.Reward == 1
	if row.GradedBy != GradedResultJSON && row.GradedBy != GradedNone {
		row.F2PPassed, row.F2PTotal, row.P2PPassed, row.P2PTotal = ptr(g.F2PPassed), ptr(g.F2PTotal), ptr(g.P2PPassed), ptr(g.P2PTotal)
		row.SectionsCompleted = ptr(g.SectionsCompleted)
		switch {
		case ti.sections >= 0:
			row.Sections = ptr(ti.sections)
		default:
			row.Sections = ptr(g.SectionsTotal)
		}
	}
	// The solution, for localization.
	var sol *Scopes
	var serr error
	switch {
	case in.pred != nil:
		sol, serr = ti.scoper.Patch(ctx, patch)
	default:
		kind, path, err := solutionOf(in.trial.Dir)
		switch {
		case err != nil:
			serr = err
		case kind == "patch":
			var data []byte
			if data, serr = readCapped(path, 256<<20); serr == nil {
				sol, serr = ti.scoper.Patch(ctx, data)
			}
		case kind == "tree":
			sol, serr = ti.scoper.Tree(ctx, path)
		default:
			row.Notes = append(row.Notes, "no solution in the trial (artifacts/*.patch or artifacts/testbed/): no localization")
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if serr != nil {
		row.Notes = append(row.Notes, "solution: "+firstLine(serr.Error()))
	}
	row.Solution = sol
	row.Localization = localize(sol, ti.ref)
	// The trajectory, normalized, and efficiency.
	trajPath := ""
	if in.trial != nil {
		trajPath = trajectoryOf(in.trial.Dir)
	} else if s.Trajectories != "" {
		for _, ext := range []string{".json", ".jsonl"} {
			p := filepath.Join(s.Trajectories, in.pred.InstanceID+ext)
			if st, err := os.Lstat(p); err == nil && st.Mode().IsRegular() {
				trajPath = p
				break
			}
		}
	}
	if in.trial != nil && in.trial.Result.ExceptionInfo != nil {
		row.Ended = endReason(in.trial.Result.ExceptionInfo.ExceptionType, in.trial.Result.ExceptionInfo.ExceptionMessage)
	}
	var sum *trajectory.Summary
	var info *trajectory.Info
	if trajPath != "" {
		var err error
		row.Trajectory = eventsName(row.Task, attempt)
		if sum, info, err = normalize(trajPath, filepath.Join(agentDir, filepath.FromSlash(row.Trajectory)), row.Ended); err != nil {
			return nil, err
		}
	} else {
		row.Notes = append(row.Notes, "no trajectory: no turns, tokens per phase or failure analysis")
	}
	row.Efficiency = efficiency(sum, info, in.trial)
	return row, nil
}

func ptr[T any](v T) *T { return &v }

// verify grades a prediction with lolbench's verifier. The verifier's
// output stays in eval/<agent>/runs/<task>.<attempt>/; a rerun with the
// same patch reuses its grade.json.
func (s *Stage) verify(ctx context.Context, agentDir string, ti *taskInfo, patch []byte, attempt int, status io.Writer) (*grade.Grade, error) {
	out := filepath.Join(agentDir, RunsDir, fmt.Sprintf("%s.%d", ti.instance, attempt))
	prev, err := os.ReadFile(filepath.Join(out, "solution.patch"))
	if err == nil && bytes.Equal(prev, patch) {
		var g grade.Grade
		if err := workspace.ReadJSON(filepath.Join(out, grade.GradeJSON), &g); err == nil {
			return &g, nil
		}
	}
	os.RemoveAll(out)
	g, err := harbor.Verify(ctx, s.Executor, ti.dir, patch, out, status)
	if err != nil {
		return nil, fmt.Errorf("eval: verify %s attempt %d: %w", ti.instance, attempt, err)
	}
	if err := workspace.WriteFile(filepath.Join(out, "solution.patch"), patch, 0o644); err != nil {
		return nil, err
	}
	return g, nil
}

// gradeTrial grades a Harbor trial: from the verifier's raw run when the
// trial kept it (verifier/run-1), re-graded on the host against the
// workspace's copy of the task configuration; else from lolbench's
// reward.json as the verifier recorded it; else from the reward in
// result.json; else the trial failed.
func gradeTrial(t *Trial, ti *taskInfo, row *Row) (*grade.Grade, string, error) {
	vdir := filepath.Join(t.Dir, "verifier")
	runDir := guard.RunDir(vdir, 1)
	if st, err := os.Lstat(filepath.Join(runDir, grade.RunJSON)); err == nil && st.Mode().IsRegular() {
		g := grade.ScoreRun(ti.cfg.Config, runDir, ti.cfg.Recipe.Test.Results != "")
		if txt, err := readCapped(filepath.Join(vdir, grade.RewardTxt), 64); err == nil && strings.TrimSpace(string(txt)) != fmt.Sprint(g.Reward) {
			row.Notes = append(row.Notes, fmt.Sprintf("the verifier recorded reward %q; the host's grade of its raw run is %d", strings.TrimSpace(string(txt)), g.Reward))
		}
		return &g, GradedHost, nil
	}
	if data, err := readCapped(filepath.Join(vdir, grade.RewardJSON), 1<<20); err == nil {
		// lolbench's reward.json: its numbers and the verdict as reason
		// (a generic Harbor reward.json has only numbers and is skipped).
		var r grade.Reward
		if json.Unmarshal(data, &r) == nil && (r.Reward == 0 || r.Reward == 1) && r.Reason != "" {
			g := &grade.Grade{Task: ti.candidate, Reward: r.Reward, F2PPassed: r.F2PPassed, F2PTotal: r.F2PTotal, P2PPassed: r.P2PPassed, P2PTotal: r.P2PTotal,
				SectionsCompleted: r.SectionsCompleted, SectionsTotal: r.SectionsTotal, Verdict: r.Reason}
			row.Notes = append(row.Notes, "no raw run in the trial: graded from the verifier's reward.json as recorded")
			return g, GradedRewardJSON, nil
		}
	}
	if vr := t.Result.VerifierResult; vr != nil {
		if v, ok := vr.Rewards["reward"]; ok {
			f, err := v.Float64()
			if err != nil {
				return nil, "", fmt.Errorf("%s: verifier_result reward %q is not a number", filepath.Join(t.Dir, "result.json"), v)
			}
			g := &grade.Grade{Task: ti.candidate, Verdict: grade.VerdictFailed}
			if f == 1 {
				g.Reward, g.Verdict = 1, grade.VerdictPassed
			}
			row.Notes = append(row.Notes, "no verifier output in the trial: graded from result.json's reward")
			return g, GradedResultJSON, nil
		}
	}
	why := "no verifier result"
	if e := t.Result.ExceptionInfo; e != nil {
		why += " (" + e.ExceptionType + ": " + firstLine(e.ExceptionMessage) + ")"
	}
	return &grade.Grade{Task: ti.candidate, Verdict: "error: " + why}, GradedNone, nil
}

// normalize reads a trajectory, writes its events to dst (atomically) and
// summarizes them. A run that ended on a limit or crashed gets an end
// event.
func normalize(src, dst, ended string) (*trajectory.Summary, *trajectory.Info, error) {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return nil, nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(dst), ".events-*")
	if err != nil {
		return nil, nil, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	w := trajectory.NewWriter(f)
	sum := trajectory.NewSummary()
	last := 0
	info, err := trajectory.ReadFile(src, func(e *trajectory.Event) error {
		sum.Add(e)
		last = e.Step
		return w.Write(e)
	})
	if err != nil {
		return nil, nil, err
	}
	if ended != "" {
		if err := w.Write(&trajectory.Event{Step: last, Type: trajectory.End, Reason: ended}); err != nil {
			return nil, nil, err
		}
	}
	sum.Finish()
	if err := w.Flush(); err != nil {
		return nil, nil, err
	}
	if err := f.Sync(); err != nil {
		return nil, nil, err
	}
	if err := f.Close(); err != nil {
		return nil, nil, err
	}
	return sum, info, os.Rename(f.Name(), dst)
}

// efficiency gathers an attempt's cost: turns and per-phase tokens from
// the trajectory; tokens and cost from its steps, else its final
// metrics, else the trial's agent_result (whose n_input_tokens includes
// the cached tokens); the wall time of the agent's execution from the
// trial, else between the trajectory's first and last steps.
func efficiency(sum *trajectory.Summary, info *trajectory.Info, t *Trial) *Efficiency {
	e := &Efficiency{}
	has := false
	if sum != nil {
		e.Turns, has = ptr(sum.Turns), true
		if sum.HasTokens {
			e.InputTokens, e.CachedTokens, e.OutputTokens = ptr(sum.Tokens.Input), ptr(sum.Tokens.Cached), ptr(sum.Tokens.Output)
			for _, p := range trajectory.Phases {
				ps := sum.PhaseTokens[p]
				e.PhaseTokens = append(e.PhaseTokens, PhaseTokens{Phase: p, First: ps.First, Repair: ps.Repair})
			}
		}
		if sum.HasCost {
			e.CostUSD = ptr(sum.CostUSD)
		}
		if w := sum.Wall(); w > 0 {
			e.WallSec = ptr(w.Seconds())
		}
	}
	if info != nil && info.Final != nil {
		fm := info.Final
		if e.InputTokens == nil && fm.PromptTokens != nil {
			cached := val64(fm.CachedTokens)
			e.InputTokens, e.CachedTokens, e.OutputTokens = ptr(max(*fm.PromptTokens-cached, 0)), ptr(cached), ptr(val64(fm.CompletionTokens))
		}
		if e.CostUSD == nil && fm.CostUSD != nil {
			e.CostUSD = ptr(*fm.CostUSD)
		}
	}
	if t != nil {
		if ar := t.Result.AgentResult; ar != nil {
			if e.InputTokens == nil && ar.NInputTokens != nil {
				cached := val64(ar.NCacheTokens)
				e.InputTokens, e.CachedTokens, e.OutputTokens = ptr(max(*ar.NInputTokens-cached, 0)), ptr(cached), ptr(val64(ar.NOutputTokens))
			}
			if e.CostUSD == nil && ar.CostUSD != nil {
				e.CostUSD = ptr(*ar.CostUSD)
			}
		}
		if x := t.Result.AgentExecution; x != nil {
			a, ok1 := parseTime(x.StartedAt)
			b, ok2 := parseTime(x.FinishedAt)
			if ok1 && ok2 && b.After(a) {
				e.WallSec = ptr(b.Sub(a).Seconds())
			}
		}
	}
	if !has && e.InputTokens == nil && e.CostUSD == nil && e.WallSec == nil {
		return nil
	}
	return e
}

func val64(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// taskInfo is what eval knows of one task instance.
type taskInfo struct {
	instance, candidate, variant string
	dir                          string // candidates/<id>/task
	cfg                          *harbor.Config
	ref                          *Scopes
	refNote                      string
	sections                     int // implementable sections; -1 when the mapping is unreadable
	scoper                       *Scoper
}

// taskCache resolves task names once.
type taskCache struct {
	ws     *workspace.Workspace
	byName map[string]*taskInfo
}

func (c *taskCache) close() {
	seen := map[*Scoper]bool{}
	for _, ti := range c.byName {
		if ti.scoper != nil && !seen[ti.scoper] {
			seen[ti.scoper] = true
			ti.scoper.Close()
		}
	}
}

// get resolves a task as an input names it: Harbor's task name
// ("lolbench/<id>", or the folder name), or a prediction's instance_id;
// "<id>-spec" is the spec variant of candidate <id>. The task must be
// built in the workspace (candidates/<id>/task).
func (c *taskCache) get(ctx context.Context, name, origin string) (*taskInfo, error) {
	inst := name
	if org, id, ok := strings.Cut(inst, "/"); ok && workspace.ValidID(org) == nil && !strings.Contains(id, "/") {
		inst = id // Harbor's "lolbench/<id>"
	}
	if ti, ok := c.byName[inst]; ok {
		return ti, nil
	}
	if err := workspace.ValidID(inst); err != nil {
		return nil, fmt.Errorf("%s: task %q: %w", origin, name, err)
	}
	cand, variant := inst, Plain
	taskDir := func(id string) string {
		return filepath.Join(c.ws.Root, "candidates", id, build.TaskDir)
	}
	if _, err := os.Stat(filepath.Join(taskDir(cand), filepath.FromSlash(harbor.ConfigJSON))); err != nil {
		base, ok := strings.CutSuffix(inst, SpecSuffix)
		if _, err2 := os.Stat(filepath.Join(taskDir(base), filepath.FromSlash(harbor.ConfigJSON))); !ok || err2 != nil {
			return nil, fmt.Errorf("%s: task %q is not built in workspace %s (no candidates/%s/%s); run lolbench build %s", origin, name, c.ws.Root, inst, build.TaskDir, inst)
		}
		cand, variant = base, Spec
	}
	ti := &taskInfo{instance: inst, candidate: cand, variant: variant, dir: taskDir(cand), sections: -1}
	cfg, err := harbor.LoadConfig(ti.dir)
	if err != nil {
		return nil, err
	}
	ti.cfg = cfg
	// Both variants share the candidate's scoper and reference.
	for _, other := range c.byName {
		if other.candidate == cand {
			ti.scoper, ti.ref, ti.refNote, ti.sections = other.scoper, other.ref, other.refNote, other.sections
			c.byName[inst] = ti
			return ti, nil
		}
	}
	if ti.scoper, err = NewScoper(ctx, filepath.Join(ti.dir, filepath.FromSlash(harbor.RepoDir))); err != nil {
		return nil, fmt.Errorf("task %s: %w", inst, err)
	}
	candDir := filepath.Join(c.ws.Root, "candidates", cand)
	if ref, err := os.ReadFile(filepath.Join(candDir, build.SolutionFile)); err != nil {
		ti.refNote = fmt.Sprintf("no reference solution (%s): no localization", build.SolutionFile)
	} else if ti.ref, err = ti.scoper.Patch(ctx, ref); err != nil {
		ti.refNote = "reference solution: " + firstLine(err.Error())
	}
	// The Section Classification Summary is enough: a finding elsewhere
	// in the mapping does not change which sections are implementable.
	if m, _ := mapping.ParseFile(filepath.Join(candDir, pipeline.MappingFile)); m != nil && len(m.SCS.Rows) > 0 {
		n := 0
		for _, r := range m.SCS.Rows {
			if strings.EqualFold(strings.TrimSpace(r.Implementable), "yes") {
				n++
			}
		}
		ti.sections = n
	}
	c.byName[inst] = ti
	return ti, nil
}
