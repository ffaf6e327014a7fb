package loc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// CountDir counts the files below dir. It skips .git directories always,
// and vendored and generated files unless opt.All is set. Symbolic links
// and other non-regular files are not followed or counted (cloc does the
// same by default). Unreadable and binary files are reported in
// Result.Skipped, never fatal; only a dir that is not a readable
// directory, or a cancelled ctx, is an error.
func CountDir(ctx context.Context, dir string, opt Options) (*Result, error) {
	st, err := os.Stat(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no such directory: %s", dir)
		}
		return nil, fmt.Errorf("count %s: %w", dir, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("not a directory: %s", dir)
	}

	paths := make(chan string, 256)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	var walkProblems []Problem
	var walkErr error
	go func() {
		defer close(paths)
		walkErr = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if err != nil {
				if p == dir {
					return err
				}
				walkProblems = append(walkProblems, Problem{Path: p, Reason: err.Error()})
				if d != nil && d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if d.Name() == ".git" {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() {
				return nil
			}
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return nil
			}
			select {
			case paths <- filepath.ToSlash(rel):
			case <-ctx.Done():
				return ctx.Err()
			}
			return nil
		})
	}()

	parts := make([]*Result, opt.workers())
	var wg sync.WaitGroup
	for i := range parts {
		c := newCounter(opt)
		parts[i] = c.res
		wg.Go(func() {
			for rel := range paths {
				if ctx.Err() != nil {
					continue // drain so the walker can finish
				}
				full := filepath.Join(dir, filepath.FromSlash(rel))
				c.add(rel, full, func() (io.ReadCloser, int64, error) {
					f, err := os.Open(full)
					if err != nil {
						return nil, 0, err
					}
					st, err := f.Stat()
					if err != nil {
						f.Close()
						return nil, 0, err
					}
					return f, st.Size(), nil
				})
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if walkErr != nil {
		return nil, fmt.Errorf("count %s: %w", dir, walkErr)
	}

	res := newResult()
	for _, p := range parts {
		res.merge(p)
	}
	res.Skipped.Unreadable += int64(len(walkProblems))
	res.Skipped.Problems = append(res.Skipped.Problems, walkProblems...)
	res.finish()
	return res, nil
}
