package main

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/sectiondag"
	"github.com/lolbench/lolbench/pipeline/sectionmap"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages"
)

// NewCmdStatus prints where every candidate stands.
func NewCmdStatus(f *Factory) *cobra.Command {
	var dir string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status [--workspace DIR] [--json]",
		Short: "Show, per candidate, the last stage passed, its state, any rejection reason and its task's untested sections",
		Long: `Status prints, per candidate, the furthest stage recorded and how it ended,
and for a built task the reference solution's Completed under the task's
test-to-section map (SECTIONS, completed/total task sections). A task
section no FAIL_TO_PASS test asserts is untested: a defect of the task,
listed below the table with why and what would give it tests; so is a
section the discriminativeness check of 'lolbench dag --check' flags (its
tests pass without its own code).`,
		Example: `  lolbench status --workspace work
  lolbench status --json | jq '.[] | select(.state | startswith("rejected"))'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := workspace.Open(dir, false)
			if err != nil {
				return err
			}
			ids, err := ws.Candidates()
			if err != nil {
				return err
			}
			if !asJSON {
				if len(ids) == 0 {
					fmt.Fprintf(f.IO.ErrOut, "workspace %s has no candidates; run lolbench collect or lolbench run\n", ws.Root)
					return nil
				}
				return printStatusTable(f.IO.Out, ws, ids)
			}
			rows := []statusRow{}
			for _, id := range ids {
				row, err := candidateState(ws, id)
				if err != nil {
					return err
				}
				rows = append(rows, row)
			}
			return printJSON(f.IO.Out, rows)
		},
	}
	cmd.Flags().StringVar(&dir, "workspace", "work", "the workspace folder")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON: [{id, last_passed, state, reason, stages, sections}]")
	return cmd
}

// statusRow is one line of lolbench status.
type statusRow struct {
	ID         string                           `json:"id"`
	LastPassed string                           `json:"last_passed"`
	State      string                           `json:"state"`
	Reason     string                           `json:"reason,omitempty"`
	Stages     map[string]*pipeline.StageStatus `json:"stages"`
	// Sections is the task's test-to-section map in brief, once a build
	// wrote one.
	Sections *statusSections `json:"sections,omitempty"`
}

// statusSections is what lolbench status says of a task's sections: the
// reference solution's Completed, and each untested section with why
// (issue 25: a task defect, visible everywhere).
type statusSections struct {
	// Reference is "completed/total" under the map Stage wrote.
	Reference string           `json:"reference"`
	Stage     string           `json:"stage"`
	Untested  []untestedStatus `json:"untested,omitempty"`
	// Next says what would give them tests, when anything can.
	Next string `json:"next,omitempty"`
	// NotDiscriminative are the sections whose tests all pass with the
	// reference restricted to their ancestors (lolbench dag --check,
	// issue 35 §2), with why.
	NotDiscriminative []untestedStatus `json:"not_discriminative,omitempty"`
}

type untestedStatus struct {
	ID  string `json:"id"`
	Why string `json:"why"`
}

// sectionsState reads a candidate's map; nil when there is none.
func sectionsState(c *pipeline.Candidate, st *pipeline.Status) (*statusSections, error) {
	m, err := sectionmap.Load(c)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	s := &statusSections{Reference: m.Reference.String(), Stage: m.Stage}
	for _, sec := range m.Sections {
		if sec.Untested != "" {
			s.Untested = append(s.Untested, untestedStatus{ID: sec.ID, Why: sec.Untested})
		}
	}
	if g, err := sectiondag.Load(c); err == nil {
		for _, ck := range g.Checks {
			if !ck.Discriminative && !ck.Undetermined && ck.Tests > 0 {
				s.NotDiscriminative = append(s.NotDiscriminative, untestedStatus{ID: ck.Section, Why: ck.Why})
			}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if len(s.Untested) > 0 {
		// Augmentation exists to give such sections tests (paper §3.4).
		switch a := st.Stages["augment"]; {
		case a != nil && a.Result == pipeline.Skipped && strings.HasPrefix(a.Reason, llm.ErrNoEndpoint.Error()):
			s.Next = "augment writes tests for untested sections first, but needs an LLM endpoint: set LOLBENCH_LLM_BASE_URL and LOLBENCH_LLM_MODEL, then run lolbench augment " + c.ID
		case st.Stages["mutate"] == nil:
			s.Next = "run lolbench mutate " + c.ID + ": its kill matrix is the first evidence of which sections each test asserts"
		case a == nil:
			s.Next = "run lolbench augment " + c.ID + ": it writes tests for untested sections first"
		default:
			s.Next = "augment ran and left them untested: write tests for them into the PR's test patch, or revise the mapping"
		}
	}
	return s, nil
}

// candidateState reads a candidate's status.json. The state is the
// outcome of the furthest stage recorded: "rejected at rank", "failed at
// build", "skipped at audit", or "passed" when the furthest one passed;
// "new" when nothing ran yet.
func candidateState(ws *workspace.Workspace, id string) (statusRow, error) {
	c, err := pipeline.OpenCandidate(ws, id)
	if err != nil {
		return statusRow{}, err
	}
	st, err := c.LoadStatus()
	if err != nil {
		return statusRow{}, err
	}
	row := statusRow{ID: id, State: "new", Stages: st.Stages}
	var skipped []string
	for _, name := range stages.Names {
		s := st.Stages[name]
		if s == nil {
			continue
		}
		switch s.Result {
		case pipeline.Passed:
			row.LastPassed, row.State, row.Reason = name, "passed", ""
		case pipeline.Skipped:
			skipped = append(skipped, name)
			if row.State == "new" {
				row.State = "skipped at " + name
			}
			if row.Reason == "" {
				row.Reason = name + " skipped: " + s.Reason
			}
		default:
			row.State, row.Reason = fmt.Sprintf("%s at %s", s.Result, name), s.Reason
		}
		if s.Result == pipeline.Rejected || s.Result == pipeline.Failed {
			break
		}
	}
	if row.State == "passed" && len(skipped) > 0 && row.Reason == "" {
		row.Reason = "skipped: " + joinNames(skipped)
	}
	if row.Sections, err = sectionsState(c, st); err != nil {
		return statusRow{}, err
	}
	return row, nil
}

func joinNames(names []string) string {
	names = slices.Clone(names)
	out := ""
	for i, n := range names {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}
