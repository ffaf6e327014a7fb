// Package testrepo builds small git repositories for tests with go-git:
// each step overlays a folder of files on the work tree, commits and tags.
// It is a test helper; product code never imports it.
package testrepo

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Step is one commit: the files of Overlay (a folder) are copied over the
// work tree, then Files (slash path -> content) are written, the paths in
// Delete are removed, and the commit gets Tag.
type Step struct {
	Overlay string
	Files   map[string]string
	Delete  []string
	Tag     string
	Message string
}

// Build creates a repository at dir with one commit per step. Authors and
// dates are fixed, so commit ids are stable from run to run.
func Build(dir string, steps ...Step) error {
	r, err := git.PlainInit(dir, false)
	if err != nil {
		return err
	}
	wt, err := r.Worktree()
	if err != nil {
		return err
	}
	when := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for i, s := range steps {
		if s.Overlay != "" {
			if err := copyTree(s.Overlay, dir); err != nil {
				return fmt.Errorf("step %d: %w", i+1, err)
			}
		}
		for name, content := range s.Files {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return fmt.Errorf("step %d: %w", i+1, err)
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				return fmt.Errorf("step %d: %w", i+1, err)
			}
		}
		for _, p := range s.Delete {
			if _, err := wt.Remove(p); err != nil {
				return fmt.Errorf("step %d: delete %s: %w", i+1, p, err)
			}
		}
		if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
			return err
		}
		msg := s.Message
		if msg == "" {
			msg = fmt.Sprintf("step %d", i+1)
		}
		sig := &object.Signature{Name: "Test", Email: "test@example.com", When: when}
		h, err := wt.Commit(msg, &git.CommitOptions{Author: sig, Committer: sig, AllowEmptyCommits: true})
		if err != nil {
			return err
		}
		if s.Tag != "" {
			if _, err := r.CreateTag(s.Tag, h, nil); err != nil {
				return err
			}
		}
		when = when.Add(time.Hour)
	}
	return nil
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, info.Mode().Perm())
	})
}
