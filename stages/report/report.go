// Package report writes the reviewer report (issue 8): a static HTML site
// under <workspace>/reports with an index (the funnel of the whole
// workspace, the dataset statistics laid out like Table 1 of the LoLBench
// paper, and their distributions as inline SVG charts) and one page per
// candidate (the EP outline with each section's classification, the mapping
// rendered with one anchor per artifact line, every static violation with
// its rule doc and its offending lines highlighted, the semantic audit, the
// judge's scores and Q computation, the F2P/P2P lists and phase 4's
// mutants, coverage and test-to-section map).
//
// There is no JavaScript: the pages are html/template output with a style
// sheet, and the charts are SVG elements whose geometry Go computes. Every
// string read from an artifact is hostile (a model wrote some of them, a
// curator the rest), so all of it goes through html/template's contextual
// escaping; nothing untrusted is ever a template.HTML value. A violation
// links to its artifact line ("#L36"), so a reviewer follows it to its
// evidence in one click, from the index or from the candidate page.
//
// A section whose artifact is absent says why, from status.json ("not run
// yet", "skipped: <reason>"), so the report can be written at any point of a
// run. Repository and solution sizes are measured from the candidate's
// repository and cached under <site>/stats, so a rerun is fast.
package report

import (
	"cmp"
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/collect"
)

// Dir is the site's folder under the workspace.
const Dir = "reports"

// IndexFile is the site's entry page.
const IndexFile = "index.html"

// styleFile is the style sheet, next to index.html.
const styleFile = "style.css"

//go:embed templates/*.tmpl templates/style.css
var files embed.FS

var pageTemplates = template.Must(template.New("").Funcs(funcs).ParseFS(files, "templates/*.tmpl"))

// Stage writes the report, a pipeline.WorkspaceStage.
type Stage struct {
	// Out is the site's folder; <workspace>/reports when empty.
	Out string
	// Enhancement reads a candidate's phase-4 artifacts (issue 7); nil
	// means LoadEnhancement (pipeline/mutation's and pipeline/coverage's
	// files, and the provisional TestSectionsFile).
	Enhancement func(c *pipeline.Candidate) (*Enhancement, error)

	// After Run: the site's folder, its index page and the page of each
	// candidate, by id.
	Dir   string
	Index string
	Pages map[string]string
	// Computed and Cached count the candidates whose statistics were
	// measured in this run and read from the cache.
	Computed, Cached int
}

var _ pipeline.WorkspaceStage = (*Stage)(nil)

// Name is the command name.
func (*Stage) Name() string { return "report" }

// String is the log title.
func (*Stage) String() string { return "writing the report" }

// indexPage is what the index shows.
type indexPage struct {
	Workspace  string
	Version    string
	Candidates []*candidatePage
	// Funnel counts the candidates per stage and result (status.json).
	Funnel      []funnelRow
	FunnelChart Chart
	Rejections  []reasonCount
	// Collect is collection's funnel (collect/funnel.json).
	Collect      *collect.Funnel
	CollectErr   string
	CollectChart Chart
	CollectDrops []reasonCount
	Table        []TableRow
	// Totals are the rows over all candidates and over the candidates not
	// rejected at any stage.
	Totals      []TableRow
	Unmeasured  []string
	KLoCChart   Chart
	LoCChart    Chart
	FilesChart  Chart
	MentionNote string
	// Evaluation is what lolbench eval and analyze wrote (evaluation.go);
	// nil when they have not run.
	Evaluation *evalView
}

// funnelRow is one stage of the workspace funnel.
type funnelRow struct {
	Stage                                     string
	Passed, Skipped, Rejected, Failed, NotRun int
}

// reasonCount is one rejection reason with the candidates it stopped.
type reasonCount struct {
	Stage  string
	Reason string
	Count  int
	IDs    []string
}

// Run writes the site: the statistics (cached), every candidate page, the
// index and the style sheet. Pages of candidates that no longer exist are
// removed. Only a failure to write fails the stage; an unreadable artifact
// is reported on its page.
func (s *Stage) Run(ctx context.Context, env *pipeline.Env) error {
	ws := env.Workspace
	out := s.Out
	if out == "" {
		var err error
		if out, err = ws.Path(Dir); err != nil {
			return err
		}
	}
	out, err := filepath.Abs(out)
	if err != nil {
		return fmt.Errorf("report folder %s: %w", s.Out, err)
	}
	s.Dir, s.Index, s.Pages, s.Computed, s.Cached = out, filepath.Join(out, IndexFile), map[string]string{}, 0, 0
	if err := os.MkdirAll(filepath.Join(out, "candidates"), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", out, err)
	}
	ids, err := ws.Candidates()
	if err != nil {
		return err
	}
	idx := &indexPage{Workspace: ws.Root, Version: env.Version}
	var entries []statsEntry
	for _, id := range ids {
		if err := ctx.Err(); err != nil {
			return err
		}
		c, err := pipeline.OpenCandidate(ws, id)
		if err != nil {
			return err
		}
		p := s.loadCandidate(ws, c)
		s.stats(ctx, env, p, c, out)
		if err := ctx.Err(); err != nil {
			return err
		}
		idx.Candidates = append(idx.Candidates, p)
		lang := ""
		if p.Info != nil {
			lang = p.Info.Language
		}
		entries = append(entries, statsEntry{Language: lang, Stats: p.Stats})
	}
	idx.funnel()
	idx.collectFunnel(ws)
	idx.table(entries)
	if idx.Evaluation, err = s.evaluation(ws, out); err != nil {
		return err
	}
	for _, p := range idx.Candidates {
		path := filepath.Join(out, filepath.FromSlash(p.Page))
		if err := writeTests(out, p); err != nil {
			return err
		}
		if err := writePage(path, "candidate.tmpl", p); err != nil {
			return err
		}
		s.Pages[p.ID] = path
	}
	if err := removeStale(filepath.Join(out, "candidates"), s.Pages); err != nil {
		return err
	}
	css, err := files.ReadFile("templates/style.css")
	if err != nil {
		return err
	}
	if err := workspace.WriteFile(filepath.Join(out, styleFile), css, 0o644); err != nil {
		return err
	}
	if err := writePage(s.Index, "index.tmpl", idx); err != nil {
		return err
	}
	if env.Status != nil {
		fmt.Fprintf(env.Status, "report: %d candidate page(s), statistics measured for %d, cached for %d\n",
			len(s.Pages), s.Computed, s.Cached)
	}
	return nil
}

// stats measures (or reads the cached) statistics of one candidate.
func (s *Stage) stats(ctx context.Context, env *pipeline.Env, p *candidatePage, c *pipeline.Candidate, out string) {
	if p.Info == nil {
		p.StatsErr = "no candidate.json"
		return
	}
	repo, err := p.Info.RepoPath(env.Workspace)
	if err != nil {
		p.StatsErr = fmt.Sprintf("candidate.json repo_dir: %v", err)
		return
	}
	var epText []byte
	if p.Info.EP.File != "" {
		if path, err := c.Path(p.Info.EP.File); err == nil {
			epText, _ = os.ReadFile(path)
		}
	}
	cache := filepath.Join(out, StatsDir, c.ID+".json")
	st, cached, err := CachedStats(ctx, StatsSource{Repo: repo, Base: p.Info.PR.BaseSHA, Head: p.Info.PR.HeadSHA, EPText: epText}, cache)
	if err != nil {
		p.StatsErr = err.Error()
		if env.Status != nil {
			fmt.Fprintf(env.Status, "report: %s: no statistics: %v\n", c.ID, err)
		}
		return
	}
	p.Stats = st
	if cached {
		s.Cached++
	} else {
		s.Computed++
	}
}

// funnel counts the candidates per stage and result, and the rejections
// per stage and reason.
func (idx *indexPage) funnel() {
	names := slices.Clone(StageOrder)
	for _, p := range idx.Candidates {
		for _, r := range p.Stages {
			if !slices.Contains(names, r.Stage) {
				names = append(names, r.Stage)
			}
		}
	}
	rows := map[string]*funnelRow{}
	reasons := map[[2]string]*reasonCount{}
	for _, n := range names {
		rows[n] = &funnelRow{Stage: n}
	}
	for _, p := range idx.Candidates {
		for _, r := range p.Stages {
			fr := rows[r.Stage]
			switch r.Result {
			case pipeline.Passed:
				fr.Passed++
			case pipeline.Skipped:
				fr.Skipped++
			case pipeline.Rejected:
				fr.Rejected++
				k := [2]string{r.Stage, r.Reason}
				if reasons[k] == nil {
					reasons[k] = &reasonCount{Stage: r.Stage, Reason: r.Reason}
				}
				reasons[k].Count++
				reasons[k].IDs = append(reasons[k].IDs, p.ID)
			case pipeline.Failed:
				fr.Failed++
			default:
				fr.NotRun++
			}
		}
	}
	var chartRows []BarRow
	for _, n := range names {
		r := rows[n]
		if r.Passed+r.Skipped+r.Rejected+r.Failed == 0 && !slices.Contains(StageOrder, n) {
			continue
		}
		idx.Funnel = append(idx.Funnel, *r)
		chartRows = append(chartRows, BarRow{Label: n, Segments: []Segment{
			{Class: "passed", Name: "passed", Value: r.Passed},
			{Class: "skipped", Name: "skipped", Value: r.Skipped},
			{Class: "rejected", Name: "rejected", Value: r.Rejected},
			{Class: "failed", Name: "failed", Value: r.Failed},
		}})
	}
	idx.FunnelChart = HBarChart("Candidates per stage and result", chartRows, []LegendItem{
		{"passed", "passed"}, {"skipped", "skipped"}, {"rejected", "rejected"}, {"failed", "failed"}})
	for _, rc := range reasons {
		idx.Rejections = append(idx.Rejections, *rc)
	}
	order := func(stage string) int {
		if i := slices.Index(names, stage); i >= 0 {
			return i
		}
		return len(names)
	}
	slices.SortFunc(idx.Rejections, func(a, b reasonCount) int {
		return cmp.Or(cmp.Compare(order(a.Stage), order(b.Stage)), cmp.Compare(b.Count, a.Count), strings.Compare(a.Reason, b.Reason))
	})
}

// maxDropReasons bounds the collection drop reasons listed per step: the
// reasons of a large collection are many and mostly unique.
const maxDropReasons = 20

// collectFunnel reads collect/funnel.json when collection wrote one.
func (idx *indexPage) collectFunnel(ws *workspace.Workspace) {
	path, err := ws.Path("collect", collect.FunnelFile)
	if err != nil {
		idx.CollectErr = err.Error()
		return
	}
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return
	}
	f, err := collect.LoadFunnel(ws)
	if err != nil {
		idx.CollectErr = err.Error()
		return
	}
	if f.Total == nil {
		idx.CollectErr = fmt.Sprintf("%s has no total", path)
		return
	}
	idx.Collect = f
	var rows []BarRow
	for _, st := range f.Total.Steps {
		if st == nil {
			continue
		}
		rows = append(rows, BarRow{Label: st.Step, Segments: []Segment{
			{Class: "passed", Name: "kept", Value: st.Kept},
			{Class: "rejected", Name: "dropped", Value: st.Dropped},
		}})
	}
	idx.CollectChart = HBarChart("Collection: proposals and pairs per step", rows, []LegendItem{{"passed", "kept"}, {"rejected", "dropped"}})
	counts := map[[2]string]*reasonCount{}
	for _, p := range f.Projects {
		if p == nil {
			continue
		}
		for _, d := range p.Dropped {
			k := [2]string{d.Step, d.Reason}
			if counts[k] == nil {
				counts[k] = &reasonCount{Stage: d.Step, Reason: d.Reason}
			}
			counts[k].Count++
		}
	}
	var all []reasonCount
	for _, rc := range counts {
		all = append(all, *rc)
	}
	slices.SortFunc(all, func(a, b reasonCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Stage, b.Stage), strings.Compare(a.Reason, b.Reason))
	})
	idx.CollectDrops = all[:min(len(all), maxDropReasons)]
}

// table builds the dataset statistics: one row per project, then the
// totals, and the distributions.
func (idx *indexPage) table(entries []statsEntry) {
	byProject := map[string][]statsEntry{}
	var all, kept []statsEntry
	var kloc, loc, nfiles []float64
	for i, p := range idx.Candidates {
		project := "(unknown project)"
		if p.Info != nil && p.Info.Project != "" {
			project = p.Info.Project
		}
		e := entries[i]
		byProject[project] = append(byProject[project], e)
		all = append(all, e)
		if !p.Rejected {
			kept = append(kept, e)
		}
		if e.Stats == nil {
			idx.Unmeasured = append(idx.Unmeasured, p.ID)
			continue
		}
		kloc = append(kloc, float64(e.Stats.RepoLoC)/1000)
		loc = append(loc, float64(e.Stats.SolutionLoC))
		nfiles = append(nfiles, float64(e.Stats.SolutionFiles))
	}
	for name, es := range byProject {
		idx.Table = append(idx.Table, newTableRow(name, es))
	}
	slices.SortFunc(idx.Table, byLabel)
	idx.Totals = []TableRow{newTableRow("All candidates", all), newTableRow("Not rejected", kept)}
	idx.KLoCChart = Histogram("Repository size", "kLoC at the base commit", kloc, "bar-a")
	idx.LoCChart = Histogram("Solution size", "changed LoC of the reference solution", loc, "bar-b")
	idx.FilesChart = Histogram("Modified files", "files of the reference solution", nfiles, "bar-c")
}

// writePage renders one template to path atomically.
func writePage(path, name string, data any) error {
	var b strings.Builder
	if err := pageTemplates.ExecuteTemplate(&b, name, data); err != nil {
		return fmt.Errorf("render %s: %w", path, err)
	}
	return workspace.WriteFile(path, []byte(b.String()), 0o644)
}

// removeStale deletes candidate pages that this run did not write (a
// candidate removed from the workspace), and their tests files.
func removeStale(dir string, pages map[string]string) error {
	keep := map[string]bool{}
	for _, p := range pages {
		keep[filepath.Base(p)] = true
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("read %s: %w", dir, err)
	}
	for _, e := range entries {
		name := e.Name()
		if id, ok := isTestsFile(name); ok {
			// A tests file goes with its page.
			name = id + ".html"
		}
		if e.Type().IsRegular() && strings.HasSuffix(name, ".html") && !keep[name] {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return fmt.Errorf("remove stale page: %w", err)
			}
		}
	}
	return nil
}

// Paths lists the site's pages sorted by candidate id, for the CLI.
func (s *Stage) Paths() []string {
	ids := make([]string, 0, len(s.Pages))
	for id := range s.Pages {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = s.Pages[id]
	}
	return out
}
