package mutation

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/diff"
)

// Edit is a mutant before it is a patch: the solution files it changes,
// with their new content after the mutant (nil: the mutant removes the
// file). Files it leaves out are as the reference solution has them.
type Edit map[string][]byte

// Materialized is a mutant as a patch.
type Materialized struct {
	// Patch is a complete solution against the base commit (git diff
	// --binary -M of the solution's files), as the build stage's
	// solution.patch is.
	Patch []byte
	// Files are the files whose content differs from the reference
	// solution's, sorted.
	Files []string
	// Lines are the reference lines the mutant changes (post-change
	// numbering); for a pure insertion, the line it follows (or line 1).
	Lines coverage.Lines
	// Delta is the mutant's diff against the reference solution.
	Delta []byte
	// Same is set when the mutant equals the reference solution.
	Same bool
}

// Materialize turns edits into patches against the solution's base. It
// writes the base, the reference and every mutant as commits of a
// temporary git repository (one git fast-import run), so that every patch
// and every changed line is git's own, exactly as the reference
// solution's patch. tmp is the folder for that repository ("" for the
// system's).
func Materialize(ctx context.Context, sol *Solution, edits []Edit, tmp string) ([]Materialized, error) {
	for i, e := range edits {
		for p := range e {
			f := sol.File(p)
			if f == nil || f.Skip != "" {
				return nil, fmt.Errorf("mutant %d edits %s, which is not a mutable file of the reference solution", i+1, p)
			}
		}
	}
	dir, err := os.MkdirTemp(tmp, "lolbench-mutants-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	env := append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_DIR="+dir)
	git := func(stdin []byte, args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Env = env
		cmd.Dir = dir
		if stdin != nil {
			cmd.Stdin = bytes.NewReader(stdin)
		}
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("git %s: %v: %s", args[0], err, strings.TrimSpace(errb.String()))
		}
		return out.Bytes(), nil
	}
	if _, err := git(nil, "init", "-q", "--bare", dir); err != nil {
		return nil, err
	}
	var st bytes.Buffer
	mark := 0
	blob := func(b []byte) int {
		mark++
		fmt.Fprintf(&st, "blob\nmark :%d\ndata %d\n", mark, len(b))
		st.Write(b)
		st.WriteByte('\n')
		return mark
	}
	commit := func(ref string, from int, lines []string) int {
		mark++
		fmt.Fprintf(&st, "commit %s\nmark :%d\ncommitter lolbench <lolbench@localhost> 946684800 +0000\ndata 0\n", ref, mark)
		if from > 0 {
			fmt.Fprintf(&st, "from :%d\n", from)
		} else {
			st.WriteString("deleteall\n")
		}
		for _, l := range lines {
			st.WriteString(l)
			st.WriteByte('\n')
		}
		return mark
	}
	mode := func(f *File) string {
		if f.Mode == "" {
			return "100644"
		}
		return f.Mode
	}
	var baseLines, refLines []string
	for i := range sol.Files {
		f := &sol.Files[i]
		if f.Skip != "" {
			continue
		}
		if f.Base != nil {
			baseLines = append(baseLines, fmt.Sprintf("M %s :%d %s", mode(f), blob(f.Base), fiQuote(f.OldPath)))
		}
		if f.After != nil {
			refLines = append(refLines, fmt.Sprintf("M %s :%d %s", mode(f), blob(f.After), fiQuote(f.Path)))
		}
	}
	baseMark := commit("refs/heads/base", 0, baseLines)
	refMark := commit("refs/heads/reference", 0, refLines)
	marks := make([]int, len(edits))
	for i, e := range edits {
		var lines []string
		for _, p := range sortedKeys(e) {
			if e[p] == nil {
				lines = append(lines, "D "+fiQuote(p))
				continue
			}
			lines = append(lines, fmt.Sprintf("M %s :%d %s", mode(sol.File(p)), blob(e[p]), fiQuote(p)))
		}
		marks[i] = commit(fmt.Sprintf("refs/heads/m%d", i), refMark, lines)
	}
	st.WriteString("done\n")
	markFile := filepath.Join(dir, "marks")
	if _, err := git(st.Bytes(), "fast-import", "--quiet", "--done", "--export-marks="+markFile); err != nil {
		return nil, err
	}
	shas, err := readMarks(markFile)
	if err != nil {
		return nil, err
	}
	repo, err := diff.Open(dir)
	if err != nil {
		return nil, err
	}
	base, ref := shas[baseMark], shas[refMark]
	out := make([]Materialized, len(edits))
	for i := range edits {
		m := shas[marks[i]]
		ch, err := repo.Diff(ctx, ref, m)
		if err != nil {
			return nil, err
		}
		mz := Materialized{Lines: coverage.Lines{}, Files: []string{}}
		for _, f := range ch.Files {
			p := f.OldPath
			if p == "" {
				p = f.NewPath
			}
			mz.Files = append(mz.Files, p)
			lines := append([]int(nil), f.OldLines...)
			for _, h := range f.Hunks {
				if h.OldLines == 0 {
					lines = append(lines, max(h.OldStart, 1))
				}
			}
			if f.NewPath == "" && len(lines) == 0 {
				lines = append(lines, 1) // an empty file removed
			}
			mz.Lines[p] = append(mz.Lines[p], lines...)
		}
		mz.Lines.Normalize()
		sort.Strings(mz.Files)
		mz.Same = len(ch.Files) == 0
		if mz.Patch, err = repo.Patch(ctx, base, m); err != nil {
			return nil, err
		}
		if mz.Delta, err = repo.Patch(ctx, ref, m); err != nil {
			return nil, err
		}
		out[i] = mz
	}
	return out, nil
}

// fiQuote quotes a path for git fast-import: always C-style, which is
// unambiguous for any name.
func fiQuote(p string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if c < 0x20 || c == 0x7f {
				fmt.Fprintf(&b, `\%03o`, c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

func readMarks(path string) (map[int]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[int]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		m, sha, ok := strings.Cut(sc.Text(), " ")
		if !ok || !strings.HasPrefix(m, ":") {
			continue
		}
		n, err := strconv.Atoi(m[1:])
		if err != nil {
			continue
		}
		out[n] = sha
	}
	return out, sc.Err()
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
