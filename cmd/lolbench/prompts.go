package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/prompts"
	"github.com/lolbench/lolbench/rules"
	"github.com/lolbench/lolbench/stages/audit"
	"github.com/lolbench/lolbench/stages/evidence"
	"github.com/lolbench/lolbench/stages/mapdraft"
	"github.com/lolbench/lolbench/stages/rank"
	"github.com/lolbench/lolbench/stages/validate"
)

// NewCmdPrompts groups the commands that look at the LLM prompts.
func NewCmdPrompts(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "prompts",
		Short: "Look at the prompts of the LLM stages",
		Long: `The LLM stages (map, audit, rank) build their prompts from templates embedded
in lolbench (prompts/*.tmpl). 'prompts show' renders one for review, for a
candidate or with placeholders, without calling a model.`,
		Example: `  lolbench prompts show
  lolbench prompts show audit-S5 --candidate cpython-pep-0617`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.AddCommand(NewCmdPromptsShow(f, nil))
	return cmd
}

// PromptsShowOptions are the parsed flags of `lolbench prompts show`.
type PromptsShowOptions struct {
	IO        *IOStreams
	Name      string // "" lists the names
	Candidate string
	Workspace string
	Evidence  evidence.Options
	JSON      bool
}

// NewCmdPromptsShow renders a prompt without calling a model.
func NewCmdPromptsShow(f *Factory, runF func(*PromptsShowOptions) error) *cobra.Command {
	opts := &PromptsShowOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:   "show [NAME] [--candidate ID --workspace DIR]",
		Short: "Render a prompt for review without calling a model",
		Long: `Show renders the prompt NAME exactly as the stage would send it: the system
message (the instructions) and the user message (the candidate's material).
With --candidate the material is the candidate's EP, PR files, patches, scopes
and mapping; without it, placeholders in ‹› stand for them. Without NAME it
lists the prompt names:

  map         the drafter's first request
  map-retry   the drafter's follow-up with the static-rule violations (from the
              candidate's mapping.draft.json or validate.json)
  audit-S1 .. audit-S8
              the auditors, one per semantic rule
  judge       the quality judge
  mutate-section-revert, mutate-requirement-mismatch, mutate-semantic-mutation
              the LLM mutant methods (stage-specific parts as placeholders)
  augment-mutation, augment-coverage
              the test-generation loops (stage-specific parts as placeholders)

--json prints {"name", "candidate", "messages": [{"role", "content"}]}.`,
		Example: `  lolbench prompts show
  lolbench prompts show judge
  lolbench prompts show audit-S8 --candidate tinykv-tkep-0002 --workspace work`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Name = args[0]
			}
			if runF != nil {
				return runF(opts)
			}
			return promptsShowRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Candidate, "candidate", "", "render for this candidate of the workspace")
	fl.StringVar(&opts.Workspace, "workspace", "work", "the workspace folder")
	fl.IntVar(&opts.Evidence.Budget, "patch-budget", evidence.DefaultBudget, "bytes of patch text in a prompt, in all")
	fl.IntVar(&opts.Evidence.FileLimit, "patch-limit", evidence.DefaultFileLimit, "bytes of patch text in a prompt, per file")
	fl.BoolVar(&opts.JSON, "json", false, "print the prompt as JSON")
	return cmd
}

func promptsShowRun(ctx context.Context, opts *PromptsShowOptions) error {
	if opts.Name == "" {
		if opts.JSON {
			return printJSON(opts.IO.Out, allPromptNames())
		}
		for _, n := range allPromptNames() {
			fmt.Fprintln(opts.IO.Out, n)
		}
		return nil
	}
	if !containsName(opts.Name) {
		return fmt.Errorf("prompts show: no prompt %q; prompts are %s", opts.Name, strings.Join(allPromptNames(), ", "))
	}
	p, err := renderPrompt(ctx, opts)
	if err != nil {
		return err
	}
	if opts.JSON {
		return printJSON(opts.IO.Out, map[string]any{
			"name": p.Name, "candidate": opts.Candidate,
			"messages": evidence.Messages(p),
		})
	}
	fmt.Fprintf(opts.IO.Out, "===== %s: system =====\n%s\n\n===== %s: user =====\n%s\n", p.Name, p.System, p.Name, p.User)
	return nil
}

// allPromptNames lists every prompt: phase 2's, then phase 4's, then the
// analysis judge's.
func allPromptNames() []string {
	names := append(prompts.Names(), prompts.MutateNames()...)
	names = append(names, prompts.MutateJudgePrompt)
	names = append(names, prompts.AugmentNames()...)
	return append(names, prompts.AnalyzeJudgePrompt)
}

func containsName(name string) bool {
	for _, n := range allPromptNames() {
		if n == name {
			return true
		}
	}
	return false
}

// renderPrompt builds the prompt through the stage that sends it, so that
// what is shown is what a model would get.
func renderPrompt(ctx context.Context, opts *PromptsShowOptions) (prompts.Prompt, error) {
	d := evidence.Placeholder()
	findings := []mapdraft.Finding{{Rule: "‹rule›", Line: 1, Where: "‹where›", Message: "‹message›"}}
	var sections []prompts.Section
	var c *pipeline.Candidate
	if opts.Candidate != "" {
		ws, err := workspace.Open(opts.Workspace, false)
		if err != nil {
			return prompts.Prompt{}, err
		}
		if _, err := candidateIDs(ws, []string{opts.Candidate}); err != nil {
			return prompts.Prompt{}, err
		}
		if c, err = pipeline.OpenCandidate(ws, opts.Candidate); err != nil {
			return prompts.Prompt{}, err
		}
		ev, err := evidence.Load(ctx, ws, c, opts.Evidence)
		if err != nil {
			return prompts.Prompt{}, err
		}
		d = ev.Data()
		sections = []prompts.Section{}
		if ev.Mapping != nil {
			if m, err := mapping.Parse(ev.Mapping); err == nil {
				sections = rank.Implementable(m)
			}
		}
		if findings, err = lastFindings(c); err != nil {
			return prompts.Prompt{}, err
		}
	}
	switch name := opts.Name; {
	case name == prompts.MapPrompt:
		d.Mapping = ""
		return mapdraft.Prompt(d)
	case name == prompts.MapRetryPrompt:
		d.Mapping = ""
		return mapdraft.RetryPrompt(d, 2, mapdraft.DefaultRounds, findings)
	case name == prompts.JudgePrompt:
		return rank.Prompt(d, sections)
	case name == prompts.MutateJudgePrompt:
		return prompts.RenderMutateJudge(&prompts.MutateJudge{Method: "‹method›", Language: "‹language›",
			Section:     prompts.MutateSection{ID: "‹section id›", Title: "‹section title›", Requirement: "‹requirement›", Text: "‹section text›"},
			Requirement: "‹violated clause›", Reference: "‹reference behaviour›", Mutated: "‹mutated behaviour›",
			Scenario: "‹diverging scenario›", Rationale: "‹non-equivalence rationale›", Delta: "‹the mutant's diff against the reference solution›\n"})
	case name == prompts.AnalyzeJudgePrompt:
		// The modes come from data/taxonomy and the steps from a trial's
		// trajectory when analyze runs.
		return prompts.RenderAnalyzeJudge(&prompts.AnalyzeJudge{Modes: []prompts.AnalyzeMode{{Mode: "‹mode›", Phase: "‹phase›", Doc: "‹what it means›"}},
			Instruction: "‹the task's instruction›", Steps: []prompts.AnalyzeStep{{N: 1, Text: "‹a step of the session›"}}})
	case strings.HasPrefix(name, "mutate-"):
		// The section, files and solution come from the mutate stage's
		// run; here they are placeholders around the candidate's EP.
		sec := prompts.MutateSection{ID: "‹section id›", Title: "‹section title›", Requirement: "‹requirement›", Quote: "‹quotation›", Text: "‹section text›"}
		return prompts.RenderMutate(name, &prompts.Mutate{Data: *d, Method: "‹method›", Language: "‹language›",
			Section: sec, Sections: []prompts.MutateSection{sec},
			Files:    []prompts.MutateFile{{Path: "‹path›", Text: "‹file after the reference solution›", Owned: true}},
			Solution: "‹reference solution patch›", MaxEdits: 20})
	case strings.HasPrefix(name, "augment-"):
		return prompts.RenderAugment(name, &prompts.Augment{Data: *d, Language: "‹language›", Internal: "‹what the test audit counts as internal›",
			Sections:  []prompts.AugmentSection{{ID: "‹section id›", Title: "‹section title›", Requirement: "‹requirement›"}},
			Solution:  "‹reference solution patch›",
			TestFiles: []prompts.AugmentFile{{Path: "‹test file›", Text: "‹its text›"}},
			Layout:    "‹where new test files go›", MaxTests: 3, Runs: 3,
			Mutant: &prompts.AugmentMutant{ID: "‹mutant›", Method: "‹method›", Section: "‹section id›", SectionTitle: "‹section title›",
				Requirement: "‹violated clause›", Reference: "‹reference behaviour›", Mutated: "‹mutated behaviour›",
				Scenario: "‹diverging scenario›", Rationale: "‹non-equivalence rationale›"},
			Spans:    []prompts.AugmentSpan{{ID: "‹span›", File: "‹path›", Start: 1, End: 9, Lines: 9, Code: "‹uncovered code›"}},
			Coverage: 42.0})
	default:
		return audit.Prompt(d, strings.TrimPrefix(name, "audit-"))
	}
}

// lastFindings are what a retry would be told: the last round of the
// candidate's draft record, or else its static-rule violations.
func lastFindings(c *pipeline.Candidate) ([]mapdraft.Finding, error) {
	rec, err := mapdraft.LoadRecord(c)
	if err != nil {
		return nil, err
	}
	if rec != nil && len(rec.Rounds) > 0 {
		return rec.Rounds[len(rec.Rounds)-1].Findings, nil
	}
	rep, err := validate.Load(c)
	if err != nil {
		return nil, nil
	}
	var out []mapdraft.Finding
	for _, v := range rep.Violations {
		name := fmt.Sprintf("R%02d", v.Rule)
		if r := rules.Lookup(v.Rule); r != nil {
			name += " " + r.Name
		}
		out = append(out, mapdraft.Finding{Rule: name, Line: v.Line, Where: v.Where, Message: v.Message})
	}
	return out, nil
}
