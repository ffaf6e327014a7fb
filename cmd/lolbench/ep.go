package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/pipeline/ep"
)

// NewCmdEP groups the commands that read enhancement-proposal documents.
func NewCmdEP(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "ep <command>",
		Short: "Inspect enhancement proposals: documents, and what a project's EP source yields",
		Long: `Inspect enhancement proposals the way the pipeline reads them.

Markdown (.md, .markdown) is parsed as CommonMark with GitHub extensions;
reStructuredText (.rst, .txt) follows docutils' section rules; an HTML page
(.html, .htm: OpenJDK JEPs, Confluence KIPs and FLIPs) and DokuWiki text
(.dokuwiki: PHP RFCs) are read as their Markdown rendering, whose headings are
the page's.

"ep list" shows what a registry's EP sources yield, offline, before any GitHub
search; "ep fetch" saves the pages of a kind web source.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmd.Help()
		},
	}
	cmd.AddCommand(NewCmdEPHeadings(f, nil))
	cmd.AddCommand(NewCmdEPRender(f, nil))
	cmd.AddCommand(NewCmdEPList(f, nil))
	cmd.AddCommand(NewCmdEPFetch(f, nil))
	return cmd
}

// EPHeadingsOptions are the inputs of "lolbench ep headings".
type EPHeadingsOptions struct {
	IO      *IOStreams
	File    string
	Format  string // "", "md", "rst", "html" or "dokuwiki"
	Profile string // "", "auto", "jep", "confluence" or "generic"
	JSON    bool
}

// NewCmdEPHeadings prints the section outline of one EP document: the
// sections the mapping cites and the rules measure (LoLBench §3.2). runF
// replaces the run step in tests of flag parsing.
func NewCmdEPHeadings(f *Factory, runF func(*EPHeadingsOptions) error) *cobra.Command {
	opts := &EPHeadingsOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:   "headings FILE",
		Short: "Print the section outline of an EP document",
		Long: `Print the section outline of an EP document: one heading per line, indented
by depth, with its stable section id (the number path the mapping cites),
its plain-text title and the line of the title.

The format is taken from the extension (.md/.markdown: Markdown, .rst/.txt:
reStructuredText, .html/.htm: HTML, .dokuwiki: DokuWiki) unless --format says
otherwise. An HTML page is read with a profile (--profile: jep, confluence or
generic; by default picked from the page). For HTML and DokuWiki, lines and
ranges are those of the Markdown rendering ("lolbench ep render" prints it),
the text collection writes as a candidate's ep.md. With --json the output is
an array of sections with id, level, title, line and the byte ranges of the
heading, of the section's own text and of its whole subtree.

Exit status 2 means the file could not be read or parsed: unreadable, not a
regular file (a link, a device), over the EP size cap of 1 MiB, unknown
extension, bad --format, not UTF-8, a NUL byte, or past a parser bound
(nesting, headings, front matter); the message names the line.`,
		Example: `  $ lolbench ep headings pep-0617.rst
  1 Overview (line 18)
  2 Background on LL(1) parsers (line 29)
  3 Background on PEG parsers (line 106)
  4 Rationale (line 152)
    4.1 Some rules are not actually LL(1) (line 159)
  ...

  $ lolbench ep headings README.md --json | jq -r '.[] | .id + " " + .title'
  $ lolbench ep headings design.txt --format md
  $ lolbench ep headings kip-500.html --profile confluence`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.File = args[0]
			if runF != nil {
				return runF(opts)
			}
			return runEPHeadings(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Format, "format", "", "document format: md, rst, html or dokuwiki (default: from the file extension)")
	cmd.Flags().StringVar(&opts.Profile, "profile", "", "HTML profile: jep, confluence or generic (default: picked from the page)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the sections as a JSON array")
	return cmd
}

// loadEP reads the file of "ep headings" and "ep render" with the
// --format and --profile flags.
func loadEP(file, format, profile string) (*ep.Document, error) {
	var f ep.Format
	if format != "" {
		pf, err := ep.ParseFormat(format)
		if err != nil {
			return nil, fmt.Errorf("%s: invalid --format %q (want md, rst, html or dokuwiki)", file, format)
		}
		f = pf
	} else if pf, err := ep.FormatFromPath(file); err != nil {
		return nil, fmt.Errorf("%w; pass --format md, rst, html or dokuwiki", err)
	} else {
		f = pf
	}
	p, err := ep.ParseProfile(profile)
	if err != nil {
		return nil, fmt.Errorf("invalid --profile: %w", err)
	}
	if p != ep.ProfileAuto && f != ep.HTML {
		return nil, fmt.Errorf("%s: --profile is for HTML pages, and this is %s", file, f)
	}
	if f != ep.HTML {
		return ep.Load(file, f)
	}
	src, err := ep.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read EP document: %w", err)
	}
	doc, err := ep.ParseHTML(src, p)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", file, err)
	}
	doc.Path = file
	return doc, nil
}

func runEPHeadings(opts *EPHeadingsOptions) error {
	doc, err := loadEP(opts.File, opts.Format, opts.Profile)
	if err != nil {
		return err
	}
	if opts.JSON {
		sections := doc.Sections
		if sections == nil {
			sections = []*ep.Section{}
		}
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(sections)
	}
	if len(doc.Sections) == 0 {
		fmt.Fprintf(opts.IO.ErrOut, "no headings found in %s\n", opts.File)
		return nil
	}
	for _, s := range doc.Sections {
		fmt.Fprintf(opts.IO.Out, "%s%s %s (line %d)\n", strings.Repeat("  ", s.Level-1), s.ID, s.Title, s.Line)
	}
	return nil
}

// EPRenderOptions are the inputs of "lolbench ep render".
type EPRenderOptions struct {
	IO      *IOStreams
	File    string
	Format  string
	Profile string
	JSON    bool
}

// NewCmdEPRender prints the text the pipeline reads of an EP document:
// the Markdown rendering of an HTML or DokuWiki page (a candidate's
// ep.md), or a Markdown or RST file as it is, with its metadata.
func NewCmdEPRender(f *Factory, runF func(*EPRenderOptions) error) *cobra.Command {
	opts := &EPRenderOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:   "render FILE",
		Short: "Print the text the pipeline reads of an EP document, and its metadata",
		Long: `Print the text the pipeline reads of an EP document: for an HTML page or
DokuWiki text, its Markdown rendering, which collection writes as the
candidate's ep.md and whose headings are the page's; for Markdown and
reStructuredText, the file itself. The metadata the format reads (a PEP's
header, front matter, a JEP's header table, a Confluence page's status lines, a
DokuWiki page's bullets) goes to stderr, one "key: value" per line.

With --json the output is an object with format, metadata and text.
Formats, profiles and exit statuses are those of "lolbench ep headings".`,
		Example: `  $ lolbench ep render jep-444.html > ep.md
  $ lolbench ep render enumerations.dokuwiki --json | jq .metadata`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.File = args[0]
			if runF != nil {
				return runF(opts)
			}
			return runEPRender(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Format, "format", "", "document format: md, rst, html or dokuwiki (default: from the file extension)")
	cmd.Flags().StringVar(&opts.Profile, "profile", "", "HTML profile: jep, confluence or generic (default: picked from the page)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print format, metadata and text as JSON")
	return cmd
}

func runEPRender(opts *EPRenderOptions) error {
	doc, err := loadEP(opts.File, opts.Format, opts.Profile)
	if err != nil {
		return err
	}
	if opts.JSON {
		return printJSON(opts.IO.Out, struct {
			Format   ep.Format         `json:"format"`
			Metadata map[string]string `json:"metadata"`
			Text     string            `json:"text"`
		}{doc.Format, doc.Metadata, string(doc.Source)})
	}
	keys := make([]string, 0, len(doc.Metadata))
	for k := range doc.Metadata {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(opts.IO.ErrOut, "%s: %s\n", k, doc.Metadata[k])
	}
	_, err = opts.IO.Out.Write(doc.Source)
	return err
}
