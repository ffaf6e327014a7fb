// Package stages holds the ordered list of the method's stages. Each stage
// is a package of its own; this file only says in which order they run,
// and why.
package stages

import (
	"context"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/registry"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/stages/audit"
	"github.com/lolbench/lolbench/stages/augment"
	"github.com/lolbench/lolbench/stages/build"
	"github.com/lolbench/lolbench/stages/collect"
	"github.com/lolbench/lolbench/stages/export"
	"github.com/lolbench/lolbench/stages/mapdraft"
	"github.com/lolbench/lolbench/stages/mutate"
	"github.com/lolbench/lolbench/stages/rank"
	"github.com/lolbench/lolbench/stages/review"
	"github.com/lolbench/lolbench/stages/validate"
)

// Config is what the stages of a full run need from the command line.
type Config struct {
	// Registry is the projects registry; nil leaves collection out (the
	// workspace already holds its candidates).
	Registry *registry.Registry
	Offline  bool
	// LLM is the model client; nil makes every LLM stage skip with the
	// line that names the variables to set.
	LLM *llm.Client
	// Executor runs the task environments (docker, or local).
	Executor sandbox.Executor
	// Recipe finds a candidate's recipe outside its folder.
	Recipe func(*pipeline.Info) (*recipe.Recipe, error)
	// IncludeUnreviewed lets candidates that did not pass every gate
	// (validate, audit, rank, review; skipped is not passed) go on to task
	// construction, their tasks marked unreviewed (the demo, which has no
	// LLM endpoint and no expert).
	IncludeUnreviewed bool
	// MaxMutantsPerOperator caps the syntax-operator mutants of one
	// operator per task (0: no cap), to bound the test runs of a large PR
	// or of the demo.
	MaxMutantsPerOperator int
	// Runs, when above 0, overrides every recipe's run count in the build
	// (build.Stage.Runs): a quick look, or a test of the pipeline itself.
	Runs int
	// TestProgress receives the progress of the build's test runs
	// (build.Stage.Progress) and of mutate's coverage run
	// (mutate.Stage.Progress) and augment's coverage runs
	// (augment.Stage.Progress); nil shows none.
	TestProgress func(id string, p sandbox.TestProgress)
}

// Names lists every stage in run order, including the optional ones.
var Names = []string{"collect", "map", "validate", "audit", "rank", "review", "build", "mutate", "augment", "export"}

// Plan returns the ordered stages of a full run.
func Plan(cfg Config) *pipeline.Plan {
	p := &pipeline.Plan{}
	// collect: everything starts from EP–PR pairs that meet the criteria
	// (paper §3.1).
	if cfg.Registry != nil {
		p.Before = append(p.Before, &collect.Stage{Registry: cfg.Registry, Offline: cfg.Offline})
	}
	p.Each = append(p.Each,
		// map: the mapping artifact aligns sections with the changes
		// (§3.2); a curator-written mapping.md is kept.
		&mapdraft.Stage{LLM: cfg.LLM},
		// validate: the 28 static rules gate the mapping before any
		// model judges it, because they are free and exact.
		validate.Stage{},
		// audit: the eight semantic rules need a validated artifact.
		&audit.Stage{LLM: cfg.LLM},
		// rank: the judge scores only mappings that passed both gates.
		&rank.Stage{LLM: cfg.LLM},
	)
	p.Each = append(p.Each,
		// review: a retained candidate waits for an expert's decision.
		review.Stage{IncludeUnreviewed: cfg.IncludeUnreviewed},
		// build: only a candidate that passed every gate is worth the
		// Docker time of task construction (§3.3).
		&build.Stage{Executor: cfg.Executor, Recipe: cfg.Recipe, IncludeUnreviewed: cfg.IncludeUnreviewed, Runs: cfg.Runs, Progress: cfg.TestProgress},
		// mutate: mutants and coverage need a built task whose F2P and P2P
		// lists hold (§4).
		&mutate.Stage{Executor: cfg.Executor, LLM: cfg.LLM, MaxPerOperator: cfg.MaxMutantsPerOperator, Progress: cfg.TestProgress},
		// augment: new tests target the mutants that survive and the lines
		// nothing covers, so it needs mutate's kill matrix and coverage;
		// offline it still writes the test-to-section map.
		&augment.Stage{LLM: cfg.LLM, Executor: cfg.Executor, Progress: cfg.TestProgress},
	)
	// export: the built tasks as Harbor folders and SWE-bench JSONL.
	p.After = append(p.After, &exportAll{IncludeUnreviewed: cfg.IncludeUnreviewed})
	return p
}

// exportAll writes both export formats, in the plain and the specification
// variant (the EP plus the solution's file tree and API), as the one
// "export" stage of a run.
type exportAll struct {
	Harbor, SWEBench, HarborSpec, SWEBenchSpec export.Stage
	IncludeUnreviewed                          bool
}

func (*exportAll) Name() string   { return "export" }
func (*exportAll) String() string { return "exporting tasks" }

func (e *exportAll) Run(ctx context.Context, env *pipeline.Env) error {
	e.Harbor.Format, e.SWEBench.Format = export.Harbor, export.SWEBench
	e.HarborSpec.Format, e.SWEBenchSpec.Format = export.Harbor, export.SWEBench
	e.HarborSpec.Variant, e.SWEBenchSpec.Variant = export.Spec, export.Spec
	for _, s := range []*export.Stage{&e.Harbor, &e.SWEBench, &e.HarborSpec, &e.SWEBenchSpec} {
		s.IncludeUnreviewed = e.IncludeUnreviewed
		if err := s.Run(ctx, env); err != nil {
			return err
		}
	}
	return nil
}

// Exports returns the export stage of a plan, to report where it wrote.
func Exports(p *pipeline.Plan) (harbor, swebench *export.Stage) {
	for _, s := range p.After {
		if e, ok := s.(*exportAll); ok {
			return &e.Harbor, &e.SWEBench
		}
	}
	return nil, nil
}
