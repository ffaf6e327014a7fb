package rules

// R01 checks pr file completeness.
var R01 = &Rule{
	ID:    1,
	Name:  "pr-file-completeness",
	Doc:   `Every file the PR changes has a row in the PR File Summary whose Role names exactly one of direct, associated and unmapped, and the distinct PR files with such a row, counted per role, add up to the PR's file count. A PR file without a row is reported with no artifact line; add a row for it. A Role cell naming several roles ("direct, associated") is reported at its row; keep the one role that applies: direct when a block's Direct modifications name the file, else associated when Associated changes do, else unmapped. Rows for files outside the PR are rule 2's, repeated rows rule 17's, and unknown role words rule 4's.`,
	Check: checkR01,
}

func checkR01(p *Pass) {
}
