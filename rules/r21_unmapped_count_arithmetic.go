package rules

// R21 checks unmapped count arithmetic.
var R21 = &Rule{
	ID:    21,
	Name:  "unmapped-count-arithmetic",
	Doc:   `Global Statistics' Unmapped implementable sections equals both the number of rows of Unmapped Implementable Sections and the implementable minus the mapped sections of the Section Classification Summary; Unmapped files equals both the number of rows of Unmapped PR Files and the PR File Summary rows with role unmapped. Recount.`,
	Check: checkR21,
}

func checkR21(p *Pass) {
}
