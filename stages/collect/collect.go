// Package collect is the collection stage (paper, section 3.1): it turns
// the projects registry into candidate EP-PR pairs in the workspace.
//
// For each project it reads the proposals from their source (files in a
// git repository, GitHub issues with a label, a local folder, or web pages
// saved by FetchPages), their metadata from the places the registry
// declares or its format presets (metadata.go), links
// each proposal to the PRs that implemented it (a curated list, or a
// GitHub search for PRs whose title or body references it), and applies
// the selection criteria to every EP-PR pair, cheapest first:
//
//	4 one-merged-pr   exactly one merged PR, no competing open PR
//	3 ep-predates-pr  the EP was created before the PR started
//	2 pr-size         >= 1,000 changed lines in >= 10 files, source share > 0.5
//	5 has-tests       >= 1 changed test file
//	1 source-loc      >= 50k source LoC at the PR's base commit
//
// The sixth criterion, an implementable section, needs the mapping and is
// recorded as pending. Every dropped proposal or pair carries its reason in
// the funnel (<workspace>/collect/funnel.json); a kept pair becomes the
// candidate <workspace>/candidates/<id>/ with candidate.json (EP and PR
// metadata, per-criterion results with measured values) and the EP text
// (ep.md or ep.rst; for a web page or DokuWiki text, its Markdown
// rendering); for a git EP source, the text as of the PR's merge. List
// reads the sources the same way, offline, for "lolbench ep list".
// What collection inferred rather than read (a PR date taken from git when
// GitHub cannot be asked, an EP text older than the tip) is a note in
// candidate.json, the pair's decision, the funnel and the log.
//
// Every finished GitHub call and LoC count is checkpointed under
// <workspace>/collect/<project>/, so an interrupted collect resumes without
// repeating them, and an offline run replays an earlier online one.
package collect

import (
	"slices"

	"github.com/goccy/go-yaml"

	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/gh"
	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/loc"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/registry"
	"github.com/lolbench/lolbench/pipeline/repos"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// Stage is the collection stage, a pipeline.WorkspaceStage.
type Stage struct {
	// Registry is the loaded projects registry.
	Registry *registry.Registry
	// Projects limits the run to these project names; empty is all.
	Projects []string
	// Offline uses only existing clones, local EP folders and the
	// checkpoints of earlier runs; anything else fails with a clear
	// error.
	Offline bool
	// Overrides are threshold flags; they win over the registry's
	// per-project thresholds, which win over the paper's defaults.
	Overrides registry.Overrides
	// GitHub is the API client; nil builds one from the environment
	// (GITHUB_API_URL, GITHUB_TOKEN) when the first call is needed.
	GitHub *gh.Client
	// Progress receives one event per proposal linked and per pair
	// checked; nil ignores them.
	Progress func(Event)
	// Log receives status lines; nil writes them to the Env's Status.
	Log func(format string, args ...any)
	// GitProgress receives git's clone and fetch progress; nil drops it.
	GitProgress io.Writer

	// Funnel is the workspace's funnel after Run.
	Funnel *Funnel
}

// Event reports progress: Done of Total items of one phase ("linking"
// proposals to PRs, "checking" pairs) of one project.
type Event struct {
	Project     string
	Phase       string
	Done, Total int
	Item        string
}

var _ pipeline.WorkspaceStage = (*Stage)(nil)

// Name is the command name.
func (s *Stage) Name() string { return "collect" }

// String is the log title.
func (s *Stage) String() string { return "collecting candidates" }

func (s *Stage) logf(env *pipeline.Env, format string, args ...any) {
	if s.Log != nil {
		s.Log(format, args...)
		return
	}
	if env != nil && env.Status != nil {
		fmt.Fprintf(env.Status, format+"\n", args...)
	}
}

func (s *Stage) progress(e Event) {
	if s.Progress != nil {
		s.Progress(e)
	}
}

// client returns the GitHub client, building it on first use.
func (s *Stage) client(env *pipeline.Env) (*gh.Client, error) {
	if s.Offline {
		return nil, fmt.Errorf("github: %w", repos.ErrOffline)
	}
	if s.GitHub != nil {
		return s.GitHub, nil
	}
	getenv := func(string) string { return "" }
	if env != nil && env.Getenv != nil {
		getenv = env.Getenv
	}
	token := getenv("GITHUB_TOKEN")
	if token == "" {
		s.logf(env, "GITHUB_TOKEN is not set: GitHub allows 60 anonymous requests an hour, so a large collect will wait a lot")
	}
	c, err := gh.New(gh.Options{BaseURL: getenv("GITHUB_API_URL"), Token: token,
		Log: func(format string, args ...any) { s.logf(env, format, args...) }})
	if err != nil {
		return nil, err
	}
	s.GitHub = c
	return c, nil
}

// Run collects every selected project, then writes the workspace's funnel.
func (s *Stage) Run(ctx context.Context, env *pipeline.Env) error {
	if s.Registry == nil {
		return errors.New("collect: no projects registry")
	}
	if env == nil || env.Workspace == nil {
		return errors.New("collect: no workspace")
	}
	if bad := s.Overrides.Validate(); len(bad) > 0 {
		keys := make([]string, 0, len(bad))
		for k := range bad {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var msgs []string
		for _, k := range keys {
			msgs = append(msgs, fmt.Sprintf("--%s %s", strings.ReplaceAll(k, "_", "-"), bad[k]))
		}
		return errors.New(strings.Join(msgs, "; "))
	}
	projects, err := s.selected()
	if err != nil {
		return err
	}
	for _, p := range projects {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := s.collectProject(ctx, env, p); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
	}
	f, err := combine(env.Workspace)
	if err != nil {
		return err
	}
	p, err := env.Workspace.Path(collectDir, FunnelFile)
	if err != nil {
		return err
	}
	if err := workspace.WriteJSON(p, f); err != nil {
		return err
	}
	s.Funnel = f
	return nil
}

func (s *Stage) selected() ([]*registry.Project, error) {
	if len(s.Projects) == 0 {
		return s.Registry.Projects, nil
	}
	var out []*registry.Project
	for _, name := range s.Projects {
		p, ok := s.Registry.Project(name)
		if !ok {
			return nil, fmt.Errorf("%s has no project %q; it has %s", s.Registry.File, name, strings.Join(s.Registry.Names(), ", "))
		}
		out = append(out, p)
	}
	return out, nil
}

// projectRun is the state of one project's collection.
type projectRun struct {
	s      *Stage
	env    *pipeline.Env
	ws     *workspace.Workspace
	reg    *registry.Registry
	p      *registry.Project
	th     registry.Thresholds
	cache  *cache
	funnel *ProjectFunnel

	repoDir  string // the software repository, once ready
	repoRel  string // Info.RepoDir
	refRE    map[string]refMatcher
	stale    map[string][]staleInfo // candidate id -> why its proposal or pairs were dropped
	keptIDs  map[string]bool
	fetchedN map[int]bool // PR heads fetched this run
	epGit    *gitSource   // the EP source, when it is a git repository
}

type staleInfo struct {
	pr     int
	step   string
	reason string
	checks []pipeline.Check
}

func (pr *projectRun) gitOptions() repos.Options {
	return repos.Options{Offline: pr.s.Offline, Progress: pr.s.GitProgress,
		Log: func(format string, args ...any) { pr.s.logf(pr.env, format, args...) }}
}

func (s *Stage) collectProject(ctx context.Context, env *pipeline.Env, p *registry.Project) error {
	th := registry.Defaults().Apply(p.Thresholds).Apply(s.Overrides)
	dir, err := env.Workspace.Path(collectDir, p.Name)
	if err != nil {
		return err
	}
	pr := &projectRun{s: s, env: env, ws: env.Workspace, reg: s.Registry, p: p, th: th,
		cache: &cache{dir: dir, offline: s.Offline}, funnel: newProjectFunnel(p.Name, &th),
		stale: map[string][]staleInfo{}, keptIDs: map[string]bool{}, fetchedN: map[int]bool{}}
	defer pr.closeSources()
	s.logf(env, "%s: collecting (thresholds: >= %d source LoC; >= %d changed lines in >= %d files, source share > %g; >= %d test files)",
		p.Name, th.MinLoC, th.MinChangedLines, th.MinFiles, th.MinSourceShare, th.MinTestFiles)

	eps, err := pr.loadEPs(ctx)
	if err != nil {
		return err
	}
	eps = pr.numbered(eps)
	pr.funnel.EPs = len(eps)
	eps = pr.oneEach(pr.filterStatus(eps))

	pr.funnel.consider(StepLinked, len(eps))
	var pairs []*pair
	for i, e := range eps {
		if err := ctx.Err(); err != nil {
			return err
		}
		s.progress(Event{Project: p.Name, Phase: "linking", Done: i, Total: len(eps), Item: e.ID})
		l, err := pr.link(ctx, e)
		if err != nil {
			return fmt.Errorf("project %s: %s: %w", p.Name, e.ID, err)
		}
		if len(l.merged) == 0 {
			pr.funnel.drop(Drop{EP: e.ID, Path: e.Path, Step: StepLinked, Reason: l.why})
			id := p.CandidateID(e.Number)
			pr.stale[id] = append(pr.stale[id], staleInfo{step: StepLinked, reason: l.why})
			continue
		}
		for _, m := range l.merged {
			pairs = append(pairs, &pair{ep: e, ref: m, merged: l.mergedNumbers(), open: l.open})
			pr.funnel.Paired = append(pr.funnel.Paired, Paired{EP: e.ID, PR: m.number, Evidence: m.evidence})
		}
	}
	s.progress(Event{Project: p.Name, Phase: "linking", Done: len(eps), Total: len(eps)})
	pr.funnel.Pairs = len(pairs)

	for i, pa := range pairs {
		if err := ctx.Err(); err != nil {
			return err
		}
		s.progress(Event{Project: p.Name, Phase: "checking", Done: i, Total: len(pairs), Item: fmt.Sprintf("%s #%d", pa.ep.ID, pa.ref.number)})
		if err := pr.evaluate(ctx, pa); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("project %s: %s #%d: %w", p.Name, pa.ep.ID, pa.ref.number, err)
		}
	}
	s.progress(Event{Project: p.Name, Phase: "checking", Done: len(pairs), Total: len(pairs)})
	if err := pr.markStale(); err != nil {
		return err
	}
	sort.Strings(pr.funnel.Kept)
	pr.funnel.Candidates = len(pr.funnel.Kept)
	return pr.cache.store(FunnelFile, pr.funnel)
}

// closeSources releases the EP repository's open files.
func (pr *projectRun) closeSources() {
	if pr.epGit != nil && pr.epGit.close != nil {
		pr.epGit.close()
	}
}

// filterStatus applies eps.statuses (the "status" step).
func (pr *projectRun) filterStatus(eps []*EP) []*EP {
	pr.funnel.consider(StepStatus, len(eps))
	want := pr.p.EPs.Statuses
	if len(want) == 0 {
		return eps
	}
	var out []*EP
	for _, e := range eps {
		ok := false
		for _, w := range want {
			if strings.EqualFold(strings.TrimSpace(w), e.Status) {
				ok = true
			}
		}
		if !ok {
			status := e.Status
			if status == "" {
				status = "(none)"
			}
			why := fmt.Sprintf("status %s is not one of %s", status, strings.Join(want, ", "))
			pr.funnel.drop(Drop{EP: e.ID, Path: e.Path, Step: StepStatus, Reason: why})
			id := pr.p.CandidateID(e.Number)
			pr.stale[id] = append(pr.stale[id], staleInfo{step: StepStatus, reason: why})
			continue
		}
		out = append(out, e)
	}
	return out
}

// pair is one EP-PR pair under evaluation.
type pair struct {
	ep     *EP
	ref    prRef
	merged []int
	open   []int

	data       *prData
	base, head string // resolved 40-hex SHAs, once known
	merge      string
	// notes say what was inferred rather than read (Note); they go to
	// the decision, the funnel, the log and candidate.json.
	notes []string
	// statusAtRev is the EP's status in the text read at the PR's merge.
	statusAtRev string
	// pathAtRev is the EP file's path at that commit, when it has moved
	// since; empty otherwise.
	pathAtRev string
}

// prData is what collection knows of a PR, from GitHub or the registry.
type prData struct {
	Number                           int
	Title, Author, URL               string
	CreatedAt, MergedAt, FirstCommit time.Time
	BaseRef                          string // the branch the PR merged into
	// BaseRev, HeadRev and MergeRev are GitHub's SHAs, or the curated
	// revisions of the registry.
	BaseRev, HeadRev, MergeRev string
	ChangedFiles               int // GitHub's count; 0 when unknown
	fromGitHub                 bool
}

// Decision is the record of one pair under collect/<project>/pairs/.
type Decision struct {
	Candidate  string              `json:"candidate"`
	EP         string              `json:"ep"`
	PR         int                 `json:"pr"`
	Kept       bool                `json:"kept"`
	Step       string              `json:"step,omitempty"`
	Reason     string              `json:"reason,omitempty"`
	Checks     []pipeline.Check    `json:"criteria"`
	Thresholds registry.Thresholds `json:"thresholds"`
	Notes      []string            `json:"notes,omitempty"`
	// Evidence says why the PR was paired with the proposal.
	Evidence []pipeline.Evidence `json:"evidence"`
}

// evaluate applies the criteria to one pair in funnel order and writes the
// candidate when all pass.
func (pr *projectRun) evaluate(ctx context.Context, pa *pair) error {
	id := pr.p.CandidateID(pa.ep.Number)
	if err := workspace.ValidID(id); err != nil {
		return pr.reg.Errorf(pr.p.Field("eps.name"), "%v", err)
	}
	var checks []pipeline.Check
	dec := func(step, reason string) error {
		d := Decision{Candidate: id, EP: pa.ep.ID, PR: pa.ref.number, Kept: step == "", Step: step, Reason: reason,
			Checks: sortChecks(checks), Thresholds: pr.th, Notes: pa.notes, Evidence: pa.ref.evidence}
		if d.Checks == nil {
			d.Checks = []pipeline.Check{}
		}
		return pr.cache.store(fmt.Sprintf("pairs/%s-pr%d.json", id, pa.ref.number), d)
	}
	fail := func(step, reason string) error {
		pr.funnel.drop(Drop{EP: pa.ep.ID, PR: pa.ref.number, Path: pa.ep.Path, Step: step, Reason: reason})
		pr.stale[id] = append(pr.stale[id], staleInfo{pr: pa.ref.number, step: step, reason: reason, checks: sortChecks(checks)})
		return dec(step, reason)
	}
	check := func(c pipeline.Check) bool {
		pr.funnel.consider(c.Criterion, 1)
		checks = append(checks, c)
		return c.Passed
	}

	// 4: exactly one merged PR, no competing open PR.
	if c := CheckOnePR(pa.ep.ID, pa.merged, pa.open); !check(c) {
		return fail(c.Criterion, c.Reason)
	}
	// 3: the EP predates the PR.
	d, err := pr.details(ctx, pa)
	if errors.Is(err, gh.ErrNotFound) {
		// One missing PR drops its pair, not the project.
		pr.funnel.consider(CritPredates, 1)
		checks = append(checks, pipeline.Check{Criterion: CritPredates, Value: "unknown", Reason: err.Error()})
		return fail(CritPredates, err.Error())
	}
	if err != nil {
		return err
	}
	if c := CheckPredates(pa.ep.Created, d.CreatedAt, d.FirstCommit); !check(c) {
		return fail(c.Criterion, c.Reason)
	}
	// 2 and 5: the change.
	stats, why, err := pr.stats(ctx, pa)
	if errors.Is(err, gh.ErrNotFound) {
		why, err = err.Error(), nil
	}
	if err != nil {
		return err
	}
	if why != "" {
		pr.funnel.consider(CritSize, 1)
		checks = append(checks, pipeline.Check{Criterion: CritSize, Value: "unknown", Reason: why})
		return fail(CritSize, why)
	}
	if c := CheckSize(stats, pr.th); !check(c) {
		return fail(c.Criterion, c.Reason)
	}
	if c := CheckTests(stats, pr.th); !check(c) {
		return fail(c.Criterion, c.Reason)
	}
	// The commits must be in the clone for the LoC count and later stages.
	pr.funnel.consider(StepRevisions, 1)
	if why, err := pr.revisions(ctx, pa); err != nil {
		return err
	} else if why != "" {
		return fail(StepRevisions, why)
	}
	// 1: source LoC at the base commit.
	n, err := pr.sourceLoC(ctx, pa.base)
	if err != nil {
		return err
	}
	if c := CheckLoC(n, pr.th); !check(c) {
		return fail(c.Criterion, c.Reason)
	}
	pr.funnel.consider(CritImplementable, 1)

	text, rev, err := pr.epAtMerge(ctx, pa, d.MergedAt)
	if err != nil {
		return err
	}
	renderedFrom := ""
	if pa.ep.Format.Rendered() {
		// The candidate's ep.md is the page's Markdown rendering: the
		// text the rules, the mapping and the task read.
		doc, err := parseText(&pr.p.EPs, pa.ep.Format, text)
		if err != nil {
			return fmt.Errorf("%s: %w", pa.ep.Path, err)
		}
		text, renderedFrom = doc.Source, string(pa.ep.Format)
	}
	epURL := pa.ep.URL
	if rev != "" && pr.epGit.repo != "" {
		p := pa.ep.Path
		if pa.pathAtRev != "" {
			p = pa.pathAtRev
		}
		epURL = pr.epGit.blobURL(rev, p)
	}
	info := &pipeline.Info{
		ID: id, Project: pr.p.Name, Repo: pr.p.Repo, Language: pr.p.Language, Domain: pr.p.Domain,
		RepoDir: pr.repoRel,
		EP: pipeline.EPInfo{ID: pa.ep.ID, Title: pa.ep.Title, File: epFile(pa.ep.Format), Status: pa.ep.Status,
			Created: pa.ep.Created, URL: epURL, Revision: rev, RenderedFrom: renderedFrom, Fetched: pa.ep.Fetched},
		PR: pipeline.PRInfo{Number: d.Number, Title: d.Title, Author: d.Author, URL: d.URL,
			CreatedAt: d.CreatedAt, MergedAt: d.MergedAt, FirstCommit: d.FirstCommit,
			BaseSHA: pa.base, HeadSHA: pa.head, MergeSHA: pa.merge, Evidence: pa.ref.evidence},
		Checks:  sortChecks(checks),
		Pending: []string{CritImplementable},
		Notes:   pa.notes,
	}
	if rev != "" && pa.statusAtRev != pa.ep.Status {
		info.EP.Status, info.EP.StatusAtTip = pa.statusAtRev, pa.ep.Status
	}
	if pr.keptIDs[id] {
		return fmt.Errorf("candidate id %s is made twice; make eps.name tell the proposals apart", id)
	}
	if err := pr.writeCandidate(info, text, pa.ref.link); err != nil {
		return err
	}
	pr.keptIDs[id] = true
	pr.funnel.Kept = append(pr.funnel.Kept, id)
	return dec("", "")
}

// epFile is the candidate's EP file: ep.rst for reStructuredText, ep.md
// for Markdown and for the rendering of an HTML or DokuWiki page.
func epFile(f ep.Format) string {
	if f == ep.RST {
		return "ep.rst"
	}
	return "ep.md"
}

// sortChecks orders checks by the paper's numbering.
func sortChecks(cs []pipeline.Check) []pipeline.Check {
	out := append([]pipeline.Check(nil), cs...)
	sort.SliceStable(out, func(i, j int) bool { return criterionNumber(out[i].Criterion) < criterionNumber(out[j].Criterion) })
	return out
}

// details returns the PR's metadata: the curated entry when it is complete
// or GitHub cannot be asked (noGitHub), else GitHub's (checkpointed).
func (pr *projectRun) details(ctx context.Context, pa *pair) (*prData, error) {
	if pa.data != nil {
		return pa.data, nil
	}
	n := pa.ref.number
	if l := pa.ref.link; l != nil && (l.Complete() || pr.noGitHub(l) != "") {
		d := &prData{Number: n, Title: oneLine(l.Title), Author: l.Author, URL: l.URL, CreatedAt: l.Created,
			MergedAt: l.Merged, FirstCommit: l.First, BaseRev: l.Base, HeadRev: l.Head, MergeRev: l.Merge}
		if d.URL == "" && pr.p.Repo != "" {
			d.URL = fmt.Sprintf("https://github.com/%s/pull/%d", pr.p.Repo, n)
		}
		pa.data = d
		if err := pr.datesFromGit(ctx, pa); err != nil {
			return nil, err
		}
		return d, nil
	}
	meta, err := pr.pullRequest(ctx, n)
	if errors.Is(err, ErrNotCached) && pa.ref.link != nil {
		return nil, fmt.Errorf("%w, or give the PR's base and head at %s so that collect needs no GitHub", err, pr.where(pa.ref.linkIndex))
	}
	if err != nil {
		return nil, err
	}
	var commits []gh.Commit
	err = pr.cache.get(fmt.Sprintf("github/pr-%d-commits.json", n), fmt.Sprintf("commits of %s#%d", pr.p.Repo, n), &commits, func() error {
		c, err := pr.s.client(pr.env)
		if err != nil {
			return err
		}
		commits, err = c.PullRequestCommits(ctx, pr.p.Repo, n)
		if commits == nil {
			commits = []gh.Commit{}
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	d := &prData{Number: n, Title: oneLine(meta.Title), Author: meta.Author, URL: meta.URL, CreatedAt: meta.CreatedAt,
		MergedAt: meta.MergedAt, BaseRef: meta.BaseRef, BaseRev: meta.BaseSHA, HeadRev: meta.HeadSHA,
		MergeRev: meta.MergeSHA, ChangedFiles: meta.ChangedFiles, fromGitHub: true}
	for _, c := range commits {
		if !c.AuthorDate.IsZero() && (d.FirstCommit.IsZero() || c.AuthorDate.Before(d.FirstCommit)) {
			d.FirstCommit = c.AuthorDate
		}
	}
	pa.data = d
	return d, nil
}

// noGitHub says why GitHub is not asked about a curated link, or "" when it
// is: the project has no GitHub repo, or the run is offline, no earlier run
// recorded the PR, and the link names its commits, which then stand in for
// GitHub's answer (the curator says the PR was merged).
func (pr *projectRun) noGitHub(l *registry.Link) string {
	switch {
	case pr.p.Repo == "":
		return "the project has no GitHub repo"
	case pr.s.Offline && l.Base != "" && l.Head != "" && !pr.cache.has(prFile(l.PR)):
		return fmt.Sprintf("the run is offline and no earlier run recorded #%d", l.PR)
	}
	return ""
}

// where names a curated link for a message: "projects.yaml:15
// (projects[0].links.curated[0])".
func (pr *projectRun) where(linkIndex int) string {
	return pr.whereIn(linkIndex, pr.reg.File)
}

// whereIn is where with the registry file written as file: its base name
// keeps a record that names the link free of the machine's folders.
func (pr *projectRun) whereIn(linkIndex int, file string) string {
	field := pr.p.Field(fmt.Sprintf("links.curated[%d]", linkIndex))
	var re *registry.Error
	if errors.As(pr.reg.Errorf(field, ""), &re) && re.Line > 0 {
		return fmt.Sprintf("%s:%d (%s)", file, re.Line, field)
	}
	return fmt.Sprintf("%s (%s)", file, field)
}

// datesFromGit fills the dates a curated link leaves out from the PR's
// commits, and says so in a note: the first commit is the earliest author
// date in base..head; merged_at is the head commit's committer date, the
// last time the PR's work was written and the closest git comes to its
// merge; created_at is the first commit, which criterion 3 compares with
// the EP anyway (the earlier of the two).
func (pr *projectRun) datesFromGit(ctx context.Context, pa *pair) error {
	d := pa.data
	if !d.FirstCommit.IsZero() && !d.MergedAt.IsZero() && !d.CreatedAt.IsZero() {
		return nil
	}
	if why, err := pr.revisions(ctx, pa); err != nil || why != "" {
		return err // a curated link's commits are never a reason to drop
	}
	if d.FirstCommit.IsZero() {
		first, _, err := repos.FirstCommit(pr.repoDir, pa.base, pa.head)
		if err != nil {
			return err
		}
		d.FirstCommit = first
	}
	why := pr.noGitHub(pa.ref.link)
	if why == "" {
		return nil // a complete link needs no guess
	}
	if d.MergedAt.IsZero() {
		t, err := repos.CommitterDate(pr.repoDir, pa.head)
		if err != nil {
			return err
		}
		d.MergedAt = t
		pr.note(pa, fmt.Sprintf("merged_at %s is the committer date of the head commit %s: the curated link gives no merged_at and %s",
			stamp(t), pa.head[:12], why))
	}
	if d.CreatedAt.IsZero() && !d.FirstCommit.IsZero() {
		d.CreatedAt = d.FirstCommit
		pr.note(pa, fmt.Sprintf("created_at %s is the PR's first commit (the earliest author date in base..head): the curated link gives no created_at and %s",
			stamp(d.CreatedAt), why))
	}
	return nil
}

// note records something inferred rather than read about a pair: in its
// decision and candidate.json, in the funnel and in the log.
func (pr *projectRun) note(pa *pair, text string) {
	pa.notes = append(pa.notes, text)
	pr.funnel.Notes = append(pr.funnel.Notes, Note{EP: pa.ep.ID, PR: pa.ref.number, Note: text})
	pr.s.logf(pr.env, "%s: %s #%d: %s", pr.p.Name, pa.ep.ID, pa.ref.number, text)
}

func prFile(n int) string { return fmt.Sprintf("github/pr-%d.json", n) }

// pullRequest returns a PR's GitHub metadata (checkpointed).
func (pr *projectRun) pullRequest(ctx context.Context, n int) (*gh.PR, error) {
	var meta gh.PR
	err := pr.cache.get(prFile(n), fmt.Sprintf("pull request %s#%d", pr.p.Repo, n), &meta, func() error {
		c, err := pr.s.client(pr.env)
		if err != nil {
			return err
		}
		m, err := c.PullRequest(ctx, pr.p.Repo, n)
		if err != nil {
			return err
		}
		meta = *m
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &meta, nil
}

// stats measures the change for criteria 2 and 5: from GitHub's file list
// when the PR came from GitHub and the list is complete, else from git
// between the base and head commits. Either way the numbers are git's
// numstat counts (GitHub shows those) and the categories lang.Classify's.
// A non-empty reason means the change could not be measured.
func (pr *projectRun) stats(ctx context.Context, pa *pair) (diff.Stats, string, error) {
	d := pa.data
	if d.fromGitHub {
		var files []gh.File
		n := d.Number
		err := pr.cache.get(fmt.Sprintf("github/pr-%d-files.json", n), fmt.Sprintf("files of %s#%d", pr.p.Repo, n), &files, func() error {
			c, err := pr.s.client(pr.env)
			if err != nil {
				return err
			}
			files, err = c.PullRequestFiles(ctx, pr.p.Repo, n)
			if files == nil {
				files = []gh.File{}
			}
			return err
		})
		if err != nil {
			return diff.Stats{}, "", err
		}
		if d.ChangedFiles <= len(files) {
			return changeFromGitHub(files).Stats(), "", nil
		}
		pr.s.logf(pr.env, "%s: #%d changes %d files, more than GitHub lists; counting with git", pr.p.Name, n, d.ChangedFiles)
	}
	why, err := pr.revisions(ctx, pa)
	if err != nil || why != "" {
		return diff.Stats{}, why, err
	}
	r, err := diff.Open(pr.repoDir)
	if err != nil {
		return diff.Stats{}, "", err
	}
	c, err := r.Diff(ctx, pa.base, pa.head)
	if err != nil {
		return diff.Stats{}, "", err
	}
	return c.Stats(), "", nil
}

// changeFromGitHub turns GitHub's file list into a diff.Change, so that
// criteria 2 and 5 use diff.Stats and lang's categories exactly as for a
// local diff.
func changeFromGitHub(files []gh.File) *diff.Change {
	c := &diff.Change{}
	for _, f := range files {
		df := diff.File{NewPath: f.Path, Inserted: f.Additions, Deleted: f.Deletions}
		switch f.Status {
		case "added":
			df.Status = diff.Added
		case "removed":
			df.Status, df.OldPath, df.NewPath = diff.Deleted, f.Path, ""
		case "renamed":
			df.Status, df.OldPath = diff.Renamed, f.PreviousPath
		default:
			df.Status, df.OldPath = diff.Modified, f.Path
		}
		p := df.Path()
		df.Category = lang.Classify(p)
		if l := lang.ForPath(p); l != nil {
			df.Language = l.Name
		}
		c.Files = append(c.Files, df)
	}
	sort.Slice(c.Files, func(i, j int) bool { return c.Files[i].Path() < c.Files[j].Path() })
	return c
}

// revisions makes sure the PR's commits are in the software repository and
// resolves pa.base (for a GitHub PR the merge base of its base and head,
// the base GitHub's diff uses), pa.head and pa.merge. A non-empty reason
// drops the pair; an error stops the run (a bad curated revision of a
// local project, an offline run missing a commit).
func (pr *projectRun) revisions(ctx context.Context, pa *pair) (string, error) {
	if pa.base != "" {
		return "", nil
	}
	if err := pr.softwareRepo(ctx); err != nil {
		return "", err
	}
	d := pa.data
	r, err := diff.Open(pr.repoDir)
	if err != nil {
		return "", err
	}
	resolve := func(rev string) (string, error) {
		sha, err := r.Resolve(rev)
		if err == nil {
			return sha, nil
		}
		if pr.p.Local() || pr.fetchedN[d.Number] {
			return "", err
		}
		// Fetch the PR's head and its base branch, then try again.
		if err := pr.fetchPR(ctx, d); err != nil {
			return "", err
		}
		if r, err = diff.Open(pr.repoDir); err != nil {
			return "", err
		}
		return r.Resolve(rev)
	}
	head, err := resolve(d.HeadRev)
	if err == nil {
		pa.head = head
		var base string
		base, err = resolve(d.BaseRev)
		if err == nil && d.fromGitHub {
			base, err = repos.MergeBase(pr.repoDir, base, head)
		}
		pa.base = base
	}
	if err != nil {
		pa.base, pa.head = "", ""
		if errors.Is(err, repos.ErrOffline) {
			return "", fmt.Errorf("PR #%d: a commit is not in %s: %w", d.Number, pr.repoDir, err)
		}
		if l := pa.ref.link; l != nil && !d.fromGitHub {
			return "", pr.reg.Errorf(pr.p.Field(fmt.Sprintf("links.curated[%d]", pa.ref.linkIndex)), "revisions of PR #%d in %s: %v", d.Number, pr.repoDir, err)
		}
		return fmt.Sprintf("the PR's commits are not available: %v", err), nil
	}
	if d.MergeRev != "" {
		if m, err := r.Resolve(d.MergeRev); err == nil {
			pa.merge = m
		} else if d.fromGitHub && len(d.MergeRev) == 40 {
			pa.merge = d.MergeRev // GitHub's SHA, not fetched
		} else if !d.fromGitHub {
			return "", pr.reg.Errorf(pr.p.Field(fmt.Sprintf("links.curated[%d].merge", pa.ref.linkIndex)), "revision %q not in %s: %v", d.MergeRev, pr.repoDir, err)
		}
	}
	return "", nil
}

// fetchPR fetches a PR's head (refs/pull/N/head) and its base branch into
// the clone.
func (pr *projectRun) fetchPR(ctx context.Context, d *prData) error {
	pr.fetchedN[d.Number] = true
	specs := []string{repos.PRRefSpec(d.Number)}
	if d.BaseRef != "" && !strings.ContainsAny(d.BaseRef, " \t\n:*?[\\^~") {
		specs = append(specs, repos.BranchRefSpec(d.BaseRef))
	}
	return repos.Fetch(ctx, pr.repoDir, specs, pr.gitOptions())
}

// showPath names a folder in the funnel: one inside the workspace as
// <workspace>/..., so that two copies of a workspace hold the same
// funnel; any other as its absolute path.
func (pr *projectRun) showPath(dir string) string {
	if pr.ws != nil {
		if rel, err := filepath.Rel(pr.ws.Root, dir); err == nil && filepath.IsLocal(rel) {
			return "<workspace>/" + filepath.ToSlash(rel)
		}
	}
	return dir
}

// softwareRepo makes the software repository ready: the local one of a
// local project, or the clone under <workspace>/repos/<name>.
func (pr *projectRun) softwareRepo(ctx context.Context) error {
	if pr.repoDir != "" {
		return nil
	}
	if pr.p.Local() {
		dir, err := pr.reg.Resolve(pr.p.Field("path"), pr.p.Path)
		if err != nil {
			return err
		}
		if _, err := diff.Open(dir); err != nil {
			return pr.reg.Errorf(pr.p.Field("path"), "%s is not a git repository: %v", dir, err)
		}
		pr.repoDir, pr.repoRel = dir, dir
		pr.funnel.Software = "local repository " + pr.showPath(dir)
		// A local repository inside the workspace is recorded relative to
		// it, so that the workspace can move (shared storage, another
		// machine) and two copies of it hold the same candidate.json.
		if rel, err := filepath.Rel(pr.ws.Root, dir); err == nil && filepath.IsLocal(rel) {
			pr.repoRel = filepath.ToSlash(rel)
		}
		return nil
	}
	dir, err := pr.ws.Path("repos", pr.p.Name)
	if err != nil {
		return err
	}
	url := pr.p.CloneURL
	if url == "" {
		url = "https://github.com/" + pr.p.Repo + ".git"
	}
	if _, err := repos.Ensure(ctx, dir, url, pr.gitOptions()); err != nil {
		return fmt.Errorf("project %s: %w", pr.p.Name, err)
	}
	pr.repoDir, pr.repoRel = dir, filepath.ToSlash(filepath.Join("repos", pr.p.Name))
	what := pr.p.Repo
	if what == "" {
		what = url
	}
	pr.funnel.Software = fmt.Sprintf("clone of %s in %s", what, pr.showPath(dir))
	return nil
}

// locRecord is the checkpoint of one LoC count.
type locRecord struct {
	SHA       string `json:"sha"`
	SourceLoC int64  `json:"source_loc"`
	Code      int64  `json:"code"`
}

// sourceLoC counts the software's source LoC at sha (criterion 1),
// checkpointed: a commit's count never changes.
func (pr *projectRun) sourceLoC(ctx context.Context, sha string) (int64, error) {
	name := fmt.Sprintf("loc/%s.json", sha)
	var rec locRecord
	if err := workspace.ReadJSON(pr.cache.path(name), &rec); err == nil && rec.SHA == sha {
		return rec.SourceLoC, nil
	}
	pr.s.logf(pr.env, "%s: counting source LoC at %s", pr.p.Name, sha[:12])
	res, err := loc.CountRev(ctx, pr.repoDir, sha, loc.Options{SoftwareOnly: true})
	if err != nil {
		return 0, err
	}
	rec = locRecord{SHA: sha, SourceLoC: res.SourceCode(), Code: res.Total.Code}
	if err := pr.cache.store(name, rec); err != nil {
		return 0, err
	}
	return rec.SourceLoC, nil
}

// writeCandidate writes candidate.json and the EP text, leaving files whose
// content is unchanged untouched.
func (pr *projectRun) writeCandidate(info *pipeline.Info, text []byte, link *registry.Link) error {
	dir, err := pr.ws.CandidateDir(info.ID)
	if err != nil {
		return err
	}
	if link != nil && link.Mapping != "" {
		field := pr.p.Field(fmt.Sprintf("links.curated[%d].mapping", slices.Index(pr.p.Links.Curated, link)))
		if err := pr.copyCuratedMapping(field, link.Mapping, filepath.Join(dir, pipeline.MappingFile)); err != nil {
			return err
		}
	}
	if err := writeIfChanged(filepath.Join(dir, info.EP.File), text); err != nil {
		return err
	}
	for _, other := range []string{"ep.md", "ep.rst"} {
		if other != info.EP.File {
			os.Remove(filepath.Join(dir, other)) // the EP's format changed
		}
	}
	if pr.p.Recipe != nil {
		// The candidate carries its project's recipe, so that it can be
		// built from its own folder (stages/build reads recipe.yaml).
		data, err := yaml.Marshal(pr.p.Recipe)
		if err != nil {
			return fmt.Errorf("recipe of project %s: %w", pr.p.Name, err)
		}
		if err := writeIfChanged(filepath.Join(dir, "recipe.yaml"), data); err != nil {
			return err
		}
	}
	data, err := encodeJSON(info)
	if err != nil {
		return err
	}
	return writeIfChanged(filepath.Join(dir, pipeline.InfoFile), data)
}

// encodeJSON encodes like workspace.WriteJSON, so that unchanged content
// compares equal.
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func writeIfChanged(path string, data []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	return workspace.WriteFile(path, data, 0o644)
}

// markStale records, in the candidate.json of this project's candidates
// from earlier runs that no longer pass, the criterion that now drops
// them. Their folders are kept: they may hold a curator's mapping.
func (pr *projectRun) markStale() error {
	ids, err := pr.ws.Candidates()
	if err != nil {
		return err
	}
	for _, id := range ids {
		if pr.keptIDs[id] || !strings.HasPrefix(id, pr.p.Name+"-") {
			continue
		}
		c, err := pipeline.OpenCandidate(pr.ws, id)
		if err != nil {
			continue
		}
		info, err := c.LoadInfo()
		if err != nil || info.Project != pr.p.Name {
			continue
		}
		checks := []pipeline.Check{{Criterion: StepEPs, Value: "dropped", Reason: "the proposal is no longer in the project's EP source"}}
		if whys := pr.stale[id]; len(whys) > 0 {
			checks = []pipeline.Check{{Criterion: whys[0].step, Value: "dropped", Reason: whys[0].reason}}
			for _, w := range whys {
				if w.pr == info.PR.Number && w.pr != 0 {
					checks = w.checks
				}
			}
		}
		info.Checks = checks
		data, err := encodeJSON(info)
		if err != nil {
			return err
		}
		if err := writeIfChanged(filepath.Join(c.Dir, pipeline.InfoFile), data); err != nil {
			return err
		}
		pr.funnel.Stale = append(pr.funnel.Stale, id)
	}
	return nil
}

// Kept reports whether candidate.json says the pair passed collection:
// every criterion recorded passed and none is missing.
func Kept(info *pipeline.Info) (bool, []pipeline.Check) {
	var failed []pipeline.Check
	seen := map[string]bool{}
	for _, c := range info.Checks {
		seen[c.Criterion] = true
		if !c.Passed {
			failed = append(failed, c)
		}
	}
	for _, c := range Criteria {
		if c.Name != CritImplementable && !seen[c.Name] && len(failed) == 0 {
			failed = append(failed, pipeline.Check{Criterion: c.Name, Reason: "not evaluated"})
		}
	}
	return len(failed) == 0, failed
}

// copyCuratedMapping gives a new candidate the curator's mapping artifact.
// A mapping.md already in the candidate (drafted, or edited by hand since)
// is kept: the registry only seeds it. The artifact must be a regular file
// inside the registry's folder, within the mapping size cap: what is
// copied here reaches the published report.
func (pr *projectRun) copyCuratedMapping(field, src, dst string) error {
	if _, err := os.Lstat(dst); err == nil {
		return nil
	}
	data, err := pr.reg.ReadFile(field, src, mapping.MaxSize, mapping.SizeCap)
	if err != nil {
		return err
	}
	return workspace.WriteFile(dst, data, 0o644)
}
