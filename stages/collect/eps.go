package collect

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	gitcache "github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/goccy/go-yaml/ast"

	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/gh"
	"github.com/lolbench/lolbench/pipeline/registry"
	"github.com/lolbench/lolbench/pipeline/registry/safeyaml"
	"github.com/lolbench/lolbench/pipeline/repos"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// maxHistoryWalk bounds the history walk that dates proposals without a
// created date.
const maxHistoryWalk = 100_000

// EP is one proposal read from a project's EP source.
type EP struct {
	Number  string // canonical: no leading zeros
	ID      string // "PEP 617"
	Title   string
	Status  string
	Created time.Time
	// CreatedFrom says where Created came from: "metadata", "git" (the
	// first commit that added the file), "issue" or "registry" (a web
	// page's curated date).
	CreatedFrom string
	// From names, per field (number, title, status, created), the place
	// its value was read from ("field:Status", "file name").
	From   map[string]string
	Path   string // in the repository or folder; "#N" for an issue; a web page's saved file
	Format ep.Format
	Text   []byte
	URL    string
	// Fetched is when a web page was saved.
	Fetched time.Time
	// Type is the kind of proposal it declares; Authors its authors.
	Type    string
	Authors []string
	// Links are the GitHub pull requests and issues its metadata names
	// (declaredLinks): how a curator pairs a proposal with its PR.
	Links []Link
	// Warnings name what was read but not understood, each with its file
	// and line: a declared date that is not a date leaves Created empty
	// (the proposal is listed, never dropped; issue 33 §1).
	Warnings []string
	// textPath is the file Text was read from: Path, or the text beside
	// a kep.yaml.
	textPath string
}

// rawEP is a proposal file before its metadata is read.
type rawEP struct {
	path    string // slash-separated, relative
	content []byte
	text    []byte // the proposal text when it is not content (kep.yaml)
	textErr string
	// A web page's entry in the registry, address and fetch time.
	page    *registry.Page
	url     string
	fetched time.Time
}

// loadEPs reads the project's proposals and records the "eps" step:
// unreadable, unparsable and duplicate proposals are dropped with their
// reason.
func (pr *projectRun) loadEPs(ctx context.Context) ([]*EP, error) {
	p := pr.p
	var (
		raws []rawEP
		eps  []*EP
		err  error
		git  *gitSource
	)
	switch p.EPs.Kind {
	case registry.KindLocal:
		raws, err = pr.readLocal()
	case registry.KindGit:
		git, err = pr.openGitSource(ctx)
		if err == nil {
			pr.epGit = git // closed when the project is done
			raws, err = git.read(p.EPs)
		}
	case registry.KindGitHubIssues:
		eps, err = pr.readIssues(ctx)
	case registry.KindWeb:
		raws, err = pr.readWeb()
	default:
		err = pr.reg.Errorf(p.Field("eps.kind"), "unknown kind %q", p.EPs.Kind)
	}
	if err != nil {
		return nil, err
	}
	if eps == nil {
		pr.funnel.consider(StepEPs, len(raws))
		for _, r := range raws {
			e, why := parseEP(&p.EPs, r)
			if why != "" {
				pr.funnel.drop(Drop{EP: r.path, Path: r.path, Step: StepEPs, Reason: why})
				continue
			}
			if git != nil && git.repo != "" {
				e.URL = git.blobURL(git.commit.String(), r.path)
			}
			eps = append(eps, e)
		}
		if git != nil {
			if err := git.dateFromHistory(ctx, eps); err != nil {
				return nil, err
			}
			pr.funnel.Proposals = fmt.Sprintf("git %s at %s", pr.showPath(git.dir), git.commit.String()[:12])
			if git.repo != "" {
				pr.funnel.Proposals += " (clone of " + git.repo + ")"
			}
		}
	} else {
		pr.funnel.consider(StepEPs, len(eps))
	}
	// Documents that share a number are all kept here (KEP-2133 is a
	// replaced KEP and an implemented one): the status filter judges each,
	// and only then does oneEach keep one per number for collection.
	sort.Slice(eps, func(i, j int) bool {
		if eps[i].Number != eps[j].Number {
			return numberLess(eps[i].Number, eps[j].Number)
		}
		return eps[i].Path < eps[j].Path
	})
	return eps, nil
}

// numbered drops, at the eps step, the proposals listed without a number
// (an unreadable declared one): a candidate is named by its number.
func (pr *projectRun) numbered(eps []*EP) []*EP {
	var out []*EP
	for _, e := range eps {
		if e.Number == "" {
			pr.funnel.drop(Drop{EP: e.ID, Path: e.Path, Step: StepEPs, Reason: strings.Join(e.Warnings, "; ")})
			continue
		}
		out = append(out, e)
	}
	return out
}

// oneEach keeps one proposal per number, the first by path, since a
// candidate id names one proposal; the others are dropped at the status
// step, after the filter, so that a twin the filter drops never takes the
// other with it (issue 33 §1).
func (pr *projectRun) oneEach(eps []*EP) []*EP {
	seen := map[string]*EP{}
	var out []*EP
	for _, e := range eps {
		if first, dup := seen[e.Number]; dup {
			pr.funnel.drop(Drop{EP: e.ID, Path: e.Path, Step: StepStatus, Reason: fmt.Sprintf("same number as %s in %s: a candidate names one proposal per number", first.ID, first.Path)})
			continue
		}
		seen[e.Number] = e
		out = append(out, e)
	}
	return out
}

// twinWarnings warns on each proposal that shares its number with
// another listed one, naming the other's path ("ep list" lists both).
func twinWarnings(eps []*EP) {
	paths := map[string][]string{}
	for _, e := range eps {
		if e.Number != "" {
			paths[e.Number] = append(paths[e.Number], e.Path)
		}
	}
	for _, e := range eps {
		for _, p := range paths[e.Number] {
			if p != e.Path {
				e.Warnings = append(e.Warnings, fmt.Sprintf("%s: %s is also %s; collect keeps the first by path", e.Path, e.ID, p))
			}
		}
	}
}

// numberLess orders numeric ids numerically, then others by text.
func numberLess(a, b string) bool {
	if isDigits(a) && isDigits(b) && len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

func isDigits(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }

// readLocal reads the proposal files of a local folder.
func (pr *projectRun) readLocal() ([]rawEP, error) {
	e := &pr.p.EPs
	root, err := pr.reg.Resolve(pr.p.Field("eps.dir"), e.Dir)
	if err != nil {
		return nil, err
	}
	pr.funnel.Proposals = "local folder " + pr.showPath(root)
	st, err := os.Stat(root)
	if err != nil || !st.IsDir() {
		return nil, pr.reg.Errorf(pr.p.Field("eps.dir"), "%s is not a readable folder", root)
	}
	var raws []rawEP
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if !e.Selects(rel) || !d.Type().IsRegular() {
			return nil
		}
		content, err := ep.ReadFile(p)
		if err != nil {
			raws = append(raws, rawEP{path: rel, textErr: err.Error()})
			return nil
		}
		r := rawEP{path: rel, content: content}
		if e.Format == registry.FormatKEP {
			// The text beside it, read inside the folder: never through a
			// link, whatever eps.text names.
			dir := path.Dir(rel)
			var names []string
			if ents, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir))); err == nil {
				for _, en := range ents {
					if en.Type().IsRegular() {
						names = append(names, en.Name())
					}
				}
			}
			r.text, err = workspace.ReadFileIn(root, path.Join(dir, kepTextName(names, kepText(e))), ep.MaxSize, "the EP size cap")
			if err != nil {
				r.textErr = err.Error()
			}
		}
		raws = append(raws, r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", root, err)
	}
	return raws, nil
}

func kepText(e *registry.EPSource) string {
	if e.Text != "" {
		return e.Text
	}
	return "README.md"
}

// Link is a GitHub pull request or issue a proposal's metadata names.
type Link struct {
	// Repo is the GitHub owner/name, Number the pull request or issue.
	Repo   string `json:"repo"`
	Number int    `json:"number"`
	// Kind is "pull" or "issue" from a URL; "ref" for an owner/name#n
	// reference, which does not say.
	Kind string `json:"kind"`
}

// String writes the link as a proposal would: its URL, or owner/name#n.
func (k Link) String() string {
	switch k.Kind {
	case "pull":
		return fmt.Sprintf("https://github.com/%s/pull/%d", k.Repo, k.Number)
	case "issue":
		return fmt.Sprintf("https://github.com/%s/issues/%d", k.Repo, k.Number)
	}
	return fmt.Sprintf("%s#%d", k.Repo, k.Number)
}

// linkLines bounds the lines of text declaredLinks reads: where every
// format keeps its metadata (Rust's "- RFC PR:", Prometheus's "Related
// Issues and PRs", Presto's "Related Issues", csharplang's champion issue).
const linkLines = 40

// maxLinks bounds the links kept per proposal.
const maxLinks = 50

var (
	ghURL = regexp.MustCompile(`https?://github\.com/([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)/(pull|issues)/([0-9]{1,9})\b`)
	ghRef = regexp.MustCompile(`(?:^|[\s(\[])([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)#([0-9]{1,9})\b`)
)

// declaredLinks finds the pull requests and issues a proposal declares
// (issue 33 §2): GitHub URLs and owner/name#n references in its header or
// front matter and in the first linkLines lines of its text, each once,
// in order.
func declaredLinks(s *sources) []Link {
	var parts []string
	keys := slices.Sorted(maps.Keys(s.header))
	for _, k := range keys {
		parts = append(parts, s.header[k])
	}
	lines := head(s.text)
	parts = append(parts, strings.Join(lines[:min(len(lines), linkLines)], "\n"))
	var out []Link
	seen := map[string]bool{}
	add := func(repo, kind, n string) {
		num, err := strconv.Atoi(n)
		key := strings.ToLower(repo) + "#" + n
		if err != nil || seen[key] || len(out) >= maxLinks {
			return
		}
		seen[key] = true
		out = append(out, Link{Repo: repo, Number: num, Kind: kind})
	}
	for _, text := range parts {
		for _, m := range ghURL.FindAllStringSubmatch(text, -1) {
			kind := "issue"
			if m[2] == "pull" {
				kind = "pull"
			}
			add(m[1], kind, m[3])
		}
		for _, m := range ghRef.FindAllStringSubmatch(text, -1) {
			add(m[1], "ref", m[2])
		}
	}
	return out
}

// splitAuthors splits a declared authors value into names, without
// e-mail addresses: "A <a@x.org>, B" is A and B. A value of several lines
// (a list) names one author per line, and what follows the line's first
// comma is an affiliation: "Jay Narale, Uber." is Jay Narale.
func splitAuthors(v string) []string {
	v = emptyParens.ReplaceAllString(emailAddr.ReplaceAllString(v, ""), "")
	var names []string
	if strings.Contains(v, "\n") {
		for _, line := range strings.Split(v, "\n") {
			name, _, _ := strings.Cut(line, ",")
			names = append(names, name)
		}
	} else {
		names = strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ';' })
	}
	var out []string
	for _, a := range names {
		a = strings.TrimSpace(strings.Trim(strings.TrimSpace(a), "*-`"))
		if a = oneLine(a); a != "" && !placeholder(a) {
			out = append(out, a)
		}
	}
	return out
}

// emptyParens is what an address in parentheses leaves: "Aditi Pandit ()".
var emptyParens = regexp.MustCompile(`\s*\(\s*\)`)

// emailAddr is an e-mail address in angle brackets or bare.
// Anything in angle brackets is one, spelled out or not (PEP 655's
// "<david at dafoster.net>").
var emailAddr = regexp.MustCompile(`<[^<>]*>|[^\s()<>]+@[^\s()<>]+\.[A-Za-z]{2,}`)

// CreatedUnreadable is the CreatedFrom of a proposal whose declared
// created date could not be read.
const CreatedUnreadable = "unreadable"

// lineOf is the 1-based line of src where value first appears, 0 when it
// does not (a value rebuilt from several lines).
func lineOf(src []byte, value string) int {
	i := bytes.Index(src, []byte(value))
	if i < 0 {
		return 0
	}
	return bytes.Count(src[:i], []byte("\n")) + 1
}

// kepTextName is the name of the text beside a kep.yaml among the regular
// files of its folder: name itself, else the one file whose name differs
// only in case (KEP-365's README.MD; issue 33 §1), else name.
func kepTextName(files []string, name string) string {
	var fold []string
	for _, f := range files {
		if f == name {
			return name
		}
		if strings.EqualFold(f, name) {
			fold = append(fold, f)
		}
	}
	if len(fold) == 1 {
		return fold[0]
	}
	return name
}

// gitSource is a git repository of proposals at one commit.
type gitSource struct {
	dir    string
	repo   string // GitHub owner/name, for URLs; may be empty
	r      *git.Repository
	commit plumbing.Hash
	tree   *object.Tree
	// line is the first-parent history from commit, read as far as
	// asOf needed it; lineEnd says it reached the first commit.
	line    []*object.Commit
	lineEnd bool
	// close releases the repository's open pack files.
	close func()
}

// openKeepingPacks opens a repository (a work tree's .git folder or a bare
// one) whose pack files stay open while it is read: the history walk that
// dates proposals reads thousands of trees, and go-git otherwise opens the
// pack file again for every object.
func openKeepingPacks(dir string) (*git.Repository, func(), error) {
	gitDir := dir
	if st, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		if !st.IsDir() {
			// A linked work tree: go-git follows its gitdir file.
			r, err := git.PlainOpen(dir)
			return r, func() {}, err
		}
		gitDir = filepath.Join(dir, ".git")
	}
	st := filesystem.NewStorageWithOptions(osfs.New(gitDir), gitcache.NewObjectLRUDefault(), filesystem.Options{KeepDescriptors: true})
	r, err := git.Open(st, nil)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return r, func() { st.Close() }, nil
}

func (g *gitSource) blobURL(commit, p string) string {
	return fmt.Sprintf("https://github.com/%s/blob/%s/%s", g.repo, commit, p)
}

func (pr *projectRun) openGitSource(ctx context.Context) (*gitSource, error) {
	p := pr.p
	e := &p.EPs
	g := &gitSource{repo: p.EPRepo()}
	if e.Path != "" {
		// A local repository's commits need not be on GitHub: no URLs.
		g.repo = ""
		dir, err := pr.reg.Resolve(p.Field("eps.path"), e.Path)
		if err != nil {
			return nil, err
		}
		g.dir = dir
	} else if pr.ws == nil {
		return nil, pr.reg.Errorf(p.Field("eps"), "the proposals of %s are cloned into a workspace, and none was given; set eps.path to your clone, or give the workspace of an earlier lolbench collect", p.EPRepo())
	} else {
		g.dir = filepath.Join(pr.ws.Root, "repos", p.Name+".eps")
		url := e.CloneURL
		if url == "" {
			url = "https://github.com/" + p.EPRepo() + ".git"
		}
		cloned, err := repos.Ensure(ctx, g.dir, url, pr.gitOptions())
		if err != nil {
			return nil, fmt.Errorf("project %s: proposals: %w", p.Name, err)
		}
		if !cloned && !pr.s.Offline {
			// New proposals appear upstream; the fetch is cheap.
			var specs []string
			if e.Ref != "" {
				specs = []string{repos.BranchRefSpec(e.Ref)}
			}
			if err := repos.Fetch(ctx, g.dir, specs, pr.gitOptions()); err != nil {
				return nil, fmt.Errorf("project %s: proposals: %w", p.Name, err)
			}
		} else if cloned && e.Ref != "" {
			if err := repos.Fetch(ctx, g.dir, []string{repos.BranchRefSpec(e.Ref)}, pr.gitOptions()); err != nil {
				return nil, fmt.Errorf("project %s: proposals: %w", p.Name, err)
			}
		}
	}
	sha, err := repos.Tip(g.dir, e.Ref)
	if err != nil {
		return nil, pr.reg.Errorf(p.Field("eps"), "proposals repository: %v", err)
	}
	if g.r, g.close, err = openKeepingPacks(g.dir); err != nil {
		return nil, fmt.Errorf("open %s: %w", g.dir, err)
	}
	g.commit = plumbing.NewHash(sha)
	c, err := g.r.CommitObject(g.commit)
	if err != nil {
		return nil, fmt.Errorf("%s: commit %s: %w", g.dir, sha, err)
	}
	if g.tree, err = c.Tree(); err != nil {
		return nil, fmt.Errorf("%s: tree of %s: %w", g.dir, sha, err)
	}
	return g, nil
}

// read returns the files of the tree that match the glob.
func (g *gitSource) read(e registry.EPSource) ([]rawEP, error) {
	var raws []rawEP
	err := g.tree.Files().ForEach(func(f *object.File) error {
		if !e.Selects(f.Name) || !f.Mode.IsFile() {
			return nil
		}
		r := rawEP{path: f.Name}
		var err error
		if f.Mode == filemode.Symlink {
			// Its blob is the link's target, not a proposal.
			r.textErr = "a symbolic link; only regular files are read"
		} else if r.content, err = blob(&f.Blob); err != nil {
			r.textErr = err.Error()
		} else if e.Format == registry.FormatKEP {
			dir := path.Dir(f.Name)
			var names []string
			if t, err := g.tree.Tree(dir); err == nil {
				for _, en := range t.Entries {
					if en.Mode.IsFile() && en.Mode != filemode.Symlink {
						names = append(names, en.Name)
					}
				}
			}
			tf, err := g.tree.File(path.Join(dir, kepTextName(names, kepText(&e))))
			if err == nil {
				r.text, err = blob(&tf.Blob)
			}
			if err != nil {
				r.textErr = fmt.Sprintf("%s: %v", path.Join(path.Dir(f.Name), kepText(&e)), err)
			}
		}
		raws = append(raws, r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: list files of %s: %w", g.dir, g.commit, err)
	}
	return raws, nil
}

// blob reads a proposal file of a git tree within the EP size cap.
func blob(b *object.Blob) ([]byte, error) {
	if b.Size > ep.MaxSize {
		return nil, fmt.Errorf("%d bytes, more than the EP size cap of %s", b.Size, workspace.Bytes(ep.MaxSize))
	}
	rd, err := b.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return io.ReadAll(io.LimitReader(rd, ep.MaxSize))
}

// dateFromHistory gives proposals without a created date the author date
// of the oldest commit that added their file (Prometheus proposals carry
// no date). A file renamed is followed to its earlier path, as "git log
// --follow" follows a rename: with its content unchanged (Prometheus
// renamed its proposals in 2025, keeping their text), or changed in the
// same commit when at least half its lines are those of a file the commit
// deleted (git's default rename threshold; csharplang moved its C# 15
// specs into proposals/csharp-15.0/ with edits; issue 33 §2).
//
// Each commit is compared with its first parent only in the folders that
// hold a proposal, and a folder whose tree is unchanged is skipped: the
// walk costs a few tree lookups per commit, not a listing.
func (g *gitSource) dateFromHistory(ctx context.Context, eps []*EP) error {
	h := &history{names: map[string][]*EP{}, oldest: map[*EP]time.Time{}, blobs: map[plumbing.Hash]map[plumbing.Hash]string{},
		trees: map[plumbing.Hash]map[string]object.TreeEntry{}}
	for _, e := range eps {
		if e.Created.IsZero() && e.CreatedFrom != CreatedUnreadable {
			h.names[e.Path] = append(h.names[e.Path], e)
		}
	}
	if len(h.names) == 0 {
		return nil
	}
	// A rename is found at the commit that made it, and the earlier path
	// is dated by older commits. The walk goes newest first, so that it
	// usually meets the rename first; a branch merged later can still
	// hold it past commits already seen, so the walk is repeated for the
	// paths found in the last one, a few times at most.
	for pass := 0; pass < maxRenamePasses && len(h.names) > 0; pass++ {
		found := map[string][]*EP{}
		h.found = found
		if err := g.walkHistory(ctx, h); err != nil {
			return err
		}
		h.names = found
	}
	for e, t := range h.oldest {
		// The commit's own time zone: the day the author saw, as git
		// log's %as shows it (gRFC L38 was added on 2018-09-20 at 17:02
		// -0700, already the 21st in UTC).
		e.Created, e.CreatedFrom = t, FromGit
		e.From["created"] = FromGit
	}
	return nil
}

// maxRenamePasses bounds the walks that follow renames found late.
const maxRenamePasses = 4

// walkHistory visits every commit from the source's commit, newest first.
func (g *gitSource) walkHistory(ctx context.Context, h *history) error {
	it, err := g.r.Log(&git.LogOptions{From: g.commit, Order: git.LogOrderCommitterTime})
	if err != nil {
		return fmt.Errorf("%s: history: %w", g.dir, err)
	}
	defer it.Close()
	n := 0
	err = it.ForEach(func(c *object.Commit) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if n++; n > maxHistoryWalk {
			return errStopWalk
		}
		return h.visit(g.r, c)
	})
	if err != nil && !errors.Is(err, errStopWalk) {
		return fmt.Errorf("%s: history: %w", g.dir, err)
	}
	return nil
}

// history is the state of dateFromHistory's walk.
type history struct {
	names  map[string][]*EP // the paths this walk dates, and whose they are
	found  map[string][]*EP // earlier paths found by this walk, for the next one
	oldest map[*EP]time.Time
	blobs  map[plumbing.Hash]map[plumbing.Hash]string // tree -> blob -> a path holding it
	// trees holds the entries of the folders read lately, by tree hash: a
	// commit and its parent share most of them.
	trees map[plumbing.Hash]map[string]object.TreeEntry
}

// maxCachedTrees bounds history.trees; past it the cache starts over.
const maxCachedTrees = 4096

// visit finds the tracked files commit c added (against its first
// parent), dates them, and follows renames to the earlier path.
func (h *history) visit(r *git.Repository, c *object.Commit) error {
	var parent plumbing.Hash
	if len(c.ParentHashes) > 0 {
		pc, err := r.CommitObject(c.ParentHashes[0])
		switch {
		case err == nil:
			parent = pc.TreeHash
		case !errors.Is(err, plumbing.ErrObjectNotFound): // a shallow clone ends here
			return err
		}
	}
	var deleted []deletedFile // what c deleted, read at the first add without an exact rename
	byDir := map[string][]string{}
	for p := range h.names {
		byDir[path.Dir(p)] = append(byDir[path.Dir(p)], p)
	}
	for dir, paths := range byDir {
		nowHash, now, err := h.folder(r, c.TreeHash, dir)
		if err != nil || now == nil {
			continue
		}
		var before map[string]object.TreeEntry
		if !parent.IsZero() {
			beforeHash, m, err := h.folder(r, parent, dir)
			if err != nil || beforeHash == nowHash {
				continue // nothing changed in this folder
			}
			before = m
		}
		for _, p := range paths {
			entry, ok := now[path.Base(p)]
			if !ok || !entry.Mode.IsFile() {
				continue
			}
			if old, ok := before[path.Base(p)]; ok && old.Mode.IsFile() {
				continue // not added here
			}
			eps := h.names[p]
			for _, e := range eps {
				if t, ok := h.oldest[e]; !ok || c.Author.When.Before(t) {
					h.oldest[e] = c.Author.When
				}
			}
			if parent.IsZero() || entry.Hash == emptyBlob {
				continue
			}
			ptree, err := r.TreeObject(parent)
			if err != nil {
				continue
			}
			old := h.blobIndex(ptree)[entry.Hash]
			if old == "" {
				if deleted == nil {
					deleted = deletions(r, ptree, c) // once per commit
				}
				old = renamedFrom(deleted, textLines(blobText(r, entry.Hash)))
			}
			if old != "" {
				// The earlier path (which may be another proposal's
				// too) is dated in this walk from here on, and in the
				// next one, for the commits seen already.
				for _, e := range eps {
					if !slices.Contains(h.names[old], e) {
						h.names[old] = append(h.names[old], e)
						h.found[old] = append(h.found[old], e)
					}
				}
			}
		}
	}
	return nil
}

// deletedFile is a file a commit deleted, with its non-blank lines.
type deletedFile struct {
	path  string
	lines []string
}

// deletions returns the files commit c deleted from its parent's tree
// ptree; an empty, non-nil list when there are none.
func deletions(r *git.Repository, ptree *object.Tree, c *object.Commit) []deletedFile {
	out := []deletedFile{}
	ctree, err := c.Tree()
	if err != nil {
		return out
	}
	changes, err := object.DiffTree(ptree, ctree)
	if err != nil {
		return out
	}
	for _, ch := range changes {
		if ch.To.Name == "" && ch.From.Name != "" && ch.From.TreeEntry.Mode.IsFile() {
			out = append(out, deletedFile{ch.From.Name, textLines(blobText(r, ch.From.TreeEntry.Hash))})
		}
	}
	return out
}

// blobText is a blob's content, nil when it cannot be read or is over
// the EP size cap.
func blobText(r *git.Repository, h plumbing.Hash) []byte {
	b, err := r.BlobObject(h)
	if err != nil {
		return nil
	}
	data, _ := blob(b)
	return data
}

// renamedFrom returns the path of the deleted file whose lines are most
// like added's, at least half alike; "" when there is none.
func renamedFrom(deleted []deletedFile, added []string) string {
	best, bestScore := "", 0.5
	for _, d := range deleted {
		if score := similarity(added, d.lines); score >= bestScore {
			best, bestScore = d.path, score
		}
	}
	return best
}

// textLines are the non-blank lines of a text, trimmed: blank lines,
// which every text shares, say nothing of a rename.
func textLines(t []byte) []string {
	var out []string
	for _, l := range strings.Split(string(t), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// similarity is the share of lines two texts have in common, counted with
// their repeats: 2 * common / (lines of a + lines of b).
func similarity(la, lb []string) float64 {
	if len(la) == 0 || len(lb) == 0 {
		return 0
	}
	count := map[string]int{}
	for _, l := range la {
		count[l]++
	}
	common := 0
	for _, l := range lb {
		if count[l] > 0 {
			count[l]--
			common++
		}
	}
	return 2 * float64(common) / float64(len(la)+len(lb))
}

// folder returns the tree hash and the entries of the folder dir of the
// tree root; no entries when there is no such folder.
func (h *history) folder(r *git.Repository, root plumbing.Hash, dir string) (plumbing.Hash, map[string]object.TreeEntry, error) {
	hash := root
	entries, err := h.entries(r, root)
	if err != nil || dir == "." {
		return hash, entries, err
	}
	for _, seg := range strings.Split(dir, "/") {
		e, ok := entries[seg]
		if !ok || e.Mode != filemode.Dir {
			return plumbing.ZeroHash, nil, nil
		}
		hash = e.Hash
		if entries, err = h.entries(r, e.Hash); err != nil {
			return plumbing.ZeroHash, nil, err
		}
	}
	return hash, entries, nil
}

// entries returns a tree's entries by name, decoded once.
func (h *history) entries(r *git.Repository, hash plumbing.Hash) (map[string]object.TreeEntry, error) {
	if m, ok := h.trees[hash]; ok {
		return m, nil
	}
	t, err := r.TreeObject(hash)
	if err != nil {
		return nil, err
	}
	m := make(map[string]object.TreeEntry, len(t.Entries))
	for _, e := range t.Entries {
		m[e.Name] = e
	}
	if len(h.trees) >= maxCachedTrees {
		h.trees = map[plumbing.Hash]map[string]object.TreeEntry{}
	}
	h.trees[hash] = m
	return m, nil
}

// emptyBlob is the hash of the empty file, which every empty file shares:
// it says nothing of where a file came from.
var emptyBlob = plumbing.NewHash("e69de29bb2d1d6434b8b29ae775ad8c2e48c5391")

// blobIndex maps the blobs of a tree to a path holding each.
func (h *history) blobIndex(tree *object.Tree) map[plumbing.Hash]string {
	if index, ok := h.blobs[tree.Hash]; ok {
		return index
	}
	index := map[plumbing.Hash]string{}
	tree.Files().ForEach(func(f *object.File) error {
		if _, seen := index[f.Hash]; !seen {
			index[f.Hash] = f.Name
		}
		return nil
	})
	h.blobs[tree.Hash] = index
	return index
}

var errStopWalk = errors.New("stop")

// epAtMerge returns the EP text a kept pair's candidate gets and, for a
// git source, the commit it was read at. A proposal keeps changing after
// its PR merged (status updates, rewrites, later amendments), and the PR
// implemented the text it saw, so the text is the one of the last commit
// of the EP repository at or before the merge; any other outcome (the
// merge date unknown, the file not there yet) falls back to the tip and
// says so. Metadata (status, created date) stays the tip's: selection
// asks where the proposal stands now.
func (pr *projectRun) epAtMerge(ctx context.Context, pa *pair, merged time.Time) ([]byte, string, error) {
	g, e := pr.epGit, pa.ep
	pa.statusAtRev = e.Status
	if g == nil || e.textPath == "" {
		return e.Text, "", nil
	}
	tip := g.commit.String()
	if merged.IsZero() {
		pr.note(pa, fmt.Sprintf("the PR's merge date is unknown, so %s is the text at the tip %s of the EP repository", epFile(e.Format), tip[:12]))
		return e.Text, tip, nil
	}
	c, err := g.asOf(ctx, merged)
	if err != nil {
		return nil, "", err
	}
	if c == nil {
		pr.note(pa, fmt.Sprintf("the EP repository has no commit at or before the PR's merge (%s), so %s is the text at its tip %s",
			stamp(merged), epFile(e.Format), tip[:12]))
		return e.Text, tip, nil
	}
	rev := c.Hash.String()
	if c.Hash == g.commit {
		return e.Text, rev, nil
	}
	textPath := e.textPath
	old, err := textAt(c, textPath)
	if errors.Is(err, errNoFileYet) {
		// The file may have moved since (python/peps moved every PEP
		// into peps/ in September 2023): follow its exact renames back.
		if moved, ok := g.pathAt(c, textPath); ok {
			if old, err = textAt(c, moved); err == nil {
				pr.note(pa, fmt.Sprintf("%s was %s at %s, the last commit of the EP repository at or before the PR's merge: the file moved since", textPath, moved, rev[:12]))
				textPath, pa.pathAtRev = moved, moved
			}
		}
	}
	if err != nil {
		pr.note(pa, fmt.Sprintf("%s cannot be read at %s, the last commit of the EP repository at or before the PR's merge (%s): %v; %s is the text at the tip %s",
			e.textPath, rev[:12], stamp(merged), err, epFile(e.Format), tip[:12]))
		return e.Text, tip, nil
	}
	if !bytes.Equal(old, e.Text) {
		pr.note(pa, fmt.Sprintf("%s changed after the PR was merged (%s): %s is its text as of %s (committed %s), the last commit of the EP repository at or before the merge, not the tip %s",
			textPath, stamp(merged), epFile(e.Format), rev[:12], stamp(c.Committer.When), tip[:12]))
	}
	if at := pr.statusAt(c, e, old); at != e.Status {
		// The task asks for what the PR implemented, so the candidate
		// gives the status its text had then (issue 36: "Implemented" at
		// the tip beside an ep.md that says "Draft").
		pa.statusAtRev = at
		pr.note(pa, fmt.Sprintf("the EP's status is %q as of %s and %q at the tip %s; candidate.json gives the first", at, rev[:12], e.Status, tip[:12]))
	}
	return old, rev, nil
}

// statusAt reads the status an EP declared at commit c, whose text there
// is text (a KEP's status is in its kep.yaml at c); "" when it cannot be
// read.
func (pr *projectRun) statusAt(c *object.Commit, e *EP, text []byte) string {
	r := rawEP{path: e.Path, content: text}
	if formatOf(&pr.p.EPs, e.Path) == registry.FormatKEP {
		meta, err := textAt(c, e.Path)
		if err != nil {
			return ""
		}
		r.content, r.text = meta, text
	}
	at, why := parseEP(&pr.p.EPs, r)
	if why != "" {
		return ""
	}
	return at.Status
}

// asOf returns the last commit at or before t on the first-parent line of
// the EP source's commit: the branch as it stood at t (a commit merged
// later from a side branch is not part of it), or nil when every commit
// is later. History missing from the clone ends the line.
func (g *gitSource) asOf(ctx context.Context, t time.Time) (*object.Commit, error) {
	for i := 0; ; i++ {
		if i == len(g.line) {
			if g.lineEnd {
				return nil, nil
			}
			if i >= maxHistoryWalk {
				return nil, fmt.Errorf("%s: more than %d commits on the first-parent line of %s before %s", g.dir, maxHistoryWalk, g.commit, stamp(t))
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			next := g.commit
			if i > 0 {
				last := g.line[i-1]
				if len(last.ParentHashes) == 0 {
					g.lineEnd = true
					return nil, nil
				}
				next = last.ParentHashes[0]
			}
			c, err := g.r.CommitObject(next)
			if errors.Is(err, plumbing.ErrObjectNotFound) {
				g.lineEnd = true // a shallow clone
				return nil, nil
			}
			if err != nil {
				return nil, fmt.Errorf("%s: commit %s: %w", g.dir, next, err)
			}
			g.line = append(g.line, c)
		}
		if c := g.line[i]; !c.Committer.When.After(t) {
			return c, nil
		}
	}
}

// errNoFileYet is textAt's error for a path that commit does not have.
var errNoFileYet = errors.New("no such file yet")

// pathAt follows the file at path p of the source's commit back along
// its first-parent line to commit c, through exact renames (the same
// blob at another path of the parent, where p is gone): the path the
// file had at c, and false when it had none (it was added later, or
// changed as it moved). c must be on the line that asOf read.
func (g *gitSource) pathAt(c *object.Commit, p string) (string, bool) {
	for i := 0; i+1 < len(g.line) && g.line[i].Hash != c.Hash; i++ {
		parent := g.line[i+1]
		ptree, err := parent.Tree()
		if err != nil {
			return "", false
		}
		if _, err := ptree.File(p); err == nil {
			continue
		}
		tree, err := g.line[i].Tree()
		if err != nil {
			return "", false
		}
		f, err := tree.File(p)
		if err != nil || f.Hash == emptyBlob {
			return "", false
		}
		moved := ""
		ptree.Files().ForEach(func(pf *object.File) error {
			if pf.Hash == f.Hash {
				moved = pf.Name
				return storer.ErrStop
			}
			return nil
		})
		if moved == "" {
			return "", false
		}
		p = moved
	}
	return p, true
}

// textAt reads a proposal file at commit c within the EP size cap.
func textAt(c *object.Commit, p string) ([]byte, error) {
	tree, err := c.Tree()
	if err != nil {
		return nil, err
	}
	f, err := tree.File(p)
	if errors.Is(err, object.ErrFileNotFound) {
		return nil, errNoFileYet
	}
	if err != nil {
		return nil, err
	}
	b, err := blob(&f.Blob)
	if err != nil {
		return nil, err
	}
	if !utf8.Valid(b) {
		return nil, errors.New("not valid UTF-8")
	}
	return b, nil
}

// readIssues reads proposals kept as GitHub issues with a label.
func (pr *projectRun) readIssues(ctx context.Context) ([]*EP, error) {
	e := &pr.p.EPs
	repo := pr.p.EPRepo()
	var issues []gh.Issue
	name := fmt.Sprintf("github/issues-%s.json", key(repo+"\x00"+e.Label))
	err := pr.cache.get(name, fmt.Sprintf("issues of %s labelled %q", repo, e.Label), &issues, func() error {
		c, err := pr.s.client(pr.env)
		if err != nil {
			return err
		}
		issues, err = c.LabelledIssues(ctx, repo, e.Label)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("project %s: %w", pr.p.Name, err)
	}
	pr.funnel.Proposals = fmt.Sprintf("GitHub issues of %s labelled %q", repo, e.Label)
	eps := make([]*EP, 0, len(issues))
	for _, is := range issues {
		n := fmt.Sprint(is.Number)
		text := "# " + oneLine(is.Title) + "\n\n" + is.Body
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		eps = append(eps, &EP{
			Number: n, ID: e.ID(n), Title: oneLine(is.Title), Status: is.State, Created: is.CreatedAt,
			CreatedFrom: FromIssue, Path: "#" + n, Format: ep.Markdown, Text: []byte(text), URL: is.URL,
			From: map[string]string{"number": FromIssue, "title": FromIssue, "status": FromIssue, "created": FromIssue},
		})
	}
	return eps, nil
}

// formatOf is the metadata format of a file: the source's, else the one
// its extension names.
func formatOf(src *registry.EPSource, p string) string {
	if src.Format != "" {
		return src.Format
	}
	if src.Kind == registry.KindWeb {
		return registry.FormatHTML
	}
	switch strings.ToLower(path.Ext(p)) {
	case ".rst", ".txt":
		return registry.FormatPEP
	case ".md", ".markdown":
		return registry.FormatMarkdown
	case ".html", ".htm":
		return registry.FormatHTML
	case ".dokuwiki":
		return registry.FormatDokuWiki
	}
	return ""
}

// textFormat is the markup of a metadata format's proposal text.
func textFormat(format string) ep.Format {
	switch format {
	case registry.FormatPEP, registry.FormatRST:
		return ep.RST
	case registry.FormatHTML:
		return ep.HTML
	case registry.FormatDokuWiki:
		return ep.DokuWiki
	}
	return ep.Markdown
}

// parseEP reads a proposal's metadata from the places the source declares
// or its format presets (registry.Declared); a non-empty reason says why
// the file is not a usable proposal.
func parseEP(src *registry.EPSource, r rawEP) (*EP, string) {
	if r.textErr != "" {
		return nil, "unreadable: " + r.textErr
	}
	format := formatOf(src, r.path)
	if format == "" {
		return nil, fmt.Sprintf("cannot tell the format of %s; set eps.format", r.path)
	}
	e := &EP{Path: r.path, Text: r.content, Format: textFormat(format), textPath: r.path,
		From: map[string]string{}, URL: r.url, Fetched: r.fetched}
	s := &sources{path: r.path, raw: r.content}
	var doc *ep.Document
	if format == registry.FormatKEP {
		meta, err := topScalars(r.content)
		if line, msg, ok := yamlSyntax(err); ok {
			// A kep.yaml a YAML parser refuses ("- @name" unquoted, an
			// unclosed quote; three in kueue) is still a proposal: listed
			// with what its plain top-level lines say (issue 33 §1).
			meta, err = looseScalars(r.content), nil
			e.Warnings = append(e.Warnings, fmt.Sprintf("%s:%d: not valid YAML (%s); its top-level \"key: value\" lines are read one by one", r.path, line, msg))
		}
		if err != nil {
			return nil, err.Error()
		}
		s.header = meta
		e.Text, e.textPath = r.text, path.Join(path.Dir(r.path), kepText(src))
		if !utf8.Valid(r.text) {
			return nil, "the proposal text is not valid UTF-8"
		}
		s.text = r.text
	} else {
		var err error
		if doc, err = parseText(src, e.Format, r.content); err != nil {
			return nil, err.Error()
		}
		s.header, s.text = doc.Metadata, doc.Source
	}
	value := func(field string) string {
		v, from := s.lookup(src.Places(field, format))
		if v != "" {
			e.From[field] = from
		}
		return v
	}

	if r.page != nil {
		// A web page's number is the registry's; one the page says
		// otherwise is a mistake in the list.
		e.Number, e.From["number"] = r.page.EP.Canonical(), FromRegistry
		if said := registry.CanonicalNumber(value("number")); said != "" && said != e.Number {
			return nil, fmt.Sprintf("the page says it is %s, the registry lists it as %s", src.ID(said), src.ID(e.Number))
		}
		e.From["number"] = FromRegistry
	} else if e.Number = value("number"); e.Number == "" && len(src.Metadata.Number) == 0 {
		// Declared places say where the number is; only a format's
		// preset falls back to the digits of the file name.
		if e.Number = numberFromPath(r.path); e.Number != "" {
			e.From["number"] = FromFileName
		}
	}
	said := strings.TrimSpace(e.Number)
	e.Number = registry.CanonicalNumber(said)
	switch {
	case e.Number == "":
		// No number anywhere: not a proposal (an index, a template).
		return nil, fmt.Sprintf("no proposal number in the metadata or the file name of %s", r.path)
	case !validNumber.MatchString(e.Number):
		// Declared but unreadable: listed without a number, never
		// dropped from the listing (issue 33 §1); collect cannot name a
		// candidate after it (numbered).
		e.Warnings = append(e.Warnings, fmt.Sprintf("%s:%d: number (%s): %q is not a proposal number; listed without one",
			r.path, lineOf(r.content, said), e.From["number"], oneLine(said)))
		e.Number, e.ID = "", r.path
		delete(e.From, "number")
	default:
		e.ID = src.ID(e.Number)
	}

	if e.Title = value("title"); e.Title == "" || placeholder(e.Title) {
		delete(e.From, "title")
		if e.Title = headingTitle(doc, e.ID); e.Title != "" {
			e.From["title"] = FromHeading
		} else if format == registry.FormatKEP {
			e.Title = titleFromPath(path.Dir(r.path)) // keps/sig-x/1287-in-place-update/kep.yaml
		} else {
			e.Title = titleFromPath(r.path)
		}
		if _, ok := e.From["title"]; !ok && e.Title != "" {
			e.From["title"] = FromFileName
		}
	}
	e.Title = oneLine(unquote(strings.TrimSpace(e.Title)))
	if e.Status = plainText(oneLine(value("status"))); e.Status == "" {
		delete(e.From, "status")
	}
	if e.Type = plainText(oneLine(value("type"))); e.Type == "" {
		delete(e.From, "type")
	}
	if e.Authors = splitAuthors(value("authors")); len(e.Authors) == 0 {
		delete(e.From, "authors")
	}
	e.Links = declaredLinks(s)
	if created := value("created"); created != "" {
		t, err := registry.ParseTime(created)
		if err != nil {
			// Declared but unreadable: no date, and none from git either,
			// which would pass off a later commit as the declared date.
			e.Warnings = append(e.Warnings, fmt.Sprintf("%s:%d: created date (%s): %v; listed without a created date",
				r.path, lineOf(r.content, created), e.From["created"], err))
			delete(e.From, "created")
			e.CreatedFrom = CreatedUnreadable
		} else {
			e.Created, e.CreatedFrom = t, "metadata"
		}
	} else if r.page != nil && !r.page.CreatedAt.IsZero() {
		e.Created, e.CreatedFrom = r.page.CreatedAt, FromRegistry
		e.From["created"] = FromRegistry
	}
	return e, ""
}

// parseText parses a proposal's text in its markup, an HTML page with the
// source's profile.
func parseText(src *registry.EPSource, f ep.Format, content []byte) (*ep.Document, error) {
	if f == ep.HTML {
		profile, err := ep.ParseProfile(src.Profile)
		if err != nil {
			return nil, err
		}
		return ep.ParseHTML(content, profile)
	}
	return ep.Parse(content, f)
}

var validNumber = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$`)

// lookup returns the first non-empty value of the keys, matched without
// regard to case.
func lookup(meta map[string]string, keys ...string) string {
	for _, k := range keys {
		if k == "" {
			continue
		}
		for mk, v := range meta {
			if strings.EqualFold(mk, k) && strings.TrimSpace(v) != "" {
				return strings.TrimSpace(v)
			}
		}
	}
	return ""
}

// headingTitle is the title a document's headings give (issue 33 §2):
// its first heading, cleaned of a banner that only names the proposal
// ("RFC0001 for Presto", alone or before ": the title") and of a
// template's "[Title]" marker; none when that heading is a generic section
// name ("Summary", as Rust RFCs start) rather than a title.
func headingTitle(doc *ep.Document, id string) string {
	if doc == nil {
		return ""
	}
	for _, s := range doc.Sections {
		t := cleanHeading(s.Title, id)
		switch {
		case t == "":
			continue
		case genericHeadings[strings.ToLower(t)], noteHeading.MatchString(t), placeholder(t):
			return ""
		}
		return t
	}
	return ""
}

// genericHeadings are section names proposal templates use, never a
// proposal's title.
var genericHeadings = map[string]bool{"summary": true, "abstract": true, "motivation": true, "introduction": true,
	"overview": true, "background": true, "contents": true, "table of contents": true, "proposers": true,
	"related issues": true, "note": true, "notes": true, "history": true}

// noteHeading is a heading that speaks of the document, not its subject:
// Rust RFC 2126's "This RFC was previously approved, but part of it later
// withdrawn".
var noteHeading = regexp.MustCompile(`(?i)^this (?:rfc|proposal|document|kep|pep)\b`)

func cleanHeading(t, id string) string {
	t = strings.TrimSpace(strings.Trim(strings.TrimSpace(t), "*"))
	// The id before a colon or a dash: "DEP 0201: ...", "NEP 21 — ...";
	// a heading that is only the id names no title.
	cut := false
	for _, sep := range []string{":", " — ", " – ", " - "} {
		if head, rest, ok := strings.Cut(t, sep); ok && (idBanner(head, id) || idTail(head, id)) {
			t, cut = rest, true
			break
		}
	}
	if !cut && idBanner(t, id) {
		return ""
	}
	t = strings.TrimSpace(strings.Trim(strings.TrimSpace(t), "*"))
	if len(t) >= 7 && strings.EqualFold(t[:7], "[title]") {
		t = strings.TrimSpace(t[7:])
	}
	if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") && !strings.Contains(t[1:len(t)-1], "]") {
		t = strings.TrimSpace(t[1 : len(t)-1])
	}
	return t
}

// idBanner reports whether a heading only names the proposal: the letters
// of its id and a number (any: Presto's RFC 8 says "RFC0"), alone or
// followed by "for ...": "RFC-0001 for Presto".
func idBanner(heading, id string) bool {
	letters := strings.TrimRightFunc(bannerKey(id), func(r rune) bool { return r >= '0' && r <= '9' })
	h, ok := strings.CutPrefix(bannerKey(heading), letters)
	if letters == "" || !ok {
		return false
	}
	rest := strings.TrimLeft(h, "0123456789")
	if rest == h { // no number: only "RFC for Presto" names the proposal
		return strings.HasPrefix(rest, "for")
	}
	return rest == "" || strings.HasPrefix(rest, "for")
}

// idTail reports whether a title's prefix is the end of the proposal's
// id with its number: gRFC A103's "A103: xDS Composite Filter".
func idTail(head, id string) bool {
	h := bannerKey(head)
	return strings.ContainsAny(h, "0123456789") && strings.HasSuffix(bannerKey(id), h)
}

// bannerKey lower-cases s and keeps its letters and digits, without the
// leading zeros of numbers: "RFC-0001 for Presto" is "rfc1forpresto".
func bannerKey(s string) string {
	var b strings.Builder
	inNumber := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= '0' && r <= '9':
			if r == '0' && !inNumber {
				continue
			}
			inNumber = true
			b.WriteRune(r)
		case unicode.IsLetter(r):
			inNumber = false
			b.WriteRune(r)
		}
	}
	return b.String()
}

// unquote drops one pair of backticks or quotes around a whole title
// (Rust's "Feature Name: `ptr-meta`"), never quoting inside it (PEP
// 604's title ends with X | Y in double backticks).
func unquote(t string) string {
	for _, q := range []string{"`", "'"} {
		if len(t) > 2 && strings.HasPrefix(t, q) && strings.HasSuffix(t, q) && !strings.Contains(t[1:len(t)-1], q) {
			return strings.TrimSpace(t[1 : len(t)-1])
		}
	}
	return t
}

// rstRole is reStructuredText's interpreted text with a role, with or
// without a target: :ref:`SLEP007 <slep_007>`.
var rstRole = regexp.MustCompile("(?::[A-Za-z][A-Za-z0-9_.+-]*:)`([^`<]*?)\\s*(?:<[^`>]*>)?`")

// plainText is a declared value (a status, a type) as plain text (issue
// 33 §2): roles and emphasis give their text (SLEP 4's "Withdrawn
// (superseded by :ref:`SLEP007 <slep_007>`)"), and a template's unfilled
// value, a list in braces or angle brackets (gRFC A103's "{Draft, In
// Review, ...}"), is none.
func plainText(v string) string {
	v = strings.TrimSpace(v)
	if len(v) > 1 && (v[0] == '{' && v[len(v)-1] == '}' || v[0] == '<' && v[len(v)-1] == '>') {
		// The template's choices are none; one choice left in its
		// braces is the value (gRFC A115's "{Draft}").
		inner := v[1 : len(v)-1]
		if strings.ContainsAny(inner, ",{}<>") || strings.Contains(inner, "...") {
			return ""
		}
		v = inner
	}
	v = rstRole.ReplaceAllString(v, "$1")
	return strings.TrimSpace(strings.Trim(v, "`*_ "))
}

// placeholder reports whether a declared title is a stand-in for none
// ("none", "N/A", "NA", "-", "TBD", a template's "[Title]" or "{title}").
func placeholder(v string) bool {
	v = strings.ToLower(strings.TrimSpace(v))
	switch v {
	case "", "none", "n/a", "na", "-", "tbd", "todo", "not applicable", "title":
		return true
	}
	return strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]") || strings.HasPrefix(v, "{") && strings.HasSuffix(v, "}")
}

var digitRun = regexp.MustCompile(`[0-9]+`)

// idPrefix is a file name's leading proposal id: "RFC-0008-".
var idPrefix = regexp.MustCompile(`^[A-Za-z]+[-_]?[0-9]+[-_]`)

// numberFromPath takes the first run of digits of the file name, then of
// its folder (keps/sig-node/1287-in-place-update/README.md).
func numberFromPath(p string) string {
	if m := digitRun.FindString(path.Base(p)); m != "" {
		return m
	}
	return digitRun.FindString(path.Base(path.Dir(p)))
}

// titleFromPath turns "text/2580-ptr-meta.md" into "ptr meta" and
// "RFC-0008-plan-checker.md" into "plan checker".
func titleFromPath(p string) string {
	base := strings.TrimSuffix(path.Base(p), path.Ext(p))
	base = idPrefix.ReplaceAllString(base, "") // RFC-0008-plan-checker.md
	base = strings.TrimLeft(base, "0123456789-_")
	return strings.TrimSpace(strings.NewReplacer("-", " ", "_", " ").Replace(base))
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// topScalars reads the top-level scalar keys of a YAML mapping (kep.yaml).
// Only scalars are read, so aliases never expand; the YAML passes
// safeyaml's pre-scan first.
func topScalars(src []byte) (map[string]string, error) {
	if !utf8.Valid(src) {
		return nil, errors.New("not valid UTF-8")
	}
	f, err := safeyaml.Parse(src)
	if err != nil {
		return nil, fmt.Errorf("yaml: %s", firstLine(err.Error()))
	}
	meta := map[string]string{}
	if len(f.Docs) == 0 || f.Docs[0].Body == nil {
		return meta, nil
	}
	var values []*ast.MappingValueNode
	switch b := f.Docs[0].Body.(type) {
	case *ast.MappingNode:
		values = b.Values
	case *ast.MappingValueNode:
		values = []*ast.MappingValueNode{b}
	default:
		return nil, errors.New("yaml: not a mapping")
	}
	for _, mv := range values {
		if mv.Key == nil || mv.Value == nil || mv.Key.GetToken() == nil {
			continue
		}
		key := strings.TrimSpace(mv.Key.GetToken().Value)
		if seq, ok := mv.Value.(*ast.SequenceNode); ok {
			// A list of scalars (a kep.yaml's authors) is one value.
			var items []string
			for _, v := range seq.Values {
				if t, ok := scalarText(v); ok {
					items = append(items, t)
				}
			}
			if len(items) > 0 {
				meta[key] = strings.Join(items, ", ")
			}
		} else if t, ok := scalarText(mv.Value); ok {
			meta[key] = t
		}
	}
	return meta, nil
}

// yamlSyntaxAt is the position goccy/go-yaml puts first in a syntax error.
var yamlSyntaxAt = regexp.MustCompile(`^yaml: \[(\d+):\d+\] (.+)$`)

// yamlSyntax tells a YAML syntax error of topScalars, with its line, from
// the other refusals (not UTF-8, not a mapping, safeyaml's bounds).
func yamlSyntax(err error) (line int, msg string, ok bool) {
	if err == nil {
		return 0, "", false
	}
	m := yamlSyntaxAt.FindStringSubmatch(err.Error())
	if m == nil {
		return 0, "", false
	}
	line, _ = strconv.Atoi(m[1])
	return line, m[2], true
}

// looseScalars reads a YAML mapping's top-level lines one by one, for a
// file a YAML parser refuses: "key: value" at column 0, and a key without a
// value followed by indented "- item" lines as one value, the items joined
// by ", " as topScalars joins a list. Quotes around a value or an item are
// dropped; anything else (nested mappings, flow collections, block
// scalars) is not read.
func looseScalars(src []byte) map[string]string {
	meta := map[string]string{}
	key := "" // the key whose list items follow
	for _, line := range strings.Split(string(src), "\n") {
		line = strings.TrimRight(line, " \t\r")
		if item, ok := strings.CutPrefix(strings.TrimLeft(line, " "), "- "); ok && key != "" && strings.HasPrefix(line, " ") {
			if item = looseScalar(item); item != "" {
				if meta[key] != "" {
					meta[key] += ", "
				}
				meta[key] += item
			}
			continue
		}
		key = ""
		k, v, ok := strings.Cut(line, ":")
		if !ok || k == "" || !isLooseKey(k) {
			continue
		}
		if v = strings.TrimSpace(v); v == "" {
			key = k
		} else if v = looseScalar(v); v != "" {
			meta[k] = v
		}
	}
	return meta
}

// isLooseKey: a plain top-level key (kep-number, creation-date).
func isLooseKey(k string) bool {
	for i, r := range k {
		if !(r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// looseScalar is a value's text without its quotes and a trailing
// comment; "" for what is not a plain scalar (a flow collection, a block
// scalar header, an anchor or alias).
func looseScalar(v string) string {
	if v = strings.TrimSpace(v); v == "" {
		return ""
	}
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && strings.LastIndexByte(v, v[0]) > 0 {
		return strings.TrimSpace(v[1:strings.LastIndexByte(v, v[0])])
	}
	if v, _, _ = strings.Cut(v, " #"); strings.ContainsAny(v[:1], "[{|>&*!%#") {
		return ""
	}
	return strings.Trim(strings.TrimSpace(v), `"'`)
}

// scalarText is the text of a scalar node. An alias is never expanded,
// and an empty value ("title:" with nothing after it, kueue KEP-77) is
// none, not "null".
func scalarText(n ast.Node) (string, bool) {
	s, ok := n.(ast.ScalarNode)
	if !ok {
		return "", false
	}
	switch n.(type) {
	case *ast.AliasNode, *ast.NullNode:
		return "", false
	}
	if tk := s.GetToken(); tk != nil {
		return tk.Value, true
	}
	return "", false
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
