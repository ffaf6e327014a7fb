package main

// Comment markers inside strings and runes are code.
var (
	a = "// not a comment"
	b = "/* not a comment"
	c = '"'
	d = `raw
// inside a raw string

*/ still raw`
)

/*
Block

comment
*/
func main() {}
