package main

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/pipeline/registry"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/collect"
)

// EPListOptions are the inputs of "lolbench ep list".
type EPListOptions struct {
	IO        *IOStreams
	Registry  string
	Projects  []string
	Workspace string
	JSON      bool
}

// NewCmdEPList lists what the EP sources of a registry yield, offline: the
// curator's first step when adding a project.
func NewCmdEPList(f *Factory, runF func(*EPListOptions) error) *cobra.Command {
	opts := &EPListOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:   "list --projects FILE",
		Short: "List what a registry's EP sources yield, offline, before any GitHub search",
		Long: `List every proposal a project's EP source yields, read exactly as collect reads
it, but offline and before any GitHub search: the curator's first step when
adding a project (docs/projects.md).

For each project: where the proposals were read (folders resolved), how many
files were considered, and for each proposal its number, title, status, created
date and path; then which place each field came from ("field:Status",
"bullet:Status", "header:Created", "first heading", "file name", "git") with
counts; then every file left out and why (no number, not UTF-8, over the size
cap, a duplicate number, the status filter, a web page not fetched yet).

Nothing is cloned or fetched. A git source is read from eps.path, or from the
clone an earlier "lolbench collect" made in --workspace; GitHub issues from what
it recorded there; a web source from the folder "lolbench ep fetch" saved.

Exit status 0: every source was read. 2: a bad registry, an unknown project, or
a source that could not be read (named on stderr; the others are still listed).`,
		Example: `  # one project of the bundled registry, from a local clone named by eps.path
  lolbench ep list --projects data/projects.yaml --project django

  # counts per source, for scripts
  lolbench ep list --projects my/projects.yaml --json | jq '.[] | {project, count}'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runEPList(cmd, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Registry, "projects", "data/projects.yaml", "the projects registry")
	fl.StringSliceVar(&opts.Projects, "project", nil, "list only this project (repeatable, or comma-separated)")
	fl.StringVar(&opts.Workspace, "workspace", "work", "the workspace of an earlier collect, for its clones and recorded GitHub issues (not created)")
	fl.BoolVar(&opts.JSON, "json", false, "print the listings as JSON")
	return cmd
}

func runEPList(cmd *cobra.Command, opts *EPListOptions) error {
	reg, err := registry.Load(opts.Registry)
	if err != nil {
		return err
	}
	var ws *workspace.Workspace
	if st, err := os.Stat(opts.Workspace); err == nil && st.IsDir() {
		if ws, err = workspace.Open(opts.Workspace, false); err != nil {
			return err
		}
	}
	listings, err := collect.List(cmd.Context(), reg, opts.Projects, ws)
	if err != nil {
		return err
	}
	var failed []string
	for _, l := range listings {
		if l.Error != "" {
			failed = append(failed, l.Project)
			fmt.Fprintf(opts.IO.ErrOut, "%s: %s\n", l.Project, l.Error)
		}
	}
	if opts.JSON {
		if listings == nil {
			listings = []*collect.Listing{}
		}
		err = printJSON(opts.IO.Out, listings)
	} else {
		err = writeListings(opts.IO.Out, listings)
	}
	if err != nil {
		return err
	}
	if len(failed) > 0 {
		return &exitError{code: exitBadInput, err: fmt.Errorf("the EP source of %s could not be read", strings.Join(failed, ", "))}
	}
	return nil
}

// writeListings prints each project's listing: a headline, the counts,
// where each field came from, the proposals and the files left out.
func writeListings(w io.Writer, listings []*collect.Listing) error {
	for i, l := range listings {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s: %s\n", l.Project, orNone(l.Source, "(source not read)"))
		if l.Error != "" {
			fmt.Fprintf(w, "  error: %s\n", l.Error)
			continue
		}
		c := l.Count
		fmt.Fprintf(w, "  %s considered: %s with a number, %s with a title, %s with a status, %s with a created date; %s dropped\n",
			collect.Comma(l.Files), collect.Comma(c.Proposals), collect.Comma(c.Title), collect.Comma(c.Status), collect.Comma(c.Created), collect.Comma(len(l.Dropped)))
		for _, field := range registry.MetadataFields {
			fmt.Fprintf(w, "  %s from: %s\n", field, l.FromSummary(field))
		}
		if len(l.Proposals) > 0 {
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "  ID\tTITLE\tSTATUS\tCREATED\tTYPE\tAUTHORS\tLINKS\tPATH")
			for _, p := range l.Proposals {
				fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", p.ID, clip(p.Title, 60), orNone(clip(p.Status, 30), "-"), orNone(p.Created, "-"),
					orNone(clip(p.Type, 20), "-"), orNone(clip(strings.Join(p.Authors, ", "), 30), "-"), orNone(linksCell(p.Links), "-"), p.Path)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
		}
		var warnings []string
		for _, p := range l.Proposals {
			warnings = append(warnings, p.Warnings...)
		}
		if len(warnings) > 0 {
			fmt.Fprintln(w, "  warnings:")
			for _, msg := range warnings {
				fmt.Fprintf(w, "    %s\n", msg)
			}
		}
		if len(l.Dropped) > 0 {
			fmt.Fprintln(w, "  dropped:")
			for _, d := range l.Dropped {
				fmt.Fprintf(w, "    %s: %s: %s\n", orNone(d.Path, d.EP), d.Step, d.Reason)
			}
		}
	}
	return nil
}

// linksCell shows a proposal's first declared link and how many more:
// "rust-lang/rust#81513 +1".
func linksCell(links []collect.Link) string {
	if len(links) == 0 {
		return ""
	}
	s := fmt.Sprintf("%s#%d", links[0].Repo, links[0].Number)
	if len(links) > 1 {
		s += fmt.Sprintf(" +%d", len(links)-1)
	}
	return s
}

func orNone(s, none string) string {
	if s == "" {
		return none
	}
	return s
}

// clip shortens s to n runes with an ellipsis.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// EPFetchOptions are the inputs of "lolbench ep fetch".
type EPFetchOptions struct {
	IO       *IOStreams
	Registry string
	Projects []string
	Force    bool
	JSON     bool
	// HTTPClient does the requests; nil is a client with a one-minute
	// timeout.
	HTTPClient func() *http.Client
}

// NewCmdEPFetch saves the pages of kind web sources beside the registry,
// so that collect reads them offline.
func NewCmdEPFetch(f *Factory, runF func(*EPFetchOptions) error) *cobra.Command {
	opts := &EPFetchOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:   "fetch --projects FILE",
		Short: "Save the pages of a registry's web EP sources (JEPs, KIPs, FLIPs, PHP RFCs)",
		Long: `Save the pages of every kind web EP source of a registry (or of --project) into
the source's folder beside the registry (eps.dir, default web/<project>): the
page as served, <number>.html (<number>.dokuwiki for wiki text), and its record
<number>.json with the address, the fetch time, the HTTP status, the size and
the SHA-256. Collect and "ep list" read only that folder, so that an offline
run is reproducible; a candidate made from a page records its address and fetch
time.

Pages saved already are skipped unless --force. A page in another encoding than
UTF-8 is saved as UTF-8. A page that cannot be fetched (a network error, an HTTP
status other than 200, over the EP size cap of 1 MiB) is named with its
proposal and address; the other pages are still fetched.

Exit status 0: every page is saved. 2: a bad registry, an unknown project, or
pages that could not be fetched.`,
		Example: `  lolbench ep fetch --projects data/projects.yaml --project jdk
  lolbench ep fetch --projects data/projects.yaml --force --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runEPFetch(cmd, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Registry, "projects", "data/projects.yaml", "the projects registry")
	fl.StringSliceVar(&opts.Projects, "project", nil, "fetch only this project's pages (repeatable, or comma-separated)")
	fl.BoolVar(&opts.Force, "force", false, "fetch pages that are saved already")
	fl.BoolVar(&opts.JSON, "json", false, "print the pages' records as JSON")
	return cmd
}

// fetchedProject is one project's records in "ep fetch --json".
type fetchedProject struct {
	Project string          `json:"project"`
	Pages   []collect.Fetch `json:"pages"`
}

func runEPFetch(cmd *cobra.Command, opts *EPFetchOptions) error {
	reg, err := registry.Load(opts.Registry)
	if err != nil {
		return err
	}
	var projects []*registry.Project
	if len(opts.Projects) == 0 {
		for _, p := range reg.Projects {
			if p.EPs.Kind == registry.KindWeb {
				projects = append(projects, p)
			}
		}
		if len(projects) == 0 {
			return fmt.Errorf("%s has no project with eps.kind web; nothing to fetch", reg.File)
		}
	}
	for _, name := range opts.Projects {
		p, ok := reg.Project(name)
		if !ok {
			return fmt.Errorf("%s has no project %q; it has %s", reg.File, name, strings.Join(reg.Names(), ", "))
		}
		projects = append(projects, p)
	}
	var client *http.Client
	if opts.HTTPClient != nil {
		client = opts.HTTPClient()
	}
	var out []fetchedProject
	var errs []error
	for _, p := range projects {
		recs, err := collect.FetchPages(cmd.Context(), reg, p, collect.FetchOptions{
			Client: client, Force: opts.Force, UserAgent: "lolbench/" + version,
			Progress: func(r collect.Fetch) { fmt.Fprintf(opts.IO.ErrOut, "%s: %s\n", p.Name, describeFetch(p, r)) },
		})
		if recs == nil {
			recs = []collect.Fetch{}
		}
		out = append(out, fetchedProject{Project: p.Name, Pages: recs})
		if err != nil {
			errs = append(errs, err)
		}
	}
	if opts.JSON {
		if err := printJSON(opts.IO.Out, out); err != nil {
			return err
		}
	} else {
		for _, fp := range out {
			for _, r := range fp.Pages {
				if r.Error == "" {
					fmt.Fprintf(opts.IO.Out, "%s\t%s\t%s\t%s\n", fp.Project, r.EP, r.File, r.URL)
				}
			}
		}
	}
	return errors.Join(errs...)
}

// describeFetch is one progress line.
func describeFetch(p *registry.Project, r collect.Fetch) string {
	id := p.EPs.ID(r.EP)
	switch {
	case r.Error != "":
		return fmt.Sprintf("%s %s: %s", id, r.URL, r.Error)
	case r.Skipped:
		return fmt.Sprintf("%s saved already as %s (--force fetches it again)", id, r.File)
	}
	return fmt.Sprintf("%s fetched %s: %s bytes, saved as %s at %s", id, r.URL, collect.Comma(r.Bytes), r.File, r.FetchedAt.Format(time.RFC3339))
}
