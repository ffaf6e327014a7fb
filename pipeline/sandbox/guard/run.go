package guard

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"os/user"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// PristineDir is where an environment image keeps, root-only, what the
// verifier puts back before every run: testbed/ (the repository after the
// install step), tracked (the base tree's paths, NUL-separated, as find
// -print0 lists them) and home/ (the test user's home folder).
const PristineDir = "/opt/lolbench"

// Options are one invocation of the verifier.
type Options struct {
	Config *Config
	// TestPatch is the PR's canonical patch (TestPatchFile): its test files
	// and vendored files, applied by the test user after every reset.
	TestPatch string
	// Solution is a patch the test user applies before the first run; ""
	// for none.
	Solution string
	// Runs is how many times the tests run, one after the other.
	Runs int
	// Out receives run-N/ for every run (grade.RunJSON and the rest).
	Out string
	// Testbed is the repository (recipe.Workdir); Pristine is PristineDir.
	Testbed, Pristine string
	// Local runs unisolated, as the caller's user (the local executor).
	Local bool
	// Fresh says the caller started the sandbox for this invocation and
	// nothing ran in it as the test user before: the first run then skips
	// putting back the home folder and the temporary folders, which nothing
	// could have touched (the repository is still checked, since the
	// solution was applied in it). A Harbor task never says so: an agent
	// ran there.
	Fresh bool
	// Log receives progress lines; nil discards them.
	Log io.Writer
	// Progress keeps ProgressFile in Out up to date while the tests run.
	Progress bool
}

// Outcome is what Run did: the runs, or why the solution was not applied.
type Outcome struct {
	ApplyError string
	Runs       []*grade.RunRecord
}

// ApplyErrorFile is written in Options.Out, instead of any run, when the
// solution does not apply; it holds the reason.
const ApplyErrorFile = "apply-error.txt"

// TestPatchFailure begins a run's error when the PR's test patch did not
// apply after the reset.
const TestPatchFailure = "applying the test patch"

// RunDir is the folder of run n below Options.Out.
func RunDir(out string, n int) string { return filepath.Join(out, fmt.Sprintf("run-%d", n)) }

// maxLogBytes caps a run's output; past it the output is cut and the run
// says so.
const maxLogBytes = 512 << 20

// maxReportBytes caps the report files of one run, together.
const maxReportBytes = 1 << 30

// Run applies the solution and runs the tests opts.Runs times, each run
// guarded as the package comment says. An error means the verifier itself
// could not work (bad configuration, not root); what the tested code did
// is in the run records.
func Run(ctx context.Context, opts Options) (*Outcome, error) {
	g, err := newRunner(opts)
	if err != nil {
		return nil, err
	}
	defer g.close()
	out := &Outcome{}
	if opts.Progress {
		g.progress = newProgress(opts.Out, opts.Runs)
	}
	strays := 0
	var strayErr error
	if !opts.Local {
		strays, strayErr = killStrays()
	}
	if opts.Solution != "" {
		msg, err := g.apply(ctx, opts.Solution)
		if err != nil {
			return nil, fmt.Errorf("solution: %w", err)
		}
		if msg != "" {
			out.ApplyError = "the solution does not apply: " + msg
			return out, os.WriteFile(filepath.Join(opts.Out, ApplyErrorFile), []byte(out.ApplyError+"\n"), 0o600)
		}
	}
	for n := 1; n <= max(opts.Runs, 1); n++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rec := g.runOnce(ctx, n)
		if n == 1 {
			rec.Strays = strays
			if strayErr != nil {
				rec.Survivors = append(rec.Survivors, strayErr.Error())
			}
		}
		if err := workspace.WriteJSON(filepath.Join(RunDir(opts.Out, n), grade.RunJSON), rec); err != nil {
			return nil, err
		}
		out.Runs = append(out.Runs, rec)
	}
	return out, nil
}

// runner holds what every run of one invocation shares.
type runner struct {
	opts     Options
	cfg      *Config
	r        recipe.Recipe
	uid, gid int
	home     string
	testbed  *os.Root
	pristine *os.Root // the repository after the install step; nil when absent (local)
	// roots are the install step's outputs in the repository (and .git):
	// put back whole, never searched for test infrastructure.
	roots []string
	// baseInfra are the pristine repository's test-infrastructure paths.
	baseInfra map[string]lang.Infra
	// tmp is the tests' TMPDIR, one per invocation: the runs of one
	// validation side see what the earlier ones left there, as a real
	// suite run again does (the build's flaky-test detection needs it).
	tmp string
	// since is when the sandbox started (syncTree); zero unisolated.
	since time.Time
	// progress is ProgressFile's writer; nil without Options.Progress.
	progress *progress
}

func newRunner(opts Options) (*runner, error) {
	cfg := opts.Config
	if cfg == nil {
		return nil, errors.New("verifier: no configuration")
	}
	g := &runner{opts: opts, cfg: cfg, r: cfg.Recipe}
	if opts.Testbed == "" {
		g.opts.Testbed = recipe.Workdir
	}
	if opts.Pristine == "" && !opts.Local {
		g.opts.Pristine = PristineDir
	}
	if opts.Local {
		g.uid, g.gid, g.home = os.Getuid(), os.Getgid(), os.Getenv("HOME")
	} else {
		if !isRoot() {
			return nil, fmt.Errorf("the verifier runs as uid %d, not root: it must run the tests as %s and stay out of their reach (a Harbor task's task.toml says [verifier] user = \"root\")", os.Geteuid(), g.r.User)
		}
		u, err := user.Lookup(g.r.User)
		if err != nil {
			return nil, fmt.Errorf("the test user %s: %w", g.r.User, err)
		}
		g.uid, _ = strconv.Atoi(u.Uid)
		g.gid, _ = strconv.Atoi(u.Gid)
		g.home = u.HomeDir
		if g.uid == 0 {
			return nil, fmt.Errorf("the test user %s is root: tests must run unprivileged", g.r.User)
		}
	}
	if err := os.MkdirAll(opts.Out, 0o700); err != nil {
		return nil, fmt.Errorf("verifier output: %w", err)
	}
	var err error
	if g.testbed, err = os.OpenRoot(g.opts.Testbed); err != nil {
		return nil, fmt.Errorf("the repository: %w", err)
	}
	if !opts.Local {
		g.since = sandboxStart()
	}
	if g.tmp, err = g.userTemp("tmp"); err != nil {
		g.close()
		return nil, err
	}
	if g.opts.Pristine != "" {
		pt := filepath.Join(g.opts.Pristine, "testbed")
		if g.pristine, err = os.OpenRoot(pt); err != nil {
			g.close()
			return nil, fmt.Errorf("no pristine copy of the repository at %s (an image built by an older lolbench? rebuild it): %w", pt, err)
		}
		if err := g.scanPristine(); err != nil {
			g.close()
			return nil, err
		}
	}
	return g, nil
}

func (g *runner) close() {
	if g.tmp != "" {
		os.RemoveAll(g.tmp)
	}
	if g.testbed != nil {
		g.testbed.Close()
	}
	if g.pristine != nil {
		g.pristine.Close()
	}
}

func (g *runner) logf(format string, args ...any) {
	if g.opts.Log != nil {
		fmt.Fprintf(g.opts.Log, "lolbench-grade: "+format+"\n", args...)
	}
}

// scanPristine finds the install step's outputs (what the pristine
// repository has beyond the base tree) and the base test infrastructure.
func (g *runner) scanPristine() error {
	tracked := map[string]bool{}
	trackedDir := map[string]bool{}
	if data, err := os.ReadFile(filepath.Join(g.opts.Pristine, "tracked")); err == nil {
		for _, p := range bytes.Split(data, []byte{0}) {
			s := strings.TrimPrefix(string(p), "./")
			if s == "" {
				continue
			}
			tracked[s] = true
			for d := path.Dir(s); d != "."; d = path.Dir(d) {
				trackedDir[d] = true
			}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("pristine file list: %w", err)
	}
	dir := filepath.Join(g.opts.Pristine, "testbed")
	g.roots = []string{".git"}
	g.baseInfra = map[string]lang.Infra{}
	_, err := walkFiles(dir, func(rel string, isDir bool) bool {
		if rel == ".git" {
			return true
		}
		if len(tracked) > 0 && !tracked[rel] && !(isDir && trackedDir[rel]) {
			g.roots = append(g.roots, rel)
			return true
		}
		if !isDir {
			if in := lang.TestInfra(rel, g.r.Test.Reset); in.IsInfra() {
				g.baseInfra[rel] = in
			}
		}
		return false
	})
	if err != nil {
		return fmt.Errorf("pristine repository: %w", err)
	}
	sort.Strings(g.roots)
	return nil
}

// isRoot reports whether rel is, or is below, an install output.
func (g *runner) inRoots(rel string) bool {
	for _, r := range g.roots {
		if rel == r || strings.HasPrefix(rel, r+"/") {
			return true
		}
	}
	return false
}

// apply has the test user apply a patch with git, in a throwaway
// repository of its own: the repository's .git, which an agent may have
// written, is never read. It returns git's first line of complaint when
// the patch does not apply.
func (g *runner) apply(ctx context.Context, file string) (string, error) {
	patch, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	if len(bytes.TrimSpace(patch)) == 0 {
		return "", nil
	}
	tmp, err := g.userTemp("apply")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	pf := filepath.Join(tmp, "change.patch")
	if err := os.WriteFile(pf, patch, 0o600); err != nil {
		return "", err
	}
	if err := os.Lchown(pf, g.uid, g.gid); err != nil {
		return "", err
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + tmp, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "LANG=C.UTF-8"}
	repo := filepath.Join(tmp, "apply.git")
	for _, args := range [][]string{{"init", "-q", "--bare", repo}, {"--git-dir=" + repo, "--work-tree=" + g.opts.Testbed, "apply", "--whitespace=nowarn", pf}} {
		var stderr bytes.Buffer
		cctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
		cmd := exec.CommandContext(cctx, "git", args...)
		cmd.Dir, cmd.Env, cmd.Stderr = g.opts.Testbed, env, &stderr
		cmd.SysProcAttr = g.procAttr()
		err := cmd.Run()
		cancel()
		if err == nil {
			continue
		}
		msg := strings.TrimSpace(stderr.String())
		if args[0] == "init" {
			return "", fmt.Errorf("git init: %v: %s", err, msg)
		}
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if msg == "" {
			msg = err.Error()
		}
		return msg, nil
	}
	return "", nil
}

func (g *runner) procAttr() *syscall.SysProcAttr {
	if g.opts.Local {
		return ownGroup()
	}
	return credential(g.uid, g.gid)
}

// userTemp makes a fresh private folder owned by the test user.
func (g *runner) userTemp(what string) (string, error) {
	b := make([]byte, 6)
	rand.Read(b)
	d := filepath.Join(os.TempDir(), "lolbench-"+what+"-"+hex.EncodeToString(b))
	if err := os.Mkdir(d, 0o700); err != nil {
		return "", err
	}
	if err := os.Lchown(d, g.uid, g.gid); err != nil {
		os.RemoveAll(d)
		return "", err
	}
	return d, nil
}

// runOnce is one guarded run; its record says what happened.
func (g *runner) runOnce(ctx context.Context, n int) *grade.RunRecord {
	rec := &grade.RunRecord{N: n, Isolated: !g.opts.Local, Canaries: []grade.Canary{}}
	dir := RunDir(g.opts.Out, n)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		rec.Error = err.Error()
		return rec
	}
	fail := func(what string, err error) *grade.RunRecord {
		rec.Error = what + ": " + err.Error()
		g.logf("run %d: %s", n, rec.Error)
		return rec
	}
	t0 := time.Now()
	if err := g.restore(rec, n == 1 && g.opts.Fresh); err != nil {
		return fail("restoring the environment", err)
	}
	t1 := time.Now()
	if err := g.resetInfra(rec); err != nil {
		return fail("resetting the test infrastructure", err)
	}
	t2 := time.Now()
	if g.opts.TestPatch != "" {
		msg, err := g.apply(ctx, g.opts.TestPatch)
		if err == nil && msg != "" {
			err = errors.New(msg)
		}
		if err != nil {
			return fail(TestPatchFailure, err)
		}
	}
	if !g.opts.Local {
		if err := g.checkPath(); err != nil {
			return fail("checking PATH", err)
		}
	}
	extra, unplant, err := g.plantCanaries(rec)
	defer unplant()
	if err != nil {
		return fail("planting the canaries", err)
	}
	if err := g.removeReports(); err != nil {
		return fail("removing old reports", err)
	}
	sel := append(append([]string(nil), g.cfg.Selection...), extra...)
	t3 := time.Now()
	if err := g.execute(ctx, testcmd.TestCommand(g.r, sel), dir, rec); err != nil {
		return fail("running the tests", err)
	}
	if err := g.collectReports(dir); err != nil {
		return fail("collecting the reports", err)
	}
	g.logf("run %d: restore %v, reset %v, test patch and %d canaries %v, tests %v (exit %d), after %v",
		n, t1.Sub(t0).Round(time.Millisecond), t2.Sub(t1).Round(time.Millisecond), len(rec.Canaries), t3.Sub(t2).Round(time.Millisecond),
		rec.Duration.Round(time.Millisecond), rec.Exit, time.Since(t3.Add(rec.Duration)).Round(time.Millisecond))
	return rec
}

// restore puts the test user's home folder, the install step's outputs and
// .git back as the image built them, and removes the test user's files
// from the shared temporary folders (but for the repository's, not when
// the sandbox is fresh).
func (g *runner) restore(rec *grade.RunRecord, fresh bool) error {
	if g.pristine == nil {
		return nil
	}
	for _, r := range g.roots {
		var c int
		var err error
		lfi, lerr := g.testbed.Lstat(r)
		pfi, perr := g.pristine.Lstat(r)
		if lerr == nil && perr == nil && lfi.IsDir() && pfi.IsDir() && !g.since.IsZero() {
			sub, serr := g.testbed.OpenRoot(r)
			src, perr := g.pristine.OpenRoot(r)
			if err = errors.Join(serr, perr); err == nil {
				c, err = syncChanged(filepath.Join(g.opts.Testbed, r), sub, src, g.since)
			}
			if sub != nil {
				sub.Close()
			}
			if src != nil {
				src.Close()
			}
		} else {
			c, err = syncTree(g.testbed, g.pristine, r, g.since)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", r, err)
		}
		if c > 0 {
			rec.Reset.Synced = append(rec.Reset.Synced, r)
		}
	}
	if g.opts.Local || fresh {
		return nil
	}
	if g.home != "" {
		src, err := os.OpenRoot(filepath.Join(g.opts.Pristine, "home"))
		if err == nil {
			dst, err := os.OpenRoot(g.home)
			if err != nil {
				src.Close()
				return fmt.Errorf("home folder %s: %w", g.home, err)
			}
			c, err := syncChanged(g.home, dst, src, g.since)
			dst.Close()
			src.Close()
			if err != nil {
				return fmt.Errorf("home folder %s: %w", g.home, err)
			}
			if c > 0 {
				rec.Reset.Synced = append(rec.Reset.Synced, g.home)
			}
		}
	}
	for _, tmp := range []string{"/tmp", "/var/tmp", "/dev/shm"} {
		root, err := os.OpenRoot(tmp)
		if err != nil {
			continue
		}
		ents, _ := os.ReadDir(tmp)
		for _, e := range ents {
			if filepath.Join(tmp, e.Name()) == g.tmp {
				continue
			}
			if fi, err := root.Lstat(e.Name()); err == nil {
				if uid, _ := owner(fi); uid == g.uid {
					remove(root, e.Name())
				}
			}
		}
		root.Close()
	}
	return nil
}

// expected is what a whole-file infrastructure path is at the base commit:
// the pristine file, or nothing.
func (g *runner) expected(p string) (*entry, error) {
	if g.pristine == nil {
		return nil, nil
	}
	if in, ok := g.baseInfra[p]; !ok || !in.Whole {
		return nil, nil
	}
	e, err := readEntry(g.pristine, p)
	if e != nil {
		e.uid, e.gid = g.uid, g.gid
	}
	return e, err
}

// resetInfra makes the repository's test infrastructure what it is at the
// base commit; the PR's test patch goes on top afterwards.
func (g *runner) resetInfra(rec *grade.RunRecord) error {
	live, err := walkFiles(g.opts.Testbed, func(rel string, isDir bool) bool { return g.inRoots(rel) })
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	var sectioned []string
	for _, p := range live {
		seen[p] = true
		in := lang.TestInfra(p, g.r.Test.Reset)
		switch {
		case in.Whole:
			if err := g.resetWhole(p, rec); err != nil {
				return err
			}
		case len(in.Sections) > 0:
			sectioned = append(sectioned, p)
		}
	}
	var missing []string
	for p, in := range g.baseInfra {
		if seen[p] {
			continue
		}
		if in.Whole {
			missing = append(missing, p)
		} else {
			sectioned = append(sectioned, p)
		}
	}
	sort.Strings(missing)
	for _, p := range missing {
		if err := g.resetWhole(p, rec); err != nil {
			return err
		}
	}
	sort.Strings(sectioned)
	for _, p := range sectioned {
		if err := g.resetSections(p, rec); err != nil {
			return err
		}
	}
	return nil
}

func (g *runner) resetWhole(p string, rec *grade.RunRecord) error {
	want, err := g.expected(p)
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	if want == nil {
		if _, err := g.testbed.Lstat(p); err != nil {
			return nil
		}
		rec.Reset.Removed = append(rec.Reset.Removed, p)
		return remove(g.testbed, p)
	}
	if same(g.testbed, p, want) {
		return nil
	}
	rec.Reset.Restored = append(rec.Reset.Restored, p)
	if err := put(g.testbed, p, want); err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	return nil
}

func (g *runner) resetSections(p string, rec *grade.RunRecord) error {
	in := lang.TestInfra(p, g.r.Test.Reset)
	var base *entry
	if g.pristine != nil {
		if _, ok := g.baseInfra[p]; ok {
			b, err := readEntry(g.pristine, p)
			if err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
			base = b
		}
	}
	cur, err := readEntry(g.testbed, p)
	if err != nil || cur == nil || cur.isLink() || base != nil && base.isLink() {
		// Missing, or not a plain file: put the base file back whole.
		if base == nil {
			if cur != nil || err != nil {
				rec.Reset.Removed = append(rec.Reset.Removed, p)
				return remove(g.testbed, p)
			}
			return nil
		}
		base.uid, base.gid = g.uid, g.gid
		rec.Reset.Restored = append(rec.Reset.Restored, p)
		return put(g.testbed, p, base)
	}
	var baseData []byte
	if base != nil {
		baseData = base.data
	}
	out, whole := resetSections(p, cur.data, baseData, in.Sections)
	if whole && base == nil {
		rec.Reset.Removed = append(rec.Reset.Removed, p)
		return remove(g.testbed, p)
	}
	if bytes.Equal(out, cur.data) {
		return nil
	}
	rec.Reset.Sections = append(rec.Reset.Sections, p+": "+describeSections(in.Sections, whole))
	return put(g.testbed, p, &entry{data: out, mode: cur.mode, uid: cur.uid, gid: cur.gid})
}

// checkPath refuses a PATH the test user could slip a wrapper into: every
// folder on it, and every folder above, must be writable by root alone,
// unless it lies in the home folder that was just put back. (The golang
// image's /go/bin, world-writable, is refused: a recipe then sets PATH
// without it.)
func (g *runner) checkPath() error {
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if d == "" || !filepath.IsAbs(d) {
			return fmt.Errorf("PATH holds the relative folder %q: the tests' own files could stand in for their tools", d)
		}
		if g.home != "" && (d == g.home || strings.HasPrefix(d, g.home+"/")) {
			continue
		}
		real, err := filepath.EvalSymlinks(d)
		if err != nil {
			continue // not there: nothing can be found in it
		}
		for p := real; ; p = filepath.Dir(p) {
			fi, err := os.Lstat(p)
			if err == nil {
				st, _ := fi.Sys().(*syscall.Stat_t)
				m := fi.Mode()
				// A sticky bit does not help: it keeps others' files, but
				// anyone may add a new one that shadows a tool further on.
				if st != nil && (int(st.Uid) == g.uid || m&0o002 != 0 || m&0o020 != 0 && int(st.Gid) == g.gid) {
					return fmt.Errorf("PATH folder %s is writable by the test user %s: a wrapper there could stand in for the test tools", p, g.r.User)
				}
			}
			if p == "/" {
				break
			}
		}
	}
	return nil
}

// plantCanaries plants the language's canaries in every folder of test
// files the selection runs. extra are selection items the canary files
// need (pytest runs only the files it is given). unplant puts back every
// file the canaries replaced, as it was (a test file or a library root a
// canary was appended to, a CMakeLists.txt that declares one), and removes
// the files they added: a later run, and what is left of the tree, see
// the solution's files, not the canaries.
func (g *runner) plantCanaries(rec *grade.RunRecord) (extra []string, unplant func(), err error) {
	var undo []func()
	unplant = func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
	kind, ok := canaries[g.cfg.Language]
	if !ok {
		rec.CanaryGap = fmt.Sprintf("no canary is known for %q: in-process tampering cannot be detected in this run", g.cfg.Language)
		return nil, unplant, nil
	}
	dirs := map[string]bool{}
	_, err = walkFiles(g.opts.Testbed, func(rel string, isDir bool) bool {
		base := path.Base(rel)
		if g.inRoots(rel) || isDir && (strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_") || base == "testdata" || base == "node_modules" || lang.Classify(rel+"/x") == lang.Vendor) {
			return true
		}
		if !isDir && kind.testFile(base) {
			dirs[path.Dir(rel)] = true
		}
		return false
	})
	if err != nil {
		return nil, unplant, err
	}
	// Root owns the canaries, so the tests cannot rewrite them (they can
	// delete them: a canary gone missing voids the run).
	owner := 0
	if g.opts.Local {
		owner = g.uid
	}
	write := func(p string, data []byte) error {
		old, err := readEntry(g.testbed, p)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		undo = append(undo, func() {
			if old == nil {
				remove(g.testbed, p)
			} else {
				put(g.testbed, p, old)
			}
		})
		if err := put(g.testbed, p, &entry{data: data, mode: 0o644, uid: owner, gid: owner}); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		return nil
	}
	mode := g.r.Test.Select
	for _, d := range slices.Sorted(maps.Keys(dirs)) {
		covered, viaFile := g.selects(mode, d)
		if !covered && !viaFile {
			continue
		}
		cs, err := kind.plant(g.opts.Testbed, d)
		if err != nil {
			return extra, unplant, err
		}
		for _, c := range cs {
			if err := write(c.File, c.source); err != nil {
				return extra, unplant, err
			}
			for _, p := range slices.Sorted(maps.Keys(c.also)) {
				if err := write(p, c.also[p]); err != nil {
					return extra, unplant, err
				}
			}
			rec.Canaries = append(rec.Canaries, c.Canary)
			if kind.fileSelected && !covered {
				extra = append(extra, c.File)
			}
		}
	}
	if len(rec.Canaries) == 0 {
		rec.CanaryGap = "the selection runs no folder of " + g.cfg.Language + " test files"
	}
	return extra, unplant, nil
}

// selects says whether the selection runs the tests of folder d: covered
// when an item names it or a folder above it; viaFile when an item names
// only a file in it.
func (g *runner) selects(mode, d string) (covered, viaFile bool) {
	sel := g.cfg.Selection
	if mode == recipe.SelectPackages {
		item := "./" + d
		if d == "." {
			item = "."
		}
		return testcmd.Covered(mode, sel, item), false
	}
	if testcmd.Covered(recipe.SelectFiles, sel, path.Join(d, "x")) {
		return true, false
	}
	for _, s := range sel {
		if path.Dir(path.Clean(strings.TrimPrefix(s, "./"))) == d {
			return false, true
		}
	}
	return false, false
}

// reports lists the report files in the repository (recipe test.results).
func (g *runner) reports() ([]string, error) {
	if g.r.Test.Results == "" {
		return nil, nil
	}
	return fs.Glob(g.testbed.FS(), g.r.Test.Results)
}

func (g *runner) removeReports() error {
	ms, err := g.reports()
	if err != nil {
		return err
	}
	for _, m := range ms {
		if err := remove(g.testbed, m); err != nil {
			return err
		}
	}
	return nil
}

// collectReports copies the report files, regular files only and never
// through a link, into dir/results/.
func (g *runner) collectReports(dir string) error {
	ms, err := g.reports()
	if err != nil || len(ms) == 0 {
		return err
	}
	rd := filepath.Join(dir, grade.RunReports)
	if err := os.MkdirAll(rd, 0o700); err != nil {
		return err
	}
	budget := int64(maxReportBytes)
	for i, m := range ms {
		fi, err := g.testbed.Lstat(m)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		f, err := g.testbed.OpenFile(m, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
		if err != nil {
			continue
		}
		dst, err := os.OpenFile(filepath.Join(rd, fmt.Sprintf("%d-%s", i+1, path.Base(m))), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			f.Close()
			return err
		}
		n, err := io.Copy(dst, io.LimitReader(f, budget))
		budget -= n
		f.Close()
		if cerr := dst.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// environ is the tests' environment: the verifier's own without lolbench's
// variables, and the test user's identity, home and TMPDIR. The verifier's
// own holds the recipe's variables already: the image sets them (layer 1),
// and the local executor sets them with its own on top.
func (g *runner) environ(tmp string) []string {
	drop := map[string]bool{"HOME": true, "USER": true, "LOGNAME": true, "TMPDIR": true, "PWD": true, "OLDPWD": true}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if drop[k] || strings.HasPrefix(k, "LOLBENCH_") {
			continue
		}
		env = append(env, kv)
	}
	if g.home != "" {
		env = append(env, "HOME="+g.home)
	}
	if !g.opts.Local {
		env = append(env, "USER="+g.r.User, "LOGNAME="+g.r.User)
	}
	return append(env, "TMPDIR="+tmp)
}

// execute runs the test command as the test user and, once it has ended,
// kills every process it left; the output goes to dir/test-output.log
// through a pipe that only the verifier reads.
func (g *runner) execute(ctx context.Context, command, dir string, rec *grade.RunRecord) error {
	logf, err := os.OpenFile(filepath.Join(dir, grade.RunLog), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	defer logf.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		return err
	}
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Dir, cmd.Env = g.opts.Testbed, g.environ(g.tmp)
	cmd.Stdout, cmd.Stderr = pw, pw
	cmd.SysProcAttr = g.procAttr()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		pw.Close()
		pr.Close()
		return err
	}
	pw.Close()
	copied := make(chan bool, 1)
	// The output also feeds the progress counter, beside the log.
	counter := g.progress.start(rec.N)
	defer g.progress.end()
	go func() { copied <- copyCapped(io.MultiWriter(logf, counter), pr, maxLogBytes) }()
	var timedOut atomic.Bool
	stop := func() {
		killGroup(cmd.Process.Pid)
		if !g.opts.Local {
			killUser(g.uid, g.gid)
		}
	}
	timer := time.AfterFunc(time.Duration(g.r.Limits.TimeoutSec)*time.Second, func() { timedOut.Store(true); stop() })
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			stop()
		case <-done:
		}
	}()
	werr := cmd.Wait()
	close(done)
	timer.Stop()
	rec.Duration = time.Since(start)
	rec.Exit = exitStatus(cmd.ProcessState, werr)
	if timedOut.Load() {
		rec.Exit, rec.TimedOut = 124, true
	}
	// Everything the run started dies now, before anything is read.
	if g.opts.Local {
		killGroup(cmd.Process.Pid)
	} else {
		rec.Leftovers = len(userProcs(g.uid))
		if err := killUser(g.uid, g.gid); err != nil {
			return err
		}
		if left := userProcs(g.uid); len(left) > 0 {
			rec.Survivors = waitGone(func(p procInfo) bool { return p.ownedBy(g.uid) }, 5*time.Second)
		}
	}
	select {
	case rec.LogTruncated = <-copied:
	case <-time.After(10 * time.Second):
		// A writer outside the test user's reach holds the pipe: cut it.
		pr.Close()
		rec.LogTruncated = <-copied
	}
	pr.Close()
	if err := ctx.Err(); err != nil {
		return err
	}
	return nil
}

// exitStatus is a command's exit code, 128+N for a death by signal N.
func exitStatus(ps *os.ProcessState, err error) int {
	if ps == nil {
		return 127
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

// copyCapped copies r to w up to max bytes, then drains r; it reports
// whether it cut.
func copyCapped(w io.Writer, r io.Reader, max int64) bool {
	n, _ := io.Copy(w, io.LimitReader(r, max))
	cut := false
	if n == max {
		if m, _ := io.Copy(io.Discard, r); m > 0 {
			cut = true
		}
	}
	return cut
}
