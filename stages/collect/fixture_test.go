package collect

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/lolbench/lolbench/internal/testrepo"
	"github.com/lolbench/lolbench/pipeline/diff"
)

// The fixture project "widget" (acme/widget on a fake GitHub): a software
// repository whose history holds one PR per criterion it fails, a PR that
// passes them all, and an EP repository with RST and Markdown proposals.
//
//	PR  proposal  fails                       how
//	1   WEP 1     1 source-loc                its base has 21 LoC (< 60)
//	2   WEP 2     -                           head only on refs/pull/2/head, squash-merged
//	3   WEP 3     2 pr-size (lines)           16 changed lines (< 40)
//	4   WEP 4     5 has-tests                 no test file
//	5   WEP 5     3 ep-predates-pr            WEP 5 is dated after the PR
//	6,7 WEP 6     4 one-merged-pr             two merged PRs
//	8,9 WEP 7     4 one-merged-pr             #9 is open
//	10  WEP 8     2 pr-size (source share)    22 of 63 lines are source
//	11  WEP 10    2 pr-size (lines)           declared by WEP 10 only; a decoy for "WEP 2" (it is WEP 20's)
//
// WEP 9 is a Draft (status step) and proposals/wep-template.md has no
// number (eps step). WEP 10 is found by no search: it is paired with #11
// by the link it declares (pr-size: 11 changed lines in 1 file). WEP 12
// has no PR (linked step): it declares an issue and another project's PR.

// goFile is a Go file with n one-line declarations: n+1 code lines.
func goFile(pkg string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n", pkg)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "var v%d = %d\n", i, i)
	}
	return b.String()
}

func lines(n int) string { return strings.Repeat("line\n", n) }

type swRepo struct {
	dir     string
	r       *git.Repository
	wt      *git.Worktree
	when    time.Time
	commits map[string]plumbing.Hash // tag -> commit
}

func (s *swRepo) commit(t *testing.T, tag string, files map[string]string) plumbing.Hash {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(s.dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		t.Fatal(err)
	}
	s.when = s.when.Add(time.Hour)
	sig := &object.Signature{Name: "Dev", Email: "dev@example.com", When: s.when}
	h, err := s.wt.Commit(tag, &git.CommitOptions{Author: sig, Committer: sig})
	if err != nil {
		t.Fatal(err)
	}
	s.commits[tag] = h
	return h
}

func (s *swRepo) ref(t *testing.T, name string, h plumbing.Hash) {
	t.Helper()
	if err := s.r.Storer.SetReference(plumbing.NewHashReference(plumbing.ReferenceName(name), h)); err != nil {
		t.Fatal(err)
	}
}

// fakePR is one PR of the fake GitHub.
type fakePR struct {
	Number           int
	Title, Body      string
	State            string // open or closed
	Merged           bool
	Created, MergedT time.Time
	Base, Head       string // tags of the software repository
	Merge            string
}

func buildSoftware(t *testing.T, dir string) *swRepo {
	t.Helper()
	r, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := r.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	s := &swRepo{dir: dir, r: r, wt: wt, when: time.Date(2026, 3, 1, 23, 0, 0, 0, time.UTC), commits: map[string]plumbing.Hash{}}
	s.commit(t, "small", map[string]string{"core/core.go": goFile("core", 20), "README.md": "# widget\n"})
	s.commit(t, "h1", map[string]string{"a/a1.go": goFile("a", 10), "a/a2.go": goFile("a", 10), "a/a3.go": goFile("a", 10), "a/a_test.go": goFile("a", 10)})
	// PR 2 on a side branch, squash-merged: its head is only on refs/pull/2/head.
	if err := wt.Checkout(&git.CheckoutOptions{Branch: plumbing.NewBranchReferenceName("pr2"), Create: true}); err != nil {
		t.Fatal(err)
	}
	pr2 := map[string]string{"b/b1.go": goFile("b", 10), "b/b2.go": goFile("b", 10), "b/b3.go": goFile("b", 10), "b/b_test.go": goFile("b", 10)}
	h2 := s.commit(t, "h2", pr2)
	s.ref(t, "refs/pull/2/head", h2)
	if err := wt.Checkout(&git.CheckoutOptions{Branch: plumbing.Master}); err != nil {
		t.Fatal(err)
	}
	s.commit(t, "m2", pr2)
	if err := r.Storer.RemoveReference(plumbing.NewBranchReferenceName("pr2")); err != nil {
		t.Fatal(err)
	}
	s.commit(t, "h3", map[string]string{"c/c1.go": goFile("c", 3), "c/c2.go": goFile("c", 3), "c/c3.go": goFile("c", 3), "c/c_test.go": goFile("c", 3)})
	s.commit(t, "h4", map[string]string{"d/d1.go": goFile("d", 10), "d/d2.go": goFile("d", 10), "d/d3.go": goFile("d", 10), "d/d4.go": goFile("d", 10)})
	s.commit(t, "h5", map[string]string{"e/e1.go": goFile("e", 10), "e/e2.go": goFile("e", 10), "e/e3.go": goFile("e", 10), "e/e_test.go": goFile("e", 10)})
	s.commit(t, "h6", map[string]string{"f/f1.go": goFile("f", 10)})
	s.commit(t, "h7", map[string]string{"f/f2.go": goFile("f", 10)})
	s.commit(t, "h8", map[string]string{"g/g1.go": goFile("g", 10)})
	s.commit(t, "h10", map[string]string{"h/doc.md": lines(30), "h/h1.go": goFile("h", 10), "h/h2.go": goFile("h", 10), "h/h_test.go": goFile("h", 10)})
	s.commit(t, "h11", map[string]string{"i/i1.go": goFile("i", 10)})
	for n, tag := range map[int]string{1: "h1", 3: "h3", 4: "h4", 5: "h5", 6: "h6", 7: "h7", 8: "h8", 10: "h10", 11: "h11"} {
		s.ref(t, fmt.Sprintf("refs/pull/%d/head", n), s.commits[tag])
	}
	return s
}

func widgetPRs() []fakePR {
	at := func(day int) time.Time { return time.Date(2026, 3, day, 10, 0, 0, 0, time.UTC) }
	merged := func(n int, title, base, head string) fakePR {
		return fakePR{Number: n, Title: title, State: "closed", Merged: true, Created: at(n), MergedT: at(n + 1), Base: base, Head: head, Merge: head}
	}
	prs := []fakePR{
		merged(1, "Implement WEP 1", "small", "h1"),
		merged(2, "WEP 2: widgets", "h1", "h2"),
		merged(3, "Small part of WEP-3", "m2", "h3"),
		merged(4, "WEP 4 without tests", "h3", "h4"),
		merged(5, "Implement WEP 5", "h4", "h5"),
		merged(6, "WEP 6 part one", "h5", "h6"),
		merged(7, "WEP 6 part two", "h6", "h7"),
		merged(8, "Implement WEP 7", "h7", "h8"),
		{Number: 9, Title: "Alternative WEP 7 implementation", State: "open", Created: at(9), Base: "h8", Head: "h8"},
		merged(10, "Docs-heavy WEP 8", "h8", "h10"),
		merged(11, "Follow-up to WEP 20", "h10", "h11"),
	}
	prs[1].Merge = "m2"
	return prs
}

// wepFiles are the proposals of the EP repository.
func wepFiles() map[string]string {
	rst := func(n int, status, created string) string {
		return fmt.Sprintf("WEP: %d\nTitle: Widget proposal %d\nStatus: %s\nCreated: %s\n\nAbstract\n========\n\nText.\n", n, n, status, created)
	}
	md := func(n int, status, created string) string {
		var fm strings.Builder
		fmt.Fprintf(&fm, "---\nwep: %d\ntitle: Widget proposal %d\nstatus: %s\n", n, n, status)
		if created != "" {
			fmt.Fprintf(&fm, "created: %s\n", created)
		}
		fm.WriteString("---\n\n## Abstract\n\nText.\n")
		return fm.String()
	}
	return map[string]string{
		"proposals/wep-0001.rst": rst(1, "Final", "01-Jan-2026"),
		"proposals/wep-0003.rst": rst(3, "Final", "01-Jan-2026"),
		"proposals/wep-0004.md":  md(4, "Accepted", "2026-01-01"),
		"proposals/wep-0005.md":  md(5, "Accepted", "2026-06-01"),
		"proposals/wep-0006.rst": rst(6, "Final", "01-Jan-2026"),
		"proposals/wep-0007.md":  md(7, "Accepted", "2026-01-01"),
		"proposals/wep-0008.md":  md(8, "Accepted", ""), // dated by the EP repository's history
		"proposals/wep-0009.md":  md(9, "Draft", "2026-01-01"),
		// Declared links: WEP 2 names its PR, which the search finds too;
		// WEP 10 names #11, which no search finds; WEP 12 names a
		// tracking issue (not a PR) and another repository's PR.
		"proposals/wep-0002.md": strings.Replace(md(2, "Accepted", "2026-01-01"), "Text.", "Implemented in acme/widget#2.", 1),
		"proposals/wep-0010.md": strings.Replace(md(10, "Accepted", "2026-01-01"), "Text.", "First part: (acme/widget#11).", 1),
		"proposals/wep-0012.md": strings.Replace(md(12, "Accepted", "2026-01-01"), "Text.",
			"Tracking issue: https://github.com/acme/widget/issues/40.\nPrior art: https://github.com/other/tool/pull/3.", 1),
		"proposals/wep-template.md": "# Template\n",
		"README.md":                 "# proposals\n",
	}
}

func buildEPRepo(t *testing.T, dir string) {
	t.Helper()
	src := t.TempDir()
	for p, content := range wepFiles() {
		full := filepath.Join(src, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := testrepo.Build(dir, testrepo.Step{Overlay: src}); err != nil {
		t.Fatal(err)
	}
}

// fakeGitHub serves the GitHub API calls collection makes, from the PRs and
// the software repository. It counts every request and every successful
// answer, and can fail on purpose: a primary rate limit on the first
// search, a burst of 502s on the files of PR 2, and a cancellation of the
// run at the n-th request.
type fakeGitHub struct {
	t      *testing.T
	sw     *swRepo
	prs    map[int]fakePR
	now    time.Time
	srv    *httptest.Server
	mu     sync.Mutex
	seen   int            // requests
	served map[string]int // request URI -> successful answers
	// failures left
	rateLimit bool
	burst502  int
	// cancelAt cancels the run when the n-th request arrives (0: never);
	// that request is not answered.
	cancelAt int
	cancel   context.CancelFunc
	// gone PRs answer 404, though searches still list them.
	gone map[int]bool
	// incomplete searches (by phrase) answer incomplete_results this
	// many more times.
	incomplete map[string]int
}

func newFakeGitHub(t *testing.T, sw *swRepo, now time.Time) *fakeGitHub {
	f := &fakeGitHub{t: t, sw: sw, prs: map[int]fakePR{}, now: now, served: map[string]int{}, rateLimit: true, burst502: 3}
	for _, p := range widgetPRs() {
		f.prs[p.Number] = p
	}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

var (
	prPath      = regexp.MustCompile(`^/repos/acme/widget/pulls/([0-9]+)(/commits|/files)?$`)
	quotedQuery = regexp.MustCompile(`"([^"]*)"`)
)

func (f *fakeGitHub) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.seen++
	if f.cancelAt > 0 && f.seen == f.cancelAt {
		f.mu.Unlock()
		f.cancel()
		<-r.Context().Done()
		return
	}
	if r.URL.Path == "/search/issues" && f.rateLimit {
		f.rateLimit = false
		f.mu.Unlock()
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Resource", "search")
		w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(f.now.Add(30*time.Second).Unix(), 10))
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `{"message":"API rate limit exceeded"}`)
		return
	}
	if r.URL.Path == "/repos/acme/widget/pulls/2/files" && f.burst502 > 0 {
		f.burst502--
		f.mu.Unlock()
		w.WriteHeader(http.StatusBadGateway)
		return
	}
	f.mu.Unlock()

	var body any
	switch m := prPath.FindStringSubmatch(r.URL.Path); {
	case r.URL.Path == "/repos/acme/widget/issues":
		if r.URL.Query().Get("labels") != "design" || r.URL.Query().Get("state") != "all" {
			f.t.Errorf("issues request %s", r.URL.RequestURI())
		}
		body = []any{
			map[string]any{"number": 50, "title": "Design: widgets", "body": "## Goals\n\nWidgets.", "state": "closed",
				"html_url": "https://github.com/acme/widget/issues/50", "created_at": "2026-01-05T08:00:00Z"},
			map[string]any{"number": 51, "title": "a PR", "pull_request": map[string]any{"url": "x"}},
		}
	case r.URL.Path == "/search/issues":
		body = f.search(r.URL.Query().Get("q"))
	case m != nil:
		n, _ := strconv.Atoi(m[1])
		p, ok := f.prs[n]
		if !ok || f.gone[n] {
			http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
			return
		}
		switch m[2] {
		case "":
			body = f.pull(p)
		case "/commits":
			body = f.commits(p)
		case "/files":
			body = f.files(p)
		}
	default:
		http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-RateLimit-Remaining", "4000")
	if err := json.NewEncoder(w).Encode(body); err != nil {
		f.t.Error(err)
	}
	f.mu.Lock()
	f.served[r.URL.RequestURI()]++
	f.mu.Unlock()
}

// search mimics GitHub's looseness: any PR whose title or body holds the
// phrase, so "WEP 2" also finds "WEP 20".
func (f *fakeGitHub) search(q string) any {
	if !strings.Contains(q, "repo:acme/widget is:pr in:title,body") {
		f.t.Errorf("unexpected search %q", q)
	}
	m := quotedQuery.FindStringSubmatch(q)
	var items []any
	for n := 1; n <= len(f.prs)+1; n++ {
		p, ok := f.prs[n]
		if !ok || m == nil || !strings.Contains(strings.ToLower(p.Title+" "+p.Body), strings.ToLower(m[1])) {
			continue
		}
		links := map[string]any{"url": "x"}
		if p.Merged {
			links["merged_at"] = p.MergedT
		}
		items = append(items, map[string]any{"number": n, "title": p.Title, "body": p.Body, "state": p.State,
			"html_url": fmt.Sprintf("https://github.com/acme/widget/pull/%d", n), "created_at": p.Created,
			"user": map[string]any{"login": "dev"}, "pull_request": links})
	}
	incomplete := false
	if m != nil && f.incomplete[m[1]] > 0 {
		f.incomplete[m[1]]--
		incomplete = true
	}
	return map[string]any{"total_count": len(items), "incomplete_results": incomplete, "items": items}
}

func (f *fakeGitHub) sha(tag string) string { return f.sw.commits[tag].String() }

func (f *fakeGitHub) pull(p fakePR) any {
	out := map[string]any{"number": p.Number, "title": p.Title, "body": p.Body, "state": p.State, "merged": p.Merged,
		"html_url": fmt.Sprintf("https://github.com/acme/widget/pull/%d", p.Number), "created_at": p.Created,
		"user": map[string]any{"login": "dev"}, "base": map[string]any{"ref": "master", "sha": f.sha(p.Base)},
		"head": map[string]any{"ref": "topic", "sha": f.sha(p.Head)}, "changed_files": len(f.change(p).Files)}
	if p.Merged {
		out["merged_at"] = p.MergedT
		out["merge_commit_sha"] = f.sha(p.Merge)
	}
	return out
}

func (f *fakeGitHub) change(p fakePR) *diff.Change {
	r, err := diff.Open(f.sw.dir)
	if err != nil {
		f.t.Fatal(err)
	}
	c, err := r.Diff(context.Background(), f.sha(p.Base), f.sha(p.Head))
	if err != nil {
		f.t.Fatal(err)
	}
	return c
}

func (f *fakeGitHub) commits(p fakePR) any {
	c, err := f.sw.r.CommitObject(f.sw.commits[p.Head])
	if err != nil {
		f.t.Fatal(err)
	}
	return []any{map[string]any{"sha": c.Hash.String(), "commit": map[string]any{
		"author": map[string]any{"date": c.Author.When}, "committer": map[string]any{"date": c.Committer.When}}}}
}

func (f *fakeGitHub) files(p fakePR) any {
	var out []any
	for _, fl := range f.change(p).Files {
		out = append(out, map[string]any{"filename": fl.Path(), "status": "added", "additions": fl.Inserted, "deletions": fl.Deleted})
	}
	return out
}
