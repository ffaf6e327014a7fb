package rules

// R28 checks unique scope ownership.
var R28 = &Rule{
	ID:    28,
	Name:  "unique-scope-ownership",
	Doc:   `Each changed (file, class, function) scope has one canonical owner, even when its file serves several sections: it appears in the Direct modifications of at most one block, at most once there, and not also in the same block's Associated changes. Other blocks may list it under Associated changes. File-level rows are exempt. Keep the scope in the block of the most specific section that implements it.`,
	Check: checkR28,
}

func checkR28(p *Pass) {
}
