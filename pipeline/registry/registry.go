// Package registry loads the projects registry (data/projects.yaml): one
// entry per project naming its GitHub repository, language and domain, where
// its enhancement proposals live, how proposals are linked to their
// implementation PRs, per-project threshold overrides of the selection
// criteria (paper, section 3.1), and the build and test recipe used by task
// construction. The schema is documented in docs/projects.md.
//
// A registry is outside input: every problem is reported with the file, the
// line and the field ("data/projects.yaml:12: projects[0].eps.glob:
// required"), all problems at once (unknown and duplicate keys, values of
// the wrong kind, failed checks), and no input makes the loader panic or
// expand without bound: the YAML passes safeyaml's pre-scan before the
// parser sees it, and aliases are refused. The folders a registry names
// as the curator's own (path, eps.path, eps.dir) may lie anywhere; every
// file collection copies from the registry's folder (a curated mapping, a
// recipe's host files) stays inside it.
package registry

import (
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/registry/safeyaml"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"slices"

	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// MaxFileSize bounds the registry file: the YAML parser's cap (safeyaml),
// which a registry of a hundred projects with recipes is below; a larger
// file is a mistake or an attack.
const MaxFileSize = safeyaml.MaxSize

// sizeCap names MaxFileSize in errors.
const sizeCap = "the registry size cap"

// Registry is a loaded projects registry.
type Registry struct {
	// File is the registry file as given; errors name it.
	File string `yaml:"-"`
	// Dir is the absolute folder of the file; relative paths in the
	// registry are resolved against it.
	Dir      string     `yaml:"-"`
	Projects []*Project `yaml:"projects"`

	lines map[string]int // field path -> line
}

// Project is one registry entry. Adding a project is adding one entry.
type Project struct {
	// Name is short and lower-case ("cpython"): it starts every candidate
	// id and names the clone, repos/<name>.
	Name string `yaml:"name"`
	// Repo is the GitHub owner/name of the software. It is needed for
	// GitHub links and clones, and optional for a local project.
	Repo string `yaml:"repo"`
	// CloneURL overrides https://github.com/<repo>.git (a mirror, or a
	// local repository in tests).
	CloneURL string `yaml:"clone_url"`
	// Path is a local git repository holding the software: absolute, or
	// relative to the registry file (it may climb with ".."). A project
	// with a Path is never cloned.
	Path     string `yaml:"path"`
	Language string `yaml:"language"`
	// Domain is free text, except for a project of the paper (Paper set):
	// then it is one of the paper's five domains (PaperDomains).
	Domain string `yaml:"domain"`
	// Paper is the project's row of the paper's Table 5 (Appendix A); nil
	// for a project the paper does not have.
	Paper *PaperRow `yaml:"paper"`
	// EPs says where the proposals live.
	EPs EPSource `yaml:"eps"`
	// Links says how a proposal is linked to the PR that implemented it.
	Links Links `yaml:"links"`
	// Thresholds override the paper's defaults for this project.
	Thresholds Overrides `yaml:"thresholds"`
	// Recipe is how the software is built and tested (docs/projects.md,
	// "Recipes"); task construction reads it, collection copies it into
	// each candidate's folder.
	Recipe *recipe.Recipe `yaml:"recipe"`

	index int // position in Registry.Projects
}

// PaperRow is a project's row of the paper's Table 5: its name there and
// how many of the 100 tasks it has.
type PaperRow struct {
	Project string `yaml:"project"`
	Tasks   int    `yaml:"tasks"`
}

// PaperDomains are the paper's five domains (Table 5), exactly as it
// names them.
var PaperDomains = []string{"Compilers", "Data Science", "Distributed Systems", "Databases", "Web"}

// EP source kinds.
const (
	KindGit          = "git"           // files in a git repository
	KindGitHubIssues = "github-issues" // GitHub issues with a label
	KindLocal        = "local"         // files in a local directory
	KindWeb          = "web"           // web pages, saved to a folder by "lolbench ep fetch"
)

// EP metadata formats: how the number, title, status and created date of a
// proposal are read.
const (
	// FormatPEP reads a PEP-style RFC-822 header block (PEP: 617,
	// Status: Final, Created: 24-Mar-2020) of a reStructuredText file.
	FormatPEP = "pep-rst"
	// FormatKEP reads a kep.yaml file (kep-number, title, status,
	// creation-date); the proposal text is the file named by EPSource.Text
	// in the same folder.
	FormatKEP = "kep-yaml"
	// FormatRustRFC reads the leading "- Start Date: 2018-10-26" lines of
	// a Rust RFC; the number comes from the file name (2580-ptr-meta.md).
	FormatRustRFC = "rust-rfc"
	// FormatMarkdown reads YAML front matter when there is one, else the
	// first heading as the title and the number from the file name.
	FormatMarkdown = "markdown"
	// FormatRST reads a reStructuredText file's first field list
	// (":Status: Accepted", ":Created: 2019-05-06"), the docinfo of Django
	// DEPs, scikit-learn SLEPs and NumPy NEPs.
	FormatRST = "rst"
	// FormatHTML reads a web page (pipeline/ep's HTML profiles: a JEP's
	// header table, a Confluence page's metadata and status line).
	FormatHTML = "html"
	// FormatDokuWiki reads a DokuWiki page's raw text (PHP RFCs: the
	// "  * Status:" bullets under the title).
	FormatDokuWiki = "dokuwiki"
)

// EPSource says where a project's proposals live.
type EPSource struct {
	Kind string `yaml:"kind"`
	// Repo is the GitHub owner/name of the proposals (git, github-issues);
	// it defaults to the project's Repo.
	Repo string `yaml:"repo"`
	// CloneURL overrides https://github.com/<repo>.git for kind git.
	CloneURL string `yaml:"clone_url"`
	// Path is a local git repository of proposals (kind git), absolute or
	// relative to the registry file; it is read in place, never cloned.
	Path string `yaml:"path"`
	// Ref is the branch or tag read (kind git); the remote's default
	// branch when empty.
	Ref string `yaml:"ref"`
	// Dir is the folder of proposal files (kind local), absolute or
	// relative to the registry file; for kind web, the folder "lolbench ep
	// fetch" saves the pages to (default web/<project name> beside the
	// registry).
	Dir string `yaml:"dir"`
	// Glob selects the proposal files (git, local), slash-separated and
	// relative to the repository or Dir; "*" matches within one path
	// segment and "**" any number of segments.
	Glob string `yaml:"glob"`
	// Exclude are globs of files Glob matches that are not proposals
	// (templates, indexes), each stated in the registry so that a curator
	// sees the rule (issue 33 §1).
	Exclude []string `yaml:"exclude"`
	// Format is the metadata format; empty picks it per file from the
	// extension (.rst and .txt pep-rst, .md and .markdown markdown, .html
	// and .htm html). Kind web defaults to html.
	Format string `yaml:"format"`
	// Profile is the HTML profile of format html: jep, confluence or
	// generic; empty picks it from each page.
	Profile string `yaml:"profile"`
	// Metadata declares where the metadata is, field by field, over the
	// format's preset (Declared).
	Metadata Declared `yaml:"metadata"`
	// URL is the address of kind web's pages, with {n} for the number
	// ("https://openjdk.org/jeps/{n}"); a page may give its own.
	URL string `yaml:"url"`
	// Pages are kind web's proposals.
	Pages []*Page `yaml:"pages"`
	// Text is the proposal text beside a kep.yaml (default README.md).
	Text string `yaml:"text"`
	// IDKey is the metadata key holding the proposal number, when it is
	// not the format's usual one (PEP, kep-number, id): the same as
	// metadata.number: ["header:KEY"].
	IDKey string `yaml:"id_key"`
	// Label selects the issues of kind github-issues.
	Label string `yaml:"label"`
	// Name is how the project calls a proposal, with {n} for its number:
	// "PEP {n}", "KEP-{n}", "RFC {n}". Candidate ids are made from it.
	Name string `yaml:"name"`
	// Width is the zero padding of numbers in candidate ids (default 4:
	// cpython-pep-0617).
	Width int `yaml:"width"`
	// Statuses, when given, keep only proposals whose status is one of
	// them (case-insensitive), before any GitHub search is spent.
	Statuses []string `yaml:"statuses"`
}

// Page is one proposal of kind web: its number, and its address when
// the source's URL pattern does not give it. Created is the curator's
// created date, for pages that do not say theirs.
type Page struct {
	EP        Number    `yaml:"ep"`
	URL       string    `yaml:"url"`
	Created   string    `yaml:"created"`
	CreatedAt time.Time `yaml:"-"`
}

// PageURL is the address of a page: its own, else the source's pattern
// with the number.
func (e *EPSource) PageURL(pg *Page) string {
	if pg.URL != "" {
		return pg.URL
	}
	return strings.Replace(e.URL, "{n}", pg.EP.Canonical(), 1)
}

// Links says how proposals are linked to the PRs that implemented them:
// an explicit curated list, a GitHub search, or both (the curated entry of
// an EP wins; the search still finds competing open PRs).
type Links struct {
	Curated []*Link `yaml:"curated"`
	Search  *Search `yaml:"search"`
}

// Search finds PRs of the project's repository whose title or body
// references the proposal.
type Search struct {
	// Patterns are references with {n} for the number: "PEP {n}",
	// "KEP-{n}", "RFC {n}". Each is one GitHub search per proposal.
	Patterns []string `yaml:"patterns"`
}

// Link is one curated EP-PR pair. For a GitHub project the PR number is
// enough (the rest is fetched); a local project gives at least the base
// and head revisions of the local repository, so that collection needs no
// network. Without GitHub (no repo, or an offline run that no earlier run
// recorded the PR for), a date the link leaves out comes from git and
// collection says so: merged_at is the head commit's committer date and
// created_at the PR's first commit.
type Link struct {
	EP          Number `yaml:"ep"`
	PR          int    `yaml:"pr"`
	Title       string `yaml:"title"`
	Author      string `yaml:"author"`
	URL         string `yaml:"url"`
	CreatedAt   string `yaml:"created_at"`
	MergedAt    string `yaml:"merged_at"`
	FirstCommit string `yaml:"first_commit"`
	Base        string `yaml:"base"`
	Head        string `yaml:"head"`
	Merge       string `yaml:"merge"`
	// OpenPRs are competing open PRs known to the curator (criterion 4).
	OpenPRs []int `yaml:"open_prs"`
	// Mapping is a curator-written mapping artifact (docs/mapping-format.md),
	// relative to the registry file. Collection copies it into a new
	// candidate as mapping.md, which the map stage then keeps instead of
	// drafting one; an existing mapping.md is never overwritten.
	Mapping string `yaml:"mapping"`

	// Parsed dates; zero when not given.
	Created, Merged, First time.Time `yaml:"-"`
}

// Complete reports whether the link carries everything collection needs
// without GitHub and without guessing a date from git.
func (l *Link) Complete() bool {
	return l.Base != "" && l.Head != "" && !l.Created.IsZero() && !l.Merged.IsZero()
}

// Number is a proposal number as written in the registry: 617, "0617" or
// "617" are the same proposal.
type Number string

// UnmarshalYAML accepts an integer or a string scalar.
func (n *Number) UnmarshalYAML(b []byte) error {
	s := strings.TrimSpace(string(b))
	s = strings.Trim(s, `"'`)
	*n = Number(s)
	return nil
}

// Canonical returns the number without leading zeros ("0617" -> "617");
// a non-numeric id is returned as is.
func (n Number) Canonical() string { return CanonicalNumber(string(n)) }

// CanonicalNumber strips leading zeros from a decimal proposal number.
func CanonicalNumber(s string) string {
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return s
	}
	t := strings.TrimLeft(s, "0")
	if t == "" {
		return "0"
	}
	return t
}

// Overrides are per-project (or command-line) changes to the thresholds;
// nil fields keep the value below them.
type Overrides struct {
	MinLoC          *int64   `yaml:"min_loc" json:"min_loc,omitempty"`
	MinChangedLines *int     `yaml:"min_changed_lines" json:"min_changed_lines,omitempty"`
	MinFiles        *int     `yaml:"min_files" json:"min_files,omitempty"`
	MinSourceShare  *float64 `yaml:"min_source_share" json:"min_source_share,omitempty"`
	MinTestFiles    *int     `yaml:"min_test_files" json:"min_test_files,omitempty"`
}

// Thresholds are the selection criteria's limits (paper, section 3.1).
type Thresholds struct {
	// MinLoC is criterion 1: source LoC at the PR's base commit.
	MinLoC int64 `json:"min_loc"`
	// MinChangedLines and MinFiles are criterion 2's size: inserted plus
	// deleted lines, and files changed.
	MinChangedLines int `json:"min_changed_lines"`
	MinFiles        int `json:"min_files"`
	// MinSourceShare is criterion 2's share: source files must account
	// for strictly more than this fraction of the changed lines.
	MinSourceShare float64 `json:"min_source_share"`
	// MinTestFiles is criterion 5: changed test files.
	MinTestFiles int `json:"min_test_files"`
}

// Defaults are the paper's thresholds (section 3.1): at least 50k source
// LoC, at least 1,000 changed lines across at least 10 files with over
// half of them in source files, and at least one changed test file.
func Defaults() Thresholds {
	return Thresholds{MinLoC: 50_000, MinChangedLines: 1_000, MinFiles: 10, MinSourceShare: 0.5, MinTestFiles: 1}
}

// Apply returns t with the set fields of o replacing its values.
func (t Thresholds) Apply(o Overrides) Thresholds {
	if o.MinLoC != nil {
		t.MinLoC = *o.MinLoC
	}
	if o.MinChangedLines != nil {
		t.MinChangedLines = *o.MinChangedLines
	}
	if o.MinFiles != nil {
		t.MinFiles = *o.MinFiles
	}
	if o.MinSourceShare != nil {
		t.MinSourceShare = *o.MinSourceShare
	}
	if o.MinTestFiles != nil {
		t.MinTestFiles = *o.MinTestFiles
	}
	return t
}

// Validate checks that overrides are in range; field names are the YAML
// keys, so that the same check serves the registry and the flags.
func (o Overrides) Validate() map[string]string {
	bad := map[string]string{}
	if o.MinLoC != nil && *o.MinLoC < 0 {
		bad["min_loc"] = fmt.Sprintf("must not be negative, got %d", *o.MinLoC)
	}
	if o.MinChangedLines != nil && *o.MinChangedLines < 0 {
		bad["min_changed_lines"] = fmt.Sprintf("must not be negative, got %d", *o.MinChangedLines)
	}
	if o.MinFiles != nil && *o.MinFiles < 0 {
		bad["min_files"] = fmt.Sprintf("must not be negative, got %d", *o.MinFiles)
	}
	if o.MinSourceShare != nil && (*o.MinSourceShare < 0 || *o.MinSourceShare >= 1) {
		bad["min_source_share"] = fmt.Sprintf("must be at least 0 and below 1, got %g", *o.MinSourceShare)
	}
	if o.MinTestFiles != nil && *o.MinTestFiles < 0 {
		bad["min_test_files"] = fmt.Sprintf("must not be negative, got %d", *o.MinTestFiles)
	}
	return bad
}

// Error is one problem of a registry, with its place.
type Error struct {
	File  string
	Line  int // 0 when unknown
	Field string
	Msg   string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Field != "" {
		b.WriteString(": " + e.Field)
	}
	b.WriteString(": " + e.Msg)
	return b.String()
}

// Errors are all the problems of one registry, in line order.
type Errors []*Error

func (es Errors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// Load reads and validates the registry file at path: a regular file (not
// a link, a device or a pipe) within MaxFileSize.
func Load(path string) (*Registry, error) {
	data, err := workspace.ReadFile(path, MaxFileSize, sizeCap)
	if err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("registry %s: %w", path, err)
	}
	return Parse(path, filepath.Dir(abs), data)
}

var utf8BOM = []byte("\xef\xbb\xbf")

// Parse decodes and validates registry data; file names the source in
// errors and dir resolves its relative paths. A leading UTF-8 byte order
// mark is ignored.
func Parse(file, dir string, data []byte) (*Registry, error) {
	data = bytes.TrimPrefix(data, utf8BOM)
	if len(data) > MaxFileSize {
		return nil, &Error{File: file, Msg: fmt.Sprintf("%d bytes, more than %s of %s", len(data), sizeCap, workspace.Bytes(MaxFileSize))}
	}
	if strings.TrimSpace(string(data)) == "" {
		return nil, &Error{File: file, Field: "projects", Msg: "the registry is empty; it needs a projects list"}
	}
	// Duplicate keys pass the parser, so that the walk names each by its
	// field.
	f, err := safeyaml.Parse(data, parser.AllowDuplicateMapKey())
	if err != nil {
		var ye *safeyaml.Error
		if errors.As(err, &ye) {
			return nil, &Error{File: file, Line: ye.Line, Msg: ye.Msg}
		}
		return nil, yamlError(file, nil, err)
	}
	if len(f.Docs) != 1 || f.Docs[0].Body == nil {
		return nil, &Error{File: file, Msg: fmt.Sprintf("want exactly one YAML document, found %d", len(f.Docs))}
	}
	body := f.Docs[0].Body
	w := &walker{lines: map[string]int{}, nodes: map[string]ast.Node{}}
	w.walk("", body, 0)
	sh := &shape{bad: map[string]bool{}}
	for _, e := range w.errs {
		sh.bad[e.Field] = true
	}
	body = sh.check("", prune(body), reflect.TypeFor[Registry]())
	errs := append(Errors(nil), w.errs...)
	errs = append(errs, sh.errs...)
	for _, e := range errs {
		e.File = file
	}
	r := &Registry{File: file, Dir: dir, lines: w.lines}
	if err := yaml.NodeToValue(body, r, yaml.DisallowUnknownField()); err != nil {
		if len(errs) > 0 {
			return nil, sortErrors(errs)
		}
		return nil, yamlError(file, w, err)
	}
	for i, p := range r.Projects {
		if p == nil {
			continue
		}
		p.index = i
		if p.Recipe != nil {
			// A recipe's host paths (files, wheels, requirements) are
			// relative to the registry's folder (docs/projects.md).
			p.Recipe.Dir = dir
		}
	}
	for _, e := range r.validate() {
		if !sh.silenced(e.Field) {
			errs = append(errs, e)
		}
	}
	if len(errs) > 0 {
		return nil, sortErrors(errs)
	}
	return r, nil
}

// sortErrors orders errors by line, keeping the order of each line's.
func sortErrors(errs Errors) Errors {
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Line < errs[j].Line })
	return errs
}

// yamlError turns a goccy error into an Error with the line and, where the
// walker knows it, the field.
func yamlError(file string, w *walker, err error) error {
	var ye yaml.Error
	if errors.As(err, &ye) {
		e := &Error{File: file, Msg: ye.GetMessage()}
		var te *yaml.TypeError
		if errors.As(err, &te) && te.DstType != nil {
			got := "a " + kindName(te.SrcType)
			if tk := te.Token; tk != nil && tk.Value != "" {
				got = strconv.Quote(tk.Value)
			}
			e.Msg = fmt.Sprintf("want %s, got %s", kindName(te.DstType), got)
		}
		if tk := ye.GetToken(); tk != nil && tk.Position != nil {
			e.Line = tk.Position.Line
			if w != nil {
				e.Field = w.fieldAt(tk.Position.Line, tk.Position.Column)
			}
		}
		return e
	}
	return &Error{File: file, Msg: err.Error()}
}

// kindName names a Go type as a registry author knows it.
func kindName(t reflect.Type) string {
	if t == nil {
		return "value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "a mapping"
	}
	return t.String()
}

// Errorf reports a problem of a field ("projects[0].eps.dir") with the
// registry file and the field's line; collection uses it for problems it
// finds later, such as a local folder that does not exist.
func (r *Registry) Errorf(field, format string, args ...any) error {
	return &Error{File: r.File, Line: r.line(field), Field: field, Msg: fmt.Sprintf(format, args...)}
}

// line returns the line of field, or of its closest known parent.
func (r *Registry) line(field string) int {
	for f := field; f != ""; {
		if l, ok := r.lines[f]; ok {
			return l
		}
		i := strings.LastIndexAny(f, ".[")
		if i < 0 {
			break
		}
		f = f[:i]
	}
	return 0
}

// Field returns the path of a project's field for Errorf
// ("projects[2].eps.dir").
func (p *Project) Field(sub string) string {
	if sub == "" {
		return fmt.Sprintf("projects[%d]", p.index)
	}
	return fmt.Sprintf("projects[%d].%s", p.index, sub)
}

// Project returns the project called name.
func (r *Registry) Project(name string) (*Project, bool) {
	for _, p := range r.Projects {
		if p.Name == name {
			return p, true
		}
	}
	return nil, false
}

// Names lists the project names in registry order.
func (r *Registry) Names() []string {
	names := make([]string, len(r.Projects))
	for i, p := range r.Projects {
		names[i] = p.Name
	}
	return names
}

// Resolve returns a folder the registry names as the curator's own
// (Project.Path, EPSource.Dir, EPSource.Path), given as field, as a clean
// absolute path: an absolute path as it is, a relative one from the
// registry's folder. These folders are the curator's clones and may lie
// anywhere ("/home/me/src/django", "../clones/deps"); collection shows
// them in the funnel. What is read inside them stays inside: a git tree's
// files, a local folder's regular files.
func (r *Registry) Resolve(field, p string) (string, error) {
	if strings.ContainsAny(p, "\x00\n\r") || strings.TrimSpace(p) == "" {
		return "", r.Errorf(field, "%q is not a path", p)
	}
	p = filepath.FromSlash(p)
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	return filepath.Join(r.Dir, p), nil
}

// WebDir is the folder of kind web's saved pages: eps.dir, else
// web/<project name> beside the registry.
func (r *Registry) WebDir(p *Project) (string, error) {
	if p.EPs.Dir != "" {
		return r.Resolve(p.Field("eps.dir"), p.EPs.Dir)
	}
	return filepath.Join(r.Dir, "web", p.Name), nil
}

// ReadFile reads a file of the registry (a curated mapping), given as
// field: a regular file inside the registry's folder, reached without
// leaving it, within max bytes (limit names the cap).
func (r *Registry) ReadFile(field, p string, max int64, limit string) ([]byte, error) {
	data, err := workspace.ReadFileIn(r.Dir, p, max, limit)
	if err != nil {
		return nil, r.Errorf(field, "%v", err)
	}
	return data, nil
}

// EPRepo is the GitHub owner/name of the proposals.
func (p *Project) EPRepo() string {
	if p.EPs.Repo != "" {
		return p.EPs.Repo
	}
	return p.Repo
}

// Local reports whether the software is a local repository, never cloned.
func (p *Project) Local() bool { return p.Path != "" }

// CurationFor returns the curated links of EP number n.
func (p *Project) CurationFor(n string) []*Link {
	var out []*Link
	for _, l := range p.Links.Curated {
		if l.EP.Canonical() == CanonicalNumber(n) {
			out = append(out, l)
		}
	}
	return out
}

var (
	namePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,62}$`)
	repoPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}/[A-Za-z0-9_.][A-Za-z0-9_.-]{0,99}$`)
	// numberPattern keeps numbers usable in ids and search queries.
	numberPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$`)
	formats       = []string{FormatPEP, FormatRST, FormatKEP, FormatRustRFC, FormatMarkdown, FormatHTML, FormatDokuWiki}
	kinds         = []string{KindGit, KindGitHubIssues, KindLocal, KindWeb}
	profiles      = []string{"jep", "confluence", "generic"}
)

type problems struct {
	r    *Registry
	errs Errors
}

func (ps *problems) add(field, format string, args ...any) {
	ps.errs = append(ps.errs, ps.r.Errorf(field, format, args...).(*Error))
}

func (r *Registry) validate() Errors {
	ps := &problems{r: r}
	if len(r.Projects) == 0 {
		ps.add("projects", "the registry lists no projects")
		return ps.errs
	}
	seen := map[string]int{}
	for i, p := range r.Projects {
		if p == nil {
			ps.add(fmt.Sprintf("projects[%d]", i), "empty entry")
			continue
		}
		p.validate(ps)
		if p.Name != "" {
			if j, dup := seen[p.Name]; dup {
				ps.add(p.Field("name"), "project %q is already defined by projects[%d]", p.Name, j)
			}
			seen[p.Name] = i
		}
	}
	return ps.errs
}

func (p *Project) validate(ps *problems) {
	f := p.Field
	switch {
	case p.Name == "":
		ps.add(f("name"), "required")
	case !namePattern.MatchString(p.Name):
		ps.add(f("name"), "%q: use lower-case letters, digits and '-', starting with a letter or digit", p.Name)
	}
	if p.Repo != "" && !repoPattern.MatchString(p.Repo) {
		ps.add(f("repo"), "%q is not a GitHub owner/name", p.Repo)
	}
	if p.Repo == "" && p.Path == "" {
		ps.add(f("repo"), "required (or path, for a local repository)")
	}
	if p.Path != "" && p.CloneURL != "" {
		ps.add(f("clone_url"), "a project with a local path is not cloned; drop clone_url or path")
	}
	checkFolder(ps, f("path"), p.Path)
	checkURL(ps, f("clone_url"), p.CloneURL)
	if p.Recipe != nil {
		if err := p.Recipe.Validate(); err != nil {
			for _, line := range strings.Split(err.Error(), "\n") {
				ps.add(f("recipe"), "%s", line)
			}
		}
	}
	if strings.TrimSpace(p.Language) == "" {
		ps.add(f("language"), "required")
	}
	if strings.TrimSpace(p.Domain) == "" {
		ps.add(f("domain"), "required")
	}
	if p.Paper != nil {
		if strings.TrimSpace(p.Paper.Project) == "" {
			ps.add(f("paper.project"), "required: the project's name in the paper's Table 5")
		}
		if p.Paper.Tasks < 1 {
			ps.add(f("paper.tasks"), "%d: want the project's task count in Table 5, at least 1", p.Paper.Tasks)
		}
		if p.Domain != "" && !slices.Contains(PaperDomains, p.Domain) {
			ps.add(f("domain"), "%q: a project of the paper has one of its five domains: %s", p.Domain, strings.Join(PaperDomains, ", "))
		}
	}
	p.validateEPs(ps)
	p.validateLinks(ps)
	for key, msg := range p.Thresholds.Validate() {
		ps.add(f("thresholds."+key), "%s", msg)
	}
}

func (p *Project) validateEPs(ps *problems) {
	e := &p.EPs
	f := func(s string) string { return p.Field("eps." + s) }
	if _, ok := ps.r.lines[p.Field("eps")]; !ok {
		ps.add(p.Field("eps"), "required: where the proposals live")
		return
	}
	switch e.Kind {
	case "":
		ps.add(f("kind"), "required: one of %s", strings.Join(kinds, ", "))
	case KindGit:
		if e.Path == "" && e.CloneURL == "" && p.EPRepo() == "" {
			ps.add(f("repo"), "required for kind git (or path, or clone_url)")
		}
		if e.Path != "" && e.CloneURL != "" {
			ps.add(f("clone_url"), "a local path is not cloned; drop clone_url or path")
		}
		if e.Glob == "" {
			ps.add(f("glob"), "required for kind git")
		}
	case KindGitHubIssues:
		if e.Label == "" {
			ps.add(f("label"), "required for kind github-issues")
		}
		if p.EPRepo() == "" {
			ps.add(f("repo"), "required for kind github-issues")
		}
	case KindLocal:
		if e.Dir == "" {
			ps.add(f("dir"), "required for kind local")
		}
		if e.Glob == "" {
			ps.add(f("glob"), "required for kind local")
		}
	case KindWeb:
		p.validatePages(ps)
	default:
		ps.add(f("kind"), "%q: want one of %s", e.Kind, strings.Join(kinds, ", "))
	}
	if e.Repo != "" && !repoPattern.MatchString(e.Repo) {
		ps.add(f("repo"), "%q is not a GitHub owner/name", e.Repo)
	}
	checkURL(ps, f("clone_url"), e.CloneURL)
	checkFolder(ps, f("path"), e.Path)
	checkFolder(ps, f("dir"), e.Dir)
	if e.Glob != "" && e.Kind == KindWeb {
		ps.add(f("glob"), "kind web reads the pages it lists; drop glob")
	}
	if (e.URL != "" || len(e.Pages) > 0) && e.Kind != KindWeb {
		ps.add(f(map[bool]string{true: "url", false: "pages"}[e.URL != ""]), "only kind web lists pages")
	}
	if e.Profile != "" {
		if !contains(profiles, e.Profile) {
			ps.add(f("profile"), "%q: want one of %s (or leave it out to pick it per page)", e.Profile, strings.Join(profiles, ", "))
		} else if e.Format != FormatHTML && !(e.Kind == KindWeb && e.Format == "") {
			ps.add(f("profile"), "only format html has profiles")
		}
	}
	p.validateMetadata(ps)
	if e.Glob != "" {
		if err := checkGlob(e.Glob); err != nil {
			ps.add(f("glob"), "%v", err)
		}
	}
	for i, g := range e.Exclude {
		if err := checkGlob(g); err != nil {
			ps.add(f(fmt.Sprintf("exclude[%d]", i)), "%v", err)
		}
	}
	if e.Format != "" && !contains(formats, e.Format) {
		ps.add(f("format"), "%q: want one of %s (or leave it out to choose by extension)", e.Format, strings.Join(formats, ", "))
	}
	if e.Format != "" && e.Kind == KindGitHubIssues {
		ps.add(f("format"), "kind github-issues has no files; drop format")
	}
	if e.Kind == KindWeb && e.Format != "" && e.Format != FormatHTML && e.Format != FormatDokuWiki {
		ps.add(f("format"), "%q: kind web reads html or dokuwiki pages", e.Format)
	}
	if e.IDKey != "" && len(e.Metadata.Number) > 0 {
		ps.add(f("id_key"), "metadata.number says where the number is; drop id_key")
	}
	if e.Text != "" && e.Format != FormatKEP {
		ps.add(f("text"), "only format kep-yaml reads a separate text file")
	}
	if e.Text != "" && (strings.Contains(e.Text, "/") || e.Text == "." || e.Text == "..") {
		ps.add(f("text"), "%q: a file name in the folder of the metadata file, without '/'", e.Text)
	}
	switch {
	case e.Name == "":
		ps.add(f("name"), `required: how a proposal is called, with {n} for its number ("PEP {n}")`)
	case strings.Count(e.Name, "{n}") != 1:
		ps.add(f("name"), "%q must hold {n} exactly once", e.Name)
	case slug(strings.ReplaceAll(e.Name, "{n}", "")) == "":
		ps.add(f("name"), "%q needs letters or digits besides {n}", e.Name)
	}
	if e.Width < 0 || e.Width > 12 {
		ps.add(f("width"), "must be between 0 and 12, got %d", e.Width)
	}
}

// validatePages checks kind web's page list: numbers, addresses and
// curated dates.
func (p *Project) validatePages(ps *problems) {
	e := &p.EPs
	f := func(s string) string { return p.Field("eps." + s) }
	if len(e.Pages) == 0 {
		ps.add(f("pages"), "required for kind web: the proposals' numbers (and addresses, without url)")
	}
	if e.URL != "" {
		if strings.Count(e.URL, "{n}") != 1 {
			ps.add(f("url"), "%q must hold {n} exactly once", e.URL)
		} else if err := checkWebURL(strings.Replace(e.URL, "{n}", "1", 1)); err != nil {
			ps.add(f("url"), "%q: %v", e.URL, err)
		}
	}
	seen := map[string]int{}
	for i, pg := range e.Pages {
		fld := func(s string) string { return f(fmt.Sprintf("pages[%d]%s", i, s)) }
		if pg == nil {
			ps.add(fld(""), "empty entry")
			continue
		}
		switch {
		case pg.EP == "":
			ps.add(fld(".ep"), "required: the proposal number")
		case !numberPattern.MatchString(string(pg.EP)):
			ps.add(fld(".ep"), "%q is not a proposal number", pg.EP)
		default:
			if j, dup := seen[pg.EP.Canonical()]; dup {
				ps.add(fld(".ep"), "proposal %s is already listed by pages[%d]", pg.EP, j)
			}
			seen[pg.EP.Canonical()] = i
		}
		switch {
		case pg.URL == "" && e.URL == "":
			ps.add(fld(".url"), "required without eps.url")
		case pg.URL != "":
			if err := checkWebURL(pg.URL); err != nil {
				ps.add(fld(".url"), "%q: %v", pg.URL, err)
			}
		}
		if pg.Created != "" {
			t, err := ParseTime(pg.Created)
			if err != nil {
				ps.add(fld(".created"), "%v", err)
			}
			pg.CreatedAt = t
		}
	}
}

// checkWebURL accepts an http or https address of one line.
func checkWebURL(u string) error {
	if !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") {
		return errors.New("want an http:// or https:// address")
	}
	if strings.ContainsAny(u, " \t\n\r\x00") {
		return errors.New("an address has no blanks or line breaks")
	}
	return nil
}

func (p *Project) validateLinks(ps *problems) {
	l := &p.Links
	f := func(s string) string { return p.Field("links" + s) }
	if len(l.Curated) == 0 && l.Search == nil {
		ps.add(f(""), "required: a curated list, a search, or both")
		return
	}
	if s := l.Search; s != nil {
		if p.Repo == "" {
			ps.add(f(".search"), "a search needs the project's GitHub repo")
		}
		if len(s.Patterns) == 0 {
			ps.add(f(".search.patterns"), `required: references such as "PEP {n}"`)
		}
		for i, pat := range s.Patterns {
			fld := f(fmt.Sprintf(".search.patterns[%d]", i))
			switch {
			case strings.Count(pat, "{n}") != 1:
				ps.add(fld, "%q must hold {n} exactly once", pat)
			case strings.ContainsAny(pat, `"`+"\n\r\x00"):
				ps.add(fld, "%q must not hold quotes or line breaks", pat)
			case strings.TrimSpace(strings.ReplaceAll(pat, "{n}", "")) == "":
				ps.add(fld, "%q needs text besides {n}", pat)
			}
		}
	}
	for i, c := range l.Curated {
		fld := func(s string) string { return f(fmt.Sprintf(".curated[%d]%s", i, s)) }
		if c == nil {
			ps.add(fld(""), "empty entry")
			continue
		}
		if c.EP == "" {
			ps.add(fld(".ep"), "required: the proposal number")
		} else if !numberPattern.MatchString(string(c.EP)) {
			ps.add(fld(".ep"), "%q is not a proposal number", c.EP)
		}
		if c.PR <= 0 {
			ps.add(fld(".pr"), "required: the PR number, a positive integer")
		}
		for _, d := range []struct {
			key string
			s   string
			t   *time.Time
		}{{"created_at", c.CreatedAt, &c.Created}, {"merged_at", c.MergedAt, &c.Merged}, {"first_commit", c.FirstCommit, &c.First}} {
			if d.s == "" {
				continue
			}
			t, err := ParseTime(d.s)
			if err != nil {
				ps.add(fld("."+d.key), "%v", err)
				continue
			}
			*d.t = t
		}
		for j, n := range c.OpenPRs {
			if n <= 0 {
				ps.add(fld(fmt.Sprintf(".open_prs[%d]", j)), "must be a positive PR number, got %d", n)
			}
		}
		if p.Repo == "" {
			// No GitHub to ask: the entry must name the commits; the
			// dates it leaves out are read from them.
			for _, m := range []struct{ key, v string }{{"base", c.Base}, {"head", c.Head}} {
				if m.v == "" {
					ps.add(fld("."+m.key), "required for a project without a GitHub repo")
				}
			}
		}
		for _, rev := range []struct{ key, v string }{{"base", c.Base}, {"head", c.Head}, {"merge", c.Merge}} {
			if strings.HasPrefix(rev.v, "-") || strings.ContainsAny(rev.v, " \t\n\r\x00") {
				ps.add(fld("."+rev.key), "%q is not a revision", rev.v)
			}
		}
		if (c.Base == "") != (c.Head == "") {
			ps.add(fld(""), "give both base and head, or neither")
		}
		checkPath(ps, fld(".mapping"), c.Mapping)
	}
}

// checkFolder checks a folder the curator names as their own (path,
// eps.path, eps.dir): absolute, or relative to the registry's folder,
// climbing with ".." if need be; one line.
func checkFolder(ps *problems, field, p string) {
	if strings.ContainsAny(p, "\x00\n\r") {
		ps.add(field, "%q is not a path", p)
	}
}

// checkPath refuses a path of the registry that would leave its folder:
// an absolute path, or one that climbs out with "..". ReadFile checks the
// links on the way when the path is used.
func checkPath(ps *problems, field, p string) {
	if p == "" {
		return
	}
	if strings.ContainsAny(p, "\x00\n\r") || strings.HasPrefix(p, "/") || !filepath.IsLocal(filepath.FromSlash(p)) {
		ps.add(field, "%q must be a path inside the registry's folder: relative to it, without '..'", p)
	}
}

func checkURL(ps *problems, field, u string) {
	if strings.HasPrefix(u, "-") || strings.ContainsAny(u, " \t\n\r\x00") {
		ps.add(field, "%q is not a URL or path", u)
	}
}

// checkGlob rejects patterns that path.Match cannot compile and patterns
// that would leave the repository or folder.
func checkGlob(g string) error {
	if strings.HasPrefix(g, "/") || strings.Contains(g, "\\") {
		return fmt.Errorf("%q: use a slash-separated pattern relative to the repository or folder", g)
	}
	if countDoubleStars(g) > maxDoubleStars {
		return fmt.Errorf("%q: %w (at most %d)", g, errDoubleStars, maxDoubleStars)
	}
	for _, seg := range strings.Split(g, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return fmt.Errorf("%q: empty, '.' and '..' segments are not allowed", g)
		}
		if _, err := MatchGlob(seg, "x"); err != nil {
			return fmt.Errorf("%q: %v", g, err)
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ParseTime reads a date or a time as curators and proposals write them:
// RFC 3339 ("2026-03-15T10:00:00Z"), an ISO date ("2026-03-15", taken at
// 00:00 UTC; "2023-10-3" too, and in brackets), a year and month ("2019-04", a SLEP's), a PEP date
// ("24-Mar-2020"), a JEP's "2024/01/15 10:30", Confluence's "Mar 04,
// 2025", a file name's "20241206", a month ("July 2021") and a few common
// spellings. Unicode
// hyphens and dashes count as "-" (a DEP writes its dates with
// non-breaking hyphens, U+2011).
func ParseTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	s = strings.Trim(s, `"'()`)
	s = dashes.Replace(s)
	for _, layout := range []string{
		time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02", "2006-1-2",
		"02-Jan-2006", "2-Jan-2006", "02-January-2006", "2006/01/02", "2006/01/02 15:04", "02 Jan 2006", "2 Jan 2006",
		"January 2, 2006", "Jan 2, 2006", "2 January 2006", "02.01.2006", "2006-01", "20060102",
		"January 2006", "Jan 2006", // a month (pandas PDEP-7: "July 2021"), taken as its first day
	} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a date (want 2006-01-02 or 2006-01-02T15:04:05Z)", s)
}

// dashes maps the hyphens and dashes of Unicode to "-".
var dashes = strings.NewReplacer("\u2010", "-", "\u2011", "-", "\u2012", "-", "\u2013", "-", "\u2014", "-", "\u2212", "-")

// ID returns the display id of proposal number n ("PEP 617").
func (e *EPSource) ID(n string) string {
	return strings.Replace(e.Name, "{n}", CanonicalNumber(n), 1)
}

// CandidateID returns the candidate id of proposal number n:
// project-name-padded number, lower-case ("cpython-pep-0617").
func (p *Project) CandidateID(n string) string {
	width := p.EPs.Width
	if width == 0 {
		width = 4
	}
	num := CanonicalNumber(n)
	if v, err := strconv.ParseUint(num, 10, 64); err == nil {
		num = fmt.Sprintf("%0*d", width, v)
	}
	return p.Name + "-" + slug(strings.Replace(p.EPs.Name, "{n}", " "+num+" ", 1))
}

// slug lower-cases s and joins its runs of letters and digits with '-'.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	return b.String()
}

// Selects reports whether the source's Glob matches the slash path name
// and no Exclude glob does.
func (e *EPSource) Selects(name string) bool {
	if ok, _ := MatchGlob(e.Glob, name); !ok {
		return false
	}
	for _, g := range e.Exclude {
		if ok, _ := MatchGlob(g, name); ok {
			return false
		}
	}
	return true
}

// MatchGlob matches a slash-separated path against a pattern of
// path.Match segments, where a "**" segment matches any number of
// segments (zero included).
func MatchGlob(pattern, name string) (bool, error) {
	return matchSegs(strings.Split(pattern, "/"), strings.Split(name, "/"))
}

func matchSegs(pat, name []string) (bool, error) {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(name); i++ {
				ok, err := matchSegs(pat[1:], name[i:])
				if ok || err != nil {
					return ok, err
				}
			}
			return false, nil
		}
		if len(name) == 0 {
			return false, nil
		}
		ok, err := pathMatch(pat[0], name[0])
		if !ok || err != nil {
			return false, err
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0, nil
}
