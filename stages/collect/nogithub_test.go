package collect

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/repos"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// commitAt commits the files over the work tree of r with distinct author
// and committer dates, on the given parents (none: HEAD).
func commitAt(t *testing.T, r *git.Repository, dir string, files map[string]string, author, committer time.Time, parents ...plumbing.Hash) plumbing.Hash {
	t.Helper()
	wt, err := r.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		t.Fatal(err)
	}
	h, err := wt.Commit("commit", &git.CommitOptions{Parents: parents, AllowEmptyCommits: true,
		Author:    &object.Signature{Name: "Dev", Email: "dev@example.com", When: author},
		Committer: &object.Signature{Name: "Dev", Email: "dev@example.com", When: committer}})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

var (
	jAuthored  = time.Date(2026, 3, 20, 8, 0, 0, 0, time.UTC)
	jCommitted = time.Date(2026, 3, 25, 9, 30, 0, 0, time.UTC)
)

// addPR12 adds PR 12 to the widget's software repository: one commit on
// master whose author and committer dates differ (it was rebased), 22
// changed lines in a source and a test file.
func addPR12(t *testing.T, fx *fixture) (base, head string) {
	t.Helper()
	base = fx.sw.commits["h11"].String()
	h := commitAt(t, fx.sw.r, fx.sw.dir, map[string]string{"j/j1.go": goFile("j", 10), "j/j_test.go": goFile("j", 10)}, jAuthored, jCommitted)
	fx.sw.commits["j"] = h
	return base, h.String()
}

// captureLog collects the stage's status lines.
type captureLog struct {
	mu    sync.Mutex
	lines []string
}

func (c *captureLog) logf(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lines = append(c.lines, fmt.Sprintf(format, args...))
}

// A curated link that names its commits but no dates, where GitHub cannot
// be asked: merged_at is the head commit's committer date and created_at
// its first commit, and collect says so in candidate.json, the pair's
// decision, the funnel (and its table) and the log. Where GitHub can be
// asked, or an earlier run recorded its answer, nothing is guessed.
func TestCollectCuratedLinkWithoutDates(t *testing.T) {
	const thresholds = "    thresholds: {min_loc: 60, min_changed_lines: 20, min_files: 2, min_source_share: 0.4, min_test_files: 1}\n"
	eps := "    eps: {kind: git, path: proposals, glob: \"proposals/*\", name: \"WEP {n}\", id_key: wep}\n"
	for _, tc := range []struct {
		name      string
		project   string // the project's repo or path lines
		link      string
		online    bool // an online run first (its checkpoints replayed offline)
		offline   bool
		why       string // the notes' reason; "" for no note
		mergedAt  time.Time
		createdAt time.Time
		err       string // {reg} is the registry file
		wep10     string // why WEP 10, which declares #11, is dropped
	}{
		{name: "no GitHub repo", project: "    path: widget\n", link: "{ep: 2, pr: 12, base: BASE, head: HEAD}",
			why: "the project has no GitHub repo", mergedAt: jCommitted, createdAt: jAuthored, wep10: "linked: no curated PR for WEP 10"},
		{name: "offline, nothing recorded", project: "github", link: "{ep: 2, pr: 12, base: BASE, head: HEAD}", offline: true,
			why: "the run is offline and no earlier run recorded #12", mergedAt: jCommitted, createdAt: jAuthored,
			wep10: "linked: no curated PR for WEP 10; declared link not checked: the run is offline and no earlier run recorded #11"},
		{name: "a given merged_at is kept", project: "    path: widget\n", link: "{ep: 2, pr: 12, base: BASE, head: HEAD, merged_at: 2026-03-26}",
			why: "the project has no GitHub repo", mergedAt: time.Date(2026, 3, 26, 0, 0, 0, 0, time.UTC), createdAt: jAuthored, wep10: "linked: no curated PR for WEP 10"},
		{name: "offline, recorded by an earlier online run", project: "github", link: "{ep: 2, pr: 12, base: BASE, head: HEAD}", online: true, offline: true,
			mergedAt: time.Date(2026, 3, 13, 10, 0, 0, 0, time.UTC), createdAt: time.Date(2026, 3, 12, 10, 0, 0, 0, time.UTC),
			wep10: "pr-size: 11 changed lines, fewer than 20; 1 files changed, fewer than 2"},
		{name: "offline, a link without commits needs GitHub", project: "github", link: "{ep: 2, pr: 12}", offline: true,
			err: "project widget: WEP 2: pull request acme/widget#12: not recorded by an earlier online run; run without --offline, or give the PR's base and head at {reg}:10 (projects[0].links.curated[0]) so that collect needs no GitHub"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fx := newFixture(t)
			github := "    repo: acme/widget\n    clone_url: " + fx.sw.dir + "\n"
			if tc.project == "github" {
				tc.project = github
			}
			base, head := addPR12(t, fx)
			at := func(day int) time.Time { return time.Date(2026, 3, day, 10, 0, 0, 0, time.UTC) }
			fx.gh.prs[12] = fakePR{Number: 12, Title: "WEP 2, rebased", State: "closed", Merged: true, Created: at(12), MergedT: at(13),
				Base: "h11", Head: "j", Merge: "j"}
			link := strings.NewReplacer("BASE", base, "HEAD", head).Replace(tc.link)
			reg := "projects:\n  - name: widget\n" + tc.project + "    language: Go\n    domain: tooling\n" + eps +
				"    links:\n      curated:\n        - " + link + "\n" + thresholds
			if err := os.WriteFile(fx.regPath, []byte(reg), 0o644); err != nil {
				t.Fatal(err)
			}
			wsDir := filepath.Join(fx.dir, "work")
			if tc.online {
				if err := runStage(context.Background(), t, fx.stage(t, false), wsDir); err != nil {
					t.Fatal(err)
				}
			} else if tc.offline {
				// The clone an earlier run made; GitHub itself was never asked.
				if _, err := repos.Ensure(context.Background(), filepath.Join(wsDir, "repos", "widget"), fx.sw.dir, repos.Options{}); err != nil {
					t.Fatal(err)
				}
			}
			seen := fx.gh.seen
			st := fx.stage(t, tc.offline)
			log := &captureLog{}
			st.Log = log.logf
			err := runStage(context.Background(), t, st, wsDir)
			if tc.err != "" {
				if want := strings.ReplaceAll(tc.err, "{reg}", fx.regPath); err == nil || err.Error() != want {
					t.Fatalf("err = %v\nwant %s", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fx.gh.seen != seen && (tc.offline || tc.project != github) {
				t.Errorf("GitHub was asked %d times", fx.gh.seen-seen)
			}
			pf := st.Funnel.Projects[0]
			if !reflect.DeepEqual(pf.Kept, []string{"widget-wep-0002"}) {
				t.Fatalf("kept %v; dropped %+v", pf.Kept, pf.Dropped)
			}
			// Declared links pair beside the curated ones, when GitHub
			// (or its record) can say the PR was merged.
			var wep10 []string
			for _, d := range pf.Dropped {
				if d.EP == "WEP 10" {
					wep10 = append(wep10, d.Step+": "+d.Reason)
				}
			}
			if !reflect.DeepEqual(wep10, []string{tc.wep10}) {
				t.Errorf("WEP 10 dropped at %q, want %q", wep10, tc.wep10)
			}
			var notes []string
			if tc.why != "" {
				if tc.mergedAt.Equal(jCommitted) {
					notes = append(notes, fmt.Sprintf("merged_at 2026-03-25T09:30:00Z is the committer date of the head commit %s: the curated link gives no merged_at and %s", head[:12], tc.why))
				}
				notes = append(notes, "created_at 2026-03-20T08:00:00Z is the PR's first commit (the earliest author date in base..head): the curated link gives no created_at and "+tc.why)
			}

			ws, _ := workspace.Open(wsDir, false)
			c, _ := pipeline.OpenCandidate(ws, "widget-wep-0002")
			info, err := c.LoadInfo()
			if err != nil {
				t.Fatal(err)
			}
			if !info.PR.MergedAt.Equal(tc.mergedAt) || !info.PR.CreatedAt.Equal(tc.createdAt) || !info.PR.FirstCommit.Equal(jAuthored) ||
				info.PR.BaseSHA != base || info.PR.HeadSHA != head || !reflect.DeepEqual(info.Notes, notes) {
				t.Errorf("candidate.json: PR %+v, notes %q\nwant merged %s, created %s, notes %q", info.PR, info.Notes, tc.mergedAt, tc.createdAt, notes)
			}
			var d Decision
			if err := workspace.ReadJSON(filepath.Join(wsDir, "collect/widget/pairs/widget-wep-0002-pr12.json"), &d); err != nil {
				t.Fatal(err)
			}
			if !d.Kept || !reflect.DeepEqual(d.Notes, notes) {
				t.Errorf("decision: kept %v, notes %q", d.Kept, d.Notes)
			}
			var wantFunnel []Note
			var wantLog, wantTable []string
			for _, n := range notes {
				wantFunnel = append(wantFunnel, Note{EP: "WEP 2", PR: 12, Note: n})
				wantLog = append(wantLog, "widget: WEP 2 #12: "+n)
				wantTable = append(wantTable, "  note: WEP 2 #12: "+n)
			}
			if !reflect.DeepEqual(pf.Notes, wantFunnel) {
				t.Errorf("funnel notes %+v\nwant %+v", pf.Notes, wantFunnel)
			}
			var logged []string
			for _, l := range log.lines {
				if strings.HasPrefix(l, "widget: WEP 2 #12: ") {
					logged = append(logged, l)
				}
			}
			if !reflect.DeepEqual(logged, wantLog) {
				t.Errorf("log %q\nwant %q", logged, wantLog)
			}
			var table bytes.Buffer
			if err := st.Funnel.WriteTable(&table); err != nil {
				t.Fatal(err)
			}
			var tableNotes []string
			for _, l := range strings.Split(table.String(), "\n") {
				if strings.HasPrefix(l, "  note: ") {
					tableNotes = append(tableNotes, l)
				}
			}
			if !reflect.DeepEqual(tableNotes, wantTable) {
				t.Errorf("table:\n%s", table.String())
			}
		})
	}
}

// epHistory builds an EP repository whose proposals/wep-0002.md keeps
// changing, with dated commits (author and committer alike):
//
//	c0 2026-01-10  README only
//	c1 2026-02-01  WEP 2 v1 (Accepted)
//	c2 2026-03-22  v2
//	s1 2026-03-24  v2 + a side paragraph, on a side branch from c2
//	c3 2026-04-01  v3 (Final)
//	m  2026-04-02  merges s1 into master: v3 + the side paragraph
//	c5 2026-04-03  README only
//
// The first-parent line of master is c5 m c3 c2 c1 c0: s1 is dated before
// a merge on 2026-03-25, but master only had it from 2026-04-02.
func epHistory(t *testing.T, dir string) map[string]plumbing.Hash {
	t.Helper()
	r, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := r.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	day := func(m time.Month, d int) time.Time { return time.Date(2026, m, d, 12, 0, 0, 0, time.UTC) }
	h := map[string]plumbing.Hash{}
	commit := func(name string, when time.Time, files map[string]string, parents ...plumbing.Hash) {
		h[name] = commitAt(t, r, dir, files, when, when, parents...)
	}
	wep := func(status, text string) map[string]string {
		return map[string]string{"proposals/wep-0002.md": "---\nwep: 2\ntitle: Widget proposal 2\nstatus: " + status + "\ncreated: 2026-01-01\n---\n\n## Abstract\n\n" + text}
	}
	commit("c0", day(1, 10), map[string]string{"README.md": "# proposals\n"})
	commit("c1", day(2, 1), wep("Accepted", "Text.\n"))
	commit("c2", day(3, 22), wep("Accepted", "Text, revised.\n"))
	if err := wt.Checkout(&git.CheckoutOptions{Branch: plumbing.NewBranchReferenceName("side"), Create: true}); err != nil {
		t.Fatal(err)
	}
	commit("s1", day(3, 24), wep("Accepted", "Text, revised.\n\nA side paragraph.\n"))
	if err := wt.Checkout(&git.CheckoutOptions{Branch: plumbing.Master}); err != nil {
		t.Fatal(err)
	}
	commit("c3", day(4, 1), wep("Final", "Text, revised again.\n"))
	commit("m", day(4, 2), wep("Final", "Text, revised again.\n\nA side paragraph.\n"), h["c3"], h["s1"])
	commit("c5", day(4, 3), map[string]string{"README.md": "# proposals\n\nRenamed things.\n"})
	return h
}

// Where the EP file changed after the PR, the candidate gets the EP as of
// the PR's merge: the text of the last commit at or before merged_at on
// the EP branch's first-parent line, recorded in ep.revision (and the
// URL); a text that differs from the tip's is noted. Where that commit
// has no such file, or there is none, the tip's text is used and noted.
func TestCollectEPAsOfMerge(t *testing.T) {
	fx := newFixture(t)
	base, head := addPR12(t, fx)
	h := epHistory(t, filepath.Join(fx.dir, "eps-history"))
	tip := h["c5"].String()
	for _, tc := range []struct {
		name     string
		mergedAt string
		rev      string // the commit ep.md was read at
		ep       string // the expected ep.md
		note     string // "" for none; {rev} and {tip} are 12-hex prefixes
	}{
		{"changed after the merge: the text as of the merge, not a side branch's", "2026-03-25T00:00:00Z", "c2",
			"Text, revised.\n", "proposals/wep-0002.md changed after the PR was merged (2026-03-25T00:00:00Z): ep.md is its text as of {rev} (committed 2026-03-22T12:00:00Z), the last commit of the EP repository at or before the merge, not the tip {tip}" +
				"\x00the EP's status is \"Accepted\" as of {rev} and \"Final\" at the tip {tip}; candidate.json gives the first"},
		{"unchanged since the merge: no note, the merge-time revision", "2026-04-02T18:00:00Z", "m",
			"Text, revised again.\n\nA side paragraph.\n", ""},
		{"merged at the tip's own time", "2026-04-03T12:00:00Z", "c5", "Text, revised again.\n\nA side paragraph.\n", ""},
		{"the file did not exist yet", "2026-01-15T00:00:00Z", "c5",
			"Text, revised again.\n\nA side paragraph.\n", "proposals/wep-0002.md cannot be read at {c0}, the last commit of the EP repository at or before the PR's merge (2026-01-15T00:00:00Z): no such file yet; ep.md is the text at the tip {tip}"},
		{"merged before the EP repository began", "2026-01-05T00:00:00Z", "c5",
			"Text, revised again.\n\nA side paragraph.\n", "the EP repository has no commit at or before the PR's merge (2026-01-05T00:00:00Z), so ep.md is the text at its tip {tip}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg := `projects:
  - name: widget
    path: widget
    language: Go
    domain: tooling
    eps:
      kind: git
      repo: acme/proposals
      clone_url: ` + filepath.Join(fx.dir, "eps-history") + `
      glob: "proposals/*.md"
      name: "WEP {n}"
      id_key: wep
    links:
      curated:
        - {ep: 2, pr: 12, base: ` + base + `, head: ` + head + `, created_at: 2026-01-02, merged_at: ` + tc.mergedAt + `}
    thresholds: {min_loc: 60, min_changed_lines: 20, min_files: 2, min_source_share: 0.4, min_test_files: 1}
`
			if err := os.WriteFile(fx.regPath, []byte(reg), 0o644); err != nil {
				t.Fatal(err)
			}
			wsDir := filepath.Join(t.TempDir(), "work")
			st := fx.stage(t, false)
			if err := runStage(context.Background(), t, st, wsDir); err != nil {
				t.Fatal(err)
			}
			pf := st.Funnel.Projects[0]
			if !reflect.DeepEqual(pf.Kept, []string{"widget-wep-0002"}) {
				t.Fatalf("kept %v; dropped %+v", pf.Kept, pf.Dropped)
			}
			ws, _ := workspace.Open(wsDir, false)
			c, _ := pipeline.OpenCandidate(ws, "widget-wep-0002")
			info, err := c.LoadInfo()
			if err != nil {
				t.Fatal(err)
			}
			rev := h[tc.rev].String()
			var notes []string
			if tc.note != "" {
				notes = strings.Split(strings.NewReplacer("{rev}", rev[:12], "{tip}", tip[:12], "{c0}", h["c0"].String()[:12]).Replace(tc.note), "\x00")
			}
			// The status is the one the text as of the merge declares
			// (issue 36), the tip's beside it when they differ.
			wantEP := pipeline.EPInfo{ID: "WEP 2", Title: "Widget proposal 2", File: "ep.md", Status: "Final",
				Created: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), URL: "https://github.com/acme/proposals/blob/" + rev + "/proposals/wep-0002.md", Revision: rev}
			if tc.rev == "c2" {
				wantEP.Status, wantEP.StatusAtTip = "Accepted", "Final"
			}
			if info.EP != wantEP || !reflect.DeepEqual(info.Notes, notes) {
				t.Errorf("candidate.json: EP %+v, notes %q\nwant %+v, notes %q", info.EP, info.Notes, wantEP, notes)
			}
			got, err := os.ReadFile(filepath.Join(c.Dir, "ep.md"))
			if err != nil {
				t.Fatal(err)
			}
			if want := "---\nwep: 2\ntitle: Widget proposal 2\nstatus: " + map[bool]string{true: "Final", false: "Accepted"}[tc.rev != "c2"] +
				"\ncreated: 2026-01-01\n---\n\n## Abstract\n\n" + tc.ep; string(got) != want {
				t.Errorf("ep.md:\n%s\nwant:\n%s", got, want)
			}
			var wantFunnel []Note
			for _, n := range notes {
				wantFunnel = append(wantFunnel, Note{EP: "WEP 2", PR: 12, Note: n})
			}
			if !reflect.DeepEqual(pf.Notes, wantFunnel) {
				t.Errorf("funnel notes %+v\nwant %+v", pf.Notes, wantFunnel)
			}
		})
	}
}

// An EP file that moved after the PR (python/peps moved every PEP into
// peps/ in September 2023, after PEP 706's PR merged) is read at the
// merge under its path then, followed back through exact renames; a move
// that also changed the text cannot be followed, and the tip's text is
// used, with the note that says so.
func TestCollectEPMovedSinceMerge(t *testing.T) {
	day := func(m time.Month, d int) time.Time { return time.Date(2026, m, d, 12, 0, 0, 0, time.UTC) }
	wep := func(status, text string) string {
		return "---\nwep: 2\ntitle: Widget proposal 2\nstatus: " + status + "\ncreated: 2026-01-01\n---\n\n## Abstract\n\n" + text
	}
	for _, tc := range []struct {
		name   string
		exact  bool   // the move keeps the blob
		ep     string // the expected ep.md
		url    string // the expected path in the URL; {rev} the commit read
		rev    string
		notes  []string
		status string
	}{
		{"an exact move is followed", true, wep("Accepted", "Text.\n"), "wep-0002.md", "c1", []string{
			"proposals/wep-0002.md was wep-0002.md at {c1}, the last commit of the EP repository at or before the PR's merge: the file moved since",
			"wep-0002.md changed after the PR was merged (2026-03-01T00:00:00Z): ep.md is its text as of {c1} (committed 2026-02-01T12:00:00Z), the last commit of the EP repository at or before the merge, not the tip {tip}",
			"the EP's status is \"Accepted\" as of {c1} and \"Final\" at the tip {tip}; candidate.json gives the first",
		}, "Accepted"},
		{"a move that changed the text is not", false, wep("Final", "Text, final.\n"), "proposals/wep-0002.md", "c3", []string{
			"proposals/wep-0002.md cannot be read at {c1}, the last commit of the EP repository at or before the PR's merge (2026-03-01T00:00:00Z): no such file yet; ep.md is the text at the tip {tip}",
		}, "Final"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fx := newFixture(t)
			base, head := addPR12(t, fx)
			dir := filepath.Join(fx.dir, "eps-moved")
			r, err := git.PlainInit(dir, false)
			if err != nil {
				t.Fatal(err)
			}
			h := map[string]plumbing.Hash{}
			h["c1"] = commitAt(t, r, dir, map[string]string{"wep-0002.md": wep("Accepted", "Text.\n")}, day(2, 1), day(2, 1))
			if err := os.Remove(filepath.Join(dir, "wep-0002.md")); err != nil {
				t.Fatal(err)
			}
			moved := wep("Accepted", "Text.\n")
			if !tc.exact {
				moved = wep("Accepted", "Text.\n\nMoved.\n")
			}
			h["c2"] = commitAt(t, r, dir, map[string]string{"proposals/wep-0002.md": moved}, day(4, 1), day(4, 1))
			h["c3"] = commitAt(t, r, dir, map[string]string{"proposals/wep-0002.md": wep("Final", "Text, final.\n")}, day(5, 1), day(5, 1))
			reg := `projects:
  - name: widget
    path: widget
    language: Go
    domain: tooling
    eps:
      kind: git
      repo: acme/proposals
      clone_url: ` + dir + `
      glob: "proposals/*.md"
      name: "WEP {n}"
      id_key: wep
    links:
      curated:
        - {ep: 2, pr: 12, base: ` + base + `, head: ` + head + `, created_at: 2026-01-02, merged_at: 2026-03-01T00:00:00Z}
    thresholds: {min_loc: 60, min_changed_lines: 20, min_files: 2, min_source_share: 0.4, min_test_files: 1}
`
			if err := os.WriteFile(fx.regPath, []byte(reg), 0o644); err != nil {
				t.Fatal(err)
			}
			wsDir := filepath.Join(t.TempDir(), "work")
			st := fx.stage(t, false)
			if err := runStage(context.Background(), t, st, wsDir); err != nil {
				t.Fatal(err)
			}
			ws, _ := workspace.Open(wsDir, false)
			c, _ := pipeline.OpenCandidate(ws, "widget-wep-0002")
			info, err := c.LoadInfo()
			if err != nil {
				t.Fatal(err)
			}
			repl := strings.NewReplacer("{c1}", h["c1"].String()[:12], "{tip}", h["c3"].String()[:12])
			var notes []string
			for _, n := range tc.notes {
				notes = append(notes, repl.Replace(n))
			}
			rev := h[tc.rev].String()
			if info.EP.Revision != rev || info.EP.URL != "https://github.com/acme/proposals/blob/"+rev+"/"+tc.url || info.EP.Status != tc.status || !reflect.DeepEqual(info.Notes, notes) {
				t.Errorf("candidate.json: EP %+v\nnotes %q\nwant revision %s, path %s, status %s, notes %q", info.EP, info.Notes, tc.rev, tc.url, tc.status, notes)
			}
			got, err := os.ReadFile(filepath.Join(c.Dir, "ep.md"))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.ep {
				t.Errorf("ep.md:\n%s\nwant:\n%s", got, tc.ep)
			}
		})
	}
}
