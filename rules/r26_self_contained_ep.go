package rules

// R26 checks self contained ep.
var R26 = &Rule{
	ID:    26,
	Name:  "self-contained-ep",
	Doc:   `The EP carries its requirements itself rather than pointing to an external design document: it has at least 150 words of prose outside headings, code and link targets. A shorter EP that links elsewhere is a violation, since the task would rest on text the agent cannot read. An EP that is long enough but has an implementable section whose own prose is under 40 words besides an external link is ambiguous: it is forwarded to the semantic rule S8, which decides whether the linked content is essential, and the report says so.`,
	Check: checkR26,
}

func checkR26(p *Pass) {
}
