package rules

// R14 checks multi section accounting.
var R14 = &Rule{
	ID:    14,
	Name:  "multi-section-accounting",
	Doc:   `For every PR file, the Direct sections cell of its PR File Summary row lists exactly the sections whose blocks name the file in Direct modifications, and the Associated sections cell exactly those whose blocks name it in Associated changes, in any order. A file that serves several sections lists every one of them. Rewrite the cell from the blocks.`,
	Check: checkR14,
}

func checkR14(p *Pass) {
}
