// Package lang is the one language table: per language its cloc name, file
// extensions, test and generated-file conventions. File categories for PR
// changes come from here, so adding a language is one table entry.
package lang

// Category is the controlled vocabulary for PR files (paper, section 3.2).
type Category string

// The PR-file categories, in the order reports list them.
const (
	Source        Category = "source"
	Test          Category = "test"
	TestData      Category = "test-data"
	Data          Category = "data"
	Build         Category = "build"
	Documentation Category = "documentation"
	Generated     Category = "generated"
	Vendor        Category = "vendor"
)

// Categories lists every category in report order.
var Categories = []Category{Source, Test, TestData, Data, Build, Documentation, Generated, Vendor}

// ParseCategory returns the category named s, or false when s is not in the
// vocabulary.
func ParseCategory(s string) (Category, bool) {
	for _, c := range Categories {
		if string(c) == s {
			return c, true
		}
	}
	return "", false
}
