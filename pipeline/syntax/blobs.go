package syntax

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/lolbench/lolbench/pipeline/diff"
)

// blobReader reads the files of a change's two commits. It does what
// diff.Repo.ReadFile does, but keeps each commit's trees once decoded:
// ReadFile resolves the revision and decodes every tree on the path for
// each call, which on a thousand-file change costs a fifth of the parse
// time. It also checks a blob's size before reading it, so that a huge
// generated file is never loaded. One blobReader per goroutine, like the
// diff.Repo below it.
type blobReader struct {
	repo  *diff.Repo
	git   *git.Repository
	roots map[string]plumbing.Hash // revision -> root tree
	trees map[plumbing.Hash]*object.Tree
}

func newBlobReader(r *diff.Repo) *blobReader {
	return &blobReader{repo: r, git: r.Git(), roots: map[string]plumbing.Hash{}, trees: map[plumbing.Hash]*object.Tree{}}
}

// errTooLarge reports a blob over the size limit; its size is in the
// message.
type errTooLarge struct{ size int64 }

func (e errTooLarge) Error() string { return strconv.FormatInt(e.size, 10) + " bytes" }

// read returns the content of path at rev. A path that names no file
// (absent, a directory, a submodule) gives an error wrapping
// diff.ErrNoSuchFile; a blob larger than limit (when positive) gives
// errTooLarge; any other error means the repository is unusable.
func (b *blobReader) read(rev, path string, limit int64) (data []byte, err error) {
	defer func() {
		// go-git can panic on a corrupt object: every input is hostile.
		if p := recover(); p != nil {
			err = fmt.Errorf("%s at %s in %s: internal error reading the repository: %v", strconv.Quote(path), short(rev), b.repo.Dir(), p)
		}
	}()
	noFile := func(why string) error {
		return fmt.Errorf("%s at %s in %s: %s: %w", strconv.Quote(path), short(rev), b.repo.Dir(), why, diff.ErrNoSuchFile)
	}
	root, ok := b.roots[rev]
	if !ok {
		sha, err := b.repo.Resolve(rev)
		if err != nil {
			return nil, err
		}
		c, err := b.git.CommitObject(plumbing.NewHash(sha))
		if err != nil {
			return nil, fmt.Errorf("commit %s in %s: %w", short(sha), b.repo.Dir(), err)
		}
		root = c.TreeHash
		b.roots[rev] = root
	}
	if path == "" || strings.HasPrefix(path, "/") || strings.HasSuffix(path, "/") {
		return nil, noFile("not a file path")
	}
	hash := root
	parts := strings.Split(path, "/")
	for i, part := range parts {
		tree, err := b.tree(hash)
		if err != nil {
			return nil, fmt.Errorf("%s at %s in %s: tree %s: %w", strconv.Quote(path), short(rev), b.repo.Dir(), hash, err)
		}
		var entry *object.TreeEntry
		for j := range tree.Entries {
			if tree.Entries[j].Name == part {
				entry = &tree.Entries[j]
				break
			}
		}
		last := i == len(parts)-1
		switch {
		case entry == nil:
			return nil, noFile("not found")
		case entry.Mode == filemode.Dir && !last:
			hash = entry.Hash
			continue
		case entry.Mode == filemode.Dir:
			return nil, noFile("a directory")
		case entry.Mode == filemode.Submodule:
			return nil, noFile("a submodule")
		case !last:
			return nil, noFile("not found")
		}
		blob, err := b.git.BlobObject(entry.Hash)
		if err != nil {
			return nil, fmt.Errorf("%s at %s in %s: blob %s: %w", strconv.Quote(path), short(rev), b.repo.Dir(), entry.Hash, err)
		}
		if limit > 0 && blob.Size > limit {
			return nil, errTooLarge{blob.Size}
		}
		rd, err := blob.Reader()
		if err != nil {
			return nil, fmt.Errorf("%s at %s in %s: %w", strconv.Quote(path), short(rev), b.repo.Dir(), err)
		}
		defer rd.Close()
		data, err := io.ReadAll(rd)
		if err != nil {
			return nil, fmt.Errorf("%s at %s in %s: %w", strconv.Quote(path), short(rev), b.repo.Dir(), err)
		}
		return data, nil
	}
	return nil, noFile("not found")
}

// tree decodes a tree once.
func (b *blobReader) tree(h plumbing.Hash) (*object.Tree, error) {
	if t := b.trees[h]; t != nil {
		return t, nil
	}
	t, err := b.git.TreeObject(h)
	if err != nil {
		return nil, err
	}
	b.trees[h] = t
	return t, nil
}

// isTooLarge reports whether err is errTooLarge, and the size.
func isTooLarge(err error) (int64, bool) {
	var e errTooLarge
	if errors.As(err, &e) {
		return e.size, true
	}
	return 0, false
}
