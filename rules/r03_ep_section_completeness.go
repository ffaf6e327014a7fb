package rules

// R03 checks ep section completeness.
var R03 = &Rule{
	ID:    3,
	Name:  "ep-section-completeness",
	Doc:   `Every heading of the EP, Markdown or reStructuredText as pipeline/ep reads it, has a row in the Section Classification Summary with the heading's section id, and no section is placed twice: a section that has a mapped block is not also listed in Unmapped Implementable Sections. Add a row for each missing heading, in document order; keep each section in exactly one place (a mapped block, the unmapped table, or the summary only for non-implementable sections). Rows that disagree with their Mapped flag are rules 12 and 19's.`,
	Check: checkR03,
}

func checkR03(p *Pass) {
}
