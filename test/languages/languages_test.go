package languages

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/results"
	"github.com/lolbench/lolbench/pipeline/syntax"
)

// where says where a piece is added (docs/maintainers.md has the steps).
var where = map[string]string{
	Tests:    "TestNames, TestDirs or TestPaths in pipeline/lang/table.go",
	Syntax:   "a grammar file in pipeline/syntax and its line in grammarNames, pipeline/syntax/parser.go",
	Results:  "a line in results.LanguageFormats, pipeline/sandbox/results/languages.go",
	Coverage: "statement rules in pipeline/coverage/executable.go and an adapter in pipeline/coverage",
	Mutation: "a Syntax entry in pipeline/mutation/operator.go",
}

// adapterRecipe names no adapter, so AdapterFor picks the language's
// default; the coverage command and report satisfy adapters that need one.
var adapterRecipe = recipe.Recipe{Coverage: recipe.Coverage{Command: "run {tests}", Report: "report.xml"}}

// has reports whether language has piece, from the packages themselves.
func has(language, piece string) bool {
	switch piece {
	case Tests:
		l := lang.ByName(language)
		return l != nil && len(l.TestNames)+len(l.TestDirs)+len(l.TestPaths) > 0
	case Syntax:
		return syntax.Supported(language)
	case Results:
		return len(results.LanguageFormats[language]) > 0
	case Coverage:
		_, err := coverage.AdapterFor(adapterRecipe, language)
		return coverage.SupportedLanguage(language) && err == nil
	case Mutation:
		return slices.Contains(mutation.OperatorLanguages(), language)
	}
	return false
}

// check returns the problems of a language list against the pieces they
// have and the declared gaps, one message each, sorted.
func check(languages []string, has func(language, piece string) bool, lacks map[string][]string) []string {
	var out []string
	known := map[string]bool{}
	for _, l := range languages {
		if known[l] {
			out = append(out, fmt.Sprintf("%s is in the language table twice", l))
		}
		known[l] = true
	}
	for l, ps := range lacks {
		if !known[l] {
			out = append(out, fmt.Sprintf("Lacks names %q, which is not in the language table (pipeline/lang/table.go)", l))
		}
		seen := map[string]bool{}
		for _, p := range ps {
			switch {
			case !slices.Contains(Pieces, p):
				out = append(out, fmt.Sprintf("Lacks[%q] names %q, not a piece (%s)", l, p, strings.Join(Pieces, ", ")))
			case seen[p]:
				out = append(out, fmt.Sprintf("Lacks[%q] lists %q twice", l, p))
			}
			seen[p] = true
		}
	}
	for l := range known {
		for _, p := range Pieces {
			declared := slices.Contains(lacks[l], p)
			switch ok := has(l, p); {
			case !ok && !declared:
				out = append(out, fmt.Sprintf("%s has no %s piece: add %s, or declare the gap in Lacks (test/languages/lacks.go)", l, p, where[p]))
			case ok && declared:
				out = append(out, fmt.Sprintf("%s has its %s piece now: remove %q from Lacks[%q] (test/languages/lacks.go)", l, p, p, l))
			}
		}
	}
	sort.Strings(out)
	return out
}

func tableNames() []string {
	var names []string
	for _, l := range lang.Table {
		names = append(names, l.Name)
	}
	return names
}

// TestEveryLanguageHasItsPieces is the completeness check of issue 8:
// every language of the table has each piece or declares that it lacks it,
// and no declared gap is filled.
func TestEveryLanguageHasItsPieces(t *testing.T) {
	for _, p := range check(tableNames(), has, Lacks) {
		t.Error(p)
	}
}

// TestPiecesNameTableLanguages: what the piece registries name exists,
// so that a piece cannot hide behind a misspelt language or format.
func TestPiecesNameTableLanguages(t *testing.T) {
	for l, formats := range results.LanguageFormats {
		if lang.ByName(l) == nil {
			t.Errorf("results.LanguageFormats names %q, which is not in the language table", l)
		}
		if len(formats) == 0 {
			t.Errorf("results.LanguageFormats[%q] is empty: leave the language out instead", l)
		}
		for _, f := range formats {
			if _, err := results.Lookup(f); err != nil {
				t.Errorf("results.LanguageFormats[%q]: %v", l, err)
			}
		}
	}
	for _, l := range mutation.OperatorLanguages() {
		if lang.ByName(l) == nil {
			t.Errorf("mutation operators cover %q, which is not in the language table", l)
		}
	}
	// Coverage has two halves, the executable lines and the adapter; a
	// language with one and not the other has neither in effect.
	for _, l := range tableNames() {
		_, err := coverage.AdapterFor(adapterRecipe, l)
		if coverage.SupportedLanguage(l) != (err == nil) {
			t.Errorf("%s: coverage.SupportedLanguage is %v but AdapterFor says %v", l, coverage.SupportedLanguage(l), err)
		}
	}
}

// TestCheck shows that the check fails in each way it should.
func TestCheck(t *testing.T) {
	pieces := map[string][]string{
		"Full": Pieces,
		"Half": {Tests, Syntax, Results},
	}
	fake := func(l, p string) bool { return slices.Contains(pieces[l], p) }
	tests := []struct {
		name      string
		languages []string
		lacks     map[string][]string
		want      []string
	}{
		{"exact", []string{"Full", "Half"}, map[string][]string{"Half": {Coverage, Mutation}}, nil},
		{"undeclared gap", []string{"Full", "Half"}, map[string][]string{"Half": {Mutation}}, []string{
			"Half has no coverage piece: add " + where[Coverage] + ", or declare the gap in Lacks (test/languages/lacks.go)"}},
		{"filled gap", []string{"Full", "Half"}, map[string][]string{"Half": {Coverage, Mutation}, "Full": {Syntax}}, []string{
			`Full has its syntax piece now: remove "syntax" from Lacks["Full"] (test/languages/lacks.go)`}},
		{"bad declarations", []string{"Full", "Half", "Half"}, map[string][]string{"Half": {Coverage, Mutation, Mutation, "docs"}, "Cobol": {}}, []string{
			`Half is in the language table twice`,
			`Lacks names "Cobol", which is not in the language table (pipeline/lang/table.go)`,
			`Lacks["Half"] lists "mutation" twice`,
			`Lacks["Half"] names "docs", not a piece (tests, syntax, results, coverage, mutation)`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := check(tt.languages, fake, tt.lacks)
			want := append([]string(nil), tt.want...)
			sort.Strings(want)
			if len(got) != 0 || len(want) != 0 {
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			}
		})
	}
}
