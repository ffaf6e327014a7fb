// Package repos keeps the git clones of a workspace (<workspace>/repos/) and
// answers the commit questions collection asks of them: is a commit there,
// the merge base of a PR, the first commit of a change.
//
// Clones are bare and made with go-git: one branch (the remote's default),
// no tags; PR heads and other branches are fetched on demand
// (refs/pull/N/head). They are not blobless: go-git v5 has no partial-clone
// filter in its clone and fetch options, and its object store cannot fetch
// a missing blob on demand, which the LoC counter and the diff need. A clone
// is made in a temporary folder beside its place and renamed into it when
// complete, so an interrupted clone never leaves a half repository that a
// later run would reuse. Clones are reused across runs; offline runs use
// only what is there.
package repos

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// ErrOffline is wrapped by every operation that would need the network in
// an offline run.
var ErrOffline = errors.New("offline")

// Options tune clones and fetches.
type Options struct {
	// Offline forbids the network: Ensure only checks that the clone
	// exists and Fetch fails.
	Offline bool
	// Log receives one line per clone or fetch.
	Log func(format string, args ...any)
	// Progress receives git's progress messages; nil discards them.
	Progress io.Writer
}

func (o Options) logf(format string, args ...any) {
	if o.Log != nil {
		o.Log(format, args...)
	}
}

// Ensure makes sure dir holds a bare clone of url and returns whether it
// had to clone. An existing repository is reused as is.
func Ensure(ctx context.Context, dir, url string, o Options) (bool, error) {
	if _, err := git.PlainOpen(dir); err == nil {
		return false, nil
	} else if st, serr := os.Stat(dir); serr == nil {
		if !st.IsDir() {
			return false, fmt.Errorf("clone %s: exists and is not a directory", dir)
		}
		entries, _ := os.ReadDir(dir)
		if len(entries) > 0 {
			return false, fmt.Errorf("clone %s: exists and is not a git repository (%v); remove it to clone again", dir, err)
		}
	}
	if o.Offline {
		return false, fmt.Errorf("no clone of %s at %s: %w; run once without --offline to clone it", url, dir, ErrOffline)
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return false, fmt.Errorf("clone %s: %w", dir, err)
	}
	removeStale(parent, filepath.Base(dir))
	tmp, err := os.MkdirTemp(parent, filepath.Base(dir)+".tmp-")
	if err != nil {
		return false, fmt.Errorf("clone %s: %w", dir, err)
	}
	o.logf("cloning %s into %s (bare, one branch; this can take a while for a large project)", url, dir)
	_, err = git.PlainCloneContext(ctx, tmp, true, &git.CloneOptions{
		URL: url, SingleBranch: true, Tags: git.NoTags, Progress: o.Progress,
	})
	if err != nil {
		os.RemoveAll(tmp)
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		return false, fmt.Errorf("clone %s into %s: %w", url, dir, err)
	}
	os.RemoveAll(dir) // an empty folder, checked above
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		return false, fmt.Errorf("clone %s: %w", dir, err)
	}
	return true, nil
}

// removeStale deletes temporary folders of clones that a killed run left.
func removeStale(parent, base string) {
	matches, _ := filepath.Glob(filepath.Join(parent, base+".tmp-*"))
	for _, m := range matches {
		os.RemoveAll(m)
	}
}

// Fetch fetches refspecs ("+refs/pull/7/head:refs/pull/7/head") from the
// clone's origin; with none, the remote's configured ones. Being up to date
// is not an error.
func Fetch(ctx context.Context, dir string, refspecs []string, o Options) error {
	if o.Offline {
		return fmt.Errorf("fetch %s into %s: %w", strings.Join(refspecs, " "), dir, ErrOffline)
	}
	r, err := git.PlainOpen(dir)
	if err != nil {
		return fmt.Errorf("open %s: %w", dir, err)
	}
	var specs []config.RefSpec
	for _, s := range refspecs {
		rs := config.RefSpec(s)
		if err := rs.Validate(); err != nil {
			return fmt.Errorf("fetch %q: %w", s, err)
		}
		specs = append(specs, rs)
	}
	o.logf("fetching %s into %s", describe(refspecs), dir)
	err = r.FetchContext(ctx, &git.FetchOptions{RefSpecs: specs, Tags: git.NoTags, Progress: o.Progress, Force: true})
	if err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("fetch %s into %s: %w", describe(refspecs), dir, err)
	}
	return nil
}

func describe(refspecs []string) string {
	if len(refspecs) == 0 {
		return "origin"
	}
	return strings.Join(refspecs, " ")
}

// PRRefSpec is the refspec that fetches PR number n's head.
func PRRefSpec(n int) string {
	return fmt.Sprintf("+refs/pull/%d/head:refs/pull/%d/head", n, n)
}

// BranchRefSpec fetches branch into its remote-tracking ref.
func BranchRefSpec(branch string) string {
	return fmt.Sprintf("+refs/heads/%s:refs/remotes/origin/%s", branch, branch)
}

// HasCommit reports whether the repository at dir holds commit sha (40
// hex digits).
func HasCommit(dir, sha string) (bool, error) {
	r, err := git.PlainOpen(dir)
	if err != nil {
		return false, fmt.Errorf("open %s: %w", dir, err)
	}
	if !plumbing.IsHash(sha) {
		return false, fmt.Errorf("%q is not a commit SHA", sha)
	}
	_, err = r.CommitObject(plumbing.NewHash(sha))
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return false, nil
	}
	return err == nil, err
}

// Tip resolves a branch of a clone or a local repository to its commit:
// the remote-tracking ref (kept fresh by Fetch) before the local branch.
// An empty branch is the one HEAD names.
func Tip(dir, branch string) (string, error) {
	r, err := git.PlainOpen(dir)
	if err != nil {
		return "", fmt.Errorf("open %s: %w", dir, err)
	}
	if branch == "" {
		head, err := r.Reference(plumbing.HEAD, false)
		if err != nil {
			return "", fmt.Errorf("%s: HEAD: %w", dir, err)
		}
		if head.Type() == plumbing.SymbolicReference {
			branch = head.Target().Short()
		} else {
			return head.Hash().String(), nil
		}
	}
	for _, name := range []plumbing.ReferenceName{
		plumbing.NewRemoteReferenceName("origin", branch),
		plumbing.NewBranchReferenceName(branch),
		plumbing.NewTagReferenceName(branch),
	} {
		ref, err := r.Reference(name, true)
		if err != nil {
			continue
		}
		h := ref.Hash()
		if tag, err := r.TagObject(h); err == nil {
			c, err := tag.Commit()
			if err != nil {
				return "", fmt.Errorf("%s: tag %s: %w", dir, branch, err)
			}
			h = c.Hash
		}
		return h.String(), nil
	}
	return "", fmt.Errorf("%s: no branch or tag %q", dir, branch)
}

// MergeBase returns the best common ancestor of commits a and b: the base
// of a PR's diff as GitHub shows it (three dots).
func MergeBase(dir, a, b string) (string, error) {
	r, err := git.PlainOpen(dir)
	if err != nil {
		return "", fmt.Errorf("open %s: %w", dir, err)
	}
	ca, err := commit(r, a)
	if err != nil {
		return "", fmt.Errorf("%s: %w", dir, err)
	}
	cb, err := commit(r, b)
	if err != nil {
		return "", fmt.Errorf("%s: %w", dir, err)
	}
	bases, err := ca.MergeBase(cb)
	if err != nil {
		return "", fmt.Errorf("%s: merge base of %s and %s: %w", dir, a, b, err)
	}
	if len(bases) == 0 {
		return "", fmt.Errorf("%s: %s and %s have no common ancestor", dir, a, b)
	}
	best := bases[0]
	for _, c := range bases[1:] {
		if c.Committer.When.After(best.Committer.When) {
			best = c
		}
	}
	return best.Hash.String(), nil
}

func commit(r *git.Repository, sha string) (*object.Commit, error) {
	if !plumbing.IsHash(sha) {
		return nil, fmt.Errorf("%q is not a commit SHA", sha)
	}
	c, err := r.CommitObject(plumbing.NewHash(sha))
	if err != nil {
		return nil, fmt.Errorf("commit %s: %w", sha, err)
	}
	return c, nil
}

// CommitterDate returns the committer time of commit sha (40 hex digits)
// in UTC: when the commit landed where it is, which for a PR's head is the
// best date git has for its merge when GitHub cannot be asked.
func CommitterDate(dir, sha string) (time.Time, error) {
	r, err := git.PlainOpen(dir)
	if err != nil {
		return time.Time{}, fmt.Errorf("open %s: %w", dir, err)
	}
	c, err := commit(r, sha)
	if err != nil {
		return time.Time{}, fmt.Errorf("%s: %w", dir, err)
	}
	return c.Committer.When.UTC(), nil
}

// maxWalk bounds FirstCommit's history walk; a PR is never that long.
const maxWalk = 200_000

// FirstCommit returns the earliest author time among the commits reachable
// from head but not from base (git's base..head) and how many there are:
// when a local PR's work began (criterion 3). base and head are 40-hex
// SHAs.
//
// It is git's own painting walk: commits are visited newest first from
// both tips, each marked by the tips that reach it, and the walk stops
// when every commit still queued is reachable from base.
func FirstCommit(dir, base, head string) (time.Time, int, error) {
	r, err := git.PlainOpen(dir)
	if err != nil {
		return time.Time{}, 0, fmt.Errorf("open %s: %w", dir, err)
	}
	cb, err := commit(r, base)
	if err != nil {
		return time.Time{}, 0, fmt.Errorf("%s: %w", dir, err)
	}
	ch, err := commit(r, head)
	if err != nil {
		return time.Time{}, 0, fmt.Errorf("%s: %w", dir, err)
	}
	const fromHead, fromBase = 1, 2
	marks := map[plumbing.Hash]int{ch.Hash: fromHead}
	marks[cb.Hash] |= fromBase
	q := &commitQueue{}
	heap.Push(q, ch)
	if cb.Hash != ch.Hash {
		heap.Push(q, cb)
	}
	var first time.Time
	n, steps := 0, 0
	for q.Len() > 0 && q.anyOnly(marks, fromHead) {
		if steps++; steps > maxWalk {
			return time.Time{}, 0, fmt.Errorf("%s: %s..%s: more than %d commits to walk", dir, base[:12], head[:12], maxWalk)
		}
		c := heap.Pop(q).(*object.Commit)
		m := marks[c.Hash]
		if m == fromHead {
			n++
			if first.IsZero() || c.Author.When.Before(first) {
				first = c.Author.When
			}
		}
		for _, ph := range c.ParentHashes {
			old, seen := marks[ph]
			if seen && old|m == old {
				continue
			}
			marks[ph] = old | m
			p, err := r.CommitObject(ph)
			if err != nil {
				return time.Time{}, 0, fmt.Errorf("%s: commit %s: %w", dir, ph, err)
			}
			heap.Push(q, p)
		}
	}
	return first.UTC(), n, nil
}

// commitQueue is a max-heap of commits by committer time.
type commitQueue []*object.Commit

func (q commitQueue) Len() int { return len(q) }
func (q commitQueue) Less(i, j int) bool {
	return q[i].Committer.When.After(q[j].Committer.When)
}
func (q commitQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *commitQueue) Push(x any)   { *q = append(*q, x.(*object.Commit)) }
func (q *commitQueue) Pop() any {
	old := *q
	c := old[len(old)-1]
	*q = old[:len(old)-1]
	return c
}

// anyOnly reports whether some queued commit carries exactly mark: while
// one does, the head side may still reach commits base does not.
func (q commitQueue) anyOnly(marks map[plumbing.Hash]int, mark int) bool {
	for _, c := range q {
		if marks[c.Hash] == mark {
			return true
		}
	}
	return false
}
