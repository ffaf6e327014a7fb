package sandbox

import (
	"archive/tar"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/lolbench/lolbench/pipeline/diff"
)

// Tree is a repository's files at the base commit.
type Tree interface {
	// WriteTar writes the files into tw below prefix ("repo/"), with
	// fixed times and owners so that equal trees give equal archives.
	WriteTar(tw *tar.Writer, prefix string) error
	// Key identifies the content ("git:<sha>"), for image names.
	Key() string
	// ReadFile reads one file by its slash path; a missing one is an error
	// that matches fs.ErrNotExist. The environment reads go.mod with it.
	ReadFile(name string) ([]byte, error)
}

// tarEpoch is the time of every archive entry: image layers then depend
// on content only.
var tarEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// GitTree is the tree of a commit of a local repository, read with go-git
// exactly as committed: no .gitattributes export rules, no work tree.
// Submodules are left out (their commits are not in the repository).
type GitTree struct {
	Repo *diff.Repo
	// Commit is a 40-hex SHA.
	Commit string
	// Only, when not nil, keeps just these paths (the canonical files of
	// a task: its test files at the PR's head).
	Only []string
	// Omit are paths left out (the recipe's omit: files the clone lacks).
	Omit []string
}

// WithOmit is t without the paths of a recipe's omit (recipe.Recipe.Omit),
// when t is a commit's tree: the environment, its key and a Harbor task's
// repo/ all leave them out. Other trees (a Harbor task's repo/ folder)
// were written without them already.
func WithOmit(t Tree, paths []string) Tree {
	if g, ok := t.(GitTree); ok && len(paths) > 0 {
		g.Omit = slices.Sorted(slices.Values(paths))
		return g
	}
	return t
}

// Key implements Tree. Omitted paths are part of it: the trees differ.
func (g GitTree) Key() string {
	if len(g.Omit) > 0 {
		return "git:" + g.Commit + " omit " + strings.Join(g.Omit, " ")
	}
	return "git:" + g.Commit
}

// ReadFile implements Tree.
func (g GitTree) ReadFile(name string) ([]byte, error) {
	if g.Only != nil && !slices.Contains(g.Only, name) || slices.Contains(g.Omit, name) {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
	}
	data, err := g.Repo.ReadFile(g.Commit, name)
	if errors.Is(err, diff.ErrNoSuchFile) {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
	}
	return data, err
}

// WriteTar implements Tree.
func (g GitTree) WriteTar(tw *tar.Writer, prefix string) error {
	c, err := g.Repo.Git().CommitObject(plumbing.NewHash(g.Commit))
	if err != nil {
		return fmt.Errorf("tree of %s: %w", g.Commit, err)
	}
	tree, err := c.Tree()
	if err != nil {
		return fmt.Errorf("tree of %s: %w", g.Commit, err)
	}
	// The prefix folder gets an entry of its own: left implicit, the engine
	// would create it with the current time, and a COPY of it would never
	// match the build cache (a Harbor Dockerfile built from the same tree
	// could not reuse the environment layer).
	if prefix != "" {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: prefix, Mode: 0o755, ModTime: tarEpoch, Format: tar.FormatPAX}); err != nil {
			return err
		}
	}
	dirs := map[string]bool{}
	var mkdirs func(d string) error
	mkdirs = func(d string) error {
		if d == "." || d == "" || dirs[d] {
			return nil
		}
		if err := mkdirs(path.Dir(d)); err != nil {
			return err
		}
		dirs[d] = true
		return tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: prefix + d + "/", Mode: 0o755, ModTime: tarEpoch, Format: tar.FormatPAX})
	}
	var only map[string]bool
	if g.Only != nil {
		only = map[string]bool{}
		for _, p := range g.Only {
			only[p] = true
		}
	}
	walker := object.NewTreeWalker(tree, true, nil)
	defer walker.Close()
	for {
		name, entry, err := walker.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("tree of %s: %w", g.Commit, err)
		}
		switch entry.Mode {
		case filemode.Dir, filemode.Submodule:
			continue
		}
		if only != nil && !only[name] || slices.Contains(g.Omit, name) {
			continue
		}
		if err := mkdirs(path.Dir(name)); err != nil {
			return err
		}
		blob, err := g.Repo.Git().BlobObject(entry.Hash)
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			return fmt.Errorf("tree of %s: %s: %w: the clone lacks this file (a repository snapshot or a partial clone); if neither the install commands nor the tests read it, list it in the recipe's omit", g.Commit, name, err)
		}
		if err != nil {
			return fmt.Errorf("tree of %s: %s: %w", g.Commit, name, err)
		}
		hdr := &tar.Header{Name: prefix + name, Mode: 0o644, ModTime: tarEpoch, Format: tar.FormatPAX}
		r, err := blob.Reader()
		if err != nil {
			return fmt.Errorf("tree of %s: %s: %w", g.Commit, name, err)
		}
		switch entry.Mode {
		case filemode.Symlink:
			target, err := io.ReadAll(io.LimitReader(r, 4096))
			r.Close()
			if err != nil {
				return fmt.Errorf("tree of %s: %s: %w", g.Commit, name, err)
			}
			hdr.Typeflag, hdr.Linkname, hdr.Mode = tar.TypeSymlink, string(target), 0o777
			if err := tw.WriteHeader(hdr); err != nil {
				return err
			}
			continue
		case filemode.Executable:
			hdr.Mode = 0o755
		}
		hdr.Typeflag, hdr.Size = tar.TypeReg, blob.Size
		if err := tw.WriteHeader(hdr); err != nil {
			r.Close()
			return err
		}
		_, err = io.Copy(tw, r)
		r.Close()
		if err != nil {
			return fmt.Errorf("tree of %s: %s: %w", g.Commit, name, err)
		}
	}
}

// DirTree is a folder on disk, such as a Harbor task's environment/repo/.
// Symbolic links are kept as links; other special files are refused.
type DirTree struct {
	Dir string
	// ID is what Key returns ("harbor:<task>").
	ID string
}

// Key implements Tree.
func (d DirTree) Key() string { return d.ID }

// ReadFile implements Tree: a file inside Dir, reached without leaving it.
func (d DirTree) ReadFile(name string) ([]byte, error) {
	root, err := os.OpenRoot(d.Dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return root.ReadFile(filepath.FromSlash(name))
}

// WriteTar implements Tree.
func (d DirTree) WriteTar(tw *tar.Writer, prefix string) error {
	if prefix != "" {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: prefix, Mode: 0o755, ModTime: tarEpoch, Format: tar.FormatPAX}); err != nil {
			return err
		}
	}
	return filepath.WalkDir(d.Dir, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(d.Dir, p)
		if err != nil || rel == "." {
			return err
		}
		rel = filepath.ToSlash(rel)
		info, err := de.Info()
		if err != nil {
			return err
		}
		hdr := &tar.Header{Name: prefix + rel, ModTime: tarEpoch, Format: tar.FormatPAX}
		switch {
		case de.IsDir():
			hdr.Typeflag, hdr.Name, hdr.Mode = tar.TypeDir, hdr.Name+"/", 0o755
			return tw.WriteHeader(hdr)
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			hdr.Typeflag, hdr.Linkname, hdr.Mode = tar.TypeSymlink, target, 0o777
			return tw.WriteHeader(hdr)
		case info.Mode().IsRegular():
			hdr.Typeflag, hdr.Size, hdr.Mode = tar.TypeReg, info.Size(), 0o644
			if info.Mode()&0o111 != 0 {
				hdr.Mode = 0o755
			}
			if err := tw.WriteHeader(hdr); err != nil {
				return err
			}
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = io.CopyN(tw, f, info.Size())
			return err
		}
		return fmt.Errorf("%s: not a file, folder or symbolic link", p)
	})
}

// Extract writes the tar stream r into dir. Names are cleaned so that no
// entry leaves dir, and nothing is written through a symbolic link (links
// are recreated as links, never followed). maxBytes caps the total size.
func Extract(r io.Reader, dir string, maxBytes int64) error {
	return extract(r, dir, maxBytes, false)
}

// ExtractStrip is Extract without the first element of every name: the
// content of the folder an archive of one folder holds.
func ExtractStrip(r io.Reader, dir string, maxBytes int64) error {
	return extract(r, dir, maxBytes, true)
}

func extract(r io.Reader, dir string, maxBytes int64, strip bool) error {
	tr := tar.NewReader(r)
	var total int64
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("extract: %w", err)
		}
		name := strings.TrimPrefix(path.Clean("/"+hdr.Name), "/")
		if strip {
			_, name, _ = strings.Cut(name, "/")
		}
		if name == "" {
			continue
		}
		dst := filepath.Join(dir, filepath.FromSlash(name))
		if err := noSymlinkParents(dir, filepath.Dir(dst)); err != nil {
			return fmt.Errorf("extract %s: %w", hdr.Name, err)
		}
		switch hdr.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(dst, 0o755); err != nil {
				return fmt.Errorf("extract: %w", err)
			}
		case tar.TypeReg:
			total += hdr.Size
			if total > maxBytes {
				return fmt.Errorf("extract: more than %d bytes", maxBytes)
			}
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return fmt.Errorf("extract: %w", err)
			}
			os.Remove(dst)
			f, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC|os.O_EXCL, fs.FileMode(hdr.Mode)&0o755|0o600)
			if err != nil {
				return fmt.Errorf("extract: %w", err)
			}
			_, err = io.CopyN(f, tr, hdr.Size)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return fmt.Errorf("extract %s: %w", hdr.Name, err)
			}
		case tar.TypeSymlink:
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return fmt.Errorf("extract: %w", err)
			}
			os.Remove(dst)
			if err := os.Symlink(hdr.Linkname, dst); err != nil {
				return fmt.Errorf("extract: %w", err)
			}
		}
	}
}

// noSymlinkParents fails when a folder between root and d is a symbolic
// link: writing through it could leave root.
func noSymlinkParents(root, d string) error {
	rel, err := filepath.Rel(root, d)
	if err != nil || rel == "." {
		return err
	}
	cur := root
	for _, el := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, el)
		fi, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s is a symbolic link", cur)
		}
	}
	return nil
}
