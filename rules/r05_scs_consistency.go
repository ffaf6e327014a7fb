package rules

// R05 checks scs consistency.
var R05 = &Rule{
	ID:    5,
	Name:  "scs-consistency",
	Doc:   `Every Section Classification Summary row fills all six cells, a section marked Mapped yes is marked Implementable yes, and a section marked Mapped no has no mapped block. Fill the empty cell, or correct the flag that disagrees. Which categories suit implementable sections is rule 10's; a Mapped yes row without a block is rule 19's.`,
	Check: checkR05,
}

func checkR05(p *Pass) {
}
