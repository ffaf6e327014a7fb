package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// MappingScaffoldOptions are the inputs of "lolbench mapping scaffold".
type MappingScaffoldOptions struct {
	IO        *IOStreams
	Candidate string
	Workspace string
	EP        string
	EPFormat  ep.Format
	Repo      string
	Base      string
	Head      string
	ID        string
	Output    string
	Force     bool
}

func newCmdMappingScaffold(f *Factory, runF func(*MappingScaffoldOptions) error) *cobra.Command {
	opts := &MappingScaffoldOptions{IO: f.IO}
	var format string
	cmd := &cobra.Command{
		Use:   "scaffold (--ep EP --repo DIR --base REV --head REV | CANDIDATE)",
		Short: "Write a mapping.md with everything that needs no judgement",
		Long: `Scaffold writes a mapping artifact with every cell that needs no judgement
filled in (docs/mapping-format.md, "Scaffolds and unfilled cells"): every EP
heading in the Section Classification Summary with its id and title, every PR
file in the PR File Summary with its category from the language table, every
changed scope of every source file (and test file, and build script such as
noxfile.py), resolved as 'lolbench pr scopes' resolves them, and all counts,
percentages and numbers.

Every judgement cell holds the marker TODO: whether a section is
implementable and its category, which section each file or scope serves,
quotes, requirements, summaries and reasons. The changed scopes wait in one
unassigned block, "### 1. Section TODO: TODO": move each row into the block of
the section it serves (copy the skeleton for each mapped section), fill the
other cells, delete the emptied block, then run 'lolbench validate --fix',
which recomputes every count, role and number, and reports the cells still
unfilled.

With CANDIDATE, the EP, repository and revisions come from the candidate's
candidate.json in the workspace, and the scaffold goes to the candidate's
mapping.md. An existing file is never overwritten without --force.

Exit status: 0 when the scaffold was written, 2 for bad input.`,
		Example: `  lolbench mapping scaffold --ep ep.md --repo ./repo --base base --head head --id tinykv-tkep-0002
  lolbench mapping scaffold tinykv-tkep-0002 --workspace work
  lolbench mapping scaffold --ep pep.rst --repo ./cpython --base 3f1c2a9 --head 8e0d7b1 --output -`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			fl := cmd.Flags()
			if len(args) == 1 {
				opts.Candidate = args[0]
				for _, name := range []string{"ep", "format", "repo", "base", "head", "id"} {
					if fl.Changed(name) {
						return fmt.Errorf("mapping scaffold: --%s cannot be given with a candidate, whose candidate.json names it", name)
					}
				}
			} else {
				if fl.Changed("workspace") {
					return errors.New("mapping scaffold: --workspace needs a CANDIDATE")
				}
				for flag, v := range map[string]string{"--ep": opts.EP, "--repo": opts.Repo, "--base": opts.Base, "--head": opts.Head} {
					if v == "" {
						return fmt.Errorf("mapping scaffold: %s is required without a CANDIDATE (see 'lolbench mapping scaffold --help')", flag)
					}
				}
			}
			if format != "" {
				fm, err := ep.ParseFormat(format)
				if err != nil {
					return err
				}
				opts.EPFormat = fm
			}
			if runF != nil {
				return runF(opts)
			}
			return mappingScaffoldRun(cmd, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.EP, "ep", "", "EP document (.md, .markdown, .rst, .txt)")
	fl.StringVar(&format, "format", "", "EP format, md or rst (default: from the extension)")
	fl.StringVar(&opts.Repo, "repo", "", "local git repository of the project")
	fl.StringVar(&opts.Base, "base", "", "the PR's base revision")
	fl.StringVar(&opts.Head, "head", "", "the PR's head revision")
	fl.StringVar(&opts.ID, "id", "", "candidate id for the title (default: the repository folder's name)")
	fl.StringVarP(&opts.Output, "output", "o", "", "file to write, - for standard output (default: mapping.md, or the candidate's)")
	fl.StringVar(&opts.Workspace, "workspace", "work", "the workspace folder, with a CANDIDATE")
	fl.BoolVar(&opts.Force, "force", false, "overwrite an existing file")
	return cmd
}

// scaffoldSources are the inputs of a scaffold once a candidate is read.
type scaffoldSources struct {
	id, ep, repo, base, head, output string
	format                           ep.Format
}

func (opts *MappingScaffoldOptions) sources() (*scaffoldSources, error) {
	if opts.Candidate == "" {
		s := &scaffoldSources{id: opts.ID, ep: opts.EP, format: opts.EPFormat, repo: opts.Repo, base: opts.Base, head: opts.Head, output: opts.Output}
		if s.id == "" {
			abs, err := filepath.Abs(opts.Repo)
			if err != nil {
				return nil, err
			}
			s.id = filepath.Base(abs)
		}
		if s.output == "" {
			s.output = pipeline.MappingFile
		}
		return s, nil
	}
	ws, c, info, err := openCandidate(opts.Workspace, opts.Candidate)
	if err != nil {
		return nil, err
	}
	s := &scaffoldSources{id: info.ID, base: info.PR.BaseSHA, head: info.PR.HeadSHA, output: opts.Output}
	if s.id == "" {
		s.id = c.ID
	}
	if s.ep, err = c.Path(info.EP.File); err != nil {
		return nil, fmt.Errorf("candidate %s: ep.file: %w", c.ID, err)
	}
	if s.repo, err = info.RepoPath(ws); err != nil {
		return nil, fmt.Errorf("candidate %s: repo_dir: %w", c.ID, err)
	}
	if s.output == "" {
		s.output = filepath.Join(c.Dir, pipeline.MappingFile)
	}
	return s, nil
}

// openCandidate reads a candidate's candidate.json from a workspace.
func openCandidate(dir, id string) (*workspace.Workspace, *pipeline.Candidate, *pipeline.Info, error) {
	ws, err := workspace.Open(dir, false)
	if err != nil {
		return nil, nil, nil, err
	}
	c, err := pipeline.OpenCandidate(ws, id)
	if err != nil {
		return nil, nil, nil, err
	}
	if _, err := os.Stat(c.Dir); err != nil {
		return nil, nil, nil, fmt.Errorf("no candidate %s in workspace %s", id, ws.Root)
	}
	info, err := c.LoadInfo()
	if err != nil {
		return nil, nil, nil, err
	}
	return ws, c, info, nil
}

func mappingScaffoldRun(cmd *cobra.Command, opts *MappingScaffoldOptions) error {
	s, err := opts.sources()
	if err != nil {
		return err
	}
	if s.output != "-" && !opts.Force {
		if _, err := os.Lstat(s.output); err == nil {
			return fmt.Errorf("%s exists; a scaffold would overwrite it: give --force, or --output another file", s.output)
		}
	}
	doc, err := ep.Load(s.ep, s.format)
	if err != nil {
		return err
	}
	repo, err := diff.Open(s.repo)
	if err != nil {
		return err
	}
	ch, err := repo.Diff(cmd.Context(), s.base, s.head)
	if err != nil {
		return err
	}
	res, err := mapping.ScaffoldScopes(cmd.Context(), s.repo, ch)
	if err != nil {
		return fmt.Errorf("resolve scopes in %s: %w", s.repo, err)
	}
	for _, sk := range res.Skipped {
		fmt.Fprintf(opts.IO.ErrOut, "skipped %s: %s (%s); it gets a file-level row\n", displayPath(sk.File), sk.Reason, sk.Detail)
	}
	m := mapping.Scaffold(mapping.ScaffoldInput{ID: s.id, EP: doc, Change: ch, Scopes: res.Scopes})
	out := mapping.Render(m)
	if s.output == "-" {
		_, err = opts.IO.Out.Write(out)
		return err
	}
	if err := workspace.WriteFile(s.output, out, 0o644); err != nil {
		return err
	}
	rows := 0
	for _, b := range m.Blocks {
		rows += len(b.Direct.Rows)
	}
	fmt.Fprintf(opts.IO.ErrOut, "wrote %s: %d sections, %d PR files, %d scope rows; %d cells hold %s: fill them, then run lolbench validate --fix\n",
		s.output, len(m.SCS.Rows), len(m.PFS.Rows), rows, len(m.Unfilled()), mapping.Marker)
	return nil
}
