package langsupport

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// The pieces a language can have (Pieces says where each is added and
// how the matrix tells it has it).
const (
	Tests     = "tests"
	Syntax    = "syntax"
	Members   = "members"
	Results   = "results"
	Coverage  = "coverage"
	Mutation  = "mutation"
	TestAudit = "test-audit"
	Canary    = "canary"
	Image     = "image"
	Fence     = "fence"
	Augment   = "augment"
	Sample    = "sample"
)

// Gap is one piece a language does not have, and why.
type Gap struct {
	Piece string `json:"piece"`
	Why   string `json:"why"`
}

// Reasons shared by several languages.
const (
	recognisedOnly = "recognised for file categories and LoC only: no tree-sitter grammar is wired in, so nothing that reads scopes works, and no image, runner or sample has been made for it"
	noMemberRules  = "no member rules for C structs and C++ data members yet (pipeline/syntax/members_langs.go): the spec variant and the report skip these files with a reason"
	cmakeNewTest   = "a new C or C++ test file is built only once the project's build (CMake) lists it, and augment adds new files, never edits one"
)

// grammarless is the gap list of a language the table only recognises;
// more are a language's further gaps.
func grammarless(more ...Gap) []Gap {
	var out []Gap
	for _, p := range []string{Syntax, Members, Coverage, Mutation, TestAudit, Canary, Image, Fence, Augment, Sample} {
		out = append(out, Gap{p, recognisedOnly})
	}
	return append(out, more...)
}

// Gaps lists, per language of the table, the pieces it does not have and
// why. It is the one place a gap is declared: remove a gap here in the
// change that adds the piece (the completeness test says so), and add a
// language's gaps in the change that adds it to the table.
var Gaps = map[string][]Gap{
	"C":            {{Members, noMemberRules}, {Augment, cmakeNewTest}},
	"C++":          {{Members, noMemberRules}, {Augment, cmakeNewTest}},
	"C/C++ Header": {{Members, noMemberRules}, {Augment, cmakeNewTest}, {Canary, "headers hold no tests: the C or C++ canary covers the tests that include them"}, {Sample, "a sample is C or C++, and each has headers"}},
	"C#": {
		{Coverage, "no coverage tool in Debian's packages (coverlet is a NuGet package)"},
		{Mutation, "no mutation Syntax entry yet (pipeline/mutation/operator.go)"},
		{TestAudit, "no audit rule for C# visibility yet (pipeline/testaudit)"},
		{Canary, "the .NET SDK is not in Debian bookworm, so no C# test has been run here to plant a canary for"},
		{Image, "the .NET SDK is not in Debian bookworm: it must come from the host (baseimage.HostSDK)"},
		{Augment, "no runner here to check a generated C# test against"},
		{Sample, "the .NET SDK is not in Debian bookworm, so no sample can run offline"},
	},
	"Kotlin": grammarless(), "Scala": grammarless(), "Ruby": grammarless(), "PHP": grammarless(), "Swift": grammarless(),
	"Objective-C": grammarless(), "Lua": grammarless(), "Perl": grammarless(), "Bourne Again Shell": grammarless(),
	"Haskell": grammarless(), "OCaml": grammarless(), "Elixir": grammarless(), "Erlang": grammarless(), "Dart": grammarless(),
	"Bourne Shell": grammarless(Gap{Results, "shunit2, the usual shell test tool, writes no format we parse"}),
	"Zig": grammarless(Gap{Tests, "Zig tests live inside the sources (test blocks): there are no test files to tell apart"},
		Gap{Results, "zig test writes no format we parse"}),
	"Assembly": grammarless(Gap{Tests, "assembly has no test-file convention"}, Gap{Results, "assembly has no test tool"}),
}

// Why is the declared reason language lacks piece, "" when it is not a
// declared gap.
func Why(language, piece string) string {
	for _, g := range Gaps[language] {
		if g.Piece == piece {
			return g.Why
		}
	}
	return ""
}

// pieceNames are the piece names in the matrix's order.
func pieceNames() []string {
	out := make([]string, len(Pieces))
	for i, p := range Pieces {
		out[i] = p.Name
	}
	return out
}

// Problems checks a language list against the pieces they have and the
// declared gaps: a piece missing without a declared gap, a declared gap
// that has been filled, and declarations that name no language or piece.
// One message each, naming the file to edit, sorted. The completeness test
// (test/languages) runs it on the table and the matrix.
func Problems(languages []string, has func(language, piece string) bool, gaps map[string][]Gap) []string {
	var out []string
	known := map[string]bool{}
	for _, l := range languages {
		if known[l] {
			out = append(out, fmt.Sprintf("%s is in the language table twice", l))
		}
		known[l] = true
	}
	names := pieceNames()
	for l, gs := range gaps {
		if !known[l] {
			out = append(out, fmt.Sprintf("Gaps names %q, which is not in the language table (pipeline/lang/table.go)", l))
		}
		seen := map[string]bool{}
		for _, g := range gs {
			switch {
			case !slices.Contains(names, g.Piece):
				out = append(out, fmt.Sprintf("Gaps[%q] names %q, not a piece (%s)", l, g.Piece, strings.Join(names, ", ")))
			case seen[g.Piece]:
				out = append(out, fmt.Sprintf("Gaps[%q] lists %q twice", l, g.Piece))
			case strings.TrimSpace(g.Why) == "":
				out = append(out, fmt.Sprintf("Gaps[%q] declares %q without saying why (pipeline/langsupport/gaps.go)", l, g.Piece))
			}
			seen[g.Piece] = true
		}
	}
	for l := range known {
		for _, p := range Pieces {
			declared := slices.ContainsFunc(gaps[l], func(g Gap) bool { return g.Piece == p.Name })
			switch ok := has(l, p.Name); {
			case !ok && !declared:
				out = append(out, fmt.Sprintf("%s has no %s piece: add %s, or declare the gap and why in Gaps (pipeline/langsupport/gaps.go)", l, p.Name, p.Where))
			case ok && declared:
				out = append(out, fmt.Sprintf("%s has its %s piece now: remove it from Gaps[%q] (pipeline/langsupport/gaps.go)", l, p.Name, l))
			}
		}
	}
	sort.Strings(out)
	return out
}
