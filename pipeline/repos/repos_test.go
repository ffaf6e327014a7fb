package repos

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// origin builds a repository: main has c1 -> c2 -> c4 (a merge of c3, a
// side commit with parent c1, which refs/pull/9/head names), and
// refs/pull/10/head names c5, a commit on top of c4 that no branch holds.
func origin(t *testing.T) (dir string, c map[string]plumbing.Hash) {
	t.Helper()
	dir = t.TempDir()
	r, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, _ := r.Worktree()
	c = map[string]plumbing.Hash{}
	when := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	commit := func(name, file string, parents ...plumbing.Hash) {
		os.WriteFile(filepath.Join(dir, file), []byte(name+"\n"), 0o644)
		wt.Add(file)
		when = when.Add(time.Hour)
		sig := &object.Signature{Name: "T", Email: "t@example.com", When: when}
		h, err := wt.Commit(name, &git.CommitOptions{Author: sig, Committer: sig, Parents: parents})
		if err != nil {
			t.Fatal(err)
		}
		c[name] = h
	}
	commit("c1", "a.txt")
	if err := wt.Checkout(&git.CheckoutOptions{Branch: "refs/heads/topic", Create: true}); err != nil {
		t.Fatal(err)
	}
	commit("c3", "b.txt")
	if err := wt.Checkout(&git.CheckoutOptions{Branch: plumbing.Master}); err != nil {
		t.Fatal(err)
	}
	commit("c2", "c.txt")
	commit("c4", "b.txt", c["c2"], c["c3"])
	if err := wt.Checkout(&git.CheckoutOptions{Branch: "refs/heads/topic2", Create: true}); err != nil {
		t.Fatal(err)
	}
	commit("c5", "d.txt")
	if err := wt.Checkout(&git.CheckoutOptions{Branch: plumbing.Master}); err != nil {
		t.Fatal(err)
	}
	r.Storer.SetReference(plumbing.NewHashReference("refs/pull/9/head", c["c3"]))
	r.Storer.SetReference(plumbing.NewHashReference("refs/pull/10/head", c["c5"]))
	r.Storer.RemoveReference("refs/heads/topic")
	r.Storer.RemoveReference("refs/heads/topic2")
	return dir, c
}

func TestCloneFetchAndQueries(t *testing.T) {
	src, c := origin(t)
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "repos", "proj")
	var log []string
	opt := Options{Log: func(f string, a ...any) { log = append(log, f) }}

	cloned, err := Ensure(ctx, dir, src, opt)
	if err != nil || !cloned {
		t.Fatalf("Ensure = %v, %v", cloned, err)
	}
	r, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Worktree(); !errors.Is(err, git.ErrIsBareRepository) {
		t.Errorf("clone is not bare: %v", err)
	}
	tags, _ := r.Tags()
	if n := 0; tags.ForEach(func(*plumbing.Reference) error { n++; return nil }) == nil && n != 0 {
		t.Errorf("clone has %d tags", n)
	}
	entries, _ := os.ReadDir(filepath.Dir(dir))
	if len(entries) != 1 {
		t.Errorf("repos/ holds %d entries, want only the clone", len(entries))
	}

	// Reused, even offline.
	if cloned, err := Ensure(ctx, dir, src, Options{Offline: true}); err != nil || cloned {
		t.Fatalf("second Ensure = %v, %v", cloned, err)
	}
	tip, err := Tip(dir, "")
	if err != nil || tip != c["c4"].String() {
		t.Fatalf("Tip = %s, %v; want c4", tip, err)
	}
	// PR 10's head is on no branch: absent until fetched.
	if has, err := HasCommit(dir, c["c5"].String()); err != nil || has {
		t.Fatalf("HasCommit(c5) before the fetch = %v, %v", has, err)
	}
	if err := Fetch(ctx, dir, []string{PRRefSpec(10)}, opt); err != nil {
		t.Fatal(err)
	}
	if has, err := HasCommit(dir, c["c5"].String()); err != nil || !has {
		t.Fatalf("HasCommit(c5) after the fetch = %v, %v", has, err)
	}
	r, _ = git.PlainOpen(dir)
	if ref, err := r.Reference("refs/pull/10/head", true); err != nil || ref.Hash() != c["c5"] {
		t.Fatalf("refs/pull/10/head = %v, %v", ref, err)
	}
	if err := Fetch(ctx, dir, []string{PRRefSpec(10)}, opt); err != nil {
		t.Errorf("fetching again: %v", err)
	}
	if err := Fetch(ctx, dir, nil, Options{Offline: true}); !errors.Is(err, ErrOffline) {
		t.Errorf("offline fetch: %v", err)
	}

	mb, err := MergeBase(dir, c["c2"].String(), c["c3"].String())
	if err != nil || mb != c["c1"].String() {
		t.Errorf("MergeBase(c2, c3) = %s, %v; want c1", mb, err)
	}
	first, n, err := FirstCommit(dir, c["c1"].String(), c["c4"].String())
	if err != nil || n != 3 || !first.Equal(time.Date(2026, 1, 1, 2, 0, 0, 0, time.UTC)) {
		t.Errorf("FirstCommit(c1..c4) = %v, %d, %v; want c3's time and 3 commits", first, n, err)
	}
	first, n, err = FirstCommit(dir, c["c2"].String(), c["c4"].String())
	if err != nil || n != 2 || !first.Equal(time.Date(2026, 1, 1, 2, 0, 0, 0, time.UTC)) {
		t.Errorf("FirstCommit(c2..c4) = %v, %d, %v; want c3 and c4", first, n, err)
	}
	if _, n, err := FirstCommit(dir, c["c4"].String(), c["c4"].String()); err != nil || n != 0 {
		t.Errorf("FirstCommit(c4..c4) = %d, %v", n, err)
	}
	if _, err := MergeBase(dir, "main", c["c3"].String()); err == nil {
		t.Error("MergeBase accepted a branch name")
	}
	if len(log) == 0 || !strings.HasPrefix(log[0], "cloning") {
		t.Errorf("log = %q", log)
	}
}

func TestEnsureFailures(t *testing.T) {
	ctx := context.Background()
	base := t.TempDir()

	_, err := Ensure(ctx, filepath.Join(base, "missing"), "https://github.com/o/r.git", Options{Offline: true})
	if !errors.Is(err, ErrOffline) || !strings.Contains(err.Error(), "run once without --offline to clone it") {
		t.Errorf("offline without clone: %v", err)
	}
	junk := filepath.Join(base, "junk")
	os.MkdirAll(junk, 0o755)
	os.WriteFile(filepath.Join(junk, "x"), []byte("x"), 0o644)
	if _, err := Ensure(ctx, junk, "/nowhere", Options{}); err == nil || !strings.Contains(err.Error(), "is not a git repository") {
		t.Errorf("non-repository folder: %v", err)
	}
	bad := filepath.Join(base, "bad")
	if _, err := Ensure(ctx, bad, filepath.Join(base, "no-such-origin"), Options{}); err == nil {
		t.Error("clone of a missing origin succeeded")
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Errorf("a failed clone left %s", bad)
	}
	matches, _ := filepath.Glob(filepath.Join(base, "bad.tmp-*"))
	if len(matches) != 0 {
		t.Errorf("a failed clone left %v", matches)
	}
}
