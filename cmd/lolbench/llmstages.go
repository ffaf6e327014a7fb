package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/rules"
	"github.com/lolbench/lolbench/stages/audit"
	"github.com/lolbench/lolbench/stages/evidence"
	"github.com/lolbench/lolbench/stages/mapdraft"
	"github.com/lolbench/lolbench/stages/rank"
	"github.com/lolbench/lolbench/stages/validate"
)

// LLMOptions are the flags shared by map, audit and rank: the workspace
// and candidates, the LLM configuration and the prompt budgets.
type LLMOptions struct {
	*Factory // IO, Getenv and the LLM client

	Workspace  string
	Candidates []string // empty: every candidate of the workspace
	ConfigFile string
	Model      string
	ReplayOnly bool
	JSON       bool
	Evidence   evidence.Options
}

const llmFlagsHelp = `The LLM endpoint is configured by LOLBENCH_LLM_BASE_URL, LOLBENCH_LLM_API_KEY
and LOLBENCH_LLM_MODEL (per stage: LOLBENCH_LLM_MODEL_MAP, _AUDIT, _RANK), by a
YAML file (--llm-config) or by flags; flags win over the environment, which wins
over the file. Any OpenAI-compatible endpoint works: OpenRouter, vLLM, Ollama,
a llama.cpp server or OpenAI. Every exchange is recorded under <workspace>/llm,
so a rerun with unchanged inputs makes no call; --replay-only fails instead of
calling when a record is missing. Without an endpoint the command prints one
line naming the variables to set and exits with status 2.`

func addLLMFlags(cmd *cobra.Command, o *LLMOptions) {
	fl := cmd.Flags()
	fl.StringVar(&o.Workspace, "workspace", "work", "the workspace folder")
	fl.StringVar(&o.ConfigFile, "llm-config", "", "YAML file with the LLM configuration (base_url, model, models, ...)")
	fl.StringVar(&o.Model, "model", "", "model for every LLM stage (overrides LOLBENCH_LLM_MODEL)")
	fl.BoolVar(&o.ReplayOnly, "replay-only", false, "serve every answer from <workspace>/llm records; fail when one is missing")
	fl.BoolVar(&o.JSON, "json", false, "print the reports as JSON")
	fl.IntVar(&o.Evidence.Budget, "patch-budget", evidence.DefaultBudget, "bytes of patch text in a prompt, in all")
	fl.IntVar(&o.Evidence.FileLimit, "patch-limit", evidence.DefaultFileLimit, "bytes of patch text in a prompt, per file")
}

// session is an opened workspace with its candidates and LLM client.
type session struct {
	ws     *workspace.Workspace
	ids    []string
	client *llm.Client
}

// open resolves the workspace, the candidates and the LLM client. A missing
// endpoint is returned as llm.ErrNoEndpoint itself, whose one line names the
// variables to set (exit status 2).
func (o *LLMOptions) open() (*session, error) {
	ws, err := workspace.Open(o.Workspace, false)
	if err != nil {
		return nil, err
	}
	ids, err := candidateIDs(ws, o.Candidates)
	if err != nil {
		return nil, err
	}
	client, err := o.Factory.LLM(ws, o.ConfigFile, llm.Config{Model: o.Model, ReplayOnly: o.ReplayOnly})
	if err != nil {
		return nil, err
	}
	return &session{ws: ws, ids: ids, client: client}, nil
}

// candidateIDs checks the named candidates, or lists the workspace's.
func candidateIDs(ws *workspace.Workspace, named []string) ([]string, error) {
	if len(named) == 0 {
		ids, err := ws.Candidates()
		if err != nil {
			return nil, err
		}
		if len(ids) == 0 {
			return nil, fmt.Errorf("workspace %s has no candidates; run lolbench collect first", ws.Root)
		}
		return ids, nil
	}
	for _, id := range named {
		dir, err := ws.CandidateDir(id)
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(dir); err != nil {
			return nil, fmt.Errorf("no candidate %s in workspace %s", id, ws.Root)
		}
	}
	return named, nil
}

// announced prints each stage's log title before it runs, so a long run
// shows where it is.
type announced struct {
	pipeline.CandidateStage
	w io.Writer
}

func (a announced) Run(ctx context.Context, env *pipeline.Env, c *pipeline.Candidate) error {
	fmt.Fprintf(a.w, "%s: %s\n", c.ID, a.String())
	return a.CandidateStage.Run(ctx, env, c)
}

// chain is the phase-2 stage list up to and including the named stage:
// each command brings its candidates up to date like make, so `lolbench
// rank` drafts, validates and audits first where needed, and reuses every
// result that is still current.
func chain(upTo string, s *session, o *LLMOptions, mapOpts *mapdraft.Stage, auditRules []string) []pipeline.CandidateStage {
	m := &mapdraft.Stage{LLM: s.client, Evidence: o.Evidence}
	if mapOpts != nil {
		m.Rounds, m.Overwrite = mapOpts.Rounds, mapOpts.Overwrite
	}
	all := []pipeline.CandidateStage{
		m,
		validate.Stage{},
		&audit.Stage{LLM: s.client, Rules: auditRules, Evidence: o.Evidence},
		&rank.Stage{LLM: s.client, Evidence: o.Evidence},
	}
	var out []pipeline.CandidateStage
	for _, st := range all {
		out = append(out, announced{st, o.IO.ErrOut})
		if st.Name() == upTo {
			break
		}
	}
	return out
}

// candidateResult is one candidate of a map, audit or rank report.
type candidateResult struct {
	Candidate string                  `json:"candidate"`
	Stages    []pipeline.StageOutcome `json:"stages"`
	Error     string                  `json:"error,omitempty"`
	Draft     *mapdraft.Record        `json:"draft,omitempty"`
	Validate  *rules.Report           `json:"validate,omitempty"`
	Audit     *audit.Report           `json:"audit,omitempty"`
	Rank      *rank.Report            `json:"rank,omitempty"`
}

// runChain runs the stages on every candidate and gathers the reports of
// the stages that produced one in this run or an earlier, still current one.
func runChain(ctx context.Context, o *LLMOptions, s *session, stages []pipeline.CandidateStage, force bool) []candidateResult {
	env := &pipeline.Env{Workspace: s.ws, Status: o.IO.ErrOut, Getenv: o.Getenv, Version: version, Force: force}
	var out []candidateResult
	for _, id := range s.ids {
		r := candidateResult{Candidate: id, Stages: []pipeline.StageOutcome{}}
		c, err := pipeline.OpenCandidate(s.ws, id)
		if err == nil {
			r.Stages, err = pipeline.RunCandidate(ctx, env, c, stages)
		}
		if err != nil {
			r.Error = err.Error()
		}
		if c != nil {
			attachReports(c, &r)
		}
		out = append(out, r)
		if ctx.Err() != nil {
			break
		}
	}
	return out
}

func attachReports(c *pipeline.Candidate, r *candidateResult) {
	for _, o := range r.Stages {
		if o.Result == pipeline.Failed || o.Result == pipeline.Skipped {
			continue
		}
		switch o.Stage {
		case "map":
			if rec, err := mapdraft.LoadRecord(c); err == nil && rec != nil {
				r.Draft = rec
			}
		case "validate":
			if rep, err := validate.Load(c); err == nil {
				r.Validate = rep
			}
		case "audit":
			if rep, err := audit.Load(c); err == nil {
				r.Audit = rep
			}
		case "rank":
			if rep, err := rank.Load(c); err == nil {
				r.Rank = rep
			}
		}
	}
}

// finish prints the results and returns the command's exit error: 2 when a
// stage could not work, 1 when a candidate was rejected, 0 otherwise.
func finish(o *LLMOptions, results []candidateResult, detail func(io.Writer, candidateResult)) error {
	if o.JSON {
		if err := printJSON(o.IO.Out, results); err != nil {
			return err
		}
	} else {
		for i, r := range results {
			if i > 0 {
				fmt.Fprintln(o.IO.Out)
			}
			printOutcomes(o.IO.Out, r)
			detail(o.IO.Out, r)
		}
	}
	var failed, rejected []string
	for _, r := range results {
		bad := r.Error != ""
		for _, s := range r.Stages {
			switch s.Result {
			case pipeline.Failed:
				bad = true
			case pipeline.Rejected:
				rejected = append(rejected, r.Candidate)
			}
		}
		if bad {
			failed = append(failed, r.Candidate)
		}
	}
	switch {
	case len(failed) > 0:
		return fmt.Errorf("%d of %d candidate%s could not be processed: %s", len(failed), len(results), plural(len(results)), strings.Join(failed, ", "))
	case len(rejected) > 0:
		return silentFindings
	}
	return nil
}

func printOutcomes(w io.Writer, r candidateResult) {
	fmt.Fprintf(w, "%s\n", r.Candidate)
	for _, s := range r.Stages {
		line := fmt.Sprintf("  %s: %s", s.Stage, s.Result)
		if s.Reason != "" {
			line += ": " + s.Reason
		}
		if s.UpToDate {
			line += " (up to date)"
		}
		fmt.Fprintln(w, line)
	}
	if r.Error != "" {
		fmt.Fprintf(w, "  error: %s\n", r.Error)
	}
}
