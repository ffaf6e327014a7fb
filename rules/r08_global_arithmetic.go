package rules

// R08 checks global arithmetic.
var R08 = &Rule{
	ID:    8,
	Name:  "global-arithmetic",
	Doc:   `The two coverage figures of Global Statistics are right: EP-section coverage is the number of Section Classification Summary rows marked implementable and mapped over the number marked implementable, and PR-file coverage is the number of PR File Summary rows with role direct or associated over the number of PR files, both as percentages with one decimal, rounded half up. Recompute the figure.`,
	Check: checkR08,
}

func checkR08(p *Pass) {
}
