package rules

// R27 checks touched scope coverage.
var R27 = &Rule{
	ID:    27,
	Name:  "touched-scope-coverage",
	Doc:   `Every changed (class, function) scope of every source file of the PR, resolved with tree-sitter on the pre-change tree for deleted lines and on the post-change tree for added lines (pr scopes), occurs in at least one Direct modifications or Associated changes row with the same file, class and function; and every row of a file that tree-sitter resolves names either a changed scope or no function (a file-level or class-body row). Changes outside every function are file-level and exempt. Add a row for each missing scope, and fix rows whose scope the PR did not change.`,
	Check: checkR27,
}

func checkR27(p *Pass) {
}
