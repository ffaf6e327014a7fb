package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/pipeline/langsupport"
)

// NewCmdLang groups the commands that describe language support.
func NewCmdLang(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "lang",
		Short: "Show what each stage supports per language (the support matrix)",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newCmdLangList(f), newCmdLangDoc(f))
	return cmd
}

func newCmdLangList(f *Factory) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Print the language support matrix, one row per language",
		Long: `List prints, for every language of lolbench's language table, what each stage
can do with it: tree-sitter scopes, test-file conventions and the test
configuration the verifier resets, the test-result formats, how single tests
are selected, per-test coverage, the mutation operators, the test audit,
canaries, the offline base image, the spec variant's code-block tag, whether
augment can place a new test file, and the bundled sample, then which
toolchain versions a task can have offline (Go: any release, from go.mod or
the recipe's go:). The JSON also carries, per language, the pieces it lacks
and why (its gaps). Every column is read
from the code that does the work; docs/languages.md is the same matrix
(lolbench lang doc).`,
		Example: `  lolbench lang list
  lolbench lang list --json | jq '.[] | select(.base_image != null) | .language'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			rows := langsupport.Matrix()
			if asJSON {
				return printJSON(f.IO.Out, rows)
			}
			tw := tabwriter.NewWriter(f.IO.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "LANGUAGE\tSCOPES\tMEMBERS\tRESET\tFORMATS\tSINGLE TEST\tCOVERAGE\tMUTATION\tAUDIT\tCANARY\tIMAGE\tFENCE\tAUGMENT\tSAMPLE")
			for _, r := range rows {
				cov := dash(r.Coverage)
				if r.Coverage != "" && r.PerTest {
					cov += " per test"
				}
				single := "-"
				if r.SingleTest != "" {
					single = "yes"
				}
				img := dash(r.BaseImage)
				if r.HostSDK != "" {
					img = "host SDK"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Language, yesDash(r.Scopes), yesDash(r.Members), len(r.Reset),
					dash(strings.Join(r.Formats, ",")), single, cov, len(r.Mutation), yesDash(r.TestAudit), yesDash(r.Canary),
					img, dash(r.Fence), yesDash(r.Augment), dash(strings.Join(r.Samples, ",")))
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			fmt.Fprintln(f.IO.Out, "\nVersions a task can have offline:")
			for _, r := range rows {
				if r.Versions != "" {
					fmt.Fprintf(f.IO.Out, "  %s: %s\n", r.Language, r.Versions)
				}
			}
			for _, r := range rows {
				if r.HostSDK != "" {
					fmt.Fprintf(f.IO.Out, "\n%s %s.\n", r.Language, r.HostSDK)
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the matrix as JSON, one object per language")
	return cmd
}

func newCmdLangDoc(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:     "doc",
		Short:   "Print docs/languages.md, generated from the support matrix",
		Example: "  lolbench lang doc > docs/languages.md",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := fmt.Fprint(f.IO.Out, langsupport.Markdown())
			return err
		},
	}
}

func yesDash(b bool) string {
	if b {
		return "yes"
	}
	return "-"
}
