package rules

// R23 checks no synthetic sections.
var R23 = &Rule{
	ID:    23,
	Name:  "no-synthetic-sections",
	Doc:   `Each Section Classification Summary row names a real EP heading: its section id is one the EP has, and its title equals that heading's title (ignoring case and repeated blanks). Rows invented from body text, and rows whose id or title does not match the EP, are violations; copy the id and title from the EP's outline (lolbench ep headings). Code fragments mistaken for headings are rule 16's.`,
	Check: checkR23,
}

func checkR23(p *Pass) {
}
