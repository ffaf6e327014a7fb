package rules

// R16 checks unique scs entries.
var R16 = &Rule{
	ID:    16,
	Name:  "unique-scs-entries",
	Doc:   `Section ids in the Section Classification Summary are unique; titles are unique unless the EP itself repeats the heading; and no row is a code fragment mistaken for a heading, such as a "# comment" line of a code block in the EP. Remove the repeated or mistaken row.`,
	Check: checkR16,
}

func checkR16(p *Pass) {
}
