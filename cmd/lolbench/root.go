package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
)

// NewCmdRoot builds the command tree. Each command lives in its own file.
func NewCmdRoot(f *Factory) *cobra.Command {
	root := &cobra.Command{
		Use:   "lolbench",
		Short: "Build long-horizon coding benchmarks from enhancement proposals and their pull requests",
		Long: `lolbench turns enhancement proposals (PEPs, KEPs, JEPs, RFCs, design documents)
and the pull requests that implemented them into executable benchmark tasks.

It follows the LoLBench method: collect EP-PR pairs, map proposal sections to
the changed code and validate that mapping, build offline Docker tasks with
Fail-to-Pass and Pass-to-Pass tests, then strengthen the tests.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.ErrOut)
	root.SetIn(f.IO.In)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return fmt.Errorf("%w (see '%s --help')", err, c.CommandPath())
	})
	root.AddCommand(
		NewCmdVersion(f),
		NewCmdLoc(f),
		NewCmdEP(f),
		NewCmdMapping(f),
		NewCmdPR(f),
		NewCmdRules(f),
		NewCmdValidate(f, nil),
		NewCmdRun(f, nil),
		NewCmdStatus(f),
		NewCmdCollect(f),
		NewCmdCandidates(f),
		NewCmdMap(f, nil),
		NewCmdAudit(f, nil),
		NewCmdRank(f, nil),
		NewCmdReview(f, nil),
		NewCmdPrompts(f),
		NewCmdBuild(f),
		NewCmdVerify(f),
		NewCmdExport(f),
		NewCmdMutate(f),
		NewCmdReport(f),
		NewCmdAugment(f),
		NewCmdSpec(f),
		NewCmdDag(f),
		NewCmdEnv(f),
		NewCmdLang(f),
		NewCmdEval(f),
		NewCmdAnalyze(f),
	)
	return root
}

// run executes one command line and returns the process exit status.
func run(ctx context.Context, args []string, f *Factory) int {
	root := NewCmdRoot(f)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err != nil && err.Error() != "" {
		fmt.Fprintf(f.IO.ErrOut, "lolbench: %v\n", err)
	}
	return exitCode(err)
}
