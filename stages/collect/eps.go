package collect

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
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
	// first commit that added the file) or "issue".
	CreatedFrom string
	Path        string // in the repository or folder; "#N" for an issue
	Format      ep.Format
	Text        []byte
	URL         string
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
			raws, err = git.read(p.EPs)
		}
	case registry.KindGitHubIssues:
		eps, err = pr.readIssues(ctx)
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
			pr.epGit = git
		}
	} else {
		pr.funnel.consider(StepEPs, len(eps))
	}
	// One proposal per number: the first path wins, later ones are
	// dropped (a PEP kept as .txt and .rst, a renamed KEP folder).
	sort.SliceStable(eps, func(i, j int) bool { return eps[i].Path < eps[j].Path })
	seen := map[string]*EP{}
	var out []*EP
	for _, e := range eps {
		if first, dup := seen[e.Number]; dup {
			pr.funnel.drop(Drop{EP: e.ID, Path: e.Path, Step: StepEPs, Reason: fmt.Sprintf("duplicate of %s in %s", first.ID, first.Path)})
			continue
		}
		seen[e.Number] = e
		out = append(out, e)
	}
	sort.SliceStable(out, func(i, j int) bool { return numberLess(out[i].Number, out[j].Number) })
	return out, nil
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
		if ok, _ := registry.MatchGlob(e.Glob, rel); !ok || !d.Type().IsRegular() {
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
			r.text, err = workspace.ReadFileIn(root, path.Join(path.Dir(rel), kepText(e)), ep.MaxSize, "the EP size cap")
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
	if g.r, err = git.PlainOpen(g.dir); err != nil {
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
		if ok, _ := registry.MatchGlob(e.Glob, f.Name); !ok || !f.Mode.IsFile() {
			return nil
		}
		r := rawEP{path: f.Name}
		var err error
		if r.content, err = blob(&f.Blob); err != nil {
			r.textErr = err.Error()
		} else if e.Format == registry.FormatKEP {
			tf, err := g.tree.File(path.Join(path.Dir(f.Name), kepText(&e)))
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
// of the oldest commit whose tree holds their file (Prometheus proposals
// carry no date). A file renamed later is dated by the rename.
func (g *gitSource) dateFromHistory(ctx context.Context, eps []*EP) error {
	pending := map[string]*EP{}
	for _, e := range eps {
		if e.Created.IsZero() {
			pending[e.Path] = e
		}
	}
	if len(pending) == 0 {
		return nil
	}
	it, err := g.r.Log(&git.LogOptions{From: g.commit})
	if err != nil {
		return fmt.Errorf("%s: history: %w", g.dir, err)
	}
	defer it.Close()
	oldest := map[string]time.Time{}
	n := 0
	err = it.ForEach(func(c *object.Commit) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if n++; n > maxHistoryWalk {
			return errStopWalk
		}
		tree, err := c.Tree()
		if err != nil {
			return err
		}
		for p := range pending {
			if _, err := tree.FindEntry(p); err == nil {
				if t, ok := oldest[p]; !ok || c.Author.When.Before(t) {
					oldest[p] = c.Author.When
				}
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStopWalk) {
		return fmt.Errorf("%s: history: %w", g.dir, err)
	}
	for p, e := range pending {
		if t, ok := oldest[p]; ok {
			e.Created, e.CreatedFrom = t.UTC(), "git"
		}
	}
	return nil
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
	old, err := textAt(c, e.textPath)
	if err != nil {
		pr.note(pa, fmt.Sprintf("%s cannot be read at %s, the last commit of the EP repository at or before the PR's merge (%s): %v; %s is the text at the tip %s",
			e.textPath, rev[:12], stamp(merged), err, epFile(e.Format), tip[:12]))
		return e.Text, tip, nil
	}
	if !bytes.Equal(old, e.Text) {
		pr.note(pa, fmt.Sprintf("%s changed after the PR was merged (%s): %s is its text as of %s (committed %s), the last commit of the EP repository at or before the merge, not the tip %s",
			e.textPath, stamp(merged), epFile(e.Format), rev[:12], stamp(c.Committer.When), tip[:12]))
	}
	return old, rev, nil
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

// textAt reads a proposal file at commit c within the EP size cap.
func textAt(c *object.Commit, p string) ([]byte, error) {
	tree, err := c.Tree()
	if err != nil {
		return nil, err
	}
	f, err := tree.File(p)
	if errors.Is(err, object.ErrFileNotFound) {
		return nil, errors.New("no such file yet")
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
	eps := make([]*EP, 0, len(issues))
	for _, is := range issues {
		n := fmt.Sprint(is.Number)
		text := "# " + oneLine(is.Title) + "\n\n" + is.Body
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		eps = append(eps, &EP{
			Number: n, ID: e.ID(n), Title: oneLine(is.Title), Status: is.State, Created: is.CreatedAt,
			CreatedFrom: "issue", Path: "#" + n, Format: ep.Markdown, Text: []byte(text), URL: is.URL,
		})
	}
	return eps, nil
}

// parseEP reads a proposal's metadata; a non-empty reason says why the file
// is not a usable proposal.
func parseEP(src *registry.EPSource, r rawEP) (*EP, string) {
	if r.textErr != "" {
		return nil, "unreadable: " + r.textErr
	}
	format := src.Format
	if format == "" {
		switch strings.ToLower(path.Ext(r.path)) {
		case ".rst", ".txt":
			format = registry.FormatPEP
		case ".md", ".markdown":
			format = registry.FormatMarkdown
		default:
			return nil, fmt.Sprintf("cannot tell the format of %s; set eps.format", r.path)
		}
	}
	e := &EP{Path: r.path, Text: r.content, Format: ep.Markdown, textPath: r.path}
	var meta map[string]string
	switch format {
	case registry.FormatPEP:
		e.Format = ep.RST
		doc, err := ep.Parse(r.content, ep.RST)
		if err != nil {
			return nil, err.Error()
		}
		meta = doc.Metadata
		e.Number = lookup(meta, src.IDKey, "pep")
		if e.Title = lookup(meta, "title"); e.Title == "" {
			e.Title = firstTitle(doc)
		}
	case registry.FormatMarkdown:
		doc, err := ep.Parse(r.content, ep.Markdown)
		if err != nil {
			return nil, err.Error()
		}
		meta = doc.Metadata
		e.Number = lookup(meta, src.IDKey, "id", "number")
		if e.Title = lookup(meta, "title"); e.Title == "" {
			e.Title = firstTitle(doc)
		}
	case registry.FormatKEP:
		var err error
		if meta, err = topScalars(r.content); err != nil {
			return nil, err.Error()
		}
		e.Text, e.textPath = r.text, path.Join(path.Dir(r.path), kepText(src))
		if !utf8.Valid(r.text) {
			return nil, "the proposal text is not valid UTF-8"
		}
		e.Number = lookup(meta, src.IDKey, "kep-number")
		e.Title = lookup(meta, "title")
	case registry.FormatRustRFC:
		if !utf8.Valid(r.content) {
			return nil, "not valid UTF-8"
		}
		meta = rustHeader(r.content)
		e.Number = lookup(meta, src.IDKey)
		e.Title = strings.Trim(lookup(meta, "feature name"), "`' ")
	default:
		return nil, fmt.Sprintf("unknown format %q", format)
	}
	if e.Number == "" {
		e.Number = numberFromPath(r.path)
	}
	e.Number = registry.CanonicalNumber(strings.TrimSpace(e.Number))
	if e.Number == "" || !validNumber.MatchString(e.Number) {
		return nil, fmt.Sprintf("no proposal number in the metadata or the file name of %s", r.path)
	}
	e.ID = src.ID(e.Number)
	if e.Title == "" || strings.EqualFold(e.Title, "n/a") {
		if format == registry.FormatKEP {
			e.Title = titleFromPath(path.Dir(r.path)) // keps/sig-x/1287-in-place-update/kep.yaml
		} else {
			e.Title = titleFromPath(r.path)
		}
	}
	e.Title = oneLine(e.Title)
	e.Status = oneLine(lookup(meta, "status"))
	if created := lookup(meta, "created", "creation-date", "start date", "start-date", "date"); created != "" {
		t, err := registry.ParseTime(created)
		if err != nil {
			return nil, fmt.Sprintf("created date: %v", err)
		}
		e.Created, e.CreatedFrom = t, "metadata"
	}
	return e, ""
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

func firstTitle(doc *ep.Document) string {
	for _, s := range doc.Sections {
		if s.Title != "" {
			return s.Title
		}
	}
	return ""
}

var digitRun = regexp.MustCompile(`[0-9]+`)

// numberFromPath takes the first run of digits of the file name, then of
// its folder (keps/sig-node/1287-in-place-update/README.md).
func numberFromPath(p string) string {
	if m := digitRun.FindString(path.Base(p)); m != "" {
		return m
	}
	return digitRun.FindString(path.Base(path.Dir(p)))
}

// titleFromPath turns "text/2580-ptr-meta.md" into "ptr meta".
func titleFromPath(p string) string {
	base := strings.TrimSuffix(path.Base(p), path.Ext(p))
	base = strings.TrimLeft(base, "0123456789-_")
	return strings.TrimSpace(strings.NewReplacer("-", " ", "_", " ").Replace(base))
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

var rustField = regexp.MustCompile(`^\s*[-*]\s*([A-Za-z][A-Za-z ]{0,40}):\s*(.*)$`)

// rustHeader reads the leading "- Key: value" lines of a Rust RFC.
func rustHeader(src []byte) map[string]string {
	meta := map[string]string{}
	for i, line := range strings.Split(string(src), "\n") {
		if i > 40 {
			break
		}
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" {
			if len(meta) > 0 {
				break
			}
			continue
		}
		m := rustField.FindStringSubmatch(line)
		if m == nil {
			break
		}
		meta[strings.ToLower(strings.TrimSpace(m[1]))] = strings.TrimSpace(m[2])
	}
	return meta
}

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
		if mv.Key == nil || mv.Value == nil {
			continue
		}
		if s, ok := mv.Value.(ast.ScalarNode); ok {
			if _, isAlias := mv.Value.(*ast.AliasNode); isAlias {
				continue
			}
			if tk := s.GetToken(); tk != nil {
				meta[strings.TrimSpace(mv.Key.GetToken().Value)] = tk.Value
			}
		}
	}
	return meta, nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
