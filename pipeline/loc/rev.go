package loc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// CountRev counts the tree of revision rev in the git repository at
// repoDir, reading blobs from the object store without a checkout. The
// figures equal CountDir's on a checkout of rev (symbolic links and
// submodules are not counted, like symlinks on disk).
//
// go-git is not safe for concurrent use, so one goroutine walks the tree
// and each counting worker opens the repository for itself.
func CountRev(ctx context.Context, repoDir, rev string, opt Options) (*Result, error) {
	if st, err := os.Stat(repoDir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("no such directory: %s", repoDir)
	}
	repo, err := openRepo(repoDir)
	if err != nil {
		return nil, err
	}
	h, err := repo.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		// go-git says "reference not found", "object not found" or,
		// for HEAD~n past the root, "EOF": all mean no such revision.
		if errors.Is(err, plumbing.ErrReferenceNotFound) || errors.Is(err, plumbing.ErrObjectNotFound) || errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("unknown revision %q in %s", rev, repoDir)
		}
		return nil, fmt.Errorf("unknown revision %q in %s: %w", rev, repoDir, err)
	}
	commit, err := repo.CommitObject(*h)
	if err != nil {
		return nil, fmt.Errorf("revision %q in %s is not a commit: %w", rev, repoDir, err)
	}
	root, err := commit.Tree()
	if err != nil {
		return nil, fmt.Errorf("read tree of %s in %s: %w", rev, repoDir, err)
	}

	type blob struct {
		path string
		hash plumbing.Hash
	}
	blobs := make(chan blob, 256)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	var walkErr error
	go func() {
		defer close(blobs)
		// Our own walk rather than object.TreeWalker, which ends quietly
		// when a subtree is missing (a shallow or damaged clone): a
		// partial count must be an error, not a smaller number.
		var walk func(t *object.Tree, dir string) error
		walk = func(t *object.Tree, dir string) error {
			for _, e := range t.Entries {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				p := e.Name
				if dir != "" {
					p = dir + "/" + e.Name
				}
				switch e.Mode {
				case filemode.Dir:
					if e.Name == ".git" {
						continue
					}
					sub, err := repo.TreeObject(e.Hash)
					if err != nil {
						return fmt.Errorf("read tree %s at %s: %w", p, rev, err)
					}
					if err := walk(sub, p); err != nil {
						return err
					}
				case filemode.Regular, filemode.Executable, filemode.Deprecated:
					select {
					case blobs <- blob{p, e.Hash}:
					case <-ctx.Done():
						return ctx.Err()
					}
				}
				// Symlinks and submodules are not files of this tree.
			}
			return nil
		}
		walkErr = walk(root, "")
		if walkErr != nil {
			cancel()
		}
	}()

	parts := make([]*Result, opt.workers())
	openErrs := make([]error, len(parts))
	var wg sync.WaitGroup
	for i := range parts {
		c := newCounter(opt)
		parts[i] = c.res
		wg.Go(func() {
			r, err := openRepo(repoDir)
			if err != nil {
				openErrs[i] = err
				cancel()
			}
			for b := range blobs {
				if ctx.Err() != nil {
					continue // drain so the walker can finish
				}
				c.add(b.path, rev+":"+b.path, func() (io.ReadCloser, int64, error) {
					bl, err := r.BlobObject(b.hash)
					if err != nil {
						return nil, 0, err
					}
					rc, err := bl.Reader()
					if err != nil {
						return nil, 0, err
					}
					return rc, bl.Size, nil
				})
			}
		})
	}
	wg.Wait()
	if walkErr != nil {
		return nil, walkErr
	}
	if err := errors.Join(openErrs...); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	res := newResult()
	for _, p := range parts {
		res.merge(p)
	}
	res.finish()
	return res, nil
}

func openRepo(dir string) (*git.Repository, error) {
	repo, err := git.PlainOpen(dir)
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return nil, fmt.Errorf("not a git repository: %s", dir)
	}
	if err != nil {
		return nil, fmt.Errorf("open repository %s: %w", dir, err)
	}
	return repo, nil
}
