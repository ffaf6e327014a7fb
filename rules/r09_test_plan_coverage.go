package rules

// R09 checks test plan coverage.
var R09 = &Rule{
	ID:    9,
	Name:  "test-plan-coverage",
	Doc:   `When the EP has test sections (a heading whose title speaks of tests, testing, test plans, validation or verification) and the PR changes test files, every test section is classified implementable with category evaluation, and every test file of the PR is assigned, direct or associated, to at least one test section. Classify the test sections as implementable evaluation sections and list the test files in their blocks.`,
	Check: checkR09,
}

func checkR09(p *Pass) {
}
