package collect

import (
	"context"
	"fmt"
	"sort"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/registry"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// Listing is what one project's EP source yields, read as collection
// reads it but offline and before any GitHub search ("lolbench ep list"):
// the curator's first look at a new source.
type Listing struct {
	Project string `json:"project"`
	// Source says where the proposals were read, folders resolved.
	Source string `json:"source,omitempty"`
	// Files counts the files, pages or issues considered.
	Files     int        `json:"files"`
	Proposals []Proposal `json:"proposals"`
	// Dropped names every file left out and why: no number, not UTF-8,
	// over the size cap, a duplicate number, the status filter.
	Dropped []Drop `json:"dropped"`
	Count   Count  `json:"count"`
	// From counts, per field, the proposals whose value came from each
	// place ("status": {"field:Status": 25}).
	From map[string]map[string]int `json:"from"`
	// Error says why the source could not be read at all.
	Error string `json:"error,omitempty"`
}

// Proposal is one listed proposal.
type Proposal struct {
	Number  string `json:"number"`
	ID      string `json:"id"`
	Title   string `json:"title"`
	Status  string `json:"status,omitempty"`
	Created string `json:"created,omitempty"` // 2006-01-02
	Path    string `json:"path"`
	URL     string `json:"url,omitempty"`
	// From names, per field, the place its value was read from.
	From map[string]string `json:"from"`
	// Type, Authors and Links are what the proposal declares: its kind,
	// its authors, the GitHub pull requests and issues its metadata names.
	Type    string   `json:"type,omitempty"`
	Authors []string `json:"authors,omitempty"`
	Links   []Link   `json:"links,omitempty"`
	// Warnings name what was read but not understood, with file and line.
	Warnings []string `json:"warnings,omitempty"`
}

// Count counts the listed proposals that have each field.
type Count struct {
	Proposals int `json:"proposals"`
	Title     int `json:"with_title"`
	Status    int `json:"with_status"`
	Created   int `json:"with_created"`
}

// List reads the EP sources of the named projects (all when names is
// empty) offline. Git sources are read from eps.path or from the clone an
// earlier collect made in ws, GitHub issues from what it recorded there;
// ws may be nil. A source that cannot be read is a Listing with its Error;
// an unknown project name is an error.
func List(ctx context.Context, reg *registry.Registry, names []string, ws *workspace.Workspace) ([]*Listing, error) {
	st := &Stage{Registry: reg, Projects: names, Offline: true, Log: func(string, ...any) {}}
	projects, err := st.selected()
	if err != nil {
		return nil, err
	}
	var out []*Listing
	for _, p := range projects {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		out = append(out, listProject(ctx, st, ws, p))
	}
	return out, nil
}

func listProject(ctx context.Context, st *Stage, ws *workspace.Workspace, p *registry.Project) *Listing {
	l := &Listing{Project: p.Name, Proposals: []Proposal{}, Dropped: []Drop{}, From: map[string]map[string]int{}}
	c := &cache{offline: true}
	if ws != nil {
		if dir, err := ws.Path(collectDir, p.Name); err == nil {
			c.dir = dir
		}
	}
	pr := &projectRun{s: st, env: &pipeline.Env{Workspace: ws}, ws: ws, reg: st.Registry, p: p, cache: c,
		funnel: newProjectFunnel(p.Name, nil), stale: map[string][]staleInfo{}}
	defer pr.closeSources()
	eps, err := pr.loadEPs(ctx)
	l.Source = pr.funnel.Proposals
	if err != nil {
		l.Error = err.Error()
		return l
	}
	eps = pr.filterStatus(eps)
	twinWarnings(eps)
	l.Files = pr.funnel.step(StepEPs).Considered
	l.Dropped = append(l.Dropped, pr.funnel.Dropped...)
	for _, e := range eps {
		prop := Proposal{Number: e.Number, ID: e.ID, Title: e.Title, Status: e.Status, Path: e.Path, URL: e.URL, From: e.From, Type: e.Type, Authors: e.Authors, Links: e.Links, Warnings: e.Warnings}
		if prop.From == nil {
			prop.From = map[string]string{}
		}
		if !e.Created.IsZero() {
			prop.Created = e.Created.Format("2006-01-02")
		}
		l.Proposals = append(l.Proposals, prop)
		l.Count.Proposals++
		for field, from := range prop.From {
			if l.From[field] == nil {
				l.From[field] = map[string]int{}
			}
			l.From[field][from]++
		}
		if prop.Title != "" {
			l.Count.Title++
		}
		if prop.Status != "" {
			l.Count.Status++
		}
		if prop.Created != "" {
			l.Count.Created++
		}
	}
	return l
}

// FromSummary renders a field's places with their counts, most first:
// "field:Status 25, git 2".
func (l *Listing) FromSummary(field string) string {
	type kv struct {
		k string
		n int
	}
	var list []kv
	for k, n := range l.From[field] {
		list = append(list, kv{k, n})
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].n != list[j].n {
			return list[i].n > list[j].n
		}
		return list[i].k < list[j].k
	})
	s := ""
	for i, e := range list {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%s %d", e.k, e.n)
	}
	if s == "" {
		return "none"
	}
	return s
}
