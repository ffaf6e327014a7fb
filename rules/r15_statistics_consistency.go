package rules

// R15 checks statistics consistency.
var R15 = &Rule{
	ID:    15,
	Name:  "statistics-consistency",
	Doc:   `The Global Statistics counts, regenerated from the inputs, agree with the artifact: EP sections is the EP's heading count; Implementable sections and Mapped implementable sections count the Section Classification Summary flags; PR files is the PR's file count; Direct files and Associated files count the PR File Summary roles; and there is one "<category> files" row for each file category present in the PR File Summary, with its count, and none for absent ones. Coverage figures are rule 8's and the unmapped counts rule 21's.`,
	Check: checkR15,
}

func checkR15(p *Pass) {
}
