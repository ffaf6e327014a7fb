package rules

// R25 checks non overlapping quotations.
var R25 = &Rule{
	ID:    25,
	Name:  "non-overlapping-quotations",
	Doc:   `A block's quotation stays within its own section: it may reach into a subsection's text only when that subsection has no block of its own, and no two blocks quote overlapping text of the EP. Quote the part of the section that belongs to it alone.`,
	Check: checkR25,
}

func checkR25(p *Pass) {
}
