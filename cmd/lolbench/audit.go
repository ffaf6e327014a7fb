package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/rules"
	"github.com/lolbench/lolbench/stages/audit"
)

// AuditOptions are the parsed flags of `lolbench audit`.
type AuditOptions struct {
	LLMOptions
	Rules []string
}

// NewCmdAudit runs the eight semantic audits.
func NewCmdAudit(f *Factory, runF func(*AuditOptions) error) *cobra.Command {
	opts := &AuditOptions{LLMOptions: LLMOptions{Factory: f}}
	var ruleList string
	cmd := &cobra.Command{
		Use:   "audit [CANDIDATE...] [--rules S1,S5]",
		Short: "Audit mapping artifacts against the semantic rules S1-S8 with LLM auditors",
		Long: `Audit asks one LLM auditor per semantic rule to check each candidate's
mapping.md against the EP and the PR data, and writes one report per rule to
audit.json. Without a candidate it runs over every candidate of the workspace.

  S1 section coverage               S5 mapping semantics
  S2 section classification         S6 citation and summary fidelity
  S3 test mapping                   S7 direct vs associated
  S4 PR-file category               S8 external-link sufficiency

S1 to S7 pass on an empty list of issues. S8 enumerates the EP's links and
answers complete, inlined (essential content was inlined into audit.json) or
invalid:<reason> (essential content is not accessible). A candidate with any
finding, or with an invalid S8 verdict, is rejected.

The candidate is first brought up to date like make: a missing mapping.md is
drafted (lolbench map) and the static rules are checked (validate); a candidate
the static rules reject is not audited.

` + llmFlagsHelp + `

Exit status: 0 when every audit passed, 1 when a candidate was rejected, 2 for
bad input, a missing endpoint or a stage that could not run.`,
		Example: `  lolbench audit cpython-pep-0617
  lolbench audit cpython-pep-0617 --rules S1,S5
  lolbench audit --json | jq '.[].audit.rules[] | select(.passed | not)'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Candidates = args
			ids, err := audit.ParseRules(ruleList)
			if err != nil {
				return fmt.Errorf("--rules: %w", err)
			}
			opts.Rules = ids
			if runF != nil {
				return runF(opts)
			}
			return auditRun(cmd, opts)
		},
	}
	addLLMFlags(cmd, &opts.LLMOptions)
	cmd.Flags().StringVar(&ruleList, "rules", "", "run only these semantic rules, e.g. S1,S5")
	return cmd
}

func auditRun(cmd *cobra.Command, opts *AuditOptions) error {
	s, err := opts.open()
	if err != nil {
		return err
	}
	results := runChain(cmd.Context(), &opts.LLMOptions, s, chain("audit", s, &opts.LLMOptions, nil, opts.Rules), false)
	return finish(&opts.LLMOptions, results, func(w io.Writer, r candidateResult) {
		printValidate(w, r)
		printAudit(w, r)
	})
}

// printValidate lists the violations of a rejected static validation.
func printValidate(w io.Writer, r candidateResult) {
	rep := r.Validate
	if rep == nil || rep.Passed() {
		return
	}
	for _, v := range rep.Violations {
		name := ""
		if rr := rules.Lookup(v.Rule); rr != nil {
			name = " " + rr.Name
		}
		loc := ""
		if v.Line > 0 {
			loc = fmt.Sprintf(" line %d", v.Line)
		}
		fmt.Fprintf(w, "    R%02d%s:%s %s: %s\n", v.Rule, name, loc, v.Where, v.Message)
	}
}

// printAudit shows every rule's outcome and every finding with its rule.
func printAudit(w io.Writer, r candidateResult) {
	if r.Audit == nil {
		return
	}
	for _, rr := range r.Audit.Rules {
		state := "passed"
		if len(rr.Findings) > 0 {
			state = fmt.Sprintf("%d finding%s", len(rr.Findings), plural(len(rr.Findings)))
		}
		if rr.Rule == audit.LinkRule {
			state = rr.Verdict
			if len(rr.Findings) > 0 {
				state += fmt.Sprintf(", %d finding%s", len(rr.Findings), plural(len(rr.Findings)))
			}
		}
		fmt.Fprintf(w, "    %s %s: %s\n", rr.Rule, rr.Name, state)
		for _, f := range rr.Findings {
			fmt.Fprintf(w, "      %s: %s\n", f.Rule, oneLine(f.Message))
		}
		for _, l := range rr.Links {
			kind := "incidental"
			if l.Essential {
				kind = "essential"
				if !l.Accessible {
					kind += ", not accessible"
				} else if strings.TrimSpace(l.Content) != "" {
					kind += ", inlined"
				}
			}
			fmt.Fprintf(w, "      %s: %s (%s)\n", rr.Rule, l.URL, kind)
		}
	}
}

// oneLine keeps a model's multi-line text on one terminal line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
