package diff

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// The oracle is the git command as a person would run it, with only
// system and user configuration removed: none of the package's flags, no
// -z for the line numbers, and its own parsing, written separately here.

// oracleFile is what git says about one file, keyed by its path after the
// change (before it, for a deletion).
type oracleFile struct {
	status             string // first letter of --name-status
	oldPath            string
	binary             bool
	inserted, deleted  int
	oldLines, newLines []int
}

func oracleGit(t testing.TB, dir string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, stderr.String())
	}
	return out
}

var (
	oracleHeader = regexp.MustCompile(`^diff --git a/(\S+) b/(\S+)$`)
	oracleHunk   = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)
)

// oracleDiff runs `git diff --numstat -M -z`, `git diff --name-status -M
// -z` and `git diff -U0 -M`. The -U0 text is parsed by its "diff --git"
// lines, so it needs paths without spaces (linesOK is false when one has
// them); line numbers come from the hunk headers alone.
func oracleDiff(t testing.TB, dir, base, head string, withLines bool) (files map[string]*oracleFile, linesOK bool) {
	t.Helper()
	files = map[string]*oracleFile{}
	fields := strings.Split(string(oracleGit(t, dir, "diff", "--name-status", "-M", "-z", base, head)), "\x00")
	for i := 0; i+1 < len(fields); {
		st := fields[i]
		if st[0] == 'R' || st[0] == 'C' {
			files[fields[i+2]] = &oracleFile{status: st[:1], oldPath: fields[i+1]}
			i += 3
		} else {
			files[fields[i+1]] = &oracleFile{status: st[:1]}
			i += 2
		}
	}
	fields = strings.Split(string(oracleGit(t, dir, "diff", "--numstat", "-M", "-z", base, head)), "\x00")
	for i := 0; i+1 < len(fields); {
		cols := strings.Split(fields[i], "\t")
		path := cols[2]
		i++
		if path == "" {
			path = fields[i+1]
			i += 2
		}
		f := files[path]
		if f == nil {
			t.Fatalf("numstat names %q, name-status does not", path)
		}
		if cols[0] == "-" {
			f.binary = true
			continue
		}
		f.inserted, _ = strconv.Atoi(cols[0])
		f.deleted, _ = strconv.Atoi(cols[1])
	}
	if !withLines {
		return files, false
	}
	var cur *oracleFile
	for _, line := range strings.Split(string(oracleGit(t, dir, "diff", "-U0", "-M", base, head)), "\n") {
		if strings.HasPrefix(line, "diff --git ") {
			m := oracleHeader.FindStringSubmatch(line)
			if m == nil {
				return files, false
			}
			cur = files[m[2]]
			if cur == nil {
				t.Fatalf("patch names %q, name-status does not", m[2])
			}
			continue
		}
		m := oracleHunk.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		num := func(s string) int {
			if s == "" {
				return 1
			}
			n, _ := strconv.Atoi(s)
			return n
		}
		for k := range num(m[2]) {
			cur.oldLines = append(cur.oldLines, num(m[1])+k)
		}
		for k := range num(m[4]) {
			cur.newLines = append(cur.newLines, num(m[3])+k)
		}
	}
	return files, true
}

var statusLetter = map[Status]string{Added: "A", Deleted: "D", Modified: "M", Renamed: "R"}

// compareWithOracle checks every File of c against git and returns the
// number of files compared.
func compareWithOracle(t testing.TB, dir string, c *Change, withLines bool) int {
	t.Helper()
	want, linesOK := oracleDiff(t, dir, c.Base, c.Head, withLines)
	if withLines && !linesOK {
		t.Logf("%s..%s: a path with spaces; line numbers not compared", c.Base[:8], c.Head[:8])
	}
	if len(c.Files) != len(want) {
		t.Errorf("%s..%s: %d files, git has %d", c.Base[:8], c.Head[:8], len(c.Files), len(want))
	}
	for i := range c.Files {
		f := &c.Files[i]
		w := want[f.Path()]
		if w == nil {
			t.Errorf("%s..%s: %q not in git's diff", c.Base[:8], c.Head[:8], f.Path())
			continue
		}
		wantStatus := w.status
		if wantStatus == "T" {
			wantStatus = "M"
		}
		if statusLetter[f.Status] != wantStatus || f.Status == Renamed && f.OldPath != w.oldPath {
			t.Errorf("%s..%s %q: status %s from %q, git %s from %q", c.Base[:8], c.Head[:8], f.Path(), f.Status, f.OldPath, w.status, w.oldPath)
		}
		if f.Binary != w.binary || f.Inserted != w.inserted || f.Deleted != w.deleted {
			t.Errorf("%s..%s %q: binary %v +%d -%d, git numstat binary %v +%d -%d",
				c.Base[:8], c.Head[:8], f.Path(), f.Binary, f.Inserted, f.Deleted, w.binary, w.inserted, w.deleted)
		}
		if linesOK && !w.binary && (!slices.Equal(f.OldLines, w.oldLines) || !slices.Equal(f.NewLines, w.newLines)) {
			t.Errorf("%s..%s %q: lines -%v +%v, git -U0 -%v +%v",
				c.Base[:8], c.Head[:8], f.Path(), f.OldLines, f.NewLines, w.oldLines, w.newLines)
		}
	}
	return len(c.Files)
}

// randomHistory builds a chain of commits from a seed: many files, random
// line insertions, deletions and moves, renames with and without edits,
// deletions, additions, binary files, mode and type changes, files without
// a final newline and with CRLF line ends.
func randomHistory(t testing.TB, seed uint64, nCommits, nFiles int) (*builder, []plumbing.Hash) {
	rng := rand.New(rand.NewPCG(seed, 7))
	b := newBuilder(t, false)
	s := snapshot{}
	next := 0
	newPath := func() string {
		next++
		dirs := []string{"", "src/", "src/core/", "tests/", "docs/", "lib/x/"}
		exts := []string{".go", ".py", ".txt", ".c", "_test.go", ".md"}
		return fmt.Sprintf("%sf%03d%s", dirs[rng.IntN(len(dirs))], next, exts[rng.IntN(len(exts))])
	}
	content := func(n int) string {
		body := strings.Join(randomLines(rng, n), "")
		switch rng.IntN(12) {
		case 0:
			body = strings.TrimSuffix(body, "\n")
		case 1:
			body = strings.ReplaceAll(body, "\n", "\r\n")
		case 2:
			body = ""
		}
		return body
	}
	for range nFiles {
		s[newPath()] = entry{data: content(5 + rng.IntN(60))}
	}
	var commits []plumbing.Hash
	commits = append(commits, b.commit(s))
	for range nCommits - 1 {
		paths := make([]string, 0, len(s))
		for p := range s {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		next := snapshot{}
		for p, e := range s {
			next[p] = e
		}
		for _, p := range paths {
			e := s[p]
			switch r := rng.IntN(100); {
			case r < 20: // edit
				if e.mode == filemode.Empty || e.mode == filemode.Regular {
					e.data = strings.Join(editLines(rng, strings.SplitAfter(e.data, "\n"), 1+rng.IntN(8)), "")
					next[p] = e
				}
			case r < 23: // rename, sometimes with edits
				delete(next, p)
				if rng.IntN(2) == 0 {
					e.data = strings.Join(editLines(rng, strings.SplitAfter(e.data, "\n"), 1+rng.IntN(3)), "")
				}
				next[newPath()] = e
			case r < 25:
				delete(next, p)
			case r < 26:
				e.mode = filemode.Executable
				next[p] = e
			case r < 27:
				next[p] = entry{data: "\x00\x01binary" + e.data}
			case r < 28:
				next[p] = entry{data: "target/" + p, mode: filemode.Symlink}
			}
		}
		for range rng.IntN(4) {
			next[newPath()] = entry{data: content(1 + rng.IntN(40))}
		}
		s = next
		commits = append(commits, b.commit(s, commits[len(commits)-1]))
	}
	b.branch("main", commits[len(commits)-1])
	return b, commits
}

// TestDiffAgainstGitOracle compares every file of many random diffs with
// the git command's numstat and -U0 line numbers.
func TestDiffAgainstGitOracle(t *testing.T) {
	seeds, nCommits := []uint64{1, 2}, 20
	if testing.Short() {
		seeds, nCommits = seeds[:1], 10
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			b, commits := randomHistory(t, seed, nCommits, 60)
			r, err := Open(b.dir)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(seed, 11))
			var pairs [][2]plumbing.Hash
			for i := 1; i < len(commits); i++ {
				pairs = append(pairs, [2]plumbing.Hash{commits[i-1], commits[i]})
				j, k := rng.IntN(len(commits)), rng.IntN(len(commits))
				pairs = append(pairs, [2]plumbing.Hash{commits[j], commits[k]}) // any order
			}
			files := 0
			for _, p := range pairs {
				c, err := r.Diff(context.Background(), p[0].String(), p[1].String())
				if err != nil {
					t.Fatal(err)
				}
				files += compareWithOracle(t, b.dir, c, true)
			}
			if files < 15*len(pairs) {
				t.Errorf("only %d files compared; the generator changes too little", files)
			}
			t.Logf("%d diffs, %d files agree with git", len(pairs), files)
		})
	}
}

// TestDiffRealRepository compares the diffs of a real history with git's
// numstat and -U0 line numbers. It runs only when LOLBENCH_REAL_REPO names a clone (plain or
// bare); LOLBENCH_REAL_COMMITS sets how many first-parent commits to walk
// (300 by default). Each commit is diffed against its first parent, and
// every tenth against the commit twenty steps back.
func TestDiffRealRepository(t *testing.T) {
	dir := os.Getenv("LOLBENCH_REAL_REPO")
	if dir == "" {
		t.Skip("set LOLBENCH_REAL_REPO to a local clone to run")
	}
	n := 300
	if s := os.Getenv("LOLBENCH_REAL_COMMITS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var chain []string
	c, err := r.Commit("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	for len(chain) <= n {
		chain = append(chain, c.Hash)
		if len(c.Parents) == 0 {
			break
		}
		if c, err = r.Commit(c.Parents[0]); err != nil {
			t.Fatal(err)
		}
	}
	diffs, files, uneven := 0, 0, 0
	check := func(base, head string) {
		ch, err := r.Diff(context.Background(), base, head)
		if err != nil {
			t.Fatal(err)
		}
		diffs++
		files += compareWithOracle(t, dir, ch, true)
		for _, f := range ch.Files {
			if len(f.OldLines) != f.Deleted || len(f.NewLines) != f.Inserted {
				uneven++
			}
		}
	}
	for i := 0; i+1 < len(chain); i++ {
		check(chain[i+1], chain[i])
		if i%10 == 0 && i+20 < len(chain) {
			check(chain[i+20], chain[i])
		}
	}
	t.Logf("%s: %d diffs, %d files agree with git numstat and -U0; in %d of them -U0 aligns differently from numstat", dir, diffs, files, uneven)
}
