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
// and reads the blobs, and opt.Workers goroutines count them.
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

	files := make(chan file, 2*opt.workers())

	// The reader walks the tree and reads the blobs of the files it
	// admits; the workers count them. Reading is the larger share of
	// the work, but one repository handle keeps go-git's delta-base
	// cache warm in tree order, and opening the repository once per
	// worker would load and hash the pack index once per worker.
	reader := newCounter(opt)
	reader.fresh = true
	var walkErr error
	go func() {
		defer close(files)
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
					f, ok := reader.admit(p, rev+":"+p)
					if !ok {
						continue
					}
					var missing error
					if f.content, ok = reader.load(f, blobOpener(repo, e.Hash, &missing)); !ok {
						if missing != nil {
							return fmt.Errorf("read %s at %s: %w (a partial or damaged clone?)", p, rev, missing)
						}
						continue
					}
					select {
					case files <- f:
					case <-ctx.Done():
						return ctx.Err()
					}
				}
				// Symlinks and submodules are not files of this tree.
			}
			return nil
		}
		walkErr = walk(root, "")
	}()

	parts := make([]*Result, opt.workers())
	var wg sync.WaitGroup
	for i := range parts {
		c := newCounter(opt)
		parts[i] = c.res
		wg.Go(func() {
			for f := range files {
				c.addContent(f)
			}
		})
	}
	wg.Wait()
	if walkErr != nil {
		return nil, walkErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	res := reader.res
	for _, p := range parts {
		res.merge(p)
	}
	res.finish()
	return res, nil
}

// blobOpener opens one blob of repo. A blob missing from the object
// store is not one unreadable file but a count we cannot make (a partial
// clone lacks all blobs): it is set in *missing for the caller to fail.
func blobOpener(repo *git.Repository, h plumbing.Hash, missing *error) opener {
	return func() (io.ReadCloser, int64, error) {
		b, err := repo.BlobObject(h)
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			*missing = err
		}
		if err != nil {
			return nil, 0, err
		}
		rc, err := b.Reader()
		if err != nil {
			return nil, 0, err
		}
		return rc, b.Size, nil
	}
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
