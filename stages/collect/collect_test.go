package collect

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/gh"
	"github.com/lolbench/lolbench/pipeline/registry"
	"github.com/lolbench/lolbench/pipeline/repos"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// fixture is the widget project: its repositories, registry and fake
// GitHub (see fixture_test.go).
type fixture struct {
	dir     string
	sw      *swRepo
	regPath string
	gh      *fakeGitHub
	now     time.Time

	mu     sync.Mutex
	sleeps []time.Duration
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	fx := &fixture{dir: t.TempDir(), now: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}
	fx.sw = buildSoftware(t, filepath.Join(fx.dir, "widget"))
	buildEPRepo(t, filepath.Join(fx.dir, "proposals"))
	fx.gh = newFakeGitHub(t, fx.sw, fx.now)
	fx.regPath = filepath.Join(fx.dir, "projects.yaml")
	reg := `projects:
  - name: widget
    repo: acme/widget
    clone_url: ` + filepath.Join(fx.dir, "widget") + `
    language: Go
    domain: tooling
    eps:
      kind: git
      clone_url: ` + filepath.Join(fx.dir, "proposals") + `
      glob: "proposals/*"
      name: "WEP {n}"
      id_key: wep
      statuses: [Final, Accepted]
    links:
      search:
        patterns: ["WEP {n}", "WEP-{n}"]
    thresholds:
      min_loc: 60
      min_changed_lines: 40
      min_files: 4
      min_source_share: 0.5
      min_test_files: 1
`
	if err := os.WriteFile(fx.regPath, []byte(reg), 0o644); err != nil {
		t.Fatal(err)
	}
	return fx
}

// stage returns a collect stage over the fixture; its GitHub client talks
// to the fake, with a recorded sleep and a fixed clock.
func (fx *fixture) stage(t *testing.T, offline bool) *Stage {
	t.Helper()
	reg, err := registry.Load(fx.regPath)
	if err != nil {
		t.Fatal(err)
	}
	c, err := gh.New(gh.Options{BaseURL: fx.gh.srv.URL + "/", Now: func() time.Time { return fx.now },
		Sleep: func(ctx context.Context, d time.Duration) error {
			fx.mu.Lock()
			fx.sleeps = append(fx.sleeps, d)
			fx.mu.Unlock()
			return ctx.Err()
		}})
	if err != nil {
		t.Fatal(err)
	}
	return &Stage{Registry: reg, Offline: offline, GitHub: c, Log: func(string, ...any) {}}
}

func runStage(ctx context.Context, t *testing.T, st *Stage, wsDir string) error {
	t.Helper()
	ws, err := workspace.Open(wsDir, true)
	if err != nil {
		t.Fatal(err)
	}
	return st.Run(ctx, &pipeline.Env{Workspace: ws, Status: &bytes.Buffer{}, Getenv: func(string) string { return "" }, Version: "test"})
}

// The funnel of the widget project: every criterion drops the pair built to
// fail it, with its reason, and only WEP 2 / #2 is kept.
func wantFunnel(t *testing.T, fx *fixture) *ProjectFunnel {
	th := registry.Thresholds{MinLoC: 60, MinChangedLines: 40, MinFiles: 4, MinSourceShare: 0.5, MinTestFiles: 1}
	row := func(step string, unit string, considered, dropped int) *Step {
		return &Step{Step: step, Criterion: criterionNumber(step), Unit: unit, Considered: considered, Kept: considered - dropped, Dropped: dropped,
			Pending: step == CritImplementable}
	}
	return &ProjectFunnel{
		Project: "widget", Thresholds: &th, EPs: 11, Pairs: 10, Candidates: 1,
		Proposals: "git <workspace>/repos/widget.eps at " + epRepoSHA(t, fx)[:12] + " (clone of acme/widget)",
		Software:  "clone of acme/widget in <workspace>/repos/widget",
		Steps: []*Step{
			row(StepEPs, UnitEPs, 12, 1),
			row(StepStatus, UnitEPs, 11, 1),
			row(StepLinked, UnitEPs, 10, 1),
			row(CritOnePR, UnitPairs, 10, 3),
			row(CritPredates, UnitPairs, 7, 1),
			row(CritSize, UnitPairs, 6, 3),
			row(CritTests, UnitPairs, 3, 1),
			row(StepRevisions, UnitPairs, 2, 0),
			row(CritLoC, UnitPairs, 2, 1),
			row(CritImplementable, UnitPairs, 1, 0),
		},
		Dropped: []Drop{
			{EP: "proposals/wep-template.md", Path: "proposals/wep-template.md", Step: StepEPs, Reason: "no proposal number in the metadata or the file name of proposals/wep-template.md"},
			{EP: "WEP 9", Path: "proposals/wep-0009.md", Step: StepStatus, Reason: "status Draft is not one of Final, Accepted"},
			{EP: "WEP 12", Path: "proposals/wep-0012.md", Step: StepLinked,
				Reason: "no merged PR of acme/widget references WEP 12 (0 PRs found, 0 merged); none of its 1 declared link to acme/widget is a merged PR"},
			{EP: "WEP 1", PR: 1, Path: "proposals/wep-0001.rst", Step: CritLoC, Reason: "21 source LoC at the base commit, fewer than 60"},
			{EP: "WEP 3", PR: 3, Path: "proposals/wep-0003.rst", Step: CritSize, Reason: "16 changed lines, fewer than 40"},
			{EP: "WEP 4", PR: 4, Path: "proposals/wep-0004.md", Step: CritTests, Reason: "0 changed test files, fewer than 1"},
			{EP: "WEP 5", PR: 5, Path: "proposals/wep-0005.md", Step: CritPredates, Reason: "the EP (created 2026-06-01) does not predate the PR (started 2026-03-02T06:00:00Z)"},
			{EP: "WEP 6", PR: 6, Path: "proposals/wep-0006.rst", Step: CritOnePR, Reason: "2 merged PRs reference WEP 6 (#6, #7)"},
			{EP: "WEP 6", PR: 7, Path: "proposals/wep-0006.rst", Step: CritOnePR, Reason: "2 merged PRs reference WEP 6 (#6, #7)"},
			{EP: "WEP 7", PR: 8, Path: "proposals/wep-0007.md", Step: CritOnePR, Reason: "open PRs also reference WEP 7 (#9)"},
			{EP: "WEP 8", PR: 10, Path: "proposals/wep-0008.md", Step: CritSize, Reason: "source share 0.349, not above 0.5"},
			{EP: "WEP 10", PR: 11, Path: "proposals/wep-0010.md", Step: CritSize, Reason: "11 changed lines, fewer than 40; 1 files changed, fewer than 4"},
		},
		Paired: []Paired{
			searched("WEP 1", 1), {EP: "WEP 2", PR: 2, Evidence: []pipeline.Evidence{declared("acme/widget#2 in proposals/wep-0002.md"), search(`"WEP 2"`)}},
			{EP: "WEP 3", PR: 3, Evidence: []pipeline.Evidence{search(`"WEP-3"`)}},
			searched("WEP 4", 4), searched("WEP 5", 5), searched("WEP 6", 6), searched("WEP 6", 7), searched("WEP 7", 8), searched("WEP 8", 10),
			{EP: "WEP 10", PR: 11, Evidence: []pipeline.Evidence{declared("acme/widget#11 in proposals/wep-0010.md")}},
		},
		Kept: []string{"widget-wep-0002"},
	}
}

func search(phrases string) pipeline.Evidence {
	return pipeline.Evidence{Source: pipeline.EvidenceSearch, Detail: phrases}
}

func declared(link string) pipeline.Evidence {
	return pipeline.Evidence{Source: pipeline.EvidenceDeclared, Detail: link}
}

// searched is a pair found by the search for "WEP n" only.
func searched(ep string, pr int) Paired {
	return Paired{EP: ep, PR: pr, Evidence: []pipeline.Evidence{search(strconv.Quote(ep))}}
}

func wantInfo(fx *fixture, epSHA string) *pipeline.Info {
	at := func(s string) time.Time { t, _ := time.Parse(time.RFC3339, s); return t }
	sha := fx.gh.sha
	return &pipeline.Info{
		ID: "widget-wep-0002", Project: "widget", Repo: "acme/widget", Language: "Go", Domain: "tooling", RepoDir: "repos/widget",
		EP: pipeline.EPInfo{ID: "WEP 2", Title: "Widget proposal 2", File: "ep.md", Status: "Accepted", Created: at("2026-01-01T00:00:00Z"),
			URL: "https://github.com/acme/widget/blob/" + epSHA + "/proposals/wep-0002.md", Revision: epSHA},
		PR: pipeline.PRInfo{Number: 2, Title: "WEP 2: widgets", Author: "dev", URL: "https://github.com/acme/widget/pull/2",
			CreatedAt: at("2026-03-02T10:00:00Z"), MergedAt: at("2026-03-03T10:00:00Z"), FirstCommit: at("2026-03-02T02:00:00Z"),
			BaseSHA: sha("h1"), HeadSHA: sha("h2"), MergeSHA: sha("m2"),
			Evidence: []pipeline.Evidence{declared("acme/widget#2 in proposals/wep-0002.md"), search(`"WEP 2"`)}},
		Checks: []pipeline.Check{
			{Criterion: CritLoC, Passed: true, Value: "65 source LoC", Threshold: ">= 60"},
			{Criterion: CritSize, Passed: true, Value: "44 changed lines in 4 files, source share 0.750", Threshold: ">= 40 lines, >= 4 files, source share > 0.5"},
			{Criterion: CritPredates, Passed: true, Value: "EP created 2026-01-01; PR opened 2026-03-02T10:00:00Z, first commit 2026-03-02T02:00:00Z",
				Threshold: "EP created before the PR's first commit and its creation"},
			{Criterion: CritOnePR, Passed: true, Value: "merged: #2; open: none", Threshold: "exactly 1 merged PR, 0 open PRs"},
			{Criterion: CritTests, Passed: true, Value: "1 test files", Threshold: ">= 1"},
		},
		Pending: []string{CritImplementable},
	}
}

func epRepoSHA(t *testing.T, fx *fixture) string {
	t.Helper()
	sha, err := repos.Tip(filepath.Join(fx.dir, "proposals"), "")
	if err != nil {
		t.Fatal(err)
	}
	return sha
}

func TestCollectWidget(t *testing.T) {
	fx := newFixture(t)
	wsDir := filepath.Join(fx.dir, "work")
	st := fx.stage(t, false)
	if err := runStage(context.Background(), t, st, wsDir); err != nil {
		t.Fatal(err)
	}
	if len(st.Funnel.Projects) != 1 {
		t.Fatalf("funnel has %d projects", len(st.Funnel.Projects))
	}
	if got, want := st.Funnel.Projects[0], wantFunnel(t, fx); !reflect.DeepEqual(got, want) {
		t.Errorf("funnel:\n got %s\nwant %s", mustJSON(got), mustJSON(want))
	}

	// The rate limit waited until its reset (30 s, plus a second), the
	// 502 burst backed off 1, 2 and 4 seconds.
	if want := []time.Duration{31 * time.Second, time.Second, 2 * time.Second, 4 * time.Second}; !reflect.DeepEqual(fx.sleeps, want) {
		t.Errorf("sleeps = %v, want %v", fx.sleeps, want)
	}

	ws, _ := workspace.Open(wsDir, false)
	ids, _ := ws.Candidates()
	if !reflect.DeepEqual(ids, []string{"widget-wep-0002"}) {
		t.Fatalf("candidates = %v", ids)
	}
	c, _ := pipeline.OpenCandidate(ws, "widget-wep-0002")
	info, err := c.LoadInfo()
	if err != nil {
		t.Fatal(err)
	}
	if want := wantInfo(fx, epRepoSHA(t, fx)); !reflect.DeepEqual(info, want) {
		t.Errorf("candidate.json:\n got %s\nwant %s", mustJSON(info), mustJSON(want))
	}
	text, _ := os.ReadFile(filepath.Join(c.Dir, "ep.md"))
	if string(text) != wepFiles()["proposals/wep-0002.md"] {
		t.Errorf("ep.md = %q", text)
	}

	// Every dropped pair has its decision, with its measured values.
	var d Decision
	if err := workspace.ReadJSON(filepath.Join(wsDir, "collect/widget/pairs/widget-wep-0001-pr1.json"), &d); err != nil {
		t.Fatal(err)
	}
	if d.Kept || d.Step != CritLoC || len(d.Checks) != 5 || d.Checks[0] != (pipeline.Check{Criterion: CritLoC, Value: "21 source LoC",
		Threshold: ">= 60", Reason: "21 source LoC at the base commit, fewer than 60"}) {
		t.Errorf("decision of WEP 1 / #1 = %+v", d)
	}

	// The workspace funnel is the same, and the table says so.
	f, err := LoadFunnel(ws)
	if err != nil || !reflect.DeepEqual(f, st.Funnel) {
		t.Fatalf("funnel.json = %v, %v", f, err)
	}
	var table bytes.Buffer
	if err := f.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	wantTable := `widget: 11 EPs, 10 EP-PR pairs -> 1 candidate
  proposals: git <workspace>/repos/widget.eps at ` + epRepoSHA(t, fx)[:12] + ` (clone of acme/widget)
  software: clone of acme/widget in <workspace>/repos/widget
  #  step                   unit   considered  kept  dropped
     eps                    eps    12          11    1
     status                 eps    11          10    1
     linked                 eps    10          9     1
  4  one-merged-pr          pairs  10          7     3
  3  ep-predates-pr         pairs  7           6     1
  2  pr-size                pairs  6           3     3
  5  has-tests              pairs  3           2     1
     revisions              pairs  2           2     0
  1  source-loc             pairs  2           1     1
  6  implementable-section  pairs  1           -     -  (pending: the mapping stage enforces it)
  paired: WEP 1 #1 by search ("WEP 1")
  paired: WEP 2 #2 by declared (acme/widget#2 in proposals/wep-0002.md); search ("WEP 2")
  paired: WEP 3 #3 by search ("WEP-3")
  paired: WEP 4 #4 by search ("WEP 4")
  paired: WEP 5 #5 by search ("WEP 5")
  paired: WEP 6 #6 by search ("WEP 6")
  paired: WEP 6 #7 by search ("WEP 6")
  paired: WEP 7 #8 by search ("WEP 7")
  paired: WEP 8 #10 by search ("WEP 8")
  paired: WEP 10 #11 by declared (acme/widget#11 in proposals/wep-0010.md)
`
	if table.String() != wantTable {
		t.Errorf("table:\n%s\nwant:\n%s", table.String(), wantTable)
	}

	// Every API call was answered once. The decoy PR #11, which the
	// search for "WEP 2" finds, is not paired with WEP 2 (Paired above);
	// it is fetched once, as WEP 10's declared link. The issue WEP 12
	// declares is recorded as not a PR, the other project's PR never asked.
	for uri, n := range fx.gh.served {
		if n != 1 {
			t.Errorf("%s answered %d times", uri, n)
		}
		if strings.Contains(uri, "other/tool") {
			t.Errorf("another project's PR fetched: %s", uri)
		}
	}
	if n := fx.gh.served["/repos/acme/widget/pulls/11"]; n != 1 {
		t.Errorf("#11 answered %d times, want 1", n)
	}
	if _, err := os.Stat(filepath.Join(wsDir, "collect/widget/github/not-a-pr-40.json")); err != nil {
		t.Errorf("the 404 of the issue WEP 12 declares is not recorded: %v", err)
	}

	// An offline run replays the checkpoints: the same funnel, and no
	// request at all.
	before := fx.gh.seen
	st2 := fx.stage(t, true)
	if err := runStage(context.Background(), t, st2, wsDir); err != nil {
		t.Fatal(err)
	}
	if fx.gh.seen != before {
		t.Errorf("offline run made %d requests", fx.gh.seen-before)
	}
	if !reflect.DeepEqual(st2.Funnel, st.Funnel) {
		t.Errorf("offline funnel differs:\n%s\n%s", mustJSON(st2.Funnel), mustJSON(st.Funnel))
	}

	// A stricter threshold drops the candidate: its folder stays and its
	// candidate.json now says why.
	st3 := fx.stage(t, true)
	minLoC := int64(100)
	st3.Overrides.MinLoC = &minLoC
	if err := runStage(context.Background(), t, st3, wsDir); err != nil {
		t.Fatal(err)
	}
	p := st3.Funnel.Projects[0]
	if p.Candidates != 0 || !reflect.DeepEqual(p.Stale, []string{"widget-wep-0002"}) {
		t.Fatalf("after --min-loc 100: candidates %d, stale %v", p.Candidates, p.Stale)
	}
	info, err = c.LoadInfo()
	if err != nil {
		t.Fatal(err)
	}
	kept, failed := Kept(info)
	if kept || len(failed) != 1 || failed[0].Reason != "65 source LoC at the base commit, fewer than 100" {
		t.Errorf("stale candidate: kept %v, failed %+v", kept, failed)
	}
}

// An interrupted collect resumes with the same candidates and funnel as an
// uninterrupted one, and asks GitHub nothing twice that it had answered.
func TestCollectResumesAfterInterruption(t *testing.T) {
	ref := newFixture(t)
	refWS := filepath.Join(ref.dir, "work")
	if err := runStage(context.Background(), t, ref.stage(t, false), refWS); err != nil {
		t.Fatal(err)
	}
	total := ref.gh.seen
	for _, at := range []int{1, 5, 12, 20, total - 1} {
		t.Run(fmt.Sprint("cancel at request ", at), func(t *testing.T) {
			fx := newFixture(t)
			wsDir := filepath.Join(fx.dir, "work")
			ctx, cancel := context.WithCancel(context.Background())
			fx.gh.cancelAt, fx.gh.cancel = at, cancel
			err := runStage(ctx, t, fx.stage(t, false), wsDir)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("interrupted run: %v", err)
			}
			fx.gh.cancelAt = 0
			if err := runStage(context.Background(), t, fx.stage(t, false), wsDir); err != nil {
				t.Fatal(err)
			}
			for uri, n := range fx.gh.served {
				if n != 1 {
					t.Errorf("%s answered %d times", uri, n)
				}
			}
			if got, want := treeFiles(t, wsDir, "candidates"), treeFiles(t, refWS, "candidates"); !reflect.DeepEqual(got, want) {
				t.Errorf("candidates differ:\n got %v\nwant %v", keys(got), keys(want))
			}
			for _, f := range []string{"collect/funnel.json", "collect/widget/funnel.json"} {
				got, _ := os.ReadFile(filepath.Join(wsDir, f))
				want, _ := os.ReadFile(filepath.Join(refWS, f))
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs:\n%s\nwant\n%s", f, got, want)
				}
			}
		})
	}
}

func TestCollectOfflineNeedsClones(t *testing.T) {
	fx := newFixture(t)
	err := runStage(context.Background(), t, fx.stage(t, true), filepath.Join(fx.dir, "work"))
	if err == nil || !errors.Is(err, repos.ErrOffline) || !strings.Contains(err.Error(), "run once without --offline to clone it") {
		t.Fatalf("offline run without clones: %v", err)
	}
	if fx.gh.seen != 0 {
		t.Errorf("offline run made %d requests", fx.gh.seen)
	}
}

func TestCollectUnknownProject(t *testing.T) {
	fx := newFixture(t)
	st := fx.stage(t, true)
	st.Projects = []string{"nope"}
	err := runStage(context.Background(), t, st, filepath.Join(fx.dir, "work"))
	if err == nil || err.Error() != fx.regPath+` has no project "nope"; it has widget` {
		t.Fatalf("err = %v", err)
	}
}

// treeFiles reads every file below dir/sub, keyed by relative path.
func treeFiles(t *testing.T, dir, sub string) map[string]string {
	t.Helper()
	out := map[string]string{}
	root := filepath.Join(dir, sub)
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, p)
		out[rel] = string(data)
		return nil
	})
	return out
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func mustJSON(v any) string {
	b, err := encodeJSON(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// Proposals kept as GitHub issues with a label, linked by a curated entry
// that gives only the PR number: the rest comes from GitHub.
func TestCollectIssuesAndCuratedLinks(t *testing.T) {
	fx := newFixture(t)
	reg := `projects:
  - name: widget
    repo: acme/widget
    clone_url: ` + filepath.Join(fx.dir, "widget") + `
    language: Go
    domain: tooling
    eps:
      kind: github-issues
      label: design
      name: "design #{n}"
    links:
      curated:
        - {ep: 50, pr: 2}
    thresholds: {min_loc: 60, min_changed_lines: 40, min_files: 4}
`
	if err := os.WriteFile(fx.regPath, []byte(reg), 0o644); err != nil {
		t.Fatal(err)
	}
	wsDir := filepath.Join(fx.dir, "work")
	st := fx.stage(t, false)
	if err := runStage(context.Background(), t, st, wsDir); err != nil {
		t.Fatal(err)
	}
	if got := st.Funnel.Projects[0].Kept; !reflect.DeepEqual(got, []string{"widget-design-0050"}) {
		t.Fatalf("kept %v; dropped %+v", got, st.Funnel.Projects[0].Dropped)
	}
	ws, _ := workspace.Open(wsDir, false)
	c, _ := pipeline.OpenCandidate(ws, "widget-design-0050")
	info, err := c.LoadInfo()
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) time.Time { t, _ := time.Parse(time.RFC3339, s); return t }
	wantEP := pipeline.EPInfo{ID: "design #50", Title: "Design: widgets", File: "ep.md", Status: "closed", Created: at("2026-01-05T08:00:00Z"),
		URL: "https://github.com/acme/widget/issues/50"}
	if info.EP != wantEP || info.PR.Number != 2 || info.PR.BaseSHA != fx.gh.sha("h1") || info.PR.HeadSHA != fx.gh.sha("h2") {
		t.Errorf("candidate: EP %+v, PR %+v", info.EP, info.PR)
	}
	text, _ := os.ReadFile(filepath.Join(c.Dir, "ep.md"))
	if string(text) != "# Design: widgets\n\n## Goals\n\nWidgets.\n" {
		t.Errorf("ep.md = %q", text)
	}
	// No search was made: the curated entry is the link.
	for uri := range fx.gh.served {
		if strings.HasPrefix(uri, "/search/") {
			t.Errorf("searched: %s", uri)
		}
	}
}
