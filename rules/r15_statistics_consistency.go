package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/mapping"
)

// R15 checks statistics consistency.
var R15 = &Rule{
	ID:    15,
	Name:  "statistics-consistency",
	Doc:   `The Global Statistics counts, regenerated from the inputs, agree with the artifact: EP sections is the EP's heading count; Implementable sections and Mapped implementable sections count the Section Classification Summary rows marked Implementable yes, and Implementable yes and Mapped yes; PR files is the PR's file count; Direct files and Associated files count the distinct PR File Summary paths with that role; and there is one "<category> files" row for each file category present in the PR File Summary, with its count of distinct paths, and none for absent ones. Each of these metrics has exactly one row. A count whose inputs hold unreadable values (rules 1, 4 and 5) is not checked; coverage figures are rule 8's and the unmapped counts rule 21's. Write the regenerated count, add the missing row, or remove the repeated or absent category's row.`,
	Check: checkR15,
}

func checkR15(p *Pass) {
	m := p.Mapping
	if m.PartLines[mapping.PartStats] == 0 || !hasColumn(m.Stats.Columns, "Metric") || !hasColumn(m.Stats.Columns, "Value") {
		return // rule 4
	}
	if p.EP != nil {
		r15Count(p, mapping.MetricEPSections, len(p.EP.Sections), "the EP has %d headings")
	}
	impl, mapped, ok := 0, 0, true
	for _, r := range m.SCS.Rows {
		i, ok1 := scsFlag(r.Implementable)
		mp, ok2 := scsFlag(r.Mapped)
		if !ok1 || !ok2 {
			ok = false // rules 4 and 5
			break
		}
		if i {
			impl++
			if mp {
				mapped++
			}
		}
	}
	if ok {
		r15Count(p, mapping.MetricImplementable, impl, "%d Section Classification Summary rows are marked Implementable yes")
		r15Count(p, mapping.MetricMappedImplementable, mapped, "%d Section Classification Summary rows are marked Implementable yes and Mapped yes")
	}
	if p.Change != nil {
		r15Count(p, mapping.MetricPRFiles, len(p.Change.Files), "the PR changes %d files")
	}
	roles := map[mapping.Role]map[string]bool{}
	cats := map[lang.Category]map[string]bool{}
	rolesOK, catsOK := true, true
	for _, r := range m.PFS.Rows {
		path := strings.TrimSpace(r.Path)
		if role, ok := mapping.ParseRole(strings.TrimSpace(r.Role)); !ok {
			rolesOK = false // rules 1 and 4
		} else {
			r15Add(roles, role, path)
		}
		if cat, ok := lang.ParseCategory(strings.TrimSpace(r.Category)); !ok {
			catsOK = false // rule 4
		} else {
			r15Add(cats, cat, path)
		}
	}
	if rolesOK {
		r15Count(p, mapping.MetricDirectFiles, len(roles[mapping.RoleDirect]), "%d PR File Summary files have role direct")
		r15Count(p, mapping.MetricAssociatedFiles, len(roles[mapping.RoleAssociated]), "%d PR File Summary files have role associated")
	}
	if !catsOK {
		return
	}
	for _, c := range lang.Categories {
		metric := mapping.CategoryMetric(c)
		if n := len(cats[c]); n > 0 {
			r15Count(p, metric, n, fmt.Sprintf("%%d PR File Summary files have category %s", c))
			continue
		}
		for _, r := range p.metricRows(metric) {
			p.Reportf(r.Line, mapping.PartStats, "%q counts a category no PR File Summary file has; remove this row (a \"<category> files\" row is written only for categories present)", strings.TrimSpace(r.Metric))
		}
	}
}

// r15Add adds a path to the set of key.
func r15Add[K comparable](sets map[K]map[string]bool, key K, path string) {
	if sets[key] == nil {
		sets[key] = map[string]bool{}
	}
	sets[key][path] = true
}

// r15Count checks the one row of a count metric; why explains the count
// with a %d verb.
func r15Count(p *Pass, metric string, want int, why string) {
	rows := p.metricRows(metric)
	reason := fmt.Sprintf(why, want)
	if len(rows) == 0 {
		line := p.Mapping.Stats.Line
		if line == 0 {
			line = p.Mapping.PartLines[mapping.PartStats]
		}
		p.Reportf(line, mapping.PartStats, "the %q row is missing; %s, so add \"| %s | %d |\"", metric, reason, metric, want)
		return
	}
	for _, r := range rows[1:] {
		p.Reportf(r.Line, mapping.PartStats, "%q has a second row (first at line %d); remove this row", metric, rows[0].Line)
	}
	r := rows[0]
	if strings.TrimSpace(r.Value) != strconv.Itoa(want) {
		p.Reportf(r.Line, mapping.PartStats, "%s is %q but %s; write %d", metric, strings.TrimSpace(r.Value), reason, want)
	}
}
