package syntax

import (
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// testRepo writes commits straight from objects with go-git: fixed author
// and times, so SHAs are stable, and no work tree.
type testRepo struct {
	tb   testing.TB
	dir  string
	repo *git.Repository
	n    int
}

func newTestRepo(tb testing.TB) *testRepo {
	tb.Helper()
	dir := tb.TempDir()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		tb.Fatal(err)
	}
	return &testRepo{tb: tb, dir: dir, repo: repo}
}

// commit writes a commit whose tree holds files (path -> content).
func (r *testRepo) commit(files map[string]string, parents ...plumbing.Hash) plumbing.Hash {
	r.n++
	when := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).Add(time.Duration(r.n) * time.Minute)
	c := &object.Commit{
		Author:       object.Signature{Name: "A", Email: "a@example.com", When: when},
		Committer:    object.Signature{Name: "A", Email: "a@example.com", When: when},
		Message:      "commit\n",
		TreeHash:     r.tree(files),
		ParentHashes: parents,
	}
	return r.store(c.Encode)
}

func (r *testRepo) tree(files map[string]string) plumbing.Hash {
	direct := map[string]string{}
	sub := map[string]map[string]string{}
	for p, data := range files {
		if dir, rest, ok := strings.Cut(p, "/"); ok {
			if sub[dir] == nil {
				sub[dir] = map[string]string{}
			}
			sub[dir][rest] = data
		} else {
			direct[p] = data
		}
	}
	var entries []object.TreeEntry
	for name, data := range direct {
		entries = append(entries, object.TreeEntry{Name: name, Mode: filemode.Regular, Hash: r.blob(data)})
	}
	for name, files := range sub {
		entries = append(entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: r.tree(files)})
	}
	key := func(e object.TreeEntry) string {
		if e.Mode == filemode.Dir {
			return e.Name + "/"
		}
		return e.Name
	}
	sort.Slice(entries, func(i, j int) bool { return key(entries[i]) < key(entries[j]) })
	return r.store((&object.Tree{Entries: entries}).Encode)
}

func (r *testRepo) blob(data string) plumbing.Hash {
	return r.store(func(o plumbing.EncodedObject) error {
		o.SetType(plumbing.BlobObject)
		w, err := o.Writer()
		if err != nil {
			return err
		}
		if _, err := w.Write([]byte(data)); err != nil {
			return err
		}
		return w.Close()
	})
}

func (r *testRepo) store(encode func(plumbing.EncodedObject) error) plumbing.Hash {
	obj := r.repo.Storer.NewEncodedObject()
	if err := encode(obj); err != nil {
		r.tb.Fatal(err)
	}
	h, err := r.repo.Storer.SetEncodedObject(obj)
	if err != nil {
		r.tb.Fatal(err)
	}
	return h
}
