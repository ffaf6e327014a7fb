package mapping

import (
	"cmp"
	"context"
	"slices"

	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/syntax"
)

// ScaffoldInput is what a scaffold is built from: the EP, the PR's change
// and the changed scopes of its files (ScaffoldScopes).
type ScaffoldInput struct {
	ID     string // candidate id, the title
	EP     *ep.Document
	Change *diff.Change
	Scopes []syntax.Scope
}

// Scaffold writes everything of a mapping that needs no judgement, and the
// Marker in every cell that does (docs/mapping-format.md, "Scaffolds and
// unfilled cells"):
//
//   - the Section Classification Summary has one row per EP heading, with
//     its id and title; Implementable and Category are unfilled;
//   - the PR File Summary has one row per PR file with its category from
//     the language table (lang.Categories);
//   - Mapped Sections holds one unassigned block, "Section TODO: TODO",
//     whose Direct modifications name every changed scope of every file,
//     file by file in PR File Summary order: a "- | -" row first when the
//     file has file-level changes (or no scope could be resolved), then
//     its classes and functions in the order of their first changed line;
//     its quote, requirement and summary bullets are unfilled;
//   - every count, percentage and number is computed (Recompute).
//
// The curator (or a model) moves the rows into blocks of the sections they
// serve, copying the unassigned block's skeleton, fills the other cells,
// deletes the emptied unassigned block and runs `lolbench validate --fix`.
func Scaffold(in ScaffoldInput) *Mapping {
	m := &Mapping{
		Title:            in.ID,
		SCS:              Table[SCSRow]{Rows: []SCSRow{}},
		PFS:              Table[PFSRow]{Rows: []PFSRow{}},
		Blocks:           []Block{},
		UnmappedSections: Table[UnmappedSectionRow]{Rows: []UnmappedSectionRow{}},
		UnmappedFiles:    Table[UnmappedFileRow]{Rows: []UnmappedFileRow{}},
		Stats:            Table[StatRow]{Rows: []StatRow{}},
	}
	t := Totals{}
	if in.EP != nil {
		t.EPSections = len(in.EP.Sections)
		for _, s := range in.EP.Sections {
			m.SCS.Rows = append(m.SCS.Rows, SCSRow{Section: s.ID, Title: s.Title, Implementable: Marker, Category: Marker})
		}
	}
	byFile := map[string][]syntax.Scope{}
	for _, s := range in.Scopes {
		byFile[s.File] = append(byFile[s.File], s)
	}
	b := Block{
		Section:     Marker,
		Title:       Marker,
		Quote:       Quote{Text: Marker},
		Requirement: Requirement{Text: Marker},
		Direct:      Table[CodeRow]{Rows: []CodeRow{}},
		Associated:  Table[CodeRow]{Rows: []CodeRow{}},
		Summary:     Summary{Items: []SummaryItem{}},
	}
	if in.Change != nil {
		t.PRFiles = len(in.Change.Files)
		for _, f := range in.Change.Files {
			path := f.Path()
			m.PFS.Rows = append(m.PFS.Rows, PFSRow{Path: path, Category: string(f.Category)})
			b.Direct.Rows = append(b.Direct.Rows, scopeRows(path, byFile[path])...)
			b.Summary.Items = append(b.Summary.Items, SummaryItem{Path: path, Text: Marker})
		}
	}
	if len(b.Direct.Rows) > 0 {
		m.Blocks = append(m.Blocks, b)
	}
	Recompute(m, t)
	return m
}

// scopeRows are the Direct modifications rows of one file: file level
// first, then the scopes by their first changed line.
func scopeRows(path string, scopes []syntax.Scope) []CodeRow {
	first := func(s syntax.Scope) int {
		lines := s.PostLines
		if len(lines) == 0 {
			lines = s.PreLines
		}
		if len(lines) == 0 {
			return 0
		}
		return slices.Min(lines)
	}
	fileLevel := len(scopes) == 0
	var rest []syntax.Scope
	for _, s := range scopes {
		if s.Class == "" && s.Function == "" {
			fileLevel = true
		} else {
			rest = append(rest, s)
		}
	}
	slices.SortStableFunc(rest, func(a, b syntax.Scope) int {
		return cmp.Or(cmp.Compare(first(a), first(b)), cmp.Compare(a.Class, b.Class), cmp.Compare(a.Function, b.Function))
	})
	var rows []CodeRow
	if fileLevel {
		rows = append(rows, CodeRow{Path: path, Class: "-", Function: "-"})
	}
	for _, s := range rest {
		rows = append(rows, CodeRow{Path: path, Class: noneDash(s.Class), Function: noneDash(s.Function)})
	}
	return rows
}

func noneDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// ScaffoldScopes resolves the changed scopes of the PR's source files, as
// rule 27 does, and of its test and build files too, which rule 27 does
// not require but whose changed functions a block lists: a Test Plan
// block its tests, and the block a build script serves its new functions
// (a noxfile.py session, a setup.py helper; issue 25 §3). Build files
// tree-sitter cannot read (go.mod, pyproject.toml) stay file-level rows.
func ScaffoldScopes(ctx context.Context, repoDir string, ch *diff.Change) (*syntax.Result, error) {
	c := *ch
	c.Files = slices.Clone(ch.Files)
	for i := range c.Files {
		f := &c.Files[i]
		if f.Category == lang.Test || f.Category == lang.Build && readable(f.Path()) {
			f.Category = lang.Source
		}
	}
	return syntax.Resolve(ctx, repoDir, &c, syntax.Options{})
}

// readable reports whether tree-sitter reads a file's language: a build
// file it cannot read (go.mod) is not resolved, and so not reported as
// skipped.
func readable(path string) bool {
	name := ""
	if l := lang.ForPath(path); l != nil {
		name = l.Name
	}
	return syntax.Supported(syntax.ParseLanguage(path, name))
}
