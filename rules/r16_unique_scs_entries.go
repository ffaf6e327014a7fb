package rules

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/mapping"
)

// R16 checks unique scs entries.
var R16 = &Rule{
	ID:    16,
	Name:  "unique-scs-entries",
	Doc:   `Section ids in the Section Classification Summary are unique; titles are unique (ignoring case and repeated blanks, and reading inline markup as rule 22 does) unless the EP itself repeats the heading; and no row is a code fragment mistaken for a heading, such as a "# comment" line of a code block in the EP. A heading of the EP is never a code fragment, whatever code its title holds. Of rows sharing an id or a title, the one that matches the EP's heading (else the first) is kept and the others are reported; a row that repeats a title under another id also disagrees with the EP, which rule 23 reports too. Remove the repeated or mistaken row.`,
	Check: checkR16,
}

func checkR16(p *Pass) {
	rows := p.Mapping.SCS.Rows
	done := make([]bool, len(rows))
	fragments := codeFragments(p.EP)
	for i := range rows {
		r := &rows[i]
		title := strings.TrimSpace(r.Title)
		if fragments[headingKey(title)] {
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
				if sameHeading(s.Title, rows[i].Title) {
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
		t := headingKey(rows[i].Title)
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
			if s := p.SectionByID[strings.TrimSpace(rows[i].Section)]; s != nil && sameHeading(s.Title, rows[i].Title) {
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

// commentLineRE matches a "#"-comment line, or an ATX heading line.
var commentLineRE = regexp.MustCompile(`^\s*#+\s+(.+?)\s*#*\s*$`)

// codeFragments returns the heading keys (headingKey) of the EP's
// "#"-comment lines that are not headings: lines of a code block, a shell
// or Python comment, that a careless reader could take for a Markdown
// heading. A line that is a heading of the EP is not one, whatever code its
// title holds, and neither is a comment that reads as a heading's title.
// Rule 16 reports rows with these titles, and rule 23 leaves them to it.
func codeFragments(doc *ep.Document) map[string]bool {
	out := map[string]bool{}
	if doc == nil {
		return out
	}
	titles := map[string]bool{}
	for _, s := range doc.Sections {
		titles[normTitle(s.Title)] = true
		titles[headingKey(s.Title)] = true
	}
	src := string(doc.Source)
	k := 0 // next section whose heading may hold the line
	for start := 0; start < len(src); {
		end := strings.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		for k < len(doc.Sections) && doc.Sections[k].Heading.End <= start {
			k++
		}
		heading := k < len(doc.Sections) && doc.Sections[k].Heading.Start <= start
		if m := commentLineRE.FindStringSubmatch(src[start:end]); m != nil && !heading {
			if key := headingKey(m[1]); key != "" && !titles[key] {
				out[key] = true
			}
		}
		start = end + 1
	}
	return out
}
