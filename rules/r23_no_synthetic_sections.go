package rules

import (
	"strings"

	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/mapping"
)

// R23 checks no synthetic sections.
var R23 = &Rule{
	ID:    23,
	Name:  "no-synthetic-sections",
	Doc:   `Each Section Classification Summary row names a real EP heading: its section id is one the EP has, and its title equals that heading's title, ignoring case and repeated blanks and reading inline markup as rule 22 does, so that a title written with code, as in ` + "`GreetIn` or ``GreetIn``" + `, names the heading GreetIn of a Markdown and of a reStructuredText EP alike. Rows invented from body text, and rows whose id or title does not match the EP, are violations; copy the id and title from the EP's outline (lolbench ep headings). Code fragments mistaken for headings are rule 16's, and rows with an empty Section or Title cell rule 5's.`,
	Check: checkR23,
}

func checkR23(p *Pass) {
	if p.EP == nil {
		return
	}
	fragments := codeFragments(p.EP)
	for i := range p.Mapping.SCS.Rows {
		r := &p.Mapping.SCS.Rows[i]
		id, title := strings.TrimSpace(r.Section), strings.TrimSpace(r.Title)
		if mapping.IsNone(id) || mapping.IsNone(title) {
			continue // rule 5
		}
		sec := p.SectionByID[id]
		if sec != nil && sameHeading(sec.Title, title) {
			continue
		}
		if fragments[headingKey(title)] {
			continue // rule 16
		}
		var named []*ep.Section // headings carrying the row's title
		for _, s := range p.EP.Sections {
			if sameHeading(s.Title, title) {
				named = append(named, s)
			}
		}
		where := "section " + id
		switch {
		case sec == nil && len(named) > 0:
			p.Reportf(r.Line, where, "the EP has no section %s; its heading %q is section %s: write %s in the Section cell",
				id, named[0].Title, named[0].ID, named[0].ID)
		case sec == nil:
			p.Reportf(r.Line, where, "the EP has no section %s and no heading titled %q, so the row is not an EP heading (text taken for a heading?); remove it, or copy the id and title of a heading from the EP's outline (lolbench ep headings)",
				id, title)
		case len(named) > 0:
			p.Reportf(r.Line, where, "section %s of the EP is titled %q, and %q is the title of %s; copy the id and the title of one heading from the EP's outline",
				id, sec.Title, title, r23IDs(named))
		default:
			p.Reportf(r.Line, where, "section %s of the EP is titled %q, not %q; copy the title from the EP", id, sec.Title, title)
		}
	}
}

// r23IDs writes "section 2.2" or "sections 2.2, 4".
func r23IDs(secs []*ep.Section) string {
	ids := make([]string, len(secs))
	for i, s := range secs {
		ids[i] = s.ID
	}
	if len(ids) == 1 {
		return "section " + ids[0]
	}
	return "sections " + strings.Join(ids, ", ")
}

// headingKey is how rules 16 and 23 compare titles: inline markup read as
// rule 22 reads it, so that code written with one or two backticks reads
// as its text, then case, repeated blanks and leading "#" marks folded
// (normTitle).
func headingKey(title string) string { return normTitle(normalizeQuoteText(title).s) }

// sameHeading reports whether a summary row's title names an EP heading.
// pipeline/ep gives heading titles as plain text, the same in Markdown and
// reStructuredText, so only the row's markup is read; a row that copies
// the plain title matches as written.
func sameHeading(heading, row string) bool {
	h := normTitle(heading)
	return h == normTitle(row) || h == headingKey(row)
}
