package rules

// R06 checks document order.
var R06 = &Rule{
	ID:    6,
	Name:  "document-order",
	Doc:   `The Section Classification Summary rows, the mapped blocks and the rows of Unmapped Implementable Sections follow the order of their sections in the EP. Reorder the rows or blocks that come before a section that precedes them in the EP. Sections unknown to the EP are rule 23's and are ignored here.`,
	Check: checkR06,
}

func checkR06(p *Pass) {
}
