package diff

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// This file builds test repositories directly from objects with go-git, so
// that paths git would refuse in a work tree (tabs, newlines) are possible,
// modes are exact, and SHAs are stable: fixed author, fixed times.

// entry is one file of a snapshot. A zero mode is a regular file; for a
// submodule, data is the 40-hex commit it points to.
type entry struct {
	data string
	mode filemode.FileMode
}

// snapshot maps slash-separated paths to file entries.
type snapshot map[string]entry

// text builds a snapshot of regular files from path/content pairs.
func text(pairs ...string) snapshot {
	s := snapshot{}
	for i := 0; i+1 < len(pairs); i += 2 {
		s[pairs[i]] = entry{data: pairs[i+1]}
	}
	return s
}

// with returns a copy of s with the given entries set; an entry with mode
// filemode.Empty and data "-" deletes the path.
func (s snapshot) with(changes snapshot) snapshot {
	out := snapshot{}
	for p, e := range s {
		out[p] = e
	}
	for p, e := range changes {
		if e.data == "-" && e.mode == filemode.Empty {
			delete(out, p)
			continue
		}
		out[p] = e
	}
	return out
}

var gone = entry{data: "-"}

// builder writes objects and refs into a repository on disk.
type builder struct {
	tb      testing.TB
	dir     string
	repo    *git.Repository
	commits int
	blobs   map[string]plumbing.Hash // written blobs by content
	trees   map[plumbing.Hash]bool   // written trees
}

// newBuilder makes an empty repository in a fresh temporary directory.
func newBuilder(tb testing.TB, bare bool) *builder {
	tb.Helper()
	dir := tb.TempDir()
	repo, err := git.PlainInit(dir, bare)
	if err != nil {
		tb.Fatal(err)
	}
	return &builder{tb: tb, dir: dir, repo: repo}
}

func (b *builder) blob(data string) plumbing.Hash {
	if h, ok := b.blobs[data]; ok {
		return h
	}
	obj := b.repo.Storer.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	w, err := obj.Writer()
	if err != nil {
		b.tb.Fatal(err)
	}
	if _, err := w.Write([]byte(data)); err != nil {
		b.tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		b.tb.Fatal(err)
	}
	h, err := b.repo.Storer.SetEncodedObject(obj)
	if err != nil {
		b.tb.Fatal(err)
	}
	if b.blobs == nil {
		b.blobs = map[string]plumbing.Hash{}
	}
	b.blobs[data] = h
	return h
}

// tree writes the tree of a snapshot and returns its hash.
func (b *builder) tree(s snapshot) plumbing.Hash {
	files := map[string]entry{}
	subdirs := map[string]snapshot{}
	for p, e := range s {
		if dir, rest, ok := strings.Cut(p, "/"); ok {
			if subdirs[dir] == nil {
				subdirs[dir] = snapshot{}
			}
			subdirs[dir][rest] = e
		} else {
			files[p] = e
		}
	}
	var entries []object.TreeEntry
	for name, e := range files {
		mode := e.mode
		if mode == filemode.Empty {
			mode = filemode.Regular
		}
		var h plumbing.Hash
		if mode == filemode.Submodule {
			h = plumbing.NewHash(e.data)
		} else {
			h = b.blob(e.data)
		}
		entries = append(entries, object.TreeEntry{Name: name, Mode: mode, Hash: h})
	}
	for name, sub := range subdirs {
		entries = append(entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: b.tree(sub)})
	}
	// git orders tree entries by name, a directory as if it ended in "/".
	key := func(e object.TreeEntry) string {
		if e.Mode == filemode.Dir {
			return e.Name + "/"
		}
		return e.Name
	}
	sort.Slice(entries, func(i, j int) bool { return key(entries[i]) < key(entries[j]) })
	t := &object.Tree{Entries: entries}
	obj := &plumbing.MemoryObject{}
	if err := t.Encode(obj); err != nil {
		b.tb.Fatal(err)
	}
	if b.trees[obj.Hash()] { // unchanged since an earlier commit
		return obj.Hash()
	}
	h, err := b.repo.Storer.SetEncodedObject(obj)
	if err != nil {
		b.tb.Fatal(err)
	}
	if b.trees == nil {
		b.trees = map[plumbing.Hash]bool{}
	}
	b.trees[h] = true
	return h
}

// commit writes a commit of the snapshot with the given parents. Author and
// times are fixed (one minute apart per commit), so SHAs are stable.
func (b *builder) commit(s snapshot, parents ...plumbing.Hash) plumbing.Hash {
	return b.commitMsg(fmt.Sprintf("commit %d\n", b.commits+1), s, parents...)
}

func (b *builder) commitMsg(msg string, s snapshot, parents ...plumbing.Hash) plumbing.Hash {
	b.commits++
	when := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).Add(time.Duration(b.commits) * time.Minute)
	c := &object.Commit{
		Author:       object.Signature{Name: "Ada Lovelace", Email: "ada@example.com", When: when},
		Committer:    object.Signature{Name: "Charles Babbage", Email: "cb@example.com", When: when.Add(time.Second)},
		Message:      msg,
		TreeHash:     b.tree(s),
		ParentHashes: parents,
	}
	obj := b.repo.Storer.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		b.tb.Fatal(err)
	}
	h, err := b.repo.Storer.SetEncodedObject(obj)
	if err != nil {
		b.tb.Fatal(err)
	}
	return h
}

// branch points refs/heads/name at h, and HEAD at the branch.
func (b *builder) branch(name string, h plumbing.Hash) {
	b.setRef(plumbing.NewHashReference(plumbing.NewBranchReferenceName(name), h))
	b.setRef(plumbing.NewSymbolicReference(plumbing.HEAD, plumbing.NewBranchReferenceName(name)))
}

// tag makes a lightweight tag.
func (b *builder) tag(name string, h plumbing.Hash) {
	b.setRef(plumbing.NewHashReference(plumbing.NewTagReferenceName(name), h))
}

// annotatedTag makes a tag object pointing at the commit h.
func (b *builder) annotatedTag(name string, h plumbing.Hash) {
	t := &object.Tag{
		Name:       name,
		Tagger:     object.Signature{Name: "Ada Lovelace", Email: "ada@example.com", When: time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)},
		Message:    "release " + name + "\n",
		TargetType: plumbing.CommitObject,
		Target:     h,
	}
	obj := b.repo.Storer.NewEncodedObject()
	if err := t.Encode(obj); err != nil {
		b.tb.Fatal(err)
	}
	th, err := b.repo.Storer.SetEncodedObject(obj)
	if err != nil {
		b.tb.Fatal(err)
	}
	b.setRef(plumbing.NewHashReference(plumbing.NewTagReferenceName(name), th))
}

func (b *builder) setRef(ref *plumbing.Reference) {
	if err := b.repo.Storer.SetReference(ref); err != nil {
		b.tb.Fatal(err)
	}
}

// GenerateChange builds, in a fresh repository, a base commit of nFiles
// text files and a head commit that changes about linesPerFile lines in
// each: most files are edited (lines inserted, deleted and moved), some
// renamed with edits, some deleted, some added. The same seed gives the
// same repository and SHAs. Benchmarks and other packages' tests may copy
// it.
func GenerateChange(tb testing.TB, nFiles, linesPerFile int, seed uint64) (dir string, base, head plumbing.Hash) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	b := newBuilder(tb, false)
	before, after := snapshot{}, snapshot{}
	exts := []string{".go", ".py", ".java", ".c", ".md", ".txt", "_test.go", ".json"}
	for i := range nFiles {
		dir := fmt.Sprintf("pkg%02d", i%37)
		p := fmt.Sprintf("%s/file%04d%s", dir, i, exts[i%len(exts)])
		lines := randomLines(rng, 2*linesPerFile)
		before[p] = entry{data: strings.Join(lines, "")}
		switch r := rng.IntN(100); {
		case r < 3: // deleted
		case r < 8: // renamed with a few edits
			after[fmt.Sprintf("moved/%s", p)] = entry{data: strings.Join(editLines(rng, lines, 3), "")}
		default:
			after[p] = entry{data: strings.Join(editLines(rng, lines, linesPerFile), "")}
		}
	}
	for i := range nFiles / 40 {
		after[fmt.Sprintf("added/new%03d.go", i)] = entry{data: strings.Join(randomLines(rng, linesPerFile), "")}
	}
	base = b.commit(before)
	head = b.commit(after, base)
	b.branch("main", head)
	return b.dir, base, head
}

// randomLines makes source-like lines from a small vocabulary, so that
// repeated lines (braces, blank lines, returns) give the line diff
// ambiguous alignments, where diff algorithms differ.
func randomLines(rng *rand.Rand, n int) []string {
	common := []string{"}\n", "\n", "\treturn nil\n", "{\n", "\tif err != nil {\n", "\t\treturn err\n", "\t}\n", "// comment\n"}
	out := make([]string, n)
	for i := range out {
		if rng.IntN(3) == 0 {
			out[i] = fmt.Sprintf("\tx%d := f(%d)\n", rng.IntN(1000), rng.IntN(50))
		} else {
			out[i] = common[rng.IntN(len(common))]
		}
	}
	return out
}

// editLines applies about n line changes: deletions, insertions and block
// moves.
func editLines(rng *rand.Rand, lines []string, n int) []string {
	out := append([]string(nil), lines...)
	for changed := 0; changed < n; {
		switch op := rng.IntN(10); {
		case op < 4 && len(out) > 0: // delete a run
			i := rng.IntN(len(out))
			k := min(1+rng.IntN(4), len(out)-i)
			out = append(out[:i], out[i+k:]...)
			changed += k
		case op < 8: // insert a run
			i := rng.IntN(len(out) + 1)
			k := 1 + rng.IntN(4)
			ins := randomLines(rng, k)
			out = append(out[:i], append(ins, out[i:]...)...)
			changed += k
		case len(out) > 4: // move a block
			i := rng.IntN(len(out) - 3)
			k := 1 + rng.IntN(3)
			block := append([]string(nil), out[i:i+k]...)
			out = append(out[:i], out[i+k:]...)
			j := rng.IntN(len(out) + 1)
			out = append(out[:j], append(block, out[j:]...)...)
			changed += 2 * k
		default:
			changed++
		}
	}
	return out
}
