package syntax

import (
	"context"
	"fmt"
	"sync"

	"github.com/lolbench/lolbench/pipeline/diff"
)

// eachFile runs work on every file index of todo with opt.workers()
// workers. Each worker opens its own repository handle, blob reader and
// parser, since none of them is safe to share. The first error cancels
// the rest and is returned; so is the context's error. what names the
// caller in an error opening the repository.
func eachFile(ctx context.Context, repoDir string, todo []int, opt Options, what string,
	work func(ctx context.Context, br *blobReader, p *Parser, i int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	var (
		wg       sync.WaitGroup
		errOnce  sync.Once
		firstErr error
	)
	fail := func(err error) {
		errOnce.Do(func() { firstErr = err; cancel() })
	}
	for w := 0; w < min(opt.workers(), len(todo)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := diff.Open(repoDir)
			if err != nil {
				fail(fmt.Errorf("%s: %w", what, err))
				for range jobs {
				}
				return
			}
			br := newBlobReader(r)
			p := NewParser()
			defer p.Close()
			p.SetTimeout(opt.parseTimeout())
			for i := range jobs {
				if ctx.Err() != nil {
					continue
				}
				if err := work(ctx, br, p, i); err != nil {
					fail(err)
				}
			}
		}()
	}
feed:
	for _, i := range todo {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}
