package rules

import (
	"fmt"
	"strings"

	"github.com/lolbench/lolbench/pipeline/mapping"
)

// R08 checks global arithmetic.
var R08 = &Rule{
	ID:    8,
	Name:  "global-arithmetic",
	Doc:   `The two coverage figures of Global Statistics are present and right: EP-section coverage is the number of Section Classification Summary rows marked implementable and mapped over the number marked implementable, and PR-file coverage is the number of distinct PR File Summary paths with role direct or associated over the number of PR files, both as percentages with one decimal, rounded half up (mapping.FormatPercent). Recompute the figure, or add its missing row. A figure whose inputs hold values outside the vocabulary (rule 4's) is not checked; a Role cell naming several roles, all of them direct or associated (rule 1's), counts as covered.`,
	Check: checkR08,
}

func checkR08(p *Pass) {
	m := p.Mapping
	if m.PartLines[mapping.PartStats] == 0 || !headerHas(m.Stats.Columns, "Metric") || !headerHas(m.Stats.Columns, "Value") {
		return // rule 4
	}
	impl, mapped, epOK := 0, 0, headerHas(m.SCS.Columns, "Implementable") && headerHas(m.SCS.Columns, "Mapped")
	for _, r := range m.SCS.Rows {
		i, ok1 := mapping.ParseYesNo(strings.TrimSpace(r.Implementable))
		mp, ok2 := mapping.ParseYesNo(strings.TrimSpace(r.Mapped))
		if !ok1 || !ok2 {
			epOK = false // rules 4 and 5
			break
		}
		if i {
			impl++
			if mp {
				mapped++
			}
		}
	}
	if epOK {
		r08Figure(p, mapping.MetricEPCoverage, mapped, impl,
			fmt.Sprintf("%d of the %d sections marked Implementable yes are marked Mapped yes", mapped, impl))
	}
	covered := map[string]bool{}
	prOK := headerHas(m.PFS.Columns, "Role") && headerHas(m.PFS.Columns, "File")
	for _, r := range m.PFS.Rows {
		roles := namedRoles(r.Role)
		if _, ok := mapping.ParseRole(strings.TrimSpace(r.Role)); !ok && len(roles) < 2 {
			prOK = false // rule 4
			break
		}
		cover := true
		for _, role := range roles {
			cover = cover && role != mapping.RoleUnmapped
		}
		if cover {
			covered[strings.TrimSpace(r.Path)] = true
		}
	}
	if prOK {
		n := p.prFileTotal()
		r08Figure(p, mapping.MetricPRCoverage, len(covered), n,
			fmt.Sprintf("%d of the %d PR files have role direct or associated", len(covered), n))
	}
}

// r08Figure compares one coverage row with num/den.
func r08Figure(p *Pass, metric string, num, den int, why string) {
	want := mapping.FormatPercent(num, den)
	row, ok := p.Mapping.Stat(metric)
	if !ok {
		for _, r := range p.Mapping.Stats.Rows {
			if strings.EqualFold(headerKey(r.Metric), headerKey(metric)) {
				row, ok = r, true // misspelt name: rule 4's; the value is still checked
				break
			}
		}
	}
	if !ok {
		p.Reportf(p.Mapping.Stats.Line, mapping.PartStats, "the %q row is missing; %s, so add \"| %s | %s |\"", metric, why, metric, want)
		return
	}
	if got := strings.TrimSpace(row.Value); got != want {
		p.Reportf(row.Line, mapping.PartStats, "%s is %q but %s: write %s", metric, row.Value, why, want)
	}
}
