package rules

// R10 checks implementability category.
var R10 = &Rule{
	ID:    10,
	Name:  "implementability-category",
	Doc:   `A section's category agrees with its implementability: an implementable section is an implementation or evaluation section, and a section that is not implementable is a knowledge, contextual or process section. Change the category or the Implementable flag, whichever is wrong.`,
	Check: checkR10,
}

func checkR10(p *Pass) {
}
