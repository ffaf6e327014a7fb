package mutation

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/lang"
)

// maxFile is the largest solution file read into memory (as
// pipeline/syntax's default).
const maxFile = 2 << 20

// File is one file of the reference solution, both sides in memory.
type File struct {
	// Path is the path after the change; OldPath the path before it ("" for
	// an added file; equal to Path unless renamed).
	Path, OldPath string
	Status        diff.Status
	Language      string
	Category      lang.Category
	// Base and After are the contents before and after the reference
	// solution; nil on the side where the file does not exist.
	Base, After []byte
	// Mode is the file mode after the change (before it, for a deletion),
	// as git writes it ("100644", "100755").
	Mode string
	// Added and Deleted are the added (post-change) and deleted
	// (pre-change) line numbers; Hunks are git's -U0 hunks.
	Added, Deleted []int
	Hunks          []diff.Hunk
	// Skip says why the file's contents were not read ("binary", "too
	// large"); such a file is never mutated and stays as the reference has
	// it.
	Skip string
}

// Solution is the reference solution of a task: the PR's files that are
// not test files or test data (the build stage's split), with both sides.
type Solution struct {
	Base, Head string
	Files      []File
	// GoTests are the PR's Go test files after the change, by path. They
	// are never mutated, but every mutant is built with them, so a Go
	// revert keeps what they use of the solution (gorevert.go): without
	// it their package would not compile and every test in it would fail.
	GoTests map[string][]byte
}

// File returns the solution's file at path (after the change), or nil.
func (s *Solution) File(path string) *File {
	for i := range s.Files {
		if s.Files[i].Path == path {
			return &s.Files[i]
		}
	}
	return nil
}

// Sources are the solution's source files that exist after it, for
// coverage.NewTarget.
func (s *Solution) Sources() []coverage.SourceFile {
	var out []coverage.SourceFile
	for _, f := range s.Files {
		if f.After == nil || f.Skip != "" || f.Category != lang.Source {
			continue
		}
		out = append(out, coverage.SourceFile{Path: f.Path, Language: f.Language, Content: f.After, Added: f.Added})
	}
	return out
}

// Contents are the solution's files after it, by path: the starting point
// of every mutant.
func (s *Solution) Contents() map[string][]byte {
	out := map[string][]byte{}
	for _, f := range s.Files {
		if f.After != nil {
			out[f.Path] = f.After
		}
	}
	return out
}

// LoadSolution reads the reference solution of change ch (base to head of
// repo): every changed file that the build's test patch does not hold. Binary
// files and files larger than 2 MiB are kept out of mutation: their
// contents are not read (Base and After stay nil, Status tells).
func LoadSolution(ctx context.Context, repo *diff.Repo, ch *diff.Change) (*Solution, error) {
	s := &Solution{Base: ch.Base, Head: ch.Head}
	for _, f := range ch.Files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// What the build puts in the test patch (stages/build.Split): test
		// files, test data, vendored files and test configuration.
		if f.Category == lang.Test || f.Category == lang.TestData || f.Category == lang.Vendor || lang.TestInfra(f.Path(), nil).Whole {
			if f.Category == lang.Test && f.Language == "Go" && f.NewPath != "" && !f.Binary {
				b, err := readSmall(repo, ch.Head, f.NewPath)
				if err != nil {
					return nil, err
				}
				if len(b) <= maxFile {
					if s.GoTests == nil {
						s.GoTests = map[string][]byte{}
					}
					s.GoTests[f.NewPath] = b
				}
			}
			continue
		}
		sf := File{Path: f.Path(), OldPath: f.OldPath, Status: f.Status, Language: f.Language, Category: f.Category,
			Added: f.NewLines, Deleted: f.OldLines, Hunks: f.Hunks}
		if f.Binary {
			sf.Skip = "binary"
			s.Files = append(s.Files, sf)
			continue
		}
		var err error
		if f.OldPath != "" {
			if sf.Base, err = readSmall(repo, ch.Base, f.OldPath); err != nil {
				return nil, err
			}
		}
		if f.NewPath != "" {
			if sf.After, err = readSmall(repo, ch.Head, f.NewPath); err != nil {
				return nil, err
			}
		}
		if len(sf.Base) > maxFile || len(sf.After) > maxFile {
			sf.Base, sf.After, sf.Skip = nil, nil, "too large"
		}
		rev, p := ch.Head, f.NewPath
		if p == "" {
			rev, p = ch.Base, f.OldPath
		}
		if sf.Mode, err = fileMode(repo, rev, p); err != nil {
			return nil, err
		}
		s.Files = append(s.Files, sf)
	}
	sort.Slice(s.Files, func(i, j int) bool { return s.Files[i].Path < s.Files[j].Path })
	return s, nil
}

func readSmall(repo *diff.Repo, rev, path string) ([]byte, error) {
	b, err := repo.ReadFile(rev, path)
	if err != nil {
		return nil, fmt.Errorf("read %s at %s: %w", path, short(rev), err)
	}
	if b == nil {
		b = []byte{}
	}
	return b, nil
}

// fileMode reads a file's mode at a revision with go-git.
func fileMode(repo *diff.Repo, rev, path string) (string, error) {
	c, err := repo.Git().CommitObject(plumbing.NewHash(rev))
	if err != nil {
		return "", fmt.Errorf("commit %s: %w", short(rev), err)
	}
	t, err := c.Tree()
	if err != nil {
		return "", fmt.Errorf("tree of %s: %w", short(rev), err)
	}
	e, err := t.FindEntry(path)
	if err != nil {
		return "", fmt.Errorf("%s at %s: %w", path, short(rev), err)
	}
	switch e.Mode {
	case filemode.Regular, filemode.Deprecated:
		return "100644", nil
	case filemode.Executable:
		return "100755", nil
	case filemode.Symlink:
		return "120000", nil
	}
	return "", errors.New(path + ": not a regular file")
}

func short(rev string) string {
	if len(rev) > 12 {
		return rev[:12]
	}
	return rev
}
