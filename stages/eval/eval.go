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
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/harbor"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
	"github.com/lolbench/lolbench/pipeline/sandbox/guard"
	"github.com/lolbench/lolbench/pipeline/sectiondag"
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
	// Progress, when set, receives the test progress of each verifier run
	// on a prediction, named by instance and attempt (issue 25 §2).
	Progress func(name string, p sandbox.TestProgress)

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
	var trial folderFS
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
		trial = folderFS{in.trial.Dir}
		var err error
		if g, row.GradedBy, err = gradeTrial(trial, in.trial, ti, row); err != nil {
			return nil, err
		}
	}
	row.Reward, row.Verdict = g.Reward, g.Verdict
	row.Resolved = g.Reward == 1
	if row.GradedBy != GradedResultJSON {
		row.F2PPassed, row.F2PTotal, row.P2PPassed, row.P2PTotal = ptr(g.F2PPassed), ptr(g.F2PTotal), ptr(g.P2PPassed), ptr(g.P2PTotal)
		row.SectionsCompleted = ptr(g.SectionsCompleted)
		switch {
		case ti.sections >= 0:
			row.Sections = ptr(ti.sections)
		default:
			row.Sections = ptr(g.SectionsTotal)
		}
	}
	// The solution, for localization and the failure modes.
	var sol *Scopes
	var serr error
	switch {
	case in.pred != nil:
		sol, serr = ti.scoper.Patch(ctx, patch)
	default:
		kind, rel, note, err := solutionOf(trial)
		switch {
		case err != nil:
			return nil, err
		case kind == "patch":
			var data []byte
			if data, err = trial.read(rel, maxPatch); err != nil {
				return nil, err
			}
			sol, serr = ti.scoper.Patch(ctx, data)
		case kind == "tree":
			sol, serr = ti.scoper.Tree(ctx, trial.full(rel))
		default:
			row.Notes = append(row.Notes, note)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if serr != nil {
		row.Notes = append(row.Notes, "solution: "+firstLine(serr.Error()))
	}
	row.Solution = sol
	// The trajectory, normalized, and what it says.
	var src *trajectorySource
	if in.trial != nil {
		name, err := trajectoryOf(trial)
		if err != nil {
			return nil, err
		}
		if name != "" {
			src = &trajectorySource{fsys: trial, folder: "agent", name: name}
		}
	} else if s.Trajectories != "" {
		fsys := folderFS{s.Trajectories}
		for _, ext := range []string{".json", ".jsonl"} {
			if _, err := fsys.lstat(in.pred.InstanceID + ext); err == nil {
				src = &trajectorySource{fsys: fsys, name: in.pred.InstanceID + ext}
				break
			} else if !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
		}
	}
	if in.trial != nil && in.trial.Result.ExceptionInfo != nil {
		row.Ended = endReason(in.trial.Result.ExceptionInfo.ExceptionType, in.trial.Result.ExceptionInfo.ExceptionMessage)
	}
	var tr *traced
	if src != nil {
		row.Trajectory = eventsName(row.Task, attempt)
		var err error
		if tr, err = normalize(src, filepath.Join(agentDir, filepath.FromSlash(row.Trajectory)), row.Ended); err != nil {
			return nil, err
		}
		row.Notes = append(row.Notes, tr.notes...)
		if row.Inspected, err = ti.scoper.Inspected(ctx, tr.sum.Inspected); err != nil {
			return nil, err
		}
	} else {
		row.Notes = append(row.Notes, "no trajectory: no turns, tokens per phase, inspected view or failure analysis")
	}
	row.Localization = localize(row.Inspected, sol, ti.ref)
	dagRow, err := dagScore(agentDir, ti, g, row)
	if err != nil {
		return nil, err
	}
	row.DAG = dagRow
	var eff []string
	row.Efficiency, eff = efficiency(tr, in.trial)
	row.Notes = append(row.Notes, eff...)
	return row, nil
}

// Caps on what eval reads of a trial.
const (
	maxPatch      = 256 << 20
	maxTrajectory = 1 << 30 // one trajectory file
	maxRunLog     = 520 << 20
	maxRunJSON    = 64 << 20
	maxReports    = 512 << 20 // all of results/
)

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
	var progress sandbox.ProgressFunc
	if s.Progress != nil {
		name := fmt.Sprintf("%s.%d", ti.instance, attempt)
		progress = func(p sandbox.TestProgress) { s.Progress(name, p) }
	}
	g, err := harbor.VerifyProgress(ctx, s.Executor, ti.dir, patch, out, status, progress)
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
// reward.json as the verifier recorded it, its counts checked against the
// task's own lists; else from the reward in result.json; else the attempt
// failed with none of the task's tests passed.
func gradeTrial(fsys folderFS, t *Trial, ti *taskInfo, row *Row) (*grade.Grade, string, error) {
	runRel := "verifier/" + filepath.Base(guard.RunDir("", 1))
	_, err := fsys.lstat(runRel + "/" + grade.RunJSON)
	switch {
	case err == nil:
		g, err := hostGrade(fsys, runRel, ti)
		if err != nil {
			return nil, "", err
		}
		txt, err := fsys.read("verifier/"+grade.RewardTxt, 64)
		switch {
		case err == nil && strings.TrimSpace(string(txt)) != fmt.Sprint(g.Reward):
			row.Notes = append(row.Notes, fmt.Sprintf("the verifier recorded reward %q; the host's grade of its raw run is %d", firstLine(string(txt)), g.Reward))
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return nil, "", err
		}
		return g, GradedHost, nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, "", err
	}
	data, err := fsys.read("verifier/"+grade.RewardJSON, 1<<20)
	switch {
	case err == nil:
		r, ours, err := parseReward(data, fsys.full("verifier/"+grade.RewardJSON), ti.cfg.Config)
		if err != nil {
			return nil, "", err
		}
		if ours {
			g := &grade.Grade{Task: ti.candidate, Reward: r.Reward, F2PPassed: r.F2PPassed, F2PTotal: r.F2PTotal, P2PPassed: r.P2PPassed, P2PTotal: r.P2PTotal,
				SectionsCompleted: r.SectionsCompleted, SectionsTotal: r.SectionsTotal, Verdict: r.Reason}
			row.Notes = append(row.Notes, "no raw run in the trial: graded from the verifier's reward.json as recorded")
			return g, GradedRewardJSON, nil
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, "", err
	}
	reward, ok, err := t.rewardOf()
	if err != nil {
		return nil, "", err
	}
	if ok {
		g := &grade.Grade{Task: ti.candidate, Verdict: grade.VerdictFailed}
		if reward == 1 {
			g.Reward, g.Verdict = 1, grade.VerdictPassed
		}
		row.Notes = append(row.Notes, "no verifier output in the trial: graded from result.json's reward; its test and section counts are unknown")
		return g, GradedResultJSON, nil
	}
	why := "no verifier result"
	if e := t.Result.ExceptionInfo; e != nil {
		why += " (" + e.ExceptionType + ": " + firstLine(e.ExceptionMessage) + ")"
	}
	g := grade.Failed(ti.cfg.Config, why)
	row.Notes = append(row.Notes, "no verifier result: counted as failed, with none of the task's tests passed and no section completed")
	return &g, GradedNone, nil
}

// hostGrade grades the trial's raw run on the host. The run's files are
// first copied out of the trial into a private folder, each checked as
// every file of a trial is (no link, regular files only, bounded sizes),
// so that the grader reads nothing the trial points elsewhere.
func hostGrade(fsys folderFS, runRel string, ti *taskInfo) (*grade.Grade, error) {
	tmp, err := os.MkdirTemp("", "lolbench-run-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if err := fsys.copyFile(runRel+"/"+grade.RunJSON, filepath.Join(tmp, grade.RunJSON), maxRunJSON); err != nil {
		return nil, err
	}
	if err := fsys.copyFile(runRel+"/"+grade.RunLog, filepath.Join(tmp, grade.RunLog), maxRunLog); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	reports := ti.cfg.Recipe.Test.Results != ""
	if reports {
		entries, err := fsys.readDir(runRel + "/" + grade.RunReports)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, err
		default:
			if err := os.Mkdir(filepath.Join(tmp, grade.RunReports), 0o700); err != nil {
				return nil, err
			}
			left := int64(maxReports)
			for _, e := range entries {
				rel := runRel + "/" + grade.RunReports + "/" + e.Name()
				if !e.Type().IsRegular() {
					return nil, fmt.Errorf("%s: %s", fsys.full(rel), what(e.Type()))
				}
				dst := filepath.Join(tmp, grade.RunReports, e.Name())
				if err := fsys.copyFile(rel, dst, left); err != nil {
					return nil, err
				}
				if fi, err := os.Stat(dst); err == nil {
					left -= fi.Size()
				}
			}
		}
	}
	g := grade.ScoreRun(ti.cfg.Config, tmp, reports)
	return &g, nil
}

// parseReward reads lolbench's reward.json strictly: every count a JSON
// integer, the reason a string, and the counts possible for the task
// (its own FAIL_TO_PASS and PASS_TO_PASS lists and implementable
// sections) and consistent with the reward. ours is false for a reward.json
// without a reason, which is not lolbench's (a generic Harbor verifier's
// numbers) and is not read.
func parseReward(data []byte, name string, cfg grade.Config) (r grade.Reward, ours bool, err error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return r, false, fmt.Errorf("%s: %v", name, err)
	}
	if _, has := fields["reason"]; !has {
		return r, false, nil
	}
	if err := json.Unmarshal(fields["reason"], &r.Reason); err != nil {
		return r, false, fmt.Errorf("%s: reason is %s, not a string", name, jsonKind(fields["reason"]))
	}
	for _, f := range []struct {
		key      string
		v        *int
		optional bool
	}{{"reward", &r.Reward, false}, {"f2p_passed", &r.F2PPassed, false}, {"f2p_total", &r.F2PTotal, false},
		{"p2p_passed", &r.P2PPassed, false}, {"p2p_total", &r.P2PTotal, false},
		{"sections_completed", &r.SectionsCompleted, true}, {"sections_total", &r.SectionsTotal, true}, {"tampered", &r.Tampered, true}} {
		raw, has := fields[f.key]
		if !has {
			if f.optional {
				continue
			}
			return r, false, fmt.Errorf("%s: no %s", name, f.key)
		}
		var n json.Number
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if dec.Decode(&n) != nil || bytes.TrimSpace(raw)[0] == '"' {
			return r, false, fmt.Errorf("%s: %s is %s, not a number", name, f.key, jsonKind(raw))
		}
		k, err := n.Int64()
		if err != nil || k < 0 || k > 1<<31 {
			return r, false, fmt.Errorf("%s: %s is %s, not a count", name, f.key, n)
		}
		*f.v = int(k)
	}
	sections := grade.Failed(cfg, "").SectionsTotal
	switch {
	case r.Reward > 1:
		return r, false, fmt.Errorf("%s: reward is %d; a reward is 0 or 1", name, r.Reward)
	case r.Tampered > 1:
		return r, false, fmt.Errorf("%s: tampered is %d; it is 0 or 1", name, r.Tampered)
	case r.F2PTotal != len(cfg.FailToPass):
		return r, false, fmt.Errorf("%s: f2p_total is %d; the task has %d FAIL_TO_PASS tests", name, r.F2PTotal, len(cfg.FailToPass))
	case r.P2PTotal != len(cfg.PassToPass):
		return r, false, fmt.Errorf("%s: p2p_total is %d; the task has %d PASS_TO_PASS tests", name, r.P2PTotal, len(cfg.PassToPass))
	case r.F2PPassed > r.F2PTotal:
		return r, false, fmt.Errorf("%s: f2p_passed is %d, more than the task's %d FAIL_TO_PASS tests", name, r.F2PPassed, r.F2PTotal)
	case r.P2PPassed > r.P2PTotal:
		return r, false, fmt.Errorf("%s: p2p_passed is %d, more than the task's %d PASS_TO_PASS tests", name, r.P2PPassed, r.P2PTotal)
	case fields["sections_total"] != nil && r.SectionsTotal != sections:
		return r, false, fmt.Errorf("%s: sections_total is %d; the task has %d implementable sections", name, r.SectionsTotal, sections)
	case r.SectionsCompleted > sections:
		return r, false, fmt.Errorf("%s: sections_completed is %d, more than the task's %d implementable sections", name, r.SectionsCompleted, sections)
	case (r.Reward == 1) != (r.F2PTotal > 0 && r.F2PPassed == r.F2PTotal && r.P2PPassed == r.P2PTotal):
		return r, false, fmt.Errorf("%s: reward is %d with %d of %d FAIL_TO_PASS and %d of %d PASS_TO_PASS tests passed", name, r.Reward, r.F2PPassed, r.F2PTotal, r.P2PPassed, r.P2PTotal)
	case r.Tampered == 1 && r.Reward == 1:
		return r, false, fmt.Errorf("%s: a tampered run with reward 1", name)
	}
	r.SectionsTotal = sections
	return r, true, nil
}

// trajectorySource is a trajectory file in a folder (a trial's agent/,
// or --trajectories).
type trajectorySource struct {
	fsys   folderFS
	folder string // "" for the folder itself
	name   string
}

// traced is what normalize learned of a trajectory.
type traced struct {
	sum   *trajectory.Summary
	run   *trajectory.Run // nil for lolbench's event format
	notes []string
}

// normalize reads a trajectory (an ATIF run, its continuations and its
// subagents' files, or lolbench's events), writes its events to dst
// (atomically) and summarizes them. A run that ended on a limit or
// crashed gets an end event.
func normalize(src *trajectorySource, dst, ended string) (*traced, error) {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(dst), ".events-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	w := trajectory.NewWriter(f)
	tr := &traced{sum: trajectory.NewSummary()}
	last := 0
	emit := func(e *trajectory.Event) error {
		tr.sum.Add(e)
		last = e.Step
		return w.Write(e)
	}
	open := src.fsys.opener(src.folder, maxTrajectory)
	format, err := trajectory.FormatOf(src.name)
	if err != nil {
		return nil, err
	}
	if format == trajectory.FormatJSONL {
		rc, err := open(src.name)
		if err != nil {
			return nil, err
		}
		err = trajectory.ReadJSONL(rc, src.fsys.full(path.Join(src.folder, src.name)), emit)
		rc.Close()
		if err != nil {
			return nil, err
		}
	} else {
		if tr.run, err = trajectory.ReadRun(src.fsys.full(src.folder), open, src.name, emit); err != nil {
			return nil, err
		}
		tr.notes = tr.run.Notes
	}
	if ended != "" {
		if err := w.Write(&trajectory.Event{Step: last, Type: trajectory.End, Reason: ended}); err != nil {
			return nil, err
		}
	}
	tr.sum.Finish()
	if err := w.Flush(); err != nil {
		return nil, err
	}
	if err := f.Sync(); err != nil {
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	return tr, os.Rename(f.Name(), dst)
}

// Where an attempt's token and cost totals come from.
const (
	FromFinalMetrics = "final_metrics"
	FromSteps        = "steps"
	FromAgentResult  = "agent_result"
)

// efficiency gathers an attempt's cost. Turns and the tokens per phase
// come from the trajectory's steps. The totals are the trajectory's
// final_metrics when it has them (they count the model calls outside the
// steps: context summarization, subagents), else the steps' sums with the
// subagents' trajectories found in the trial, else the trial's
// agent_result (whose n_input_tokens includes the cached tokens); what
// the phases do not claim of the totals is unattributed. The wall time
// is the agent's execution in the trial, else the trajectory's first to
// last step. It returns notes on what does not add up.
func efficiency(tr *traced, t *Trial) (*Efficiency, []string) {
	e := &Efficiency{}
	var notes []string
	var tokens, cost *trajectory.Totals
	if tr != nil {
		sum := tr.sum
		e.Turns = ptr(sum.Turns)
		var steps trajectory.Totals
		steps.Add(sum.Steps)
		if r := tr.run; r != nil {
			e.Subagents = len(r.SubagentFiles)
			steps.Add(r.Subagents)
			if r.Final != nil {
				ft := r.Final.Totals()
				if ft.HasTokens {
					tokens, e.TokensFrom = &ft, FromFinalMetrics
				}
				if ft.HasCost {
					cost, e.CostFrom = &ft, FromFinalMetrics
				}
			}
		}
		if tokens == nil && steps.HasTokens {
			tokens, e.TokensFrom = &steps, FromSteps
		}
		if cost == nil && steps.HasCost {
			cost, e.CostFrom = &steps, FromSteps
		}
		if sum.Steps.HasTokens {
			for _, p := range trajectory.Phases {
				pu := sum.Phases[p]
				e.PhaseTokens = append(e.PhaseTokens, PhaseTokens{Phase: p, First: pu.First, Repair: pu.Repair})
			}
		}
		if w := sum.Wall(); w > 0 {
			e.WallSec = ptr(w.Seconds())
		}
	}
	if t != nil {
		if ar := t.Result.AgentResult; ar != nil {
			if tokens == nil && ar.NInputTokens != nil {
				cached := val64(ar.NCacheTokens)
				tokens = &trajectory.Totals{Tokens: trajectory.Tokens{Input: max(*ar.NInputTokens-cached, 0), Cached: cached, Output: val64(ar.NOutputTokens)}, HasTokens: true}
				e.TokensFrom = FromAgentResult
			}
			if cost == nil && ar.CostUSD != nil {
				cost, e.CostFrom = &trajectory.Totals{CostUSD: *ar.CostUSD, HasCost: true}, FromAgentResult
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
	if tokens != nil {
		e.InputTokens, e.CachedTokens, e.OutputTokens = ptr(tokens.Tokens.Input), ptr(tokens.Tokens.Cached), ptr(tokens.Tokens.Output)
		if e.PhaseTokens != nil {
			claimed := tr.sum.Claimed()
			u := trajectory.Usage{Input: tokens.Tokens.Input - claimed.Input, Output: tokens.Tokens.Output - claimed.Output}
			if u.Input < 0 || u.Output < 0 {
				notes = append(notes, fmt.Sprintf("the %s totals (%d input, %d output tokens) are below what the steps' phases claim (%d, %d)", e.TokensFrom, tokens.Tokens.Input, tokens.Tokens.Output, claimed.Input, claimed.Output))
				u = trajectory.Usage{Input: max(u.Input, 0), Output: max(u.Output, 0)}
			}
			e.Unattributed = &u
		}
	}
	if cost != nil {
		e.CostUSD = ptr(cost.CostUSD)
	}
	if e.Turns == nil && e.InputTokens == nil && e.CostUSD == nil && e.WallSec == nil {
		return nil, notes
	}
	return e, notes
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
	// dag is the candidate's section dependency graph (dag.json), nil
	// without one.
	dag *sectiondag.Result
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
			ti.scoper, ti.ref, ti.refNote, ti.sections, ti.dag = other.scoper, other.ref, other.refNote, other.sections, other.dag
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
	// Completed's denominator is the task's own, as its verifier grades it
	// (tests/config.json, from the test-to-section map): one map is graded
	// everywhere (pipeline/sectionmap).
	ti.sections = grade.Failed(cfg.Config, "").SectionsTotal
	// Without dag.json (lolbench dag) a row has no graph scores.
	if ti.dag, err = loadDAG(c.ws, cand); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	c.byName[inst] = ti
	return ti, nil
}
