package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lolbench/lolbench/pipeline/mapping"
)

// R21 checks unmapped count arithmetic.
var R21 = &Rule{
	ID:    21,
	Name:  "unmapped-count-arithmetic",
	Doc:   `Global Statistics has one Unmapped implementable sections row and one Unmapped files row, each holding a whole number. Unmapped implementable sections equals the implementable minus the mapped sections of the Section Classification Summary (its rows marked Implementable yes and Mapped no), and so the number of rows of Unmapped Implementable Sections; Unmapped files equals the distinct PR File Summary paths with role unmapped, and so the number of rows of Unmapped PR Files. The summaries are the reference: a table whose rows disagree with them is rule 12's (sections) or rule 11's (files), and the count is checked against the table only when the summary holds unreadable Implementable, Mapped or Role values (rules 1, 4 and 5). Recount and write the number the message gives, or add the missing row.`,
	Check: checkR21,
}

func checkR21(p *Pass) {
	m := p.Mapping
	if m.PartLines[mapping.PartStats] == 0 || !headerHas(m.Stats.Columns, "Metric") || !headerHas(m.Stats.Columns, "Value") {
		return // rule 4
	}

	// Unmapped implementable sections: from the summary's flags, else from
	// the table.
	unmapped, sectionsOK := 0, headerHas(m.SCS.Columns, "Implementable") && headerHas(m.SCS.Columns, "Mapped")
	for _, r := range m.SCS.Rows {
		impl, ok1 := mapping.ParseYesNo(strings.TrimSpace(r.Implementable))
		mapped, ok2 := mapping.ParseYesNo(strings.TrimSpace(r.Mapped))
		if !ok1 || !ok2 {
			sectionsOK = false
			break
		}
		if impl && !mapped {
			unmapped++
		}
	}
	switch {
	case sectionsOK:
		r21Check(p, mapping.MetricUnmappedImplementable, unmapped,
			fmt.Sprintf("%d Section Classification Summary %s marked Implementable yes and Mapped no", unmapped, r21RowsAre(unmapped)))
	case m.PartLines[mapping.PartUnmappedSections] != 0:
		n := len(m.UnmappedSections.Rows)
		r21Check(p, mapping.MetricUnmappedImplementable, n,
			fmt.Sprintf("Unmapped Implementable Sections has %d %s", n, r21Rows(n)))
	}

	// Unmapped files: from the PR File Summary's roles, else from the table.
	files, filesOK := map[string]bool{}, headerHas(m.PFS.Columns, "Role") && headerHas(m.PFS.Columns, "File")
	for _, r := range m.PFS.Rows {
		role, ok := mapping.ParseRole(strings.TrimSpace(r.Role))
		if !ok {
			filesOK = false
			break
		}
		if role == mapping.RoleUnmapped {
			files[strings.TrimSpace(r.Path)] = true
		}
	}
	switch {
	case filesOK:
		n := len(files)
		r21Check(p, mapping.MetricUnmappedFiles, n,
			fmt.Sprintf("%d PR File Summary %s role unmapped", n, r21Has(n)))
	case m.PartLines[mapping.PartUnmappedFiles] != 0:
		n := len(m.UnmappedFiles.Rows)
		r21Check(p, mapping.MetricUnmappedFiles, n,
			fmt.Sprintf("Unmapped PR Files has %d %s", n, r21Rows(n)))
	}
}

// r21Check compares the one row of metric with want; why explains want.
func r21Check(p *Pass, metric string, want int, why string) {
	rows := r21Rows0(p.Mapping, metric)
	if len(rows) == 0 {
		line := p.Mapping.Stats.Line
		if line == 0 {
			line = p.Mapping.PartLines[mapping.PartStats]
		}
		p.Reportf(line, mapping.PartStats, "the %q row is missing; %s, so add \"| %s | %d |\"", metric, why, metric, want)
		return
	}
	for _, r := range rows[1:] {
		p.Reportf(r.Line, mapping.PartStats, "%q has a second row (first at line %d); remove this row", metric, rows[0].Line)
	}
	got := strings.TrimSpace(rows[0].Value)
	if n, err := strconv.Atoi(got); err != nil || n < 0 {
		p.Reportf(rows[0].Line, mapping.PartStats, "%s is %q, not a count of %s; %s, so write %d", metric, got, r21Noun(metric), why, want)
	} else if n != want {
		p.Reportf(rows[0].Line, mapping.PartStats, "%s is %d but %s; write %d", metric, n, why, want)
	}
}

// r21Rows0 returns the Global Statistics rows of metric: those spelt
// exactly, else those that differ only in case or blanks (a misspelt name
// is rule 4's; its value is still checked here).
func r21Rows0(m *mapping.Mapping, metric string) []*mapping.StatRow {
	var exact, folded []*mapping.StatRow
	for i := range m.Stats.Rows {
		r := &m.Stats.Rows[i]
		got := strings.TrimSpace(r.Metric)
		switch {
		case got == metric:
			exact = append(exact, r)
		case headerKey(got) == headerKey(metric):
			folded = append(folded, r)
		}
	}
	if len(exact) > 0 {
		return exact
	}
	return folded
}

func r21Noun(metric string) string {
	if metric == mapping.MetricUnmappedFiles {
		return "files"
	}
	return "sections"
}

func r21Rows(n int) string {
	if n == 1 {
		return "row"
	}
	return "rows"
}

func r21RowsAre(n int) string {
	if n == 1 {
		return "row is"
	}
	return "rows are"
}

func r21Has(n int) string {
	if n == 1 {
		return "path has"
	}
	return "paths have"
}
