package diff

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/lolbench/lolbench/pipeline/lang"
)

// Status says what happened to a file between the two revisions.
type Status string

// The file statuses. A type change (a file that becomes a symbolic link or
// a submodule) is Modified: the path stays, the content changes.
const (
	Added    Status = "added"
	Modified Status = "modified"
	Deleted  Status = "deleted"
	Renamed  Status = "renamed"
)

// Hunk is one block of changed lines, numbered as in a `git diff -U0` hunk
// header "@@ -OldStart,OldLines +NewStart,NewLines @@". When a side has no
// lines, its start is the line after which the change happens (0 at the
// top of the file).
type Hunk struct {
	OldStart, OldLines, NewStart, NewLines int
}

// File is the change to one file.
type File struct {
	OldPath, NewPath string // "" on the side where the file does not exist
	Status           Status
	// Binary is git's verdict (numstat prints "-"): counts are 0 and there
	// are no line numbers or hunks.
	Binary bool
	// Inserted and Deleted are `git diff --numstat -M`'s counts, the ones
	// GitHub shows.
	Inserted, Deleted int
	// OldLines, NewLines and Hunks are those of `git diff -U0 -M`. Their
	// lengths usually equal the counts but need not: with zero context git
	// trims the common tail of the two files before diffing and may align
	// lines differently (about 1 file in 1,000 in real histories), and a
	// type change that keeps the content (a symbolic link replaced by a
	// file holding its target) has numstat 0 0 while the patch deletes and
	// re-adds the lines.
	OldLines []int // deleted line numbers, pre-change side, 1-based ascending
	NewLines []int // added line numbers, post-change side, 1-based ascending
	Hunks    []Hunk
	Category lang.Category // lang.Classify of Path()
	Language string        // lang.ForPath(Path()).Name, or ""
}

// Path is the file's path after the change, or before it for a deletion.
func (f *File) Path() string {
	if f.NewPath != "" {
		return f.NewPath
	}
	return f.OldPath
}

// Change is the difference between two commits.
type Change struct {
	Base, Head string // 40-hex commit SHAs
	Files      []File // sorted by Path()
}

// Diff computes the change from base to head, two revisions Resolve
// accepts. Counts, line numbers and renames are git's (`git diff
// --numstat -M`, `git diff -U0 -M`); see the package comment.
func (r *Repo) Diff(ctx context.Context, base, head string) (*Change, error) {
	b, h, err := r.resolvePair(base, head)
	if err != nil {
		return nil, err
	}
	// Counts from numstat at the default context, line numbers from a
	// -U0 patch: two runs, matched by their raw records (see parse.go).
	var raws []rawEntry
	var files []File
	args := append([]string{"diff", "--raw", "--numstat", "-z", "--no-abbrev"}, diffFlags...)
	err = r.gitCommand(ctx, append(args, b, h, "--"), func(out io.Reader) error {
		var err error
		raws, files, err = parseNumstat(out)
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(files) > 0 {
		args = append([]string{"diff", "--raw", "--patch", "-U0", "-z", "--no-abbrev"}, diffFlags...)
		err = r.gitCommand(ctx, append(args, b, h, "--"), func(out io.Reader) error {
			return parsePatch(out, raws, files)
		})
		if err != nil {
			return nil, err
		}
	}
	for i := range files {
		f := &files[i]
		f.Category = lang.Classify(f.Path())
		if l := lang.ForPath(f.Path()); l != nil {
			f.Language = l.Name
		}
	}
	sort.SliceStable(files, func(i, j int) bool {
		if pi, pj := files[i].Path(), files[j].Path(); pi != pj {
			return pi < pj
		}
		return files[i].OldPath < files[j].OldPath
	})
	return &Change{Base: b, Head: h, Files: files}, nil
}

// Patch returns the full unified patch from base to head as git writes it
// (`git diff --binary -M`, three lines of context, a/ and b/ prefixes), so
// that `git apply` can replay it, binary files included. Given paths, it is
// limited to them; paths are literal, not patterns. Rename detection runs
// after the limit, so a rename is shown as one only when both of its paths
// are given, and as a deletion or an addition otherwise.
func (r *Repo) Patch(ctx context.Context, base, head string, paths ...string) ([]byte, error) {
	b, h, err := r.resolvePair(base, head)
	if err != nil {
		return nil, err
	}
	for _, p := range paths {
		if p == "" || strings.IndexByte(p, 0) >= 0 {
			return nil, r.badPath(p)
		}
	}
	args := append([]string{"diff", "--patch", "--binary", "--full-index", "-U3"}, diffFlags...)
	args = append(args, b, h, "--")
	args = append(args, paths...)
	var buf bytes.Buffer
	err = r.gitCommand(ctx, args, func(out io.Reader) error {
		_, err := buf.ReadFrom(out)
		return err
	})
	if err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func (r *Repo) resolvePair(base, head string) (string, string, error) {
	b, err := r.Resolve(base)
	if err != nil {
		return "", "", err
	}
	h, err := r.Resolve(head)
	if err != nil {
		return "", "", err
	}
	return b, h, nil
}

func (r *Repo) badPath(p string) error {
	return fmt.Errorf("patch in %s: bad path %s", r.dir, strconv.Quote(p))
}
