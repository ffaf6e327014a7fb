package rules

import (
	"strconv"
	"strings"

	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/mapping"
)

// R16 checks unique scs entries.
var R16 = &Rule{
	ID:    16,
	Name:  "unique-scs-entries",
	Doc:   `Section ids in the Section Classification Summary are unique; titles are unique (ignoring case and repeated blanks) unless the EP itself repeats the heading; and no row is a code fragment mistaken for a heading, such as a "# comment" line of a code block in the EP. Of rows sharing an id or a title, the one that matches the EP's heading (else the first) is kept and the others are reported; a row that repeats a title under another id also disagrees with the EP, which rule 23 reports too. Remove the repeated or mistaken row.`,
	Check: checkR16,
}

func checkR16(p *Pass) {
	rows := p.Mapping.SCS.Rows
	done := make([]bool, len(rows))
	comments := r16CommentTitles(p.EP)
	fragment := map[string]bool{} // CodeFragment per normalised title
	for i := range rows {
		r := &rows[i]
		title := strings.TrimSpace(r.Title)
		t := normTitle(title)
		if !comments[t] {
			continue
		}
		frag, ok := fragment[t]
		if !ok {
			frag = CodeFragment(p.EP, title)
			fragment[t] = frag
		}
		if frag {
			done[i] = true
			p.Reportf(r.Line, r16Where(r, i), "row %d (%q) is a comment line of a code block in the EP, not a heading; remove the row", i+1, title)
		}
	}
	// Repeated ids: keep the row whose title is the EP heading's.
	byID := map[string][]int{}
	var ids []string
	for i := range rows {
		id := strings.TrimSpace(rows[i].Section)
		if done[i] || id == "" {
			continue
		}
		if byID[id] == nil {
			ids = append(ids, id)
		}
		byID[id] = append(byID[id], i)
	}
	for _, id := range ids {
		group := byID[id]
		if len(group) < 2 {
			continue
		}
		keep := group[0]
		if s := p.SectionByID[id]; s != nil {
			for _, i := range group {
				if SameTitle(rows[i].Title, s.Title) {
					keep = i
					break
				}
			}
		}
		for _, i := range group {
			if i == keep {
				continue
			}
			done[i] = true
			p.Reportf(rows[i].Line, "section "+id, "section %s already has row %d (line %d); remove this repeated row", id, keep+1, rows[keep].Line)
		}
	}
	// Repeated titles: allowed as often as the EP has the heading.
	headings := map[string][]string{}
	if p.EP != nil {
		for _, s := range p.EP.Sections {
			t := normTitle(s.Title)
			headings[t] = append(headings[t], s.ID)
		}
	}
	byTitle := map[string][]int{}
	var titles []string
	for i := range rows {
		t := normTitle(rows[i].Title)
		if done[i] || t == "" {
			continue
		}
		if byTitle[t] == nil {
			titles = append(titles, t)
		}
		byTitle[t] = append(byTitle[t], i)
	}
	for _, t := range titles {
		group := byTitle[t]
		if len(group) < 2 || len(group) <= len(headings[t]) {
			continue
		}
		keep := map[int]bool{}
		for _, i := range group {
			if s := p.SectionByID[strings.TrimSpace(rows[i].Section)]; s != nil && normTitle(s.Title) == t {
				keep[i] = true
			}
		}
		if len(keep) == 0 {
			keep[group[0]] = true
		}
		first := group[0]
		for _, i := range group {
			if keep[i] {
				first = i
				break
			}
		}
		for _, i := range group {
			if keep[i] {
				continue
			}
			title := strings.TrimSpace(rows[i].Title)
			p.Reportf(rows[i].Line, r16Where(&rows[i], i), "title %q repeats row %d (line %d) but the EP has %s; remove this repeated row, or give it the id and title of the heading it stands for",
				title, first+1, rows[first].Line, r16Headings(title, headings[t]))
		}
	}
}

// r16Where names a summary row by its section id, or by its position when
// the id is empty.
func r16Where(r *mapping.SCSRow, i int) string {
	if id := strings.TrimSpace(r.Section); id != "" {
		return "section " + id
	}
	return rowCountWhere(mapping.PartSCS, i+1)
}

// r16Headings says how often the EP has a heading.
func r16Headings(title string, ids []string) string {
	switch len(ids) {
	case 0:
		return "no heading " + strconv.Quote(title)
	case 1:
		return "one heading " + strconv.Quote(title) + " (section " + ids[0] + ")"
	}
	return "the heading " + strconv.Quote(title) + " only as " + sectionsPhrase(ids)
}

// r16CommentTitles returns the normalised texts of the EP's "#"-comment
// lines, so that CodeFragment, which reads the whole EP, is asked only about
// titles that can be one.
func r16CommentTitles(doc *ep.Document) map[string]bool {
	out := map[string]bool{}
	if doc == nil {
		return out
	}
	for line := range strings.SplitSeq(string(doc.Source), "\n") {
		if m := commentLineRE.FindStringSubmatch(line); m != nil {
			out[normTitle(m[1])] = true
		}
	}
	return out
}
