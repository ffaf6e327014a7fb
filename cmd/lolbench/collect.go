package main

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/registry"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/collect"
)

// CollectOptions are the parsed flags of `lolbench collect`.
type CollectOptions struct {
	Registry  string
	Workspace string
	Projects  []string
	Offline   bool
	JSON      bool
	// Overrides holds the threshold flags that were given.
	Overrides registry.Overrides
}

// NewCmdCollect runs the collection stage: the projects registry becomes
// candidate EP-PR pairs in the workspace (paper, section 3.1).
func NewCmdCollect(f *Factory) *cobra.Command { return newCmdCollect(f, nil) }

// newCmdCollect takes runF so that tests can check the parsed options.
func newCmdCollect(f *Factory, runF func(*CollectOptions) error) *cobra.Command {
	opts := &CollectOptions{}
	var (
		minLoC                           int64
		minLines, minFiles, minTestFiles int
		minShare                         float64
	)
	d := registry.Defaults()
	cmd := &cobra.Command{
		Use:   "collect",
		Short: "Find EP-PR candidate pairs and apply the selection criteria",
		Long: `Collect candidate EP-PR pairs for the projects of a registry (see
docs/projects.md) and apply the selection criteria of the paper (section 3.1):

  1 source-loc      the software has >= 50,000 source LoC at the PR's base commit
  2 pr-size         the PR changes >= 1,000 lines in >= 10 files, and source files
                    hold more than half of the changed lines
  3 ep-predates-pr  the EP was created before the PR's first commit and creation
  4 one-merged-pr   exactly one merged PR implements the EP; no open PR competes
  5 has-tests       the PR changes at least one test file
  6 implementable-section  recorded as pending; the mapping stage enforces it

Proposals come from the registry's EP source (a git repository, GitHub issues
with a label, or a local folder); PRs from its curated links or a GitHub search
for the project's reference patterns ("PEP {n}"). Each kept pair becomes
candidates/<id>/ in the workspace, with candidate.json (EP and PR metadata and
every criterion's measured value) and the EP text (ep.md or ep.rst).

The funnel (per project and criterion: considered, kept, dropped, and why each
pair was dropped) is printed and written to <workspace>/collect/funnel.json;
--json prints that file.

Thresholds: the paper's defaults, then the registry's per-project thresholds,
then these flags, which win when given.

GitHub: GITHUB_TOKEN authenticates (it is never written to disk or logs);
GITHUB_API_URL points at another API root (GitHub Enterprise). Rate limits are
waited out. Every finished API call and LoC count is kept under
<workspace>/collect/<project>/, so an interrupted collect resumes where it
stopped. Clones are bare and go to <workspace>/repos/<project>; they are reused.

--offline uses only existing clones, local proposal folders and the calls an
earlier run recorded, and fails naming what is missing.`,
		Example: `  # the bundled real projects (needs network access and, in practice, GITHUB_TOKEN)
  lolbench collect --projects data/projects.yaml --workspace work --project cpython

  # a curated local registry, with no network
  lolbench collect --projects my/projects.yaml --workspace work --offline

  # a looser size threshold, and the funnel as JSON
  lolbench collect --projects data/projects.yaml --min-changed-lines 500 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fl := cmd.Flags()
			if fl.Changed("min-loc") {
				opts.Overrides.MinLoC = &minLoC
			}
			if fl.Changed("min-changed-lines") {
				opts.Overrides.MinChangedLines = &minLines
			}
			if fl.Changed("min-files") {
				opts.Overrides.MinFiles = &minFiles
			}
			if fl.Changed("min-source-share") {
				opts.Overrides.MinSourceShare = &minShare
			}
			if fl.Changed("min-test-files") {
				opts.Overrides.MinTestFiles = &minTestFiles
			}
			if runF != nil {
				return runF(opts)
			}
			return runCollect(cmd, f, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Registry, "projects", "data/projects.yaml", "the projects registry")
	fl.StringVar(&opts.Workspace, "workspace", "work", "the workspace folder (created when absent)")
	fl.StringSliceVar(&opts.Projects, "project", nil, "collect only this project (repeatable, or comma-separated)")
	fl.BoolVar(&opts.Offline, "offline", false, "use only existing clones, local folders and recorded GitHub calls")
	fl.BoolVar(&opts.JSON, "json", false, "print the funnel as JSON")
	fl.Int64Var(&minLoC, "min-loc", d.MinLoC, "criterion 1: least source LoC at the PR's base commit")
	fl.IntVar(&minLines, "min-changed-lines", d.MinChangedLines, "criterion 2: least changed lines (inserted plus deleted)")
	fl.IntVar(&minFiles, "min-files", d.MinFiles, "criterion 2: least changed files")
	fl.Float64Var(&minShare, "min-source-share", d.MinSourceShare, "criterion 2: source files must hold more than this share of the changed lines")
	fl.IntVar(&minTestFiles, "min-test-files", d.MinTestFiles, "criterion 5: least changed test files")
	return cmd
}

func runCollect(cmd *cobra.Command, f *Factory, opts *CollectOptions) error {
	reg, err := registry.Load(opts.Registry)
	if err != nil {
		return err
	}
	ws, err := workspace.Open(opts.Workspace, true)
	if err != nil {
		return err
	}
	prog := newProgress(f.IO.ErrOut, f.IO.ErrTTY)
	defer prog.finish()
	stage := &collect.Stage{
		Registry: reg, Projects: opts.Projects, Offline: opts.Offline, Overrides: opts.Overrides,
		Progress: prog.event, Log: prog.log,
	}
	env := &pipeline.Env{Workspace: ws, Status: f.IO.ErrOut, Getenv: f.Getenv, Version: version}
	if err := stage.Run(cmd.Context(), env); err != nil {
		return err
	}
	prog.finish()
	if opts.JSON {
		return printJSON(f.IO.Out, stage.Funnel)
	}
	return stage.Funnel.WriteTable(f.IO.Out)
}

// progress shows collection's progress on stderr: a bar per project phase
// on a terminal (mpb, as lolbench run), plain lines otherwise. A log line
// first ends the bar, so that the two never mix.
type progress struct {
	mu   sync.Mutex
	w    io.Writer
	tty  bool
	p    *mpb.Progress
	bar  *mpb.Bar
	key  string
	desc atomic.Value // string: the bar's description, read by its decorator
}

func newProgress(w io.Writer, tty bool) *progress { return &progress{w: w, tty: tty} }

func (p *progress) event(e collect.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.tty {
		if e.Item != "" {
			fmt.Fprintf(p.w, "%s: %s %d/%d %s\n", e.Project, e.Phase, e.Done+1, e.Total, e.Item)
		}
		return
	}
	key := e.Project + "\x00" + e.Phase
	desc := e.Project + ": " + e.Phase
	if e.Item != "" {
		desc += " " + e.Item
	}
	p.desc.Store(desc)
	if p.bar == nil || p.key != key {
		p.finishLocked()
		p.key = key
		p.p = mpb.New(mpb.WithOutput(p.w), mpb.WithAutoRefresh(), mpb.WithWidth(40), mpb.WithRefreshRate(100*time.Millisecond))
		p.bar = p.p.AddBar(int64(e.Total),
			mpb.PrependDecorators(decor.Any(func(decor.Statistics) string { return p.desc.Load().(string) }, decor.WCSyncSpaceR)),
			mpb.AppendDecorators(decor.CountersNoUnit("%d/%d")))
	}
	p.bar.SetCurrent(int64(e.Done))
}

func (p *progress) log(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.finishLocked()
	fmt.Fprintf(p.w, format+"\n", args...)
}

func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.finishLocked()
}

// finishLocked ends the current bar, leaving its last state on screen.
func (p *progress) finishLocked() {
	if p.bar != nil {
		p.bar.Abort(false)
		p.p.Wait()
		p.bar, p.p, p.key = nil, nil, ""
	}
}
