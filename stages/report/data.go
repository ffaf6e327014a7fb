package report

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/sectionmap"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/rules"
	"github.com/lolbench/lolbench/stages/audit"
	"github.com/lolbench/lolbench/stages/build"
	"github.com/lolbench/lolbench/stages/rank"
	"github.com/lolbench/lolbench/stages/review"
	"github.com/lolbench/lolbench/stages/validate"
)

// StageOrder is the method's order of stages (docs/design.md, "What
// flows through it"), the order of the funnel and of every status table. A stage
// that status.json names but this list does not is shown after them, by
// name.
var StageOrder = []string{"collect", "map", "validate", "audit", "rank", "review", "build", "mutate", "augment", "export"}

// Note says why a section of a candidate page has no artifact to show: the
// stage's outcome in status.json, or "not run yet".
type Note struct {
	Class string // "absent", "skipped", "rejected", "failed", "passed"
	Text  string
}

// noteFor explains a missing artifact of stage.
func noteFor(st *pipeline.Status, stage, file string) Note {
	var s *pipeline.StageStatus
	if st != nil {
		s = st.Stages[stage]
	}
	if s == nil {
		return Note{Class: "absent", Text: "not run yet"}
	}
	switch s.Result {
	case pipeline.Skipped:
		return Note{Class: "skipped", Text: "skipped: " + s.Reason}
	case pipeline.Rejected:
		return Note{Class: "rejected", Text: "rejected: " + s.Reason}
	case pipeline.Failed:
		return Note{Class: "failed", Text: "failed: " + s.Reason}
	}
	return Note{Class: "absent", Text: fmt.Sprintf("%s %s, but %s is missing", stage, s.Result, file)}
}

// StageRow is one stage of a candidate's status.
type StageRow struct {
	Stage    string
	Result   pipeline.Result // "" when the stage has not run
	Reason   string
	Finished string
	// Derived rows are not in status.json: the workspace-wide stages
	// (collect, export) record nothing per candidate, so their outcome is
	// read from what they left (candidate.json, export/harbor/<id>).
	Derived bool
}

// Workspace-wide stages whose per-candidate outcome is derived.
const (
	collectStage = "collect"
	exportStage  = "export"
)

// derive adds the outcomes of the workspace-wide stages that status.json
// lacks to a copy of st: collect passed when candidate.json's criteria all
// passed (a stale candidate records the one that no longer does), export
// passed when <workspace>/export/harbor/<id> exists.
func derive(ws *workspace.Workspace, c *pipeline.Candidate, info *pipeline.Info, st *pipeline.Status) (*pipeline.Status, map[string]bool) {
	out := &pipeline.Status{Stages: maps.Clone(st.Stages)}
	derived := map[string]bool{}
	if out.Stages[collectStage] == nil && info != nil {
		ss := &pipeline.StageStatus{Result: pipeline.Passed, Reason: "kept by collection (candidate.json)"}
		for _, ch := range info.Checks {
			if !ch.Passed {
				ss = &pipeline.StageStatus{Result: pipeline.Rejected, Reason: fmt.Sprintf("%s: %s", ch.Criterion, cmp.Or(ch.Reason, ch.Value))}
				break
			}
		}
		out.Stages[collectStage], derived[collectStage] = ss, true
	}
	if out.Stages[exportStage] == nil && ws != nil {
		if p, err := ws.Path("export", "harbor", c.ID); err == nil {
			if fi, err := os.Stat(p); err == nil && fi.IsDir() {
				out.Stages[exportStage] = &pipeline.StageStatus{Result: pipeline.Passed, Reason: "exported to export/harbor/" + c.ID}
				derived[exportStage] = true
			}
		}
	}
	return out, derived
}

// candidatePage is everything one candidate page shows.
type candidatePage struct {
	ID   string
	Page string // site-relative path, "candidates/<id>.html"
	// TestsJSON is the tests file beside the page, relative to it, when
	// the build has lists (testlists.go).
	TestsJSON string
	Info      *pipeline.Info
	// Problems are artifacts that could not be read; each section says
	// what it could not show.
	Problems []string
	Stages   []StageRow
	State    Note
	// LastPassed is the last stage in StageOrder that passed.
	LastPassed string
	Rejected   bool
	Stats      *Stats
	StatsErr   string
	EP         epView
	Mapping    mappingView
	Validate   validateView
	Audit      auditView
	Rank       rankView
	Review     reviewView
	Build      buildView
	Enh        enhancementView
}

// epView is the EP outline with each section's classification.
type epView struct {
	Note     *Note
	Err      string
	File     string
	Format   string
	Sections []epSection
}

type epSection struct {
	ID, Title string
	Level     int
	Line      int
	// Classification from the mapping's Section Classification Summary.
	Classified    bool
	Implementable string
	Category      string
	Mapped        string
	SCSLine       int // the SCS row's artifact line
	BlockLine     int // the mapped block's artifact line, 0 when unmapped
	Score         string
}

// mappingView is the parsed artifact with its source, one anchor a line.
type mappingView struct {
	Note        *Note
	Err         string
	ParseErrors []mapping.Error
	M           *mapping.Mapping // nil when the artifact cannot be parsed
	Lines       []srcLine
	SHA256      string
}

type srcLine struct {
	N    int
	Text string
	// Marks are the violations that point at the line.
	Marks []lineMark
}

type lineMark struct {
	Rule   string // "R07"
	Anchor string // the violation's anchor, "v1"
}

type validateView struct {
	Note       *Note
	Err        string
	Report     *rules.Report
	Items      []violationItem
	RulesRun   int
	RulesFail  int
	ParseError bool
}

type violationItem struct {
	Anchor  string // "v1"
	Rule    string // "R07"
	Name    string
	Doc     string
	Where   string
	Line    int
	Message string
	// Href is "#L36" when the line is in the artifact, "" otherwise.
	Href     string
	Evidence string
}

type auditView struct {
	Note   *Note
	Err    string
	Report *audit.Report
	Stale  bool
}

type rankView struct {
	Note   *Note
	Err    string
	Report *rank.Report
	Rows   []rankRow
	Stale  bool
}

type rankRow struct {
	rank.SectionRow
	BlockLine int
}

type reviewView struct {
	Note   *Note
	Err    string
	Record *review.Record
}

type buildView struct {
	Note   *Note
	Err    string
	Record *build.Record
	Task   bool // the task folder exists
	// Canaries is the number of canaries the verifier planted in each
	// validation run (issue 11); Void lists the runs it voided, with why.
	Canaries []int
	Void     []string
}

type enhancementView struct {
	Err          string
	E            *Enhancement
	MutantNote   Note
	CoverageNote Note
	SectionsNote Note
}

// loadCandidate reads every artifact of one candidate. Nothing here fails
// the report: an unreadable artifact becomes a line in its section.
func (s *Stage) loadCandidate(ws *workspace.Workspace, c *pipeline.Candidate) *candidatePage {
	p := &candidatePage{ID: c.ID, Page: pagePath(c.ID)}
	info, err := c.LoadInfo()
	if err != nil {
		p.Problems = append(p.Problems, err.Error())
	} else {
		p.Info = info
	}
	st, err := c.LoadStatus()
	if err != nil {
		p.Problems = append(p.Problems, err.Error())
		st = &pipeline.Status{Stages: map[string]*pipeline.StageStatus{}}
	}
	full, derived := derive(ws, c, info, st)
	p.Stages, p.State, p.LastPassed, p.Rejected = stageRows(full)
	for i := range p.Stages {
		p.Stages[i].Derived = derived[p.Stages[i].Stage]
	}

	p.EP = loadEP(c, info, st)
	p.Mapping = loadMapping(c, st)
	p.Validate = loadValidate(c, st, &p.Mapping)
	p.Audit = loadAudit(c, st, p.Mapping.SHA256)
	p.Rank = loadRank(c, st, p.Mapping)
	p.Review = loadReview(c, st)
	p.Build = loadBuild(c, st)
	loader := s.Enhancement
	if loader == nil {
		loader = LoadEnhancement
	}
	p.Enh = loadEnhancement(c, st, loader, p.Build.Record)
	classify(&p.EP, p.Mapping.M, p.Rank.Report)
	return p
}

// stageRows orders the stages of status.json and sums up the candidate's
// state: rejected (or failed) at a stage, or the last stage passed.
func stageRows(st *pipeline.Status) (rows []StageRow, state Note, lastPassed string, rejected bool) {
	names := slices.Clone(StageOrder)
	var extra []string
	for name := range st.Stages {
		if !slices.Contains(names, name) {
			extra = append(extra, name)
		}
	}
	sort.Strings(extra)
	names = append(names, extra...)
	state = Note{Class: "absent", Text: "collected"}
	skipped := ""
	for _, name := range names {
		ss := st.Stages[name]
		if ss == nil {
			if slices.Contains(StageOrder, name) {
				rows = append(rows, StageRow{Stage: name})
			}
			continue
		}
		row := StageRow{Stage: name, Result: ss.Result, Reason: ss.Reason}
		if !ss.Finished.IsZero() {
			row.Finished = ss.Finished.UTC().Format("2006-01-02 15:04 UTC")
		}
		rows = append(rows, row)
		switch ss.Result {
		case pipeline.Passed:
			lastPassed = name
			if state.Class != "rejected" && state.Class != "failed" {
				state = Note{Class: "passed", Text: "passed " + name}
			}
		case pipeline.Rejected:
			if !rejected {
				state = Note{Class: "rejected", Text: fmt.Sprintf("rejected at %s: %s", name, ss.Reason)}
			}
			rejected = true
		case pipeline.Failed:
			if state.Class != "rejected" && state.Class != "failed" {
				state = Note{Class: "failed", Text: fmt.Sprintf("failed at %s: %s", name, ss.Reason)}
			}
		case pipeline.Skipped:
			if skipped == "" {
				skipped = name
			}
		}
	}
	if state.Class == "absent" && skipped != "" {
		// Nothing passed yet: say where the candidate waits.
		state = Note{Class: "skipped", Text: "skipped " + skipped}
	}
	return rows, state, lastPassed, rejected
}

func errText(err error) string { return err.Error() }

// loadEP parses the EP for its outline.
func loadEP(c *pipeline.Candidate, info *pipeline.Info, st *pipeline.Status) epView {
	v := epView{}
	if info == nil || info.EP.File == "" {
		n := noteFor(st, "collect", "the EP")
		v.Note = &n
		return v
	}
	v.File = info.EP.File
	path, err := c.Path(info.EP.File)
	if err != nil {
		v.Err = fmt.Sprintf("candidate.json ep.file: %v", err)
		return v
	}
	doc, err := ep.Load(path, "")
	if errors.Is(err, os.ErrNotExist) {
		n := Note{Class: "absent", Text: info.EP.File + " is missing"}
		v.Note = &n
		return v
	}
	if err != nil {
		v.Err = errText(err)
		return v
	}
	v.Format = string(doc.Format)
	for _, sec := range doc.Sections {
		v.Sections = append(v.Sections, epSection{ID: sec.ID, Title: sec.Title, Level: sec.Level, Line: sec.Line})
	}
	return v
}

// classify joins the outline with the mapping's Section Classification
// Summary, its blocks and the judge's section scores.
func classify(v *epView, m *mapping.Mapping, rk *rank.Report) {
	if m == nil && rk == nil {
		return
	}
	for i := range v.Sections {
		s := &v.Sections[i]
		if m != nil {
			for _, r := range m.SCS.Rows {
				if r.Section == s.ID {
					s.Classified = true
					s.Implementable, s.Category, s.Mapped, s.SCSLine = r.Implementable, r.Category, r.Mapped, r.Line
					break
				}
			}
			for _, b := range m.Blocks {
				if b.Section == s.ID {
					s.BlockLine = b.Line
					break
				}
			}
		}
		if rk != nil {
			for _, r := range rk.Sections {
				if r.Section == s.ID {
					s.Score = r.Q.String()
				}
			}
		}
	}
}

// loadMapping reads and parses mapping.md; a structurally unreadable
// artifact keeps its source and parse errors but no model.
func loadMapping(c *pipeline.Candidate, st *pipeline.Status) mappingView {
	v := mappingView{}
	path, err := c.Path(pipeline.MappingFile)
	if err != nil {
		v.Err = errText(err)
		return v
	}
	src, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		n := noteFor(st, "map", pipeline.MappingFile)
		v.Note = &n
		return v
	}
	if err != nil {
		v.Err = fmt.Sprintf("read %s: %v", path, err)
		return v
	}
	sum := sha256.Sum256(src)
	v.SHA256 = hex.EncodeToString(sum[:])
	text := strings.ReplaceAll(string(bytes.ToValidUTF8(src, []byte("\uFFFD"))), "\r\n", "\n")
	text = strings.TrimSuffix(text, "\n")
	for i, l := range strings.Split(text, "\n") {
		v.Lines = append(v.Lines, srcLine{N: i + 1, Text: l})
	}
	m, err := mapping.Parse(src)
	var perr *mapping.ErrorList
	switch {
	case errors.As(err, &perr):
		v.ParseErrors = perr.Errors
	case err != nil:
		v.Err = fmt.Sprintf("parse %s: %v", path, err)
	default:
		v.M = m
	}
	return v
}

// lineHref links an artifact line of the page, when the artifact has it.
func (v *mappingView) lineHref(n int) string {
	if n < 1 || n > len(v.Lines) {
		return ""
	}
	return fmt.Sprintf("#L%d", n)
}

// loadValidate reads validate.json and marks the artifact lines of its
// violations.
func loadValidate(c *pipeline.Candidate, st *pipeline.Status, m *mappingView) validateView {
	v := validateView{ParseError: len(m.ParseErrors) > 0}
	rep, err := validate.Load(c)
	if errors.Is(err, os.ErrNotExist) {
		n := noteFor(st, "validate", pipeline.ValidateFile)
		v.Note = &n
		return v
	}
	if err != nil {
		v.Err = errText(err)
		return v
	}
	v.Report = rep
	v.RulesRun = len(rep.Rules)
	for _, r := range rep.Rules {
		if !r.Passed {
			v.RulesFail++
		}
	}
	for i, viol := range rep.Violations {
		it := violationItem{Anchor: fmt.Sprintf("v%d", i+1), Rule: fmt.Sprintf("R%02d", viol.Rule), Where: viol.Where,
			Line: viol.Line, Message: viol.Message, Href: m.lineHref(viol.Line)}
		if r := rules.Lookup(viol.Rule); r != nil {
			it.Name, it.Doc = r.Name, r.Doc
		}
		if it.Href != "" {
			it.Evidence = m.Lines[viol.Line-1].Text
			l := &m.Lines[viol.Line-1]
			l.Marks = append(l.Marks, lineMark{Rule: it.Rule, Anchor: it.Anchor})
		}
		v.Items = append(v.Items, it)
	}
	return v
}

func loadAudit(c *pipeline.Candidate, st *pipeline.Status, mappingSHA string) auditView {
	v := auditView{}
	rep, err := audit.Load(c)
	if errors.Is(err, os.ErrNotExist) {
		n := noteFor(st, "audit", pipeline.AuditFile)
		v.Note = &n
		return v
	}
	if err != nil {
		v.Err = errText(err)
		return v
	}
	v.Report = rep
	v.Stale = rep.MappingSHA256 != mappingSHA
	return v
}

func loadRank(c *pipeline.Candidate, st *pipeline.Status, m mappingView) rankView {
	v := rankView{}
	rep, err := rank.Load(c)
	if errors.Is(err, os.ErrNotExist) {
		n := noteFor(st, "rank", pipeline.RankFile)
		v.Note = &n
		return v
	}
	if err != nil {
		v.Err = errText(err)
		return v
	}
	v.Report = rep
	v.Stale = rep.MappingSHA256 != m.SHA256
	for _, r := range rep.Sections {
		row := rankRow{SectionRow: r}
		if m.M != nil {
			for _, b := range m.M.Blocks {
				if b.Section == r.Section {
					row.BlockLine = b.Line
					break
				}
			}
		}
		v.Rows = append(v.Rows, row)
	}
	return v
}

func loadReview(c *pipeline.Candidate, st *pipeline.Status) reviewView {
	v := reviewView{}
	rec, err := review.Load(c)
	if errors.Is(err, os.ErrNotExist) {
		n := noteFor(st, "review", pipeline.ReviewFile)
		v.Note = &n
		return v
	}
	if err != nil {
		v.Err = errText(err)
		return v
	}
	v.Record = rec
	return v
}

func loadBuild(c *pipeline.Candidate, st *pipeline.Status) buildView {
	v := buildView{}
	rec, err := build.LoadRecord(c)
	if errors.Is(err, os.ErrNotExist) {
		n := noteFor(st, "build", build.RecordFile)
		v.Note = &n
		return v
	}
	if err != nil {
		v.Err = errText(err)
		return v
	}
	v.Record = rec
	if fi, err := os.Stat(filepath.Join(c.Dir, build.TaskDir)); err == nil && fi.IsDir() {
		v.Task = true
	}
	if rep := rec.Report; rep != nil {
		for _, side := range []sandbox.Side{rep.Before, rep.After} {
			for _, r := range side.Runs {
				v.Canaries = append(v.Canaries, r.Canaries)
				if r.Void != "" {
					v.Void = append(v.Void, fmt.Sprintf("%s, run %d: %s", side.Name, r.N, r.Void))
				}
			}
		}
	}
	return v
}

func loadEnhancement(c *pipeline.Candidate, st *pipeline.Status, loader func(*pipeline.Candidate) (*Enhancement, error), rec *build.Record) enhancementView {
	v := enhancementView{}
	e, err := loader(c)
	if err != nil {
		v.Err = errText(err)
	}
	if e == nil {
		e = &Enhancement{}
	}
	v.E = e
	v.MutantNote = noteFor(st, "mutate", mutation.IndexFile)
	v.CoverageNote = noteFor(st, "mutate", coverage.ResultFile)
	v.SectionsNote = noteFor(st, "build", sectionmap.File)
	return v
}

// pagePath is a candidate's page, relative to the site; ids are
// workspace.ValidID, safe as file names.
func pagePath(id string) string { return "candidates/" + id + ".html" }
