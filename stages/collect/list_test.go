package collect

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"

	"github.com/lolbench/lolbench/pipeline/ep"
)

// List reads a git source offline and says, for every proposal, where each
// field came from, and for every file left out, why. A file renamed with
// its text unchanged (and its old path kept as a pointer, as Prometheus
// did) is dated by the commit that first added the text.
func TestList(t *testing.T) {
	dir, repo, r := proposalRepo(t)
	widgets := "# Widgets\n\n* **Implementation Status:** `Implemented`\n\nText.\n"
	commitAt(t, r, repo, map[string]string{"p/2024-01-05-widgets.md": widgets, "p/README.md": "# Proposals\n"}, january(2), january(2))
	commitAt(t, r, repo, map[string]string{
		"p/2024-01-05-widgets.md": "> moved to 0007-widgets.md\n",
		"p/0007-widgets.md":       widgets,
		"p/0008-gadgets.md":       "# Gadgets\n\n* Status: Implemented\n* Created: 2024-12-01\n",
	}, january(20), january(20))
	if err := os.Symlink("0008-gadgets.md", filepath.Join(repo, "p", "0011-link.md")); err != nil {
		t.Fatal(err)
	}
	commitAt(t, r, repo, map[string]string{
		"p/0008-again.md": "# Gadgets again\n\n* Status: Implemented\n",
		"p/0010-latin.md": "# Caf\xe9\n",
		"p/0012-huge.md":  strings.Repeat("x", ep.MaxSize+1),
	}, january(25), january(25))
	reg := webRegistry(t, dir, `projects:
  - name: widget
    repo: acme/widget
    language: Go
    domain: tooling
    eps:
      kind: git
      path: proposals
      glob: "p/*.md"
      format: markdown
      metadata:
        status: ["bullet:Implementation Status", "bullet:Status"]
        created: ["bullet:Created"]
      name: "WEP {n}"
      statuses: [Implemented]
    links: {search: {patterns: ["WEP {n}"]}}
`)
	ls, err := List(context.Background(), reg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	l := ls[0]
	sha, _ := r.Head()
	want := &Listing{
		Project: "widget",
		Source:  "git " + repo + " at " + sha.Hash().String()[:12],
		Files:   8,
		Proposals: []Proposal{
			{Number: "7", ID: "WEP 7", Title: "Widgets", Status: "Implemented", Created: "2025-01-02", Path: "p/0007-widgets.md",
				From: map[string]string{"number": "file name", "title": "first heading", "status": "bullet:Implementation Status", "created": "git"}},
			// Two documents with one number are both listed, each with a
			// warning naming the other (issue 33 §1).
			{Number: "8", ID: "WEP 8", Title: "Gadgets again", Status: "Implemented", Created: "2025-01-25", Path: "p/0008-again.md",
				From:     map[string]string{"number": "file name", "title": "first heading", "status": "bullet:Status", "created": "git"},
				Warnings: []string{"p/0008-again.md: WEP 8 is also p/0008-gadgets.md; collect keeps the first by path"}},
			{Number: "8", ID: "WEP 8", Title: "Gadgets", Status: "Implemented", Created: "2024-12-01", Path: "p/0008-gadgets.md",
				From:     map[string]string{"number": "file name", "title": "first heading", "status": "bullet:Status", "created": "bullet:Created"},
				Warnings: []string{"p/0008-gadgets.md: WEP 8 is also p/0008-again.md; collect keeps the first by path"}},
		},
		Dropped: []Drop{
			{EP: "p/0010-latin.md", Path: "p/0010-latin.md", Step: StepEPs, Reason: "line 1: invalid UTF-8 encoding (EP documents must be UTF-8)"},
			{EP: "p/0011-link.md", Path: "p/0011-link.md", Step: StepEPs, Reason: "unreadable: a symbolic link; only regular files are read"},
			{EP: "p/0012-huge.md", Path: "p/0012-huge.md", Step: StepEPs, Reason: "unreadable: 1048577 bytes, more than the EP size cap of 1 MiB"},
			{EP: "p/README.md", Path: "p/README.md", Step: StepEPs, Reason: "no proposal number in the metadata or the file name of p/README.md"},
			{EP: "WEP 2024", Path: "p/2024-01-05-widgets.md", Step: StepStatus, Reason: "status (none) is not one of Implemented"},
		},
		Count: Count{Proposals: 3, Title: 3, Status: 3, Created: 3},
		From: map[string]map[string]int{"number": {"file name": 3}, "title": {"first heading": 3},
			"status": {"bullet:Implementation Status": 1, "bullet:Status": 2}, "created": {"git": 2, "bullet:Created": 1}},
	}
	if !reflect.DeepEqual(l, want) {
		got, _ := json.MarshalIndent(l, "", "  ")
		exp, _ := json.MarshalIndent(want, "", "  ")
		t.Errorf("listing:\n%s\nwant:\n%s", got, exp)
	}
}

// A source List cannot read offline says why, and names the field.
func TestListUnreadable(t *testing.T) {
	dir := t.TempDir()
	reg := webRegistry(t, dir, `projects:
  - name: cpython
    repo: python/cpython
    language: Python
    domain: programming language
    eps: {kind: git, repo: python/peps, glob: "peps/*.rst", name: "PEP {n}"}
    links: {search: {patterns: ["PEP {n}"]}}
  - name: issues
    repo: acme/x
    language: Go
    domain: tooling
    eps: {kind: github-issues, label: proposal, name: "X {n}"}
    links: {search: {patterns: ["X {n}"]}}
`)
	ls, err := List(context.Background(), reg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		reg.File + ":6: projects[0].eps: the proposals of python/peps are cloned into a workspace, and none was given; set eps.path to your clone, or give the workspace of an earlier lolbench collect",
		`project issues: issues of acme/x labelled "proposal": not recorded by an earlier online run, and no workspace was given to replay it from`,
	}
	for i, l := range ls {
		if l.Error != want[i] {
			t.Errorf("%s: error %q\nwant %q", l.Project, l.Error, want[i])
		}
	}
	if _, err := List(context.Background(), reg, []string{"nope"}, nil); err == nil || err.Error() != reg.File+` has no project "nope"; it has cpython, issues` {
		t.Errorf("unknown project: %v", err)
	}
}

// proposalRepo makes an empty git repository, proposals/ in a new folder
// dir, for a registry in dir to read with eps.path.
func proposalRepo(t *testing.T) (dir, repo string, r *git.Repository) {
	t.Helper()
	dir = t.TempDir()
	repo = filepath.Join(dir, "proposals")
	r, err := git.PlainInit(repo, false)
	if err != nil {
		t.Fatal(err)
	}
	return dir, repo, r
}

// january is a commit time: 10:00 UTC on January d, 2025.
func january(d int) time.Time { return time.Date(2025, 1, d, 10, 0, 0, 0, time.UTC) }

// TestListRenamedWithEdits: a proposal moved to a new path with edits in
// the same commit (csharplang's C# 15 specs) is dated by the commit that
// added its first path, when at least half its lines are the deleted
// file's; a file added beside an unrelated deletion keeps its own date
// (issue 33 §2).
func TestListRenamedWithEdits(t *testing.T) {
	dir, repo, r := proposalRepo(t)
	var body strings.Builder
	for i := range 10 {
		fmt.Fprintf(&body, "Line %d of the specification.\n", i)
	}
	spec := "# Labeled break\n\n" + body.String()
	commitAt(t, r, repo, map[string]string{"p/labeled-break.md": spec, "p/notes.md": "# Notes\n\nUnrelated.\n"}, january(2), january(2))
	for _, f := range []string{"p/labeled-break.md", "p/notes.md"} {
		if err := os.Remove(filepath.Join(repo, filepath.FromSlash(f))); err != nil {
			t.Fatal(err)
		}
	}
	edited := strings.Replace(spec, "Line 3 of", "Line three of", 1) + "A new paragraph.\n"
	commitAt(t, r, repo, map[string]string{"p/csharp-15/0042-labeled-break.md": edited, "p/0043-other.md": "# Other\n\nNew text.\n"}, january(20), january(20))
	reg := webRegistry(t, dir, `projects:
  - name: widget
    repo: acme/widget
    language: Go
    domain: tooling
    eps:
      kind: git
      path: proposals
      glob: "p/**/*.md"
      format: markdown
      name: "WEP {n}"
    links: {search: {patterns: ["WEP {n}"]}}
`)
	ls, err := List(context.Background(), reg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ls[0].Proposals {
		got = append(got, p.ID+" "+p.Created+" "+p.From["created"])
	}
	if want := []string{"WEP 42 2025-01-02 git", "WEP 43 2025-01-20 git"}; !reflect.DeepEqual(got, want) {
		t.Errorf("dates %q, want %q", got, want)
	}
}

// TestListGitDateAuthorDay: a date from git is the day in the commit's own
// time zone, as git log's %as shows it (gRFC L38: added 2018-09-20 17:02
// -0700, already the 21st in UTC; the held-out check of issue 33).
func TestListGitDateAuthorDay(t *testing.T) {
	dir, repo, r := proposalRepo(t)
	pacific := time.Date(2018, 9, 20, 17, 2, 52, 0, time.FixedZone("", -7*3600))
	commitAt(t, r, repo, map[string]string{"p/0038-channelz.md": "# Channelz\n"}, pacific, pacific)
	reg := webRegistry(t, dir, `projects:
  - name: widget
    repo: acme/widget
    language: Go
    domain: tooling
    eps:
      kind: git
      path: proposals
      glob: "p/*.md"
      format: markdown
      name: "WEP {n}"
    links: {search: {patterns: ["WEP {n}"]}}
`)
	ls, err := List(context.Background(), reg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := ls[0].Proposals[0].Created; got != "2018-09-20" {
		t.Errorf("created %s, want 2018-09-20", got)
	}
}
