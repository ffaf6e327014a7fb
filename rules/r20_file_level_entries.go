package rules

// R20 checks file level entries.
var R20 = &Rule{
	ID:    20,
	Name:  "file-level-entries",
	Doc:   `Every path entry names a single file: not a directory (a path ending in "/", or one that is a folder of PR files), not a glob ("*", "?", "[...]"), and not an aggregate ("...", "and 3 more", "etc.", "all files", several paths in one cell). List each file on its own row.`,
	Check: checkR20,
}

func checkR20(p *Pass) {
}
