package rules

// R11 checks pfs consistency.
var R11 = &Rule{
	ID:    11,
	Name:  "pfs-consistency",
	Doc:   `Each PR File Summary role agrees with the body: a file is direct exactly when some block's Direct modifications name it; associated when no block's Direct modifications name it but some block's Associated changes do; unmapped when no block names it, and then it is listed in Unmapped PR Files, which lists only files with role unmapped. Change the role, or move the file to the right table.`,
	Check: checkR11,
}

func checkR11(p *Pass) {
}
