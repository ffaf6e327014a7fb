package rules

// R02 checks file validity.
var R02 = &Rule{
	ID:    2,
	Name:  "file-validity",
	Doc:   `Every path the mapping names, in the PR File Summary, in the Direct modifications and Associated changes tables, in the modification summaries and in Unmapped PR Files, is a file that the PR changes, written as its path after the change (a deleted file keeps its old path). A renamed file's old path is reported with the new path to use. Correct the path, or remove the row if the file is not part of the PR. Directory, glob and aggregate entries are rule 20's.`,
	Check: checkR02,
}

func checkR02(p *Pass) {
}
