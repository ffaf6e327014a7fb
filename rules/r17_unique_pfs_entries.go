package rules

// R17 checks unique pfs entries.
var R17 = &Rule{
	ID:    17,
	Name:  "unique-pfs-entries",
	Doc:   `Each PR file has exactly one row in the PR File Summary. Merge the repeated rows into one, listing all the file's sections in it.`,
	Check: checkR17,
}

func checkR17(p *Pass) {
}
