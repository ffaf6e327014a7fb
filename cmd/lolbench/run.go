package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/registry"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages"
)

// RunOptions are the parsed flags of `lolbench run`.
type RunOptions struct {
	Workspace string
	Projects  string // registry; "" or absent file: no collection
	Offline   bool
	From, To  string
	Only      []string
	Force     bool
	Jobs      int
	Shard     pipeline.Shard
	Executor  string
	// IncludeUnreviewed builds and exports candidates that did not pass
	// every gate, marked unreviewed.
	IncludeUnreviewed bool
	MaxMutants        int
	// Runs overrides the recipes' run counts in the build when above 0.
	Runs       int
	LLMConfig  string
	ReplayOnly bool
	JSON       bool
}

// NewCmdRun runs the whole method over a workspace, like make.
func NewCmdRun(f *Factory, runF func(*RunOptions) error) *cobra.Command {
	opts := &RunOptions{}
	var only, shard string
	cmd := &cobra.Command{
		Use:   "run --workspace DIR [--from STAGE] [--to STAGE] [--only ID,...] [--force] [--jobs N]",
		Short: "Run the pipeline over every candidate, rerunning only what changed",
		Long: `Run executes the stages in order over the workspace:

  ` + strings.Join(stages.Names, ", ") + `

like make: each stage records a fingerprint of what it read (input files,
configuration, prompt templates, tool version) and of the stage before it,
so a rerun skips up-to-date stages and reruns a stage, and everything after
it, when anything it read changed. A hand-edited mapping.md reruns validate
and everything after it, for that candidate only. A candidate rejected at a
stage stops there, with the reason recorded (lolbench status). Results are
written atomically: a run killed at any moment and started again loses
nothing. On a terminal, bars show each stage and candidate, and the
build's test runs and mutate's coverage run (tests done of tests known, the
run's time, run n of N);
elsewhere a line per finished stage, and test progress at least every 30
seconds while tests run.

Tasks are built only from candidates that passed every gate: the static
rules (validate), the semantic audits (audit), the judge's Q >= 8.0 (rank)
and an expert's review (lolbench review). A skipped gate (no LLM endpoint, no
review yet) is not a pass: the build skips such a candidate and says which
gates it lacks. --include-unreviewed builds and exports it anyway, its
task.toml [metadata] and its JSONL row marked unreviewed = true with the
gates it skipped.

Without an LLM endpoint the LLM stages are skipped with one line naming the
variables to set, and the deterministic stages still run. Collection runs
when --projects names a registry. --shard i/n processes one deterministic
slice of the candidates, so that n workers can share a workspace
(deploy/README.md).`,
		Example: `  lolbench run --workspace work --projects data/projects.yaml
  lolbench run --workspace work --from validate --only cpython-pep-0617
  lolbench run --workspace /work --from map --to build --shard 3/8 --jobs 2`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if only != "" {
				for _, id := range strings.Split(only, ",") {
					id = strings.TrimSpace(id)
					if err := workspace.ValidID(id); err != nil {
						return fmt.Errorf("--only: %w", err)
					}
					opts.Only = append(opts.Only, id)
				}
			}
			if shard != "" {
				s, err := pipeline.ParseShard(shard)
				if err != nil {
					return err
				}
				opts.Shard = s
			}
			if opts.Jobs < 1 {
				return fmt.Errorf("--jobs %d: want at least 1", opts.Jobs)
			}
			if opts.Runs < 0 {
				return fmt.Errorf("--runs %d: want 1 or more (0: each recipe's)", opts.Runs)
			}
			if runF != nil {
				return runF(opts)
			}
			return runRun(cmd.Context(), f, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Workspace, "workspace", "work", "the workspace folder (created when absent)")
	fl.StringVar(&opts.Projects, "projects", "", "projects registry; when given, the run starts with collection")
	fl.BoolVar(&opts.Offline, "offline", false, "collect from existing clones and local EP folders only")
	fl.StringVar(&opts.From, "from", "", "first stage to run ("+strings.Join(stages.Names, ", ")+")")
	fl.StringVar(&opts.To, "to", "", "last stage to run")
	fl.StringVar(&only, "only", "", "run only these candidates (comma-separated ids)")
	fl.BoolVar(&opts.Force, "force", false, "rerun stages even when they are up to date")
	fl.IntVar(&opts.Jobs, "jobs", 1, "candidates processed in parallel")
	fl.StringVar(&shard, "shard", "", "process only shard i of n (i/n, 0-based)")
	addExecutorFlag(fl, &opts.Executor, "where task tests run: docker, local (not isolated), or auto (docker when an engine answers)", true)
	fl.BoolVar(&opts.IncludeUnreviewed, "include-unreviewed", false, "build and export candidates that did not pass every gate (validate, audit, rank Q >= 8.0, review), marked unreviewed (demos; a dataset passes them)")
	fl.IntVar(&opts.MaxMutants, "max-mutants-per-operator", 0, "cap the syntax-operator mutants of one operator per task (0: no cap)")
	fl.IntVar(&opts.Runs, "runs", 0, "the build's test runs per side instead of each recipe's (0: the recipe's; fewer runs find fewer flaky tests)")
	fl.StringVar(&opts.LLMConfig, "llm-config", "", "YAML file with the LLM configuration")
	fl.BoolVar(&opts.ReplayOnly, "replay-only", false, "serve every LLM answer from the workspace's records")
	fl.BoolVar(&opts.JSON, "json", false, "print the summary as JSON")
	return cmd
}

func runRun(ctx context.Context, f *Factory, opts *RunOptions) error {
	ws, err := workspace.Open(opts.Workspace, true)
	if err != nil {
		return err
	}
	// One run at a time on a workspace (or on one shard of it): a second
	// one would do all the work again beside the first.
	shard := ""
	if opts.Shard.N > 1 {
		shard = fmt.Sprintf("%d/%d", opts.Shard.I, opts.Shard.N)
	}
	lock, err := ws.LockRun(shard)
	if err != nil {
		return err
	}
	defer lock.Release()
	if err := removeStaleTemp(ws, opts.Shard, f.IO.ErrOut); err != nil {
		return err
	}
	cfg := stages.Config{Offline: opts.Offline, IncludeUnreviewed: opts.IncludeUnreviewed, Recipe: registryRecipe(opts.Projects),
		MaxMutantsPerOperator: opts.MaxMutants, Runs: opts.Runs}
	if opts.Projects != "" {
		if cfg.Registry, err = registry.Load(opts.Projects); err != nil {
			return err
		}
	}
	cfg.LLM, err = optionalLLM(f, ws, opts.LLMConfig, llm.Config{ReplayOnly: opts.ReplayOnly})
	if err != nil {
		return err
	}
	ex, closeEx, err := f.Executor(ctx, opts.Executor)
	if err != nil {
		return err
	}
	defer closeEx()
	cfg.Executor = ex

	env := &pipeline.Env{Workspace: ws, Status: f.IO.ErrOut, Getenv: f.Getenv, Version: version, Force: opts.Force}
	progress := newRunProgress(f.IO.ErrOut, f.IO.ErrTTY, len(stages.Plan(cfg).Each))
	// The build's test runs show in the same bars (issue 13 §3).
	tests := newCommandTestProgress(f.IO.ErrOut, f.IO.ErrTTY, progress.p)
	cfg.TestProgress = tests.update
	plan := stages.Plan(cfg)
	sum, runErr := pipeline.Run(ctx, env, plan, pipeline.RunOptions{
		From: opts.From, To: opts.To, Only: opts.Only, Jobs: opts.Jobs, Shard: opts.Shard,
		Observe: progress.observe,
	})
	tests.close()
	progress.wait()
	if sum == nil {
		return runErr
	}
	if opts.JSON {
		if err := printJSON(f.IO.Out, sum); err != nil {
			return err
		}
	} else if err := printStatusTable(f.IO.Out, ws, summaryIDs(sum)); err != nil {
		return err
	}
	if runErr != nil {
		return runErr
	}
	var rejected []string
	for _, c := range sum.Candidates {
		if c.Panic != "" {
			return internalError(fmt.Sprintf("candidate %s: %s", c.ID, c.Err), []byte(c.Panic))
		}
	}
	for _, c := range sum.Candidates {
		if c.Err != "" {
			return fmt.Errorf("candidate %s: %s", c.ID, c.Err)
		}
		for _, o := range c.Outcomes {
			switch o.Result {
			case pipeline.Failed:
				return fmt.Errorf("candidate %s: stage %s failed: %s", c.ID, o.Stage, o.Reason)
			case pipeline.Rejected:
				rejected = append(rejected, c.ID+" at "+o.Stage)
			}
		}
	}
	if len(rejected) > 0 {
		// Exit 1, as for any check that found problems.
		return findings("%d candidate(s) rejected: %s", len(rejected), strings.Join(rejected, ", "))
	}
	return nil
}

// removeStaleTemp removes the temporary files that writes of a killed run
// left, before anything reads the workspace (a stage, export). The run
// lock is held: a whole run cleans the whole workspace; a sharded run only
// its own candidates' folders, since other shards are at work beside it.
func removeStaleTemp(ws *workspace.Workspace, shard pipeline.Shard, log io.Writer) error {
	var dirs []string
	if shard.N > 1 {
		ids, err := ws.Candidates()
		if err != nil {
			return err
		}
		for _, id := range ids {
			if shard.Has(id) {
				dirs = append(dirs, filepath.Join("candidates", id))
			}
		}
		if len(dirs) == 0 {
			return nil
		}
	}
	removed, err := ws.RemoveTemp(dirs...)
	if n := len(removed); n > 0 {
		fmt.Fprintf(log, "removed %d temporary %s left by an interrupted run\n", n, map[bool]string{true: "file", false: "files"}[n == 1])
	}
	if err != nil {
		return fmt.Errorf("remove temporary files: %w", err)
	}
	return nil
}

func summaryIDs(sum *pipeline.Summary) []string {
	ids := make([]string, len(sum.Candidates))
	for i, c := range sum.Candidates {
		ids[i] = c.ID
	}
	return ids
}

// runProgress shows a run: on a terminal, one bar per stage (candidates
// done) and one per candidate (stages done); otherwise one plain line per
// finished stage.
type runProgress struct {
	mu     sync.Mutex
	w      io.Writer
	p      *mpb.Progress
	stages int
	bars   map[string]*mpb.Bar
	names  map[string]string // candidate -> stage it is in
}

func newRunProgress(w io.Writer, tty bool, stagesPerCandidate int) *runProgress {
	r := &runProgress{w: w, stages: stagesPerCandidate, bars: map[string]*mpb.Bar{}, names: map[string]string{}}
	if tty {
		r.p = mpb.New(mpb.WithOutput(w), mpb.WithAutoRefresh(), mpb.WithRefreshRate(150*time.Millisecond))
	}
	return r
}

func (r *runProgress) observe(e pipeline.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.p == nil {
		if e.Done != nil {
			fmt.Fprintln(r.w, outcomeLine(e))
		}
		return
	}
	key := "candidate " + e.Candidate
	if e.Candidate == "" {
		key = "stage " + e.Stage.Name()
	}
	bar := r.bars[key]
	if bar == nil {
		total := int64(r.stages)
		if e.Candidate == "" {
			total = 1
		}
		name := key
		bar = r.p.AddBar(total,
			mpb.PrependDecorators(decor.Name(name, decor.WCSyncSpaceR), decor.Any(func(decor.Statistics) string {
				r.mu.Lock()
				defer r.mu.Unlock()
				return r.names[name]
			}, decor.WCSyncSpaceR)),
			mpb.AppendDecorators(decor.CountersNoUnit("%d/%d")))
		r.bars[key] = bar
	}
	if e.Done == nil {
		r.names[key] = e.Stage.String()
		return
	}
	r.names[key] = string(e.Done.Result)
	bar.Increment()
	if e.Done.Result == pipeline.Rejected || e.Done.Result == pipeline.Failed {
		bar.Abort(false)
	}
}

func (r *runProgress) wait() {
	if r.p == nil {
		return
	}
	for _, b := range r.bars {
		if !b.Completed() {
			b.Abort(false)
		}
	}
	r.p.Wait()
}

// outcomeLine is the plain form of a finished stage.
func outcomeLine(e pipeline.Event) string {
	who := e.Candidate
	if who == "" {
		who = "workspace"
	}
	o := e.Done
	line := fmt.Sprintf("%s: %s %s", who, o.Stage, o.Result)
	if o.UpToDate {
		line += " (up to date)"
	} else if o.Duration > 0 {
		line += fmt.Sprintf(" (%s)", o.Duration.Round(10*time.Millisecond))
	}
	if o.Reason != "" {
		line += ": " + o.Reason
	}
	return line
}

// printStatusTable prints, per candidate, the last stage passed, the
// current state, the reference solution's Completed (SECTIONS) and the
// reason for a rejection or skip; then each task's untested sections,
// with why and what would give them tests.
func printStatusTable(w io.Writer, ws *workspace.Workspace, ids []string) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CANDIDATE\tLAST PASSED\tSTATE\tSECTIONS\tREASON")
	var untested []statusRow
	for _, id := range ids {
		row, err := candidateState(ws, id)
		if err != nil {
			return err
		}
		secs := "-"
		if row.Sections != nil {
			secs = row.Sections.Reference
			if len(row.Sections.Untested) > 0 || len(row.Sections.NotDiscriminative) > 0 {
				untested = append(untested, row)
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", row.ID, dash(row.LastPassed), row.State, secs, row.Reason)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, row := range untested {
		if n := len(row.Sections.Untested); n > 0 {
			fmt.Fprintf(w, "\n%s: not ready: %d untested section%s (no FAIL_TO_PASS test asserts %s):\n", row.ID, n,
				plural(n), map[bool]string{true: "it", false: "them"}[n == 1])
			for _, u := range row.Sections.Untested {
				fmt.Fprintf(w, "  %s: %s\n", u.ID, u.Why)
			}
			fmt.Fprintf(w, "  next: %s\n", row.Sections.Next)
		}
		if n := len(row.Sections.NotDiscriminative); n > 0 {
			fmt.Fprintf(w, "\n%s: %d section%s not discriminative (lolbench dag --check):\n", row.ID, n, plural(n))
			for _, u := range row.Sections.NotDiscriminative {
				fmt.Fprintf(w, "  %s: %s\n", u.ID, u.Why)
			}
		}
	}
	return nil
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
