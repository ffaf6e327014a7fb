package collect

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/registry"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// Funnel steps that are not criteria.
const (
	StepEPs       = "eps"       // proposal files parsed (bad or duplicate ones dropped)
	StepStatus    = "status"    // the registry's status filter
	StepLinked    = "linked"    // at least one merged PR references the EP
	StepRevisions = "revisions" // the PR's commits are in the clone
)

// Units of a step: the first steps count proposals, the later ones EP-PR
// pairs (an EP with two merged PRs is two pairs).
const (
	UnitEPs   = "eps"
	UnitPairs = "pairs"
)

// steps is the evaluation order: cheap before expensive, so that GitHub
// calls, fetches and LoC counts are spent on pairs that can still pass.
var steps = []struct{ name, unit string }{
	{StepEPs, UnitEPs},
	{StepStatus, UnitEPs},
	{StepLinked, UnitEPs},
	{CritOnePR, UnitPairs},
	{CritPredates, UnitPairs},
	{CritSize, UnitPairs},
	{CritTests, UnitPairs},
	{StepRevisions, UnitPairs},
	{CritLoC, UnitPairs},
	{CritImplementable, UnitPairs},
}

// Funnel is collection's report: per project and in total, how many
// proposals and pairs each step considered, kept and dropped ("29,782
// candidates -> 170"). It is written to <workspace>/collect/funnel.json.
type Funnel struct {
	Projects []*ProjectFunnel `json:"projects"`
	Total    *ProjectFunnel   `json:"total"`
}

// ProjectFunnel is the funnel of one project (or the total).
type ProjectFunnel struct {
	Project    string               `json:"project"`
	Thresholds *registry.Thresholds `json:"thresholds,omitempty"`
	// Proposals and Software say where they were read, folders resolved
	// ("git /home/me/src/peps at 1a2b3c4d5e6f"): a registry's path,
	// eps.path and eps.dir may name folders anywhere (not in the total).
	Proposals  string  `json:"proposals,omitempty"`
	Software   string  `json:"software,omitempty"`
	EPs        int     `json:"eps"`
	Pairs      int     `json:"pairs"`
	Candidates int     `json:"candidates"`
	Steps      []*Step `json:"steps"`
	// Dropped names every dropped proposal or pair with its step and
	// reason (not in the total).
	Dropped []Drop `json:"dropped,omitempty"`
	// Notes say what was inferred rather than read about a pair: a PR
	// date taken from git, an EP text older than its file's tip (not in
	// the total).
	Notes []Note `json:"notes,omitempty"`
	// Paired is every EP-PR pair with the evidence that paired it (not in
	// the total).
	Paired []Paired `json:"paired,omitempty"`
	// Kept lists the candidate ids written.
	Kept []string `json:"kept,omitempty"`
	// Stale lists candidates of earlier runs that no longer pass; their
	// candidate.json now records why.
	Stale []string `json:"stale,omitempty"`
	// Incomplete lists the searches GitHub answered with
	// incomplete_results: used for this run, not recorded, asked again
	// next time.
	Incomplete []string `json:"incomplete_searches,omitempty"`
}

// Step is one row of the funnel.
type Step struct {
	Step       string `json:"step"`
	Criterion  int    `json:"criterion,omitempty"` // the paper's number, 0 for other steps
	Unit       string `json:"unit"`
	Considered int    `json:"considered"`
	Kept       int    `json:"kept"`
	Dropped    int    `json:"dropped"`
	// Pending steps are recorded here and enforced by a later stage.
	Pending bool `json:"pending,omitempty"`
}

// Note is one thing collection inferred about a pair rather than read.
type Note struct {
	EP   string `json:"ep"`
	PR   int    `json:"pr"`
	Note string `json:"note"`
}

// Paired is one EP-PR pair and why collection paired them.
type Paired struct {
	EP       string              `json:"ep"`
	PR       int                 `json:"pr"`
	Evidence []pipeline.Evidence `json:"evidence"`
}

// Drop is one dropped proposal (PR 0) or pair, with its reason.
type Drop struct {
	EP     string `json:"ep"`
	PR     int    `json:"pr,omitempty"`
	Path   string `json:"path,omitempty"`
	Step   string `json:"step"`
	Reason string `json:"reason"`
}

func newProjectFunnel(name string, t *registry.Thresholds) *ProjectFunnel {
	f := &ProjectFunnel{Project: name, Thresholds: t}
	for _, s := range steps {
		f.Steps = append(f.Steps, &Step{Step: s.name, Criterion: criterionNumber(s.name), Unit: s.unit,
			Pending: s.name == CritImplementable})
	}
	return f
}

func (f *ProjectFunnel) step(name string) *Step {
	for _, s := range f.Steps {
		if s.Step == name {
			return s
		}
	}
	// Only a hand-edited funnel.json names an unknown step; its counts
	// land in a row that is not reported.
	return &Step{Step: name}
}

// consider records that n items entered a step.
func (f *ProjectFunnel) consider(name string, n int) {
	s := f.step(name)
	s.Considered += n
	s.Kept += n
}

// drop records one dropped item.
func (f *ProjectFunnel) drop(d Drop) {
	s := f.step(d.Step)
	s.Kept--
	s.Dropped++
	f.Dropped = append(f.Dropped, d)
}

// add sums another funnel's counts into f.
func (f *ProjectFunnel) add(o *ProjectFunnel) {
	f.EPs += o.EPs
	f.Pairs += o.Pairs
	f.Candidates += o.Candidates
	f.Incomplete = append(f.Incomplete, o.Incomplete...)
	for _, s := range o.Steps {
		if s == nil {
			continue
		}
		t := f.step(s.Step)
		t.Considered += s.Considered
		t.Kept += s.Kept
		t.Dropped += s.Dropped
	}
}

// newFunnel totals project funnels, sorted by name.
func newFunnel(projects []*ProjectFunnel) *Funnel {
	sort.Slice(projects, func(i, j int) bool { return projects[i].Project < projects[j].Project })
	total := newProjectFunnel("all projects", nil)
	for _, p := range projects {
		total.add(p)
	}
	if projects == nil {
		projects = []*ProjectFunnel{}
	}
	return &Funnel{Projects: projects, Total: total}
}

// FunnelFile is the funnel of every project collected in a workspace.
const FunnelFile = "funnel.json"

// LoadFunnel reads <workspace>/collect/funnel.json.
func LoadFunnel(ws *workspace.Workspace) (*Funnel, error) {
	p, err := ws.Path(collectDir, FunnelFile)
	if err != nil {
		return nil, err
	}
	var f Funnel
	if err := workspace.ReadJSON(p, &f); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("no funnel in %s; run lolbench collect first", ws.Root)
		}
		return nil, err
	}
	return &f, nil
}

// combine reads every project's funnel under <workspace>/collect, so that
// a run limited to one project still reports the whole workspace.
func combine(ws *workspace.Workspace) (*Funnel, error) {
	root, err := ws.Path(collectDir)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(root)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("read %s: %w", root, err)
	}
	var projects []*ProjectFunnel
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		var pf ProjectFunnel
		err := workspace.ReadJSON(filepath.Join(root, e.Name(), FunnelFile), &pf)
		if errors.Is(err, os.ErrNotExist) {
			continue // interrupted before its funnel was written
		}
		if err != nil {
			return nil, err
		}
		projects = append(projects, &pf)
	}
	return newFunnel(projects), nil
}

// WriteTable prints the funnel: a headline and a table per project, then
// the total when there is more than one project.
func (f *Funnel) WriteTable(w io.Writer) error {
	list := append([]*ProjectFunnel{}, f.Projects...)
	if len(f.Projects) != 1 {
		list = append(list, f.Total)
	}
	for i, p := range list {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s: %s %s, %s %s -> %s %s\n", p.Project,
			Comma(p.EPs), plural(p.EPs, "EP", "EPs"), Comma(p.Pairs), plural(p.Pairs, "EP-PR pair", "EP-PR pairs"),
			Comma(p.Candidates), plural(p.Candidates, "candidate", "candidates"))
		if p.Proposals != "" {
			fmt.Fprintf(w, "  proposals: %s\n", p.Proposals)
		}
		if p.Software != "" {
			fmt.Fprintf(w, "  software: %s\n", p.Software)
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  #\tstep\tunit\tconsidered\tkept\tdropped")
		for _, s := range p.Steps {
			num := ""
			if s.Criterion > 0 {
				num = strconv.Itoa(s.Criterion)
			}
			if s.Pending {
				fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t-\t-  (pending: the mapping stage enforces it)\n", num, s.Step, s.Unit, Comma(s.Considered))
				continue
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\n", num, s.Step, s.Unit, Comma(s.Considered), Comma(s.Kept), Comma(s.Dropped))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		for _, pa := range p.Paired {
			var by []string
			for _, ev := range pa.Evidence {
				by = append(by, fmt.Sprintf("%s (%s)", ev.Source, ev.Detail))
			}
			fmt.Fprintf(w, "  paired: %s #%d by %s\n", pa.EP, pa.PR, strings.Join(by, "; "))
		}
		for _, n := range p.Notes {
			fmt.Fprintf(w, "  note: %s #%d: %s\n", n.EP, n.PR, n.Note)
		}
		if len(p.Stale) > 0 {
			fmt.Fprintf(w, "  no longer passing (candidate.json records why): %s\n", strings.Join(p.Stale, ", "))
		}
		if n := len(p.Incomplete); n > 0 {
			fmt.Fprintf(w, "  %s GitHub %s incomplete; %s again on the next run\n", Comma(n), plural(n, "search was", "searches were"), plural(n, "it runs", "they run"))
		}
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Comma formats n with thousands separators: 29782 -> "29,782".
func Comma(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
