package eval

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/syntax"
	"github.com/lolbench/lolbench/pipeline/trajectory"
)

// Scopes are the source files and functions a change touches, as rule 27
// resolves them (pipeline/syntax: deleted lines on the tree before the
// change, added lines on the tree after it), or that an agent inspected.
// Files include the files a change adds, which Added lists again: the
// failure modes count them (a needed new file the agent never made is a
// missed file), localization does not (paper section 4.5: a new entity has
// no earlier location to find). Functions are the functions that existed
// before, "file: Class.function" (or "file: function"); functions a change
// adds are not listed.
type Scopes struct {
	Files     []string `json:"files"`
	Added     []string `json:"added"`
	Functions []string `json:"functions"`
}

// located are the files of s that existed before: localization's files.
func (s *Scopes) located() []string {
	var out []string
	for _, f := range s.Files {
		if !slices.Contains(s.Added, f) {
			out = append(out, f)
		}
	}
	return out
}

// Scoper computes Scopes of solutions against one task's base tree. It
// commits the base tree (the task's environment/repo) into a temporary
// bare repository once; each solution, a patch or a final tree, becomes a
// commit on top of it, and the change between the two goes through
// diff.Repo.Diff and syntax.Resolve exactly as a PR does. Only source files
// count (lang.Classify): tests, documentation and configuration are not
// what localization measures. Close removes the repository.
type Scoper struct {
	tmp, gitDir, base string
	baseTree          string
	n                 int
}

// NewScoper commits baseTree.
func NewScoper(ctx context.Context, baseTree string) (*Scoper, error) {
	if st, err := os.Stat(baseTree); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("base tree %s: not a folder", baseTree)
	}
	tmp, err := os.MkdirTemp("", "lolbench-scopes-")
	if err != nil {
		return nil, err
	}
	s := &Scoper{tmp: tmp, gitDir: filepath.Join(tmp, "repo.git"), baseTree: baseTree}
	if _, err := s.git(ctx, "", "", nil, "init", "-q", "--bare", s.gitDir); err != nil {
		s.Close()
		return nil, err
	}
	if s.base, err = s.commitTree(ctx, baseTree, ""); err != nil {
		s.Close()
		return nil, fmt.Errorf("base tree %s: %w", baseTree, err)
	}
	return s, nil
}

// Close removes the temporary repository.
func (s *Scoper) Close() { os.RemoveAll(s.tmp) }

// Patch returns the scopes of a patch against the base tree (git apply
// --cached; an empty patch changes nothing).
func (s *Scoper) Patch(ctx context.Context, patch []byte) (*Scopes, error) {
	if len(bytes.TrimSpace(patch)) == 0 {
		return &Scopes{Files: []string{}, Added: []string{}, Functions: []string{}}, nil
	}
	index := s.index()
	pf := index + ".patch"
	if err := os.WriteFile(pf, patch, 0o600); err != nil {
		return nil, err
	}
	if _, err := s.git(ctx, "", index, nil, "read-tree", s.base); err != nil {
		return nil, err
	}
	if _, err := s.git(ctx, "", index, nil, "apply", "--cached", "--whitespace=nowarn", "--", pf); err != nil {
		return nil, fmt.Errorf("the patch does not apply: %w", err)
	}
	head, err := s.commit(ctx, index, s.base)
	if err != nil {
		return nil, err
	}
	return s.scopes(ctx, head)
}

// Tree returns the scopes of a final repository state (a folder) against
// the base tree. Its .git, if any, is ignored.
func (s *Scoper) Tree(ctx context.Context, dir string) (*Scopes, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("final tree %s: not a folder", dir)
	}
	head, err := s.commitTree(ctx, dir, s.base)
	if err != nil {
		return nil, fmt.Errorf("final tree %s: %w", dir, err)
	}
	return s.scopes(ctx, head)
}

func (s *Scoper) index() string {
	s.n++
	return filepath.Join(s.tmp, fmt.Sprintf("index-%d", s.n))
}

// commitTree commits every file of workTree (ignored files included) with
// parent.
func (s *Scoper) commitTree(ctx context.Context, workTree, parent string) (string, error) {
	index := s.index()
	if _, err := s.git(ctx, workTree, index, nil, "add", "-A", "-f", "--", "."); err != nil {
		return "", err
	}
	return s.commit(ctx, index, parent)
}

func (s *Scoper) commit(ctx context.Context, index, parent string) (string, error) {
	tree, err := s.git(ctx, "", index, nil, "write-tree")
	if err != nil {
		return "", err
	}
	args := []string{"commit-tree", tree, "-m", "lolbench eval"}
	if parent != "" {
		args = append(args, "-p", parent)
	}
	return s.git(ctx, "", "", nil, args...)
}

// scopes resolves the change from the base to head.
func (s *Scoper) scopes(ctx context.Context, head string) (*Scopes, error) {
	repo, err := diff.Open(s.gitDir)
	if err != nil {
		return nil, err
	}
	ch, err := repo.Diff(ctx, s.base, head)
	if err != nil {
		return nil, err
	}
	files, added, functions := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, f := range ch.Files {
		if f.Category == lang.Source {
			files[f.Path()] = true
			if f.Status == diff.Added {
				added[f.Path()] = true
			}
		}
	}
	res, err := syntax.Resolve(ctx, s.gitDir, ch, syntax.Options{})
	if err != nil {
		return nil, err
	}
	for _, sc := range res.Scopes {
		if sc.Function != "" && !sc.New {
			functions[funcName(sc.File, sc.Class, sc.Function)] = true
		}
	}
	return &Scopes{Files: sorted(files), Added: sorted(added), Functions: sorted(functions)}, nil
}

// funcName names a function as Scopes do.
func funcName(file, class, function string) string {
	if class != "" {
		function = class + "." + function
	}
	return file + ": " + function
}

// Inspected returns the scopes an agent inspected (Figure 4's first view):
// the base tree's source files its reads showed, and the functions of
// those files whose lines they showed (a whole file shows all of its
// functions). Files that did not exist before (the agent's own, or paths
// that do not exist) are not listed: they have no earlier location.
// Paths come from the trajectory and are hostile: they are looked up in
// the base tree without leaving it or following links.
func (s *Scoper) Inspected(ctx context.Context, cov map[string]*trajectory.Coverage) (*Scopes, error) {
	out := &Scopes{Files: []string{}, Added: []string{}, Functions: []string{}}
	root, err := os.OpenRoot(s.baseTree)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	p := syntax.NewParser()
	defer p.Close()
	p.SetTimeout(syntax.DefaultParseTimeout)
	functions := map[string]bool{}
	for _, file := range sortedKeys(cov) {
		if !insideRel(file) || lang.Classify(file) != lang.Source {
			continue
		}
		fi, err := root.Lstat(file)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		out.Files = append(out.Files, file)
		l := lang.ForPath(file)
		language := syntax.ParseLanguage(file, l.Name)
		if !syntax.Supported(language) || fi.Size() > syntax.DefaultMaxFileSize {
			continue
		}
		src, err := root.ReadFile(file)
		if err != nil {
			continue
		}
		ents, err := p.EntitiesContext(ctx, language, src)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue
		}
		lines := bytes.Count(src, []byte("\n")) + 1
		c := cov[file]
		for _, e := range ents {
			if e.IsFunction() && (c.Whole || shown(c.Ranges, e.Start, e.End, lines)) {
				functions[funcName(file, e.Class, e.Function)] = true
			}
		}
	}
	out.Functions = sorted(functions)
	return out, nil
}

// shown reports whether a read range shows a line from start to end of a
// file of n lines.
func shown(ranges []trajectory.Range, start, end, n int) bool {
	for _, r := range ranges {
		from, to := r.From, r.To
		if from < 0 {
			from, to = max(n+from+1, 1), n
		}
		if to == 0 {
			to = n
		}
		if from <= end && start <= to {
			return true
		}
	}
	return false
}

func sorted(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// git runs git on the scoper's repository with a clean environment (no
// GIT_* of the caller, no system or user configuration) and returns its
// trimmed output.
func (s *Scoper) git(ctx context.Context, workTree, index string, stdin []byte, args ...string) (string, error) {
	bin, err := exec.LookPath("git")
	if err != nil {
		return "", diff.ErrNoGit
	}
	cmd := exec.CommandContext(ctx, bin, append([]string{"-c", "core.autocrlf=false", "-c", "core.safecrlf=false", "-c", "core.hooksPath=/dev/null"}, args...)...)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	env = append(env, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_TERMINAL_PROMPT=0", "LC_ALL=C",
		"GIT_DIR="+s.gitDir,
		"GIT_AUTHOR_NAME=lolbench", "GIT_AUTHOR_EMAIL=lolbench@localhost", "GIT_AUTHOR_DATE=2000-01-01T00:00:00Z",
		"GIT_COMMITTER_NAME=lolbench", "GIT_COMMITTER_EMAIL=lolbench@localhost", "GIT_COMMITTER_DATE=2000-01-01T00:00:00Z")
	if workTree != "" {
		env = append(env, "GIT_WORK_TREE="+workTree)
		cmd.Dir = workTree
	} else {
		cmd.Dir = s.tmp
	}
	if index != "" {
		env = append(env, "GIT_INDEX_FILE="+index)
	}
	cmd.Env = env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return "", fmt.Errorf("git %s: %v: %s", args[0], err, msg)
	}
	return strings.TrimSpace(out.String()), nil
}

// precisionRecall compares the agent's set with the reference's: precision
// is the share of the agent's items that the reference has, recall the
// share of the reference's that the agent has. An empty agent set has
// precision 0; an empty reference set gives no figures (nil).
func precisionRecall(agent, ref []string) (p, r *float64) {
	if len(ref) == 0 {
		return nil, nil
	}
	in := map[string]bool{}
	for _, x := range ref {
		in[x] = true
	}
	hit := 0
	for _, x := range agent {
		if in[x] {
			hit++
		}
	}
	pv, rv := 0.0, float64(hit)/float64(len(ref))
	if len(agent) > 0 {
		pv = float64(hit) / float64(len(agent))
	}
	return &pv, &rv
}
