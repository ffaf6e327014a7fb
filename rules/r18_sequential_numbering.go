package rules

// R18 checks sequential numbering.
var R18 = &Rule{
	ID:    18,
	Name:  "sequential-numbering",
	Doc:   `The # column of the Section Classification Summary and of the PR File Summary counts 1, 2, 3, ... without gaps or repeats, and the mapped blocks are numbered 1, 2, 3, ... in the order they appear. Renumber.`,
	Check: checkR18,
}

func checkR18(p *Pass) {
}
