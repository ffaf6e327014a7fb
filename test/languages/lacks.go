// Package languages holds the list of known gaps in language support and
// the tests that keep it and the support matrix exact (issues 8 and 22,
// docs/maintainers.md, docs/languages.md). Every language of the language
// table (pipeline/lang) needs the pieces of support.Pieces, or says here
// that it lacks one; the test fails both when a piece is missing without
// being listed and when a listed gap has been filled. The pieces are read
// from the support matrix (pipeline/langsupport), which reads them from
// the packages that do the work.
package languages

// The pieces a language can have, as support.Pieces names them.
const (
	// Tests: test-file conventions in its language table entry (TestNames,
	// TestDirs or TestPaths), so that file categories can tell its test
	// files from its source (pipeline/lang/table.go).
	Tests = "tests"
	// Syntax: tree-sitter scopes, a grammar in pipeline/syntax
	// (syntax.Supported).
	Syntax = "syntax"
	// Results: a registered test-result format its test tools write
	// (results.LanguageFormats in pipeline/results/languages.go).
	Results = "results"
	// Coverage: executable lines and a default coverage adapter
	// (pipeline/coverage: coverage.SupportedLanguage and AdapterFor).
	Coverage = "coverage"
	// Mutation: syntax mutation operators (pipeline/mutation,
	// mutation.OperatorLanguages).
	Mutation = "mutation"
	// Canary: the verifier's canary (pipeline/sandbox/guard).
	Canary = "canary"
	// Image: an offline base image (pipeline/baseimage).
	Image = "image"
	// Sample: a bundled sample (data/samples, support.Samples).
	Sample = "sample"
)

// Pieces lists the pieces in the order they are checked.
var Pieces = []string{Tests, Syntax, Results, Coverage, Mutation, Canary, Image, Sample}

// Lacks lists, per language of the table, the pieces it does not have
// yet. It is the one place a gap is declared: remove a piece here in the
// change that adds it (the test says so), and add a language's gaps in the
// change that adds the language to the table.
var Lacks = map[string][]string{
	"C": {},
	// Headers hold no tests of their own: the C or C++ canary covers the
	// tests that include them, and a sample is C or C++.
	"C/C++ Header": {Canary, Sample},
	"TypeScript":   {},
	"JavaScript":   {},
	"C#":           {Coverage, Mutation, Canary, Image, Sample},

	"Kotlin":             {Syntax, Coverage, Mutation, Canary, Image, Sample},
	"Scala":              {Syntax, Coverage, Mutation, Canary, Image, Sample},
	"Ruby":               {Syntax, Coverage, Mutation, Canary, Image, Sample},
	"PHP":                {Syntax, Coverage, Mutation, Canary, Image, Sample},
	"Swift":              {Syntax, Coverage, Mutation, Canary, Image, Sample},
	"Objective-C":        {Syntax, Coverage, Mutation, Canary, Image, Sample},
	"Lua":                {Syntax, Coverage, Mutation, Canary, Image, Sample},
	"Perl":               {Syntax, Coverage, Mutation, Canary, Image, Sample},
	"Bourne Again Shell": {Syntax, Coverage, Mutation, Canary, Image, Sample},
	"Haskell":            {Syntax, Coverage, Mutation, Canary, Image, Sample},
	"OCaml":              {Syntax, Coverage, Mutation, Canary, Image, Sample},
	"Elixir":             {Syntax, Coverage, Mutation, Canary, Image, Sample},
	"Erlang":             {Syntax, Coverage, Mutation, Canary, Image, Sample},
	"Dart":               {Syntax, Coverage, Mutation, Canary, Image, Sample},

	// shunit2, the usual shell test tool, writes no format we parse.
	"Bourne Shell": {Syntax, Results, Coverage, Mutation, Canary, Image, Sample},
	// Zig tests live inside the sources (test blocks), and assembly has
	// no test convention: neither has test files to tell apart.
	"Zig":      {Tests, Syntax, Results, Coverage, Mutation, Canary, Image, Sample},
	"Assembly": {Tests, Syntax, Results, Coverage, Mutation, Canary, Image, Sample},
}
