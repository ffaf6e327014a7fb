package rules

// R07 checks per section proportions.
var R07 = &Rule{
	ID:    7,
	Name:  "per-section-proportions",
	Doc:   `In each mapped block, the Files line agrees with the block's tables: direct is the number of distinct files in Direct modifications, associated the number of distinct files in Associated changes that are not also direct, accounted their sum, the total is the PR's file count, and each percentage is its count over the PR's file count with one decimal, rounded half up (mapping.FormatPercent). Recount the files and rewrite the line.`,
	Check: checkR07,
}

func checkR07(p *Pass) {
}
