// Package evidence gathers what the LLM stages of phase 2 show a model
// about one candidate (paper, section 3.2): the EP text and its section
// ids, the PR's changed files with their categories and budgeted patches,
// the changed (file, class, function) scopes, and the mapping artifact when
// there is one. The drafter (stages/mapdraft), the auditors (stages/audit),
// the judge (stages/rank) and `lolbench prompts show` all read it through
// Data, so a reviewed prompt is exactly the prompt a model is sent.
package evidence

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/syntax"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/prompts"
	"github.com/lolbench/lolbench/rules"
)

// Budgets that keep a prompt within a model's context. A large PR has
// thousands of files; every file is listed, but patch text is spent on
// source files first and cut at these limits with a marker that says so.
const (
	DefaultFileLimit = 16 << 10  // bytes of patch per file
	DefaultBudget    = 160 << 10 // bytes of patch in all
	DefaultEPLimit   = 256 << 10 // bytes of EP text
)

// Options are the byte budgets; zero means the default.
type Options struct {
	FileLimit int
	Budget    int
	EPLimit   int
}

func (o Options) withDefaults() Options {
	if o.FileLimit <= 0 {
		o.FileLimit = DefaultFileLimit
	}
	if o.Budget <= 0 {
		o.Budget = DefaultBudget
	}
	if o.EPLimit <= 0 {
		o.EPLimit = DefaultEPLimit
	}
	return o
}

// Params describes the options for a stage's input fingerprint.
func (o Options) Params() []string {
	o = o.withDefaults()
	return []string{fmt.Sprintf("patch budget %d per file, %d in all; EP budget %d", o.FileLimit, o.Budget, o.EPLimit)}
}

// Evidence is one candidate's material, loaded once and shared by the
// prompts of a stage.
type Evidence struct {
	Candidate *pipeline.Candidate
	Info      *pipeline.Info
	EPPath    string
	EP        *ep.Document
	RepoDir   string
	Change    *diff.Change
	Scopes    *syntax.Result
	// MappingPath is the candidate's mapping.md; Mapping is its content,
	// nil when the file does not exist.
	MappingPath string
	Mapping     []byte

	opts  Options
	files []prompts.File
}

// Load reads the candidate's candidate.json, EP, repository change, scopes
// and mapping.md (when present), and cuts the patches to the budgets.
func Load(ctx context.Context, ws *workspace.Workspace, c *pipeline.Candidate, opts Options) (*Evidence, error) {
	info, err := c.LoadInfo()
	if err != nil {
		return nil, err
	}
	ev := &Evidence{Candidate: c, Info: info, opts: opts.withDefaults()}
	if info.EP.File == "" {
		return nil, fmt.Errorf("candidate %s: %s has no ep.file", c.ID, pipeline.InfoFile)
	}
	if ev.EPPath, err = c.Path(info.EP.File); err != nil {
		return nil, fmt.Errorf("candidate %s: ep.file: %w", c.ID, err)
	}
	if ev.EP, err = ep.Load(ev.EPPath, ""); err != nil {
		return nil, err
	}
	if ev.RepoDir, err = info.RepoPath(ws); err != nil {
		return nil, fmt.Errorf("candidate %s: repo_dir: %w", c.ID, err)
	}
	if info.PR.BaseSHA == "" || info.PR.HeadSHA == "" {
		return nil, fmt.Errorf("candidate %s: %s lacks pr.base_sha or pr.head_sha", c.ID, pipeline.InfoFile)
	}
	repo, err := diff.Open(ev.RepoDir)
	if err != nil {
		return nil, err
	}
	if ev.Change, err = repo.Diff(ctx, info.PR.BaseSHA, info.PR.HeadSHA); err != nil {
		return nil, err
	}
	if ev.Scopes, err = syntax.Resolve(ctx, ev.RepoDir, ev.Change, syntax.Options{}); err != nil {
		return nil, fmt.Errorf("resolve scopes in %s: %w", ev.RepoDir, err)
	}
	if ev.files, err = budgetPatches(ctx, repo, ev.Change, ev.opts); err != nil {
		return nil, err
	}
	if ev.MappingPath, err = c.Path(pipeline.MappingFile); err != nil {
		return nil, err
	}
	switch b, err := os.ReadFile(ev.MappingPath); {
	case err == nil:
		ev.Mapping = b
	case !errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("read %s: %w", ev.MappingPath, err)
	}
	return ev, nil
}

// categoryRank orders files for the patch budget: source first, because
// the requirements live there, vendored code last.
func categoryRank(c lang.Category) int {
	if i := slices.Index(lang.Categories, c); i >= 0 {
		return i
	}
	return len(lang.Categories)
}

// budgetPatches fetches each file's patch, cheapest decisions first: binary
// files have none, and once the budget is spent git is not asked again.
func budgetPatches(ctx context.Context, repo *diff.Repo, ch *diff.Change, o Options) ([]prompts.File, error) {
	out := make([]prompts.File, len(ch.Files))
	order := make([]int, len(ch.Files))
	for i, f := range ch.Files {
		out[i] = prompts.File{
			Path: f.Path(), Status: string(f.Status), Category: string(f.Category),
			Inserted: f.Inserted, Deleted: f.Deleted, Binary: f.Binary,
		}
		if f.OldPath != "" && f.NewPath != "" && f.OldPath != f.NewPath {
			out[i].OldPath = f.OldPath
		}
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(categoryRank(ch.Files[a].Category), categoryRank(ch.Files[b].Category)),
			cmp.Compare(out[a].Path, out[b].Path))
	})
	left := o.Budget
	for _, i := range order {
		f := &ch.Files[i]
		pf := &out[i]
		if f.Binary {
			pf.Note = "[binary file: no text patch]"
			continue
		}
		if left <= 0 {
			pf.Note = fmt.Sprintf("[patch omitted: the %d-byte budget for all patches is used up]", o.Budget)
			continue
		}
		var paths []string
		for _, p := range []string{f.OldPath, f.NewPath} {
			if p != "" && !slices.Contains(paths, p) {
				paths = append(paths, p)
			}
		}
		p, err := repo.Patch(ctx, ch.Base, ch.Head, paths...)
		if err != nil {
			return nil, fmt.Errorf("patch of %s: %w", pf.Path, err)
		}
		text, shown, cut := Cut(p, min(o.FileLimit, left))
		switch {
		case shown == 0:
			// Not even one line fits in what is left of the budget.
			pf.Note = fmt.Sprintf("[patch omitted: the %d-byte budget for all patches is used up]", o.Budget)
			left = 0
		case cut:
			pf.Patch = text
			pf.Note = fmt.Sprintf("[patch cut: %d of %d bytes shown]", shown, len(p))
		default:
			pf.Patch = text
		}
		left -= shown
	}
	return out, nil
}

// Cut returns the longest run of whole lines of b that fits in limit bytes
// (all of b when it fits), as valid UTF-8, with the number of bytes kept
// and whether it cut. A text that fits but does not end with a newline
// gets one, so that a marker after it starts on its own line. Invalid UTF-8
// is replaced, so that the prompt (and the record key hashed from it) is
// stable.
func Cut(b []byte, limit int) (text string, kept int, cut bool) {
	end := len(b)
	if end > limit {
		cut = true
		end = 0
		if limit > 0 {
			end = bytes.LastIndexByte(b[:limit], '\n') + 1
		}
	}
	text = strings.ToValidUTF8(string(b[:end]), "\uFFFD")
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return text, end, cut
}

// Data returns a fresh prompt data value for the candidate. Stages add
// their own fields (the judge's sections, the drafter's violations).
func (ev *Evidence) Data() *prompts.Data {
	d := &prompts.Data{
		Candidate:   ev.Candidate.ID,
		Vocab:       Vocab(),
		StaticRules: StaticRules(),
		Mapping:     string(ev.Mapping),
	}
	text, shown, cut := Cut(ev.EP.Source, ev.opts.EPLimit)
	d.EP = prompts.EP{
		ID: ev.Info.EP.ID, Title: ev.Info.EP.Title, Format: string(ev.EP.Format),
		Text: text, Truncated: cut, Shown: shown, Bytes: len(ev.EP.Source),
	}
	for _, s := range ev.EP.Sections {
		d.EP.Sections = append(d.EP.Sections, prompts.Section{ID: s.ID, Level: s.Level, Title: s.Title})
	}
	d.PR = prompts.PR{
		Number: ev.Info.PR.Number, Title: ev.Info.PR.Title, Base: ev.Change.Base, Head: ev.Change.Head,
		Files: slices.Clone(ev.files), FileLimit: ev.opts.FileLimit, Budget: ev.opts.Budget,
	}
	for _, s := range ev.Scopes.Scopes {
		d.Scopes = append(d.Scopes, prompts.Scope{
			File: s.File, Class: s.Class, Function: s.Function, New: s.New,
			Added: len(s.PostLines), Deleted: len(s.PreLines),
		})
	}
	for _, s := range ev.Scopes.Skipped {
		d.ScopeSkips = append(d.ScopeSkips, prompts.ScopeSkip{File: s.File, Reason: s.Reason})
	}
	d.Links = Links(text)
	return d
}

// RulesInput is the static rules' input for artifact m over this
// candidate's EP, change and scopes.
func (ev *Evidence) RulesInput(m *mapping.Mapping) *rules.Input {
	return &rules.Input{EP: ev.EP, Change: ev.Change, Scopes: ev.Scopes, Mapping: m}
}

// Vocab lists the artifact's vocabularies from the packages that own them.
func Vocab() prompts.Vocab {
	var v prompts.Vocab
	for _, c := range mapping.SectionCategories {
		v.SectionCategories = append(v.SectionCategories, string(c))
	}
	for _, c := range lang.Categories {
		v.FileCategories = append(v.FileCategories, string(c))
	}
	for _, r := range mapping.Roles {
		v.Roles = append(v.Roles, string(r))
	}
	for _, r := range mapping.Reasons {
		v.Reasons = append(v.Reasons, string(r))
	}
	v.Metrics = slices.Clone(mapping.Metrics)
	return v
}

// StaticRules lists the 28 static rules with their documentation.
func StaticRules() []prompts.StaticRule {
	out := make([]prompts.StaticRule, 0, len(rules.All))
	for _, r := range rules.All {
		out = append(out, prompts.StaticRule{ID: r.ID, Name: r.Name, Doc: r.Doc})
	}
	return out
}

// urlPattern finds http(s) URLs; trailing punctuation and closing brackets
// are trimmed afterwards, as prose and Markdown links leave them behind.
var urlPattern = regexp.MustCompile("https?://[^\\s<>\"'`\\]\\[]+")

// Links returns the distinct http(s) URLs of text in order of first
// appearance (rule S8 starts from them).
func Links(text string) []string {
	var out []string
	for _, u := range urlPattern.FindAllString(text, -1) {
		u = strings.TrimRight(u, ".,;:!?*_")
		// A closing parenthesis belongs to the URL only when it opens one.
		for strings.HasSuffix(u, ")") && strings.Count(u, "(") < strings.Count(u, ")") {
			u = strings.TrimRight(strings.TrimSuffix(u, ")"), ".,;:!?*_")
		}
		if len(u) > len("https://") && !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	return out
}

// Placeholder is prompt data for `lolbench prompts show` without a
// candidate: the instructions are real, the material is named in ‹›.
func Placeholder() *prompts.Data {
	return &prompts.Data{
		Candidate: "‹candidate id›",
		EP: prompts.EP{
			ID: "‹EP id›", Title: "‹EP title›", Format: "‹md or rst›", Text: "‹the EP's text›",
			Sections: []prompts.Section{{ID: "‹id›", Level: 1, Title: "‹heading›"}},
		},
		PR: prompts.PR{
			Title: "‹PR title›", Base: "‹base SHA›", Head: "‹head SHA›",
			Files:     []prompts.File{{Path: "‹path›", Status: "‹status›", Category: "‹category›", Patch: "‹patch›\n"}},
			FileLimit: DefaultFileLimit, Budget: DefaultBudget,
		},
		Scopes:      []prompts.Scope{{File: "‹path›", Class: "‹class›", Function: "‹function›"}},
		Mapping:     "‹mapping.md›",
		Vocab:       Vocab(),
		StaticRules: StaticRules(),
		Links:       []string{"‹URL›"},
		Round:       2,
		Rounds:      3,
		Violations:  []prompts.Violation{{Rule: "‹rule›", Line: 1, Where: "‹where›", Message: "‹message›"}},
		Judge:       prompts.Judge{Sections: []prompts.Section{{ID: "‹id›", Level: 1, Title: "‹title›"}}},
	}
}
