package main

import (
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/rules"
)

// NewCmdRules groups the commands that describe the static rules.
func NewCmdRules(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "List and explain the 28 static mapping rules",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newCmdRulesList(f), newCmdRulesExplain(f), newCmdRulesDoc(f))
	return cmd
}

type ruleJSON struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
	Doc  string `json:"doc"`
}

func newCmdRulesList(f *Factory) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the rules with their names",
		Example: `  lolbench rules list
  lolbench rules list --json | jq '.[] | select(.id == 27)'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON {
				out := make([]ruleJSON, 0, len(rules.All))
				for _, r := range rules.All {
					out = append(out, ruleJSON{r.ID, r.Name, r.Doc})
				}
				return printJSON(f.IO.Out, out)
			}
			tw := tabwriter.NewWriter(f.IO.Out, 0, 4, 2, ' ', 0)
			for _, r := range rules.All {
				fmt.Fprintf(tw, "%d\t%s\t%s\n", r.ID, r.Name, firstSentence(r.Doc))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON: [{\"id\",\"name\",\"doc\"}, ...]")
	return cmd
}

func newCmdRulesExplain(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:     "explain N",
		Short:   "Print the full documentation of one rule",
		Example: "  lolbench rules explain 27",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := strconv.Atoi(strings.TrimPrefix(strings.ToUpper(args[0]), "R"))
			r := rules.Lookup(id)
			if err != nil || r == nil {
				return fmt.Errorf("no rule %q: rules are numbered 1 to %d (lolbench rules list)", args[0], len(rules.All))
			}
			fmt.Fprintf(f.IO.Out, "R%02d %s\n\n%s\n", r.ID, r.Name, wrap(r.Doc, 78))
			return nil
		},
	}
}

func newCmdRulesDoc(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:     "doc",
		Short:   "Print docs/rules.md, generated from the rule docs",
		Example: "  lolbench rules doc > docs/rules.md",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := f.IO.Out.Write(rules.Markdown())
			return err
		},
	}
}

// firstSentence is the rule's one-line summary for tables.
func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}

// wrap folds text at width columns for the terminal.
func wrap(s string, width int) string {
	var b strings.Builder
	col := 0
	for _, w := range strings.Fields(s) {
		if col > 0 && col+1+len(w) > width {
			b.WriteByte('\n')
			col = 0
		} else if col > 0 {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += len(w)
	}
	return b.String()
}
