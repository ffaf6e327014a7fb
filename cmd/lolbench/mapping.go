package main

import (
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/spf13/cobra"
)

// NewCmdMapping groups the commands that work on one EP–PR mapping
// artifact (mapping.md, docs/mapping-format.md).
func NewCmdMapping(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mapping",
		Short: "Inspect EP-PR mapping artifacts (mapping.md) and scaffold new ones",
		Long: `A mapping artifact aligns the sections of an enhancement proposal with the
files, classes and functions its pull request changed. It is Markdown, drafted
by an LLM or written by a curator; docs/mapping-format.md specifies it.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newCmdMappingShow(f, nil))
	cmd.AddCommand(newCmdMappingScaffold(f, nil))
	return cmd
}

// MappingShowOptions are the inputs of "lolbench mapping show".
type MappingShowOptions struct {
	IO   *IOStreams
	File string
	JSON bool
}

func newCmdMappingShow(f *Factory, runF func(*MappingShowOptions) error) *cobra.Command {
	opts := &MappingShowOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:   "show FILE",
		Short: "Parse a mapping artifact and summarise it, or print it as JSON",
		Long: `Parse a mapping artifact and print a short summary: sections, PR files and
one line per mapped-section block with its counts line. With --json, print the
whole parsed model (snake_case keys, every element with its line).

Show checks structure only: an artifact that cannot be read is rejected with
every error as FILE:LINE: message and exit code 2. Vocabularies, table
columns and arithmetic are checked by the static rules, not here.`,
		Example: `  lolbench mapping show work/candidates/cpython-pep-0617/mapping.md
  lolbench mapping show mapping.md --json | jq '.mapped_sections[].section'`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.File = args[0]
			if runF != nil {
				return runF(opts)
			}
			return mappingShowRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the parsed model as JSON")
	return cmd
}

func mappingShowRun(opts *MappingShowOptions) error {
	m, err := mapping.ParseFile(opts.File)
	if list, ok := errors.AsType[*mapping.ErrorList](err); ok {
		for _, e := range list.Errors {
			fmt.Fprintln(opts.IO.ErrOut, list.Format(e))
		}
		noun := "parse errors"
		if len(list.Errors) == 1 {
			noun = "parse error"
		}
		return fmt.Errorf("%s: %d %s; the format is specified in docs/mapping-format.md", opts.File, len(list.Errors), noun)
	}
	if err != nil {
		return err
	}
	if opts.JSON {
		b, err := mapping.JSON(m)
		if err != nil {
			return fmt.Errorf("encode mapping %s: %w", opts.File, err)
		}
		_, err = opts.IO.Out.Write(b)
		return err
	}
	return writeMappingSummary(opts, m)
}

// writeMappingSummary prints the counts a curator looks at first. Values
// are counted as written; whether they are consistent is for the rules.
func writeMappingSummary(opts *MappingShowOptions, m *mapping.Mapping) error {
	implementable, mapped := 0, 0
	for _, r := range m.SCS.Rows {
		if r.Implementable == "yes" {
			implementable++
		}
		if r.Mapped == "yes" {
			mapped++
		}
	}
	roles := map[string]int{}
	for _, r := range m.PFS.Rows {
		roles[r.Role]++
	}
	var roleText []string
	for _, role := range mapping.Roles {
		roleText = append(roleText, fmt.Sprintf("%d %s", roles[string(role)], role))
		delete(roles, string(role))
	}
	other := 0
	for _, n := range roles {
		other += n
	}
	if other > 0 {
		roleText = append(roleText, fmt.Sprintf("%d with another role", other))
	}

	fmt.Fprintf(opts.IO.Out, "mapping %s (%s)\n", m.Title, opts.File)
	w := tabwriter.NewWriter(opts.IO.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(w, "sections\t%d classified: %d implementable, %d mapped; %d in %q\n",
		len(m.SCS.Rows), implementable, mapped, len(m.UnmappedSections.Rows), mapping.PartUnmappedSections)
	fmt.Fprintf(w, "PR files\t%d classified: %s; %d in %q\n",
		len(m.PFS.Rows), strings.Join(roleText, ", "), len(m.UnmappedFiles.Rows), mapping.PartUnmappedFiles)
	fmt.Fprintf(w, "blocks\t%d\n", len(m.Blocks))
	if err := w.Flush(); err != nil {
		return err
	}
	w = tabwriter.NewWriter(opts.IO.Out, 0, 4, 2, ' ', 0)
	for _, b := range m.Blocks {
		c := b.Counts
		fmt.Fprintf(w, "  %d.\tsection %s\t%s\t%d direct, %d associated, %d accounted of %d PR files\tline %d\n",
			b.Number, b.Section, b.Title, c.Direct, c.Associated, c.Accounted, c.PRFiles, b.Line)
	}
	return w.Flush()
}
