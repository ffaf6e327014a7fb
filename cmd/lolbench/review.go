package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/review"
)

// ReviewOptions are the parsed flags of `lolbench review`.
type ReviewOptions struct {
	IO        *IOStreams
	Workspace string
	Candidate string
	Decision  review.Decision
	Note      string
	Reviewer  string
	JSON      bool
	// Now stamps the record; tests fix it.
	Now func() time.Time
}

// NewCmdReview records an expert's decision on a retained candidate.
func NewCmdReview(f *Factory, runF func(*ReviewOptions) error) *cobra.Command {
	opts := &ReviewOptions{IO: f.IO, Now: time.Now}
	var accept, reject bool
	cmd := &cobra.Command{
		Use:   "review CANDIDATE --accept|--reject --note TEXT",
		Short: "Record an expert's review of a retained candidate",
		Long: `Review records an expert's decision on a candidate that lolbench rank retained
(both validation gates passed and Q >= 8.0) in the candidate's review.json:
accepted or rejected, with a note that says why, the reviewer, the Q and the
mapping that were reviewed, and the time. Only an accepted candidate goes on
to task construction; recording a review again replaces the record.`,
		Example: `  lolbench review cpython-pep-0617 --accept --note "sections 3 and 3.1 map cleanly to pegen"
  lolbench review tinykv-tkep-0002 --reject --note "section 4 is only tested, never implemented"`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Candidate = args[0]
			switch {
			case accept == reject:
				return errors.New("review: give exactly one of --accept and --reject")
			case accept:
				opts.Decision = review.Accepted
			default:
				opts.Decision = review.Rejected
			}
			if opts.Reviewer == "" && f.Getenv != nil {
				opts.Reviewer = f.Getenv("USER")
			}
			if runF != nil {
				return runF(opts)
			}
			return reviewRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&accept, "accept", false, "accept the candidate")
	fl.BoolVar(&reject, "reject", false, "reject the candidate")
	fl.StringVar(&opts.Note, "note", "", "why (required)")
	fl.StringVar(&opts.Reviewer, "reviewer", "", "who reviewed (default: $USER)")
	fl.StringVar(&opts.Workspace, "workspace", "work", "the workspace folder")
	fl.BoolVar(&opts.JSON, "json", false, "print the record as JSON")
	return cmd
}

func reviewRun(opts *ReviewOptions) error {
	ws, err := workspace.Open(opts.Workspace, false)
	if err != nil {
		return err
	}
	if _, err := candidateIDs(ws, []string{opts.Candidate}); err != nil {
		return err
	}
	c, err := pipeline.OpenCandidate(ws, opts.Candidate)
	if err != nil {
		return err
	}
	rec, err := review.New(c, opts.Decision, opts.Note, opts.Reviewer, opts.Now())
	if err != nil {
		return err
	}
	if err := review.Save(c, rec); err != nil {
		return err
	}
	if opts.JSON {
		return printJSON(opts.IO.Out, rec)
	}
	q := "undefined"
	if rec.Q != nil {
		q = rec.Q.String()
	}
	fmt.Fprintf(opts.IO.Out, "%s: %s (Q %s): %s\n", rec.Candidate, rec.Decision, q, rec.Note)
	return nil
}
