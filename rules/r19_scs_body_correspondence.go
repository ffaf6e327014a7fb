package rules

// R19 checks scs body correspondence.
var R19 = &Rule{
	ID:    19,
	Name:  "scs-body-correspondence",
	Doc:   `The Section Classification Summary and the mapped blocks correspond both ways: each block's section has a summary row with the same title, and each row marked Mapped yes has exactly one block. Add the missing block or row, remove the duplicate block, or fix the title.`,
	Check: checkR19,
}

func checkR19(p *Pass) {
}
