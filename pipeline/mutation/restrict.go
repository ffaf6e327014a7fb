package mutation

import (
	"slices"
	"strings"
)

// Restricted is the section id that stands, in Restrict, for every section
// reverted at once.
const Restricted = "restricted"

// Restrict is the reference solution with every mapped section but keep
// reverted: one mapped-section revert of their union, so that in Go files
// what the kept sections' code uses is kept and stubbed as a single
// section's revert keeps it. The section graph's discriminativeness check
// runs it with keep = a section's ancestors (issue 35 §2): the section's
// tests should still fail.
func Restrict(sol *Solution, o *Owners, keep []string) Revert {
	relabel := func(id string) string {
		if id == "" || slices.Contains(keep, id) {
			return id
		}
		return Restricted
	}
	r := *o
	r.scope = make(map[scopeKey]string, len(o.scope))
	for k, id := range o.scope {
		r.scope[k] = relabel(id)
	}
	r.file = make(map[string]string, len(o.file))
	for f, id := range o.file {
		r.file[f] = relabel(id)
	}
	var gone []string
	r.Sections = nil
	for _, s := range o.Sections {
		if slices.Contains(keep, s.ID) {
			r.Sections = append(r.Sections, s)
		} else {
			gone = append(gone, s.ID)
		}
	}
	sec := Section{ID: Restricted, Title: "sections " + strings.Join(gone, ", ")}
	r.Sections = append(r.Sections, sec)
	return newGoReverter(sol, &r).revert(sec)
}
