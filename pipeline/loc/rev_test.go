package loc

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// copyTree copies testdata/tree into dir, keeping the executable bit.
func copyTree(t *testing.T, dir string) {
	t.Helper()
	src := filepath.Join("testdata", "tree")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		dst := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

func commitAll(t *testing.T, repo *git.Repository, msg string) plumbing.Hash {
	t.Helper()
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		t.Fatal(err)
	}
	h, err := wt.Commit(msg, &git.CommitOptions{Author: &object.Signature{Name: "t", Email: "t@example.com", When: time.Unix(1700000000, 0)}})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// sameCounts compares two results but for the paths in Problems, which
// name files on disk in one and REV:path in the other.
func sameCounts(t *testing.T, what string, dir, rev *Result) {
	t.Helper()
	if !reflect.DeepEqual(dir.Languages, rev.Languages) || dir.Total != rev.Total {
		t.Errorf("%s: CountDir %s\nCountRev %s", what, dump(dir), dump(rev))
	}
	ds, rs := dir.Skipped, rev.Skipped
	ds.Problems, rs.Problems = nil, nil
	if !reflect.DeepEqual(ds, rs) || len(dir.Skipped.Problems) != len(rev.Skipped.Problems) {
		t.Errorf("%s: skipped CountDir %+v\nCountRev %+v", what, dir.Skipped, rev.Skipped)
	}
	for i, p := range rev.Skipped.Problems {
		if i >= len(dir.Skipped.Problems) {
			break
		}
		dp := dir.Skipped.Problems[i]
		if p.Reason != dp.Reason {
			t.Errorf("%s: problem %d: %q vs %q", what, i, dp.Reason, p.Reason)
		}
	}
}

func TestCountRevMatchesCountDir(t *testing.T) {
	dir := t.TempDir()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	copyTree(t, dir)
	// Symlinks are not counted on disk nor in the tree.
	if err := os.Symlink("src/strings.go", filepath.Join(dir, "link.go")); err != nil {
		t.Fatal(err)
	}
	first := commitAll(t, repo, "first")

	before := map[bool]*Result{}
	for _, all := range []bool{false, true} {
		res, err := CountDir(context.Background(), dir, Options{All: all})
		if err != nil {
			t.Fatal(err)
		}
		before[all] = res
		// The checkout equals the fixture: .git is not counted.
		if !reflect.DeepEqual(res.Languages, fixtureLanguages(all)) {
			t.Errorf("all=%v: CountDir of the checkout: %s", all, dump(res))
		}
		for _, rev := range []string{"HEAD", "master", first.String(), first.String()[:7]} {
			got, err := CountRev(context.Background(), dir, rev, Options{All: all, Workers: 3})
			if err != nil {
				t.Fatalf("CountRev(%s): %v", rev, err)
			}
			sameCounts(t, rev, res, got)
			if want := []Problem{{Path: rev + ":src/blob.c", Reason: "binary (NUL byte)"}}; !reflect.DeepEqual(got.Skipped.Problems, want) {
				t.Errorf("CountRev(%s) problems %+v, want %+v", rev, got.Skipped.Problems, want)
			}
		}
	}

	// A second commit changes the tree; HEAD~1 still counts as before,
	// without a checkout.
	if err := os.Remove(filepath.Join(dir, "src", "doc.py")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "src", "more.go"), []byte("package src\n\n// More.\nvar More = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	commitAll(t, repo, "second")
	for _, all := range []bool{false, true} {
		old, err := CountRev(context.Background(), dir, "HEAD~1", Options{All: all})
		if err != nil {
			t.Fatal(err)
		}
		sameCounts(t, "HEAD~1", before[all], old)

		now, err := CountDir(context.Background(), dir, Options{All: all})
		if err != nil {
			t.Fatal(err)
		}
		head, err := CountRev(context.Background(), dir, "HEAD", Options{All: all})
		if err != nil {
			t.Fatal(err)
		}
		sameCounts(t, "HEAD", now, head)
		if now.Languages["Python"].Files != 1 || now.Languages["Go"].Files != before[all].Languages["Go"].Files+1 {
			t.Errorf("second commit not seen: %s", dump(now))
		}
	}
}

func TestCountRevErrors(t *testing.T) {
	plain := t.TempDir()
	repoDir := t.TempDir()
	repo, err := git.PlainInit(repoDir, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repoDir, "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	commitAll(t, repo, "one")
	missing := filepath.Join(plain, "missing")

	tests := []struct {
		dir, rev string
		want     string
	}{
		{missing, "HEAD", "no such directory: " + missing},
		{plain, "HEAD", "not a git repository: " + plain},
		{repoDir, "nope", `unknown revision "nope" in ` + repoDir},
		{repoDir, "HEAD~5", `unknown revision "HEAD~5" in ` + repoDir},
	}
	for _, tt := range tests {
		_, err := CountRev(context.Background(), tt.dir, tt.rev, Options{})
		if err == nil || err.Error() != tt.want {
			t.Errorf("CountRev(%s, %s) error = %v, want %q", tt.dir, tt.rev, err, tt.want)
		}
	}
}

// TestCountRevMissingObjects: a shallow, partial or damaged clone lacks
// objects; the count fails, naming the path, rather than coming out small.
func TestCountRevMissingObjects(t *testing.T) {
	for _, tt := range []struct {
		name, remove, want string
	}{
		{"blob", "sub/a.go", `read sub/a.go at HEAD: object not found (a partial or damaged clone?)`},
		{"tree", "sub", `read tree sub at HEAD: object not found`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			repo, err := git.PlainInit(dir, false)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "sub", "a.go"), []byte("package a\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			h := commitAll(t, repo, "one")
			commit, err := repo.CommitObject(h)
			if err != nil {
				t.Fatal(err)
			}
			tree, err := commit.Tree()
			if err != nil {
				t.Fatal(err)
			}
			var obj plumbing.Hash
			if tt.name == "blob" {
				f, err := tree.File(tt.remove)
				if err != nil {
					t.Fatal(err)
				}
				obj = f.Hash
			} else {
				e, err := tree.FindEntry(tt.remove)
				if err != nil {
					t.Fatal(err)
				}
				obj = e.Hash
			}
			hex := obj.String()
			if err := os.Remove(filepath.Join(dir, ".git", "objects", hex[:2], hex[2:])); err != nil {
				t.Fatal(err)
			}
			_, err = CountRev(context.Background(), dir, "HEAD", Options{})
			if err == nil || err.Error() != tt.want {
				t.Errorf("error = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestCountRevSoftwareOnly: collect counts only what SourceCode sums, so a
// clone that lacks a documentation blob (a snapshot of python/cpython
// lacks Misc/svnmap.txt) still gives the count, the same one; a missing
// source blob still fails it.
func TestCountRevSoftwareOnly(t *testing.T) {
	dir := t.TempDir()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	copyTree(t, dir)
	if err := os.WriteFile(filepath.Join(dir, "svnmap.txt"), []byte("r1 abc\nr2 def\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	commitAll(t, repo, "one")
	full, err := CountRev(context.Background(), dir, "HEAD", Options{})
	if err != nil {
		t.Fatal(err)
	}
	only, err := CountRev(context.Background(), dir, "HEAD", Options{SoftwareOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if full.SourceCode() != only.SourceCode() || full.SourceCode() == 0 {
		t.Errorf("SourceCode: all files %d, software only %d", full.SourceCode(), only.SourceCode())
	}
	if _, ok := only.Languages["Text"]; ok {
		t.Errorf("software only counted Text: %s", dump(only))
	}
	if _, ok := full.Languages["Text"]; !ok {
		t.Errorf("the full count has no Text: %s", dump(full))
	}

	remove := func(p string) {
		t.Helper()
		h, err := repo.Head()
		if err != nil {
			t.Fatal(err)
		}
		c, err := repo.CommitObject(h.Hash())
		if err != nil {
			t.Fatal(err)
		}
		tree, err := c.Tree()
		if err != nil {
			t.Fatal(err)
		}
		f, err := tree.File(p)
		if err != nil {
			t.Fatal(err)
		}
		hex := f.Hash.String()
		if err := os.Remove(filepath.Join(dir, ".git", "objects", hex[:2], hex[2:])); err != nil {
			t.Fatal(err)
		}
	}
	remove("svnmap.txt")
	if _, err := CountRev(context.Background(), dir, "HEAD", Options{}); err == nil || err.Error() != "read svnmap.txt at HEAD: object not found (a partial or damaged clone?)" {
		t.Errorf("all files, svnmap.txt missing: %v", err)
	}
	got, err := CountRev(context.Background(), dir, "HEAD", Options{SoftwareOnly: true})
	if err != nil {
		t.Fatalf("software only, svnmap.txt missing: %v", err)
	}
	if got.SourceCode() != full.SourceCode() {
		t.Errorf("software only, svnmap.txt missing: SourceCode %d, want %d", got.SourceCode(), full.SourceCode())
	}
	remove("src/strings.go")
	if _, err := CountRev(context.Background(), dir, "HEAD", Options{SoftwareOnly: true}); err == nil || err.Error() != "read src/strings.go at HEAD: object not found (a partial or damaged clone?)" {
		t.Errorf("software only, src/strings.go missing: %v", err)
	}
}
