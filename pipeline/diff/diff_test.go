package diff

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/lolbench/lolbench/pipeline/lang"
)

func lines(prefix string, n int) string {
	var sb strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&sb, "%s %d\n", prefix, i)
	}
	return sb.String()
}

// everything is one base and one head commit that between them show every
// kind of file change the package must report exactly.
type everything struct {
	b          *builder
	base, head plumbing.Hash
}

// tailTrim is a change whose -U0 diff aligns differently from the default
// context: with zero context git trims the files' common tail (in 1 KiB
// blocks) before diffing. numstat says +7 -3; the -U0 hunk is -1,4 +1,8.
// The files are synthetic, reduced from a real case in go-git's history.
func tailTrim(t *testing.T) (old, new string) {
	t.Helper()
	o, err := os.ReadFile(filepath.Join("testdata", "tailtrim", "old.txt"))
	if err != nil {
		t.Fatal(err)
	}
	n, err := os.ReadFile(filepath.Join("testdata", "tailtrim", "new.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return string(o), string(n)
}

func buildEverything(t *testing.T, bare bool) everything {
	t.Helper()
	b := newBuilder(t, bare)
	tailOld, tailNew := tailTrim(t)
	before := snapshot{
		"keep.txt":                   {data: "a\nb\nc\n"},
		"mod.go":                     {data: "package m\n\nfunc A() {}\n\nfunc B() {}\n"},
		"notes.txt":                  {data: lines("note", 10)},
		"similar.py":                 {data: lines("line", 20)},
		"gone.md":                    {data: "x\ny\n"},
		"img.png":                    {data: "\x89PNG\r\n\x1a\n\x00\x00\x00abc"},
		"lost.bin":                   {data: "\x00\x01\x02"},
		"script.sh":                  {data: "echo hi\n"},
		"noeol.txt":                  {data: "a\nb"},
		"crlf.txt":                   {data: "a\r\nb\r\nc\r\n"},
		"dir with space/ünïcödé.txt": {data: "1\n2\n3\n"},
		`quote"d.txt`:                {data: "q\n"},
		"link":                       {data: "target\n"},
		"sub":                        {data: strings.Repeat("1", 40), mode: filemode.Submodule},
		"tailtrim.txt":               {data: tailOld},
	}
	after := before.with(snapshot{
		"mod.go":                     {data: "package m\n\nfunc A() { return }\n\nfunc B() {}\n\nfunc C() {}\n"},
		"notes.txt":                  gone,
		"tests/test_notes.py":        {data: lines("note", 10)},
		"similar.py":                 gone,
		"pkg/similar.py":             {data: strings.Replace(lines("line", 20), "line 10\n", "LINE 10\n", 1)},
		"gone.md":                    gone,
		"img.png":                    {data: "\x89PNG\r\n\x1a\n\x00\x00\x00abd"},
		"lost.bin":                   gone,
		"script.sh":                  {data: "echo hi\n", mode: filemode.Executable},
		"noeol.txt":                  {data: "a\nc"},
		"crlf.txt":                   {data: "a\r\nB\r\nc\r\n"},
		"dir with space/ünïcödé.txt": {data: "1\n2\n3\n4\n"},
		`quote"d.txt`:                {data: "Q\n"},
		"link":                       {data: "keep.txt", mode: filemode.Symlink},
		"sub":                        {data: strings.Repeat("2", 40), mode: filemode.Submodule},
		"added.rs":                   {data: "fn main() {}\n"},
		"empty.txt":                  {data: ""},
		"tab\tname.txt":              {data: "t\n"},
		"new\nline.txt":              {data: "n\n"},
		"-dash.txt":                  {data: "d\n"},
		"bad\xffbyte.txt":            {data: "b\n"},
		"tailtrim.txt":               {data: tailNew},
	})
	base := b.commit(before)
	head := b.commit(after, base)
	b.branch("main", head)
	return everything{b: b, base: base, head: head}
}

// classified fills Category and Language as the package must: from Path().
func classified(files []File) []File {
	for i := range files {
		f := &files[i]
		f.Category = lang.Classify(f.Path())
		if l := lang.ForPath(f.Path()); l != nil {
			f.Language = l.Name
		}
	}
	return files
}

func wantEverything() []File {
	return classified([]File{
		{NewPath: "-dash.txt", Status: Added, Inserted: 1, NewLines: []int{1}, Hunks: []Hunk{{0, 0, 1, 1}}},
		{NewPath: "added.rs", Status: Added, Inserted: 1, NewLines: []int{1}, Hunks: []Hunk{{0, 0, 1, 1}}},
		{NewPath: "bad\xffbyte.txt", Status: Added, Inserted: 1, NewLines: []int{1}, Hunks: []Hunk{{0, 0, 1, 1}}},
		{OldPath: "crlf.txt", NewPath: "crlf.txt", Status: Modified, Inserted: 1, Deleted: 1, OldLines: []int{2}, NewLines: []int{2}, Hunks: []Hunk{{2, 1, 2, 1}}},
		{OldPath: "dir with space/ünïcödé.txt", NewPath: "dir with space/ünïcödé.txt", Status: Modified, Inserted: 1, NewLines: []int{4}, Hunks: []Hunk{{3, 0, 4, 1}}},
		{NewPath: "empty.txt", Status: Added},
		{OldPath: "gone.md", Status: Deleted, Deleted: 2, OldLines: []int{1, 2}, Hunks: []Hunk{{1, 2, 0, 0}}},
		{OldPath: "img.png", NewPath: "img.png", Status: Modified, Binary: true},
		// A file that becomes a symbolic link: git's patch deletes and
		// re-adds it, numstat counts both.
		{OldPath: "link", NewPath: "link", Status: Modified, Inserted: 1, Deleted: 1, OldLines: []int{1}, NewLines: []int{1}, Hunks: []Hunk{{1, 1, 0, 0}, {0, 0, 1, 1}}},
		{OldPath: "lost.bin", Status: Deleted, Binary: true},
		{OldPath: "mod.go", NewPath: "mod.go", Status: Modified, Inserted: 3, Deleted: 1, OldLines: []int{3}, NewLines: []int{3, 6, 7}, Hunks: []Hunk{{3, 1, 3, 1}, {5, 0, 6, 2}}},
		{NewPath: "new\nline.txt", Status: Added, Inserted: 1, NewLines: []int{1}, Hunks: []Hunk{{0, 0, 1, 1}}},
		{OldPath: "noeol.txt", NewPath: "noeol.txt", Status: Modified, Inserted: 1, Deleted: 1, OldLines: []int{2}, NewLines: []int{2}, Hunks: []Hunk{{2, 1, 2, 1}}},
		{OldPath: "similar.py", NewPath: "pkg/similar.py", Status: Renamed, Inserted: 1, Deleted: 1, OldLines: []int{10}, NewLines: []int{10}, Hunks: []Hunk{{10, 1, 10, 1}}},
		{OldPath: `quote"d.txt`, NewPath: `quote"d.txt`, Status: Modified, Inserted: 1, Deleted: 1, OldLines: []int{1}, NewLines: []int{1}, Hunks: []Hunk{{1, 1, 1, 1}}},
		{OldPath: "script.sh", NewPath: "script.sh", Status: Modified},
		{OldPath: "sub", NewPath: "sub", Status: Modified, Inserted: 1, Deleted: 1, OldLines: []int{1}, NewLines: []int{1}, Hunks: []Hunk{{1, 1, 1, 1}}},
		{NewPath: "tab\tname.txt", Status: Added, Inserted: 1, NewLines: []int{1}, Hunks: []Hunk{{0, 0, 1, 1}}},
		// numstat and -U0 disagree, and each is kept (see tailTrim).
		{OldPath: "tailtrim.txt", NewPath: "tailtrim.txt", Status: Modified, Inserted: 7, Deleted: 3,
			OldLines: []int{1, 2, 3, 4}, NewLines: []int{1, 2, 3, 4, 5, 6, 7, 8}, Hunks: []Hunk{{1, 4, 1, 8}}},
		{OldPath: "notes.txt", NewPath: "tests/test_notes.py", Status: Renamed},
	})
}

func diffFiles(t *testing.T, dir, base, head string) *Change {
	t.Helper()
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.Diff(context.Background(), base, head)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func sameFiles(t *testing.T, got, want []File) {
	t.Helper()
	if len(got) != len(want) {
		for _, f := range got {
			t.Logf("got %q %s", f.Path(), f.Status)
		}
		t.Fatalf("got %d files, want %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("file %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
}

func TestDiffEverything(t *testing.T) {
	for _, bare := range []bool{false, true} {
		t.Run(fmt.Sprintf("bare=%v", bare), func(t *testing.T) {
			e := buildEverything(t, bare)
			c := diffFiles(t, e.b.dir, e.base.String(), e.head.String())
			if c.Base != e.base.String() || c.Head != e.head.String() {
				t.Errorf("base, head = %s, %s; want %s, %s", c.Base, c.Head, e.base, e.head)
			}
			sameFiles(t, c.Files, wantEverything())
		})
	}
}

// TestDiffClassification pins the categories the table above derives from
// lang, so that a rename is classified by its new path.
func TestDiffClassification(t *testing.T) {
	e := buildEverything(t, false)
	c := diffFiles(t, e.b.dir, e.base.String(), e.head.String())
	got := map[string]string{}
	for _, f := range c.Files {
		got[f.Path()] = string(f.Category) + "/" + f.Language
	}
	for path, want := range map[string]string{
		"mod.go":              "source/Go",
		"added.rs":            "source/Rust",
		"pkg/similar.py":      "source/Python",
		"tests/test_notes.py": "test/Python",
		"gone.md":             "documentation/",
		"img.png":             "data/",
	} {
		if got[path] != want {
			t.Errorf("%s: got %s, want %s", path, got[path], want)
		}
	}
}

// TestDiffIgnoresConfiguration gives the repository, the user and the
// environment every setting that would change git's diff output; the
// result must not move.
func TestDiffIgnoresConfiguration(t *testing.T) {
	e := buildEverything(t, false)
	r, err := Open(e.b.dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	wantPatch, err := r.Patch(ctx, e.base.String(), e.head.String())
	if err != nil {
		t.Fatal(err)
	}
	write := func(path, content string, appendTo bool) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		flag := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
		if appendTo {
			flag = os.O_CREATE | os.O_WRONLY | os.O_APPEND
		}
		f, err := os.OpenFile(path, flag, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(content); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(e.b.dir, ".git", "config"), "[diff]\n\talgorithm = histogram\n\tcontext = 0\n"+
		"\trenames = false\n\tnoprefix = true\n\tmnemonicPrefix = true\n\trenameLimit = 1\n"+
		"\tindentHeuristic = false\n\tinterHunkContext = 5\n\texternal = /bin/false\n"+
		"\tignoreSubmodules = all\n\trelative = true\n[core]\n\tquotepath = true\n", true)
	write(filepath.Join(e.b.dir, ".gitattributes"), "* binary\n", false) // in the work tree
	home := t.TempDir()
	write(filepath.Join(home, ".gitconfig"), "[diff]\n\talgorithm = patience\n\texternal = /bin/false\n", false)
	write(filepath.Join(home, "xdg", "git", "attributes"), "* -diff\n", false)
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "xdg"))
	t.Setenv("GIT_DIFF_OPTS", "--unified=7")
	t.Setenv("GIT_EXTERNAL_DIFF", "/bin/false")
	t.Setenv("GIT_CONFIG_PARAMETERS", "'diff.algorithm'='patience'")
	t.Setenv("GIT_DIR", t.TempDir())

	r, err = Open(e.b.dir)
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.Diff(ctx, e.base.String(), e.head.String())
	if err != nil {
		t.Fatal(err)
	}
	sameFiles(t, c.Files, wantEverything())
	patch, err := r.Patch(ctx, e.base.String(), e.head.String())
	if err != nil || string(patch) != string(wantPatch) {
		t.Errorf("patch changed with configuration (%v):\n%s", err, patch)
	}
}

func TestDiffNoChange(t *testing.T) {
	e := buildEverything(t, false)
	c := diffFiles(t, e.b.dir, "main", e.head.String())
	if len(c.Files) != 0 || c.Base != c.Head {
		t.Fatalf("got %+v", c)
	}
	if s := c.Stats(); s.Files != 0 || s.SourceShare != 0 || len(s.Categories) != len(lang.Categories) {
		t.Fatalf("stats of no change: %+v", s)
	}
}

func TestStats(t *testing.T) {
	e := buildEverything(t, false)
	s := diffFiles(t, e.b.dir, e.base.String(), e.head.String()).Stats()
	want := map[lang.Category]CategoryStats{
		lang.Source:        {Files: 4, Inserted: 5, Deleted: 2}, // added.rs, mod.go, pkg/similar.py, script.sh
		lang.Test:          {Files: 1},                          // tests/test_notes.py
		lang.TestData:      {},
		lang.Data:          {Files: 4, Inserted: 2, Deleted: 2}, // img.png, link, lost.bin, sub
		lang.Build:         {},
		lang.Documentation: {Files: 11, Inserted: 15, Deleted: 8},
		lang.Generated:     {},
		lang.Vendor:        {},
	}
	if s.Files != 20 || s.Inserted != 22 || s.Deleted != 12 {
		t.Errorf("totals: files %d inserted %d deleted %d", s.Files, s.Inserted, s.Deleted)
	}
	if len(s.Categories) != len(want) {
		t.Errorf("got %d categories", len(s.Categories))
	}
	for cat, w := range want {
		if g := s.Categories[cat]; g == nil || *g != w {
			t.Errorf("%s: got %+v, want %+v", cat, g, w)
		}
	}
	if s.SourceShare != 7.0/34.0 {
		t.Errorf("source share %v, want %v", s.SourceShare, 7.0/34.0)
	}
}

// history is base, middle and tip commits on main, with a lightweight tag
// v1 on the first and an annotated tag v2 on the second.
type history struct {
	b           *builder
	c1, c2, c3  plumbing.Hash
	treeOfFirst plumbing.Hash
}

func buildHistory(t testing.TB) history {
	t.Helper()
	b := newBuilder(t, false)
	s1 := text("a.go", "package a\n", "docs/readme.md", "hello\n")
	s2 := s1.with(text("a.go", "package a\n\nvar X = 1\n"))
	s3 := s2.with(snapshot{"docs/readme.md": gone, "b.go": {data: "package a\n"}})
	c1 := b.commit(s1)
	c2 := b.commit(s2, c1)
	c3 := b.commit(s3, c2)
	b.branch("main", c3)
	b.tag("v1", c1)
	b.annotatedTag("v2", c2)
	b.setRef(plumbing.NewHashReference("refs/remotes/origin/feature", c2))
	c, err := b.repo.CommitObject(c1)
	if err != nil {
		t.Fatal(err)
	}
	return history{b: b, c1: c1, c2: c2, c3: c3, treeOfFirst: c.TreeHash}
}

func TestResolve(t *testing.T) {
	h := buildHistory(t)
	r, err := Open(h.b.dir)
	if err != nil {
		t.Fatal(err)
	}
	dir := h.b.dir
	tests := []struct {
		rev     string
		want    plumbing.Hash
		wantErr string
	}{
		{rev: h.c2.String(), want: h.c2},
		{rev: strings.ToUpper(h.c2.String()), want: h.c2},
		{rev: h.c2.String()[:7], want: h.c2},
		{rev: h.c1.String()[:4], want: h.c1},
		{rev: "main", want: h.c3},
		{rev: "refs/heads/main", want: h.c3},
		{rev: "heads/main", want: h.c3},
		{rev: "HEAD", want: h.c3},
		{rev: "@", want: h.c3},
		{rev: "v1", want: h.c1},
		{rev: "v2", want: h.c2}, // annotated: peeled to the commit
		{rev: "tags/v2", want: h.c2},
		{rev: "origin/feature", want: h.c2},
		{rev: "HEAD~1", want: h.c2},
		{rev: "HEAD~", want: h.c2},
		{rev: "HEAD^", want: h.c2},
		{rev: "HEAD^1", want: h.c2},
		{rev: "main~2", want: h.c1},
		{rev: "main^^", want: h.c1},
		{rev: "main~1^", want: h.c1},
		{rev: "HEAD~0", want: h.c3},
		{rev: "HEAD^0", want: h.c3},
		{rev: "v2~1", want: h.c1},
		{rev: "", wantErr: `unknown revision "" in ` + dir},
		{rev: "nope", wantErr: `unknown revision "nope" in ` + dir},
		{rev: "HEAD~3", wantErr: `unknown revision "HEAD~3" in ` + dir},
		{rev: "HEAD^2", wantErr: `unknown revision "HEAD^2" in ` + dir},
		{rev: "HEAD~x", wantErr: `unknown revision "HEAD~x" in ` + dir},
		{rev: "HEAD~99999999", wantErr: `unknown revision "HEAD~99999999" in ` + dir},
		{rev: "HEAD^{tree}", wantErr: `unknown revision "HEAD^{tree}" in ` + dir},
		{rev: "HEAD@{1}", wantErr: `unknown revision "HEAD@{1}" in ` + dir},
		{rev: "HEAD:a.go", wantErr: `unknown revision "HEAD:a.go" in ` + dir},
		{rev: "main..HEAD", wantErr: `unknown revision "main..HEAD" in ` + dir},
		{rev: "--output=/tmp/x", wantErr: `unknown revision "--output=/tmp/x" in ` + dir},
		{rev: "-p", wantErr: `unknown revision "-p" in ` + dir},
		{rev: "../config", wantErr: `unknown revision "../config" in ` + dir},
		{rev: "config", wantErr: `unknown revision "config" in ` + dir},
		{rev: "objects", wantErr: `unknown revision "objects" in ` + dir},
		{rev: "a\nb", wantErr: `unknown revision "a\nb" in ` + dir},
		{rev: h.c2.String()[:3], wantErr: fmt.Sprintf("unknown revision %q in %s", h.c2.String()[:3], dir)},
		{rev: strings.Repeat("0", 40), wantErr: fmt.Sprintf("unknown revision %q in %s", strings.Repeat("0", 40), dir)},
		{rev: "0000000", wantErr: `unknown revision "0000000" in ` + dir},
		{rev: h.treeOfFirst.String(), wantErr: fmt.Sprintf("revision %q in %s names a tree, not a commit", h.treeOfFirst, dir)},
	}
	for _, tt := range tests {
		t.Run(tt.rev, func(t *testing.T) {
			got, err := r.Resolve(tt.rev)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("got %q, %v; want error %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want.String() {
				t.Fatalf("got %q, %v; want %s", got, err, tt.want)
			}
		})
	}
}

// TestResolveAmbiguousPrefix makes commits until two share their first four
// hex digits; that prefix must be refused, as git refuses it.
func TestResolveAmbiguousPrefix(t *testing.T) {
	b := newBuilder(t, true)
	s := text("f", "x\n")
	seen := map[string]plumbing.Hash{}
	var prefix string
	for i := 0; prefix == "" && i < 5000; i++ {
		h := b.commitMsg(fmt.Sprintf("try %d\n", i), s)
		p := h.String()[:4]
		if _, ok := seen[p]; ok {
			prefix = p
		}
		seen[p] = h
	}
	if prefix == "" {
		t.Fatal("no four-digit collision in 5000 commits")
	}
	r, err := Open(b.dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Resolve(prefix)
	want := fmt.Sprintf("ambiguous revision %q in %s: 2 commits start with it; give more digits", prefix, b.dir)
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
	// A branch of the same spelling wins, as in git.
	b.setRef(plumbing.NewHashReference(plumbing.NewBranchReferenceName(prefix), seen[prefix]))
	if got, err := r.Resolve(prefix); err != nil || got != seen[prefix].String() {
		t.Fatalf("with a branch %s: got %s, %v", prefix, got, err)
	}
}

// TestDiffRevisionForms diffs the same commits named in every way.
func TestDiffRevisionForms(t *testing.T) {
	h := buildHistory(t)
	want := classified([]File{
		{OldPath: "a.go", NewPath: "a.go", Status: Modified, Inserted: 2, NewLines: []int{2, 3}, Hunks: []Hunk{{1, 0, 2, 2}}},
	})
	for _, tt := range []struct{ base, head string }{
		{h.c1.String(), h.c2.String()},
		{h.c1.String()[:7], h.c2.String()[:10]},
		{"v1", "v2"},
		{"main~2", "HEAD~1"},
		{"HEAD^^", "origin/feature"},
	} {
		t.Run(tt.base+".."+tt.head, func(t *testing.T) {
			c := diffFiles(t, h.b.dir, tt.base, tt.head)
			if c.Base != h.c1.String() || c.Head != h.c2.String() {
				t.Errorf("base, head = %s, %s", c.Base, c.Head)
			}
			sameFiles(t, c.Files, want)
		})
	}
}

func TestDiffErrors(t *testing.T) {
	h := buildHistory(t)
	r, err := Open(h.b.dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := r.Diff(ctx, "nope", "HEAD"); err == nil || err.Error() != `unknown revision "nope" in `+h.b.dir {
		t.Errorf("unknown base: %v", err)
	}
	if _, err := r.Diff(ctx, "HEAD", "--cached"); err == nil || err.Error() != `unknown revision "--cached" in `+h.b.dir {
		t.Errorf("unknown head: %v", err)
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := r.Diff(canceled, "v1", "HEAD"); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v", err)
	}
	t.Setenv("PATH", t.TempDir())
	if _, err := r.Diff(ctx, "v1", "HEAD"); !errors.Is(err, ErrNoGit) {
		t.Errorf("no git: %v", err)
	}
}

func TestOpen(t *testing.T) {
	empty := t.TempDir()
	file := filepath.Join(empty, "f")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{empty, filepath.Join(empty, "missing"), file} {
		_, err := Open(dir)
		if err == nil || err.Error() != dir+": not a git repository" {
			t.Errorf("Open(%s): %v", dir, err)
		}
	}
}

func TestCommit(t *testing.T) {
	h := buildHistory(t)
	r, err := Open(h.b.dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.Commit("v2")
	if err != nil {
		t.Fatal(err)
	}
	when := time.Date(2026, 1, 2, 3, 6, 5, 0, time.UTC)
	want := &CommitInfo{
		Hash:           h.c2.String(),
		AuthorName:     "Ada Lovelace",
		AuthorEmail:    "ada@example.com",
		AuthorTime:     when,
		CommitterName:  "Charles Babbage",
		CommitterEmail: "cb@example.com",
		CommitterTime:  when.Add(time.Second),
		Message:        "commit 2\n",
		Parents:        []string{h.c1.String()},
	}
	if !got.AuthorTime.Equal(want.AuthorTime) || !got.CommitterTime.Equal(want.CommitterTime) {
		t.Errorf("times %v, %v", got.AuthorTime, got.CommitterTime)
	}
	got.AuthorTime, got.CommitterTime = want.AuthorTime, want.CommitterTime
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	if c, err := r.Commit("v1"); err != nil || c.Parents != nil {
		t.Errorf("root commit: %+v, %v", c, err)
	}
	if _, err := r.Commit("nope"); err == nil {
		t.Error("Commit(nope) succeeded")
	}
}

func TestReadFile(t *testing.T) {
	e := buildEverything(t, true)
	r, err := Open(e.b.dir)
	if err != nil {
		t.Fatal(err)
	}
	head, base := e.head.String(), e.base.String()
	tests := []struct {
		rev, path string
		want      string
		noFile    bool // the error must wrap ErrNoSuchFile
		wantErr   string
	}{
		{rev: head, path: "mod.go", want: "package m\n\nfunc A() { return }\n\nfunc B() {}\n\nfunc C() {}\n"},
		{rev: base, path: "mod.go", want: "package m\n\nfunc A() {}\n\nfunc B() {}\n"},
		{rev: "main~1", path: "gone.md", want: "x\ny\n"},
		{rev: "main", path: "dir with space/ünïcödé.txt", want: "1\n2\n3\n4\n"},
		{rev: head, path: "new\nline.txt", want: "n\n"},
		{rev: head, path: "tab\tname.txt", want: "t\n"},
		{rev: head, path: "link", want: "keep.txt"},
		{rev: head, path: "empty.txt", want: ""},
		{rev: head, path: "gone.md", noFile: true},
		{rev: head, path: "dir with space", noFile: true},
		{rev: head, path: "dir with space/", noFile: true},
		{rev: head, path: "mod.go/x", noFile: true},
		{rev: head, path: "sub", noFile: true},
		{rev: head, path: "", noFile: true},
		{rev: head, path: "/mod.go", noFile: true},
		{rev: head, path: "./mod.go", noFile: true},
		{rev: "nope", path: "mod.go", wantErr: `unknown revision "nope" in ` + e.b.dir},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			got, err := r.ReadFile(tt.rev, tt.path)
			switch {
			case tt.noFile:
				if !errors.Is(err, ErrNoSuchFile) || !errors.Is(err, fs.ErrNotExist) {
					t.Fatalf("got %q, %v; want ErrNoSuchFile", got, err)
				}
			case tt.wantErr != "":
				if err == nil || err.Error() != tt.wantErr || errors.Is(err, ErrNoSuchFile) {
					t.Fatalf("got %v, want %s", err, tt.wantErr)
				}
			default:
				if err != nil || string(got) != tt.want {
					t.Fatalf("got %q, %v; want %q", got, err, tt.want)
				}
			}
		})
	}
	_, err = r.ReadFile(head, "gone.md")
	if want := `"gone.md" at "` + head + `" in ` + e.b.dir + ": not found: no such file: file does not exist"; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
}

func TestPatch(t *testing.T) {
	h := buildHistory(t)
	r, err := Open(h.b.dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c1, c2, c3 := h.c1.String(), h.c2.String(), h.c3.String()
	blob := func(rev, path string) string {
		data, err := r.ReadFile(rev, path)
		if err != nil {
			t.Fatal(err)
		}
		return plumbing.ComputeHash(plumbing.BlobObject, data).String()
	}
	zero := strings.Repeat("0", 40)
	aGo := "diff --git a/a.go b/a.go\n" +
		"index " + blob(c1, "a.go") + ".." + blob(c2, "a.go") + " 100644\n" +
		"--- a/a.go\n+++ b/a.go\n@@ -1 +1,3 @@\n package a\n+\n+var X = 1\n"
	bGo := "diff --git a/b.go b/b.go\nnew file mode 100644\n" +
		"index " + zero + ".." + blob(c3, "b.go") + "\n" +
		"--- /dev/null\n+++ b/b.go\n@@ -0,0 +1 @@\n+package a\n"
	readme := "diff --git a/docs/readme.md b/docs/readme.md\ndeleted file mode 100644\n" +
		"index " + blob(c1, "docs/readme.md") + ".." + zero + "\n" +
		"--- a/docs/readme.md\n+++ /dev/null\n@@ -1 +0,0 @@\n-hello\n"
	tests := []struct {
		base, head string
		paths      []string
		want       string
	}{
		{base: c1, head: c2, want: aGo},
		{base: "v2", head: "main", want: bGo + readme},
		{base: "v2", head: "main", paths: []string{"docs/readme.md"}, want: readme},
		{base: "v2", head: "main", paths: []string{"b.go", "nope"}, want: bGo},
		{base: "v2", head: "main", paths: []string{"*.go"}, want: ""}, // literal, not a pattern
		{base: c3, head: c3, want: ""},
	}
	for _, tt := range tests {
		got, err := r.Patch(ctx, tt.base, tt.head, tt.paths...)
		if err != nil || string(got) != tt.want {
			t.Errorf("Patch(%s, %s, %q):\n%s\nerr %v\nwant\n%s", tt.base, tt.head, tt.paths, got, err, tt.want)
		}
	}
	if _, err := r.Patch(ctx, "v1", "main", ""); err == nil {
		t.Error("empty path accepted")
	}
}

// TestPatchApplies replays the full patch of the everything change, binary
// files and odd names included, with git apply on a checkout of the base.
func TestPatchApplies(t *testing.T) {
	e := buildEverything(t, false)
	r, err := Open(e.b.dir)
	if err != nil {
		t.Fatal(err)
	}
	patch, err := r.Patch(context.Background(), e.base.String(), e.head.String())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(patch), "GIT binary patch") {
		t.Error("no binary patch")
	}
	// Apply to the base's index and compare the resulting tree with head's.
	index := filepath.Join(t.TempDir(), "index")
	git := func(stdin []byte, args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Env = append(os.Environ(), "GIT_DIR="+filepath.Join(e.b.dir, ".git"), "GIT_INDEX_FILE="+index,
			"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		cmd.Stdin = strings.NewReader(string(stdin))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git(nil, "read-tree", e.base.String())
	git(patch, "apply", "--cached", "-")
	got := git(nil, "write-tree")
	want := git(nil, "rev-parse", e.head.String()+"^{tree}")
	if got != want {
		t.Errorf("patched tree %s, head tree %s", got, want)
	}
}

// FuzzResolve calls the resolver without its panic guard: hostile
// revisions must give errors, not panics.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"HEAD~1", "v2^", "main^^2~", "abcd", "refs/heads/main", "@", "HEAD@{1}", "-x", "a..b", ""} {
		f.Add(s)
	}
	h := buildHistory(f)
	r, err := Open(h.b.dir)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, rev string) {
		c, err := r.resolve(rev)
		if err == nil && c == nil {
			t.Fatalf("%q: no commit and no error", rev)
		}
	})
}
