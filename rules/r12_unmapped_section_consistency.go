package rules

// R12 checks unmapped section consistency.
var R12 = &Rule{
	ID:    12,
	Name:  "unmapped-section-consistency",
	Doc:   `Unmapped Implementable Sections lists exactly the Section Classification Summary rows marked implementable yes and mapped no, each with the same id and title as its summary row and a non-empty reason. Add the missing sections, remove the ones that are mapped or not implementable, and copy the titles from the summary.`,
	Check: checkR12,
}

func checkR12(p *Pass) {
}
