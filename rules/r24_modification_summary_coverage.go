package rules

// R24 checks modification summary coverage.
var R24 = &Rule{
	ID:    24,
	Name:  "modification-summary-coverage",
	Doc:   `Each mapped block's Modification summary has exactly one bullet for each file of its Direct modifications; a file of its Associated changes may have one bullet; any other bullet, and a second bullet for the same file, is a violation. Add, merge or remove bullets.`,
	Check: checkR24,
}

func checkR24(p *Pass) {
}
