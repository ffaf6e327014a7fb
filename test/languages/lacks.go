// Package languages holds the list of known gaps in language support and
// the test that keeps it exact (issue 8, docs/maintainers.md). Every
// language of the language table (pipeline/lang) needs five pieces, or
// says here that it lacks one; the test fails both when a piece is missing
// without being listed and when a listed gap has been filled. The package
// sits under test/ because it imports every package that holds a piece,
// which no product package may do.
package languages

// The pieces a language can have.
const (
	// Tests: test-file conventions in its language table entry (TestNames,
	// TestDirs or TestPaths), so that file categories can tell its test
	// files from its source (pipeline/lang/table.go).
	Tests = "tests"
	// Syntax: tree-sitter scopes, a grammar in pipeline/syntax
	// (syntax.Supported).
	Syntax = "syntax"
	// Results: a registered test-result format its test tools write
	// (results.LanguageFormats in pipeline/sandbox/results/languages.go).
	Results = "results"
	// Coverage: executable lines and a default coverage adapter
	// (pipeline/coverage: coverage.SupportedLanguage and AdapterFor).
	Coverage = "coverage"
	// Mutation: syntax mutation operators (pipeline/mutation,
	// mutation.OperatorLanguages).
	Mutation = "mutation"
)

// Pieces lists the pieces in the order they are checked.
var Pieces = []string{Tests, Syntax, Results, Coverage, Mutation}

// Lacks lists, per language of the table, the pieces it does not have
// yet. It is the one place a gap is declared: remove a piece here in the
// change that adds it (the test says so), and add a language's gaps in the
// change that adds the language to the table.
var Lacks = map[string][]string{
	"Rust":         {Coverage, Mutation},
	"C":            {Coverage, Mutation},
	"C/C++ Header": {Coverage, Mutation},
	"C++":          {Coverage, Mutation},
	"TypeScript":   {Coverage, Mutation},
	"JavaScript":   {Coverage, Mutation},
	"C#":           {Coverage, Mutation},

	"Kotlin":             {Syntax, Coverage, Mutation},
	"Scala":              {Syntax, Coverage, Mutation},
	"Ruby":               {Syntax, Coverage, Mutation},
	"PHP":                {Syntax, Coverage, Mutation},
	"Swift":              {Syntax, Coverage, Mutation},
	"Objective-C":        {Syntax, Coverage, Mutation},
	"Lua":                {Syntax, Coverage, Mutation},
	"Perl":               {Syntax, Coverage, Mutation},
	"Bourne Again Shell": {Syntax, Coverage, Mutation},
	"Haskell":            {Syntax, Coverage, Mutation},
	"OCaml":              {Syntax, Coverage, Mutation},
	"Elixir":             {Syntax, Coverage, Mutation},
	"Erlang":             {Syntax, Coverage, Mutation},
	"Dart":               {Syntax, Coverage, Mutation},

	// shunit2, the usual shell test tool, writes no format we parse.
	"Bourne Shell": {Syntax, Results, Coverage, Mutation},
	// Zig tests live inside the sources (test blocks), and assembly has
	// no test convention: neither has test files to tell apart.
	"Zig":      {Tests, Syntax, Results, Coverage, Mutation},
	"Assembly": {Tests, Syntax, Results, Coverage, Mutation},
}
