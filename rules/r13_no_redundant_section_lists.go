package rules

// R13 checks no redundant section lists.
var R13 = &Rule{
	ID:    13,
	Name:  "no-redundant-section-lists",
	Doc:   `Contextual and process sections appear only in the Section Classification Summary: never as a mapped block and never in Unmapped Implementable Sections. Remove the block or the row, or reclassify the section if it does ask for code.`,
	Check: checkR13,
}

func checkR13(p *Pass) {
}
