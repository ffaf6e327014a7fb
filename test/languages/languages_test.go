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
	"github.com/lolbench/lolbench/pipeline/langsupport"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/results"
)

// where says where a piece is added (docs/maintainers.md has the steps).
var where = func() map[string]string {
	m := map[string]string{}
	for _, p := range langsupport.Pieces {
		m[p.Name] = p.Where
	}
	return m
}()

// rows are the support matrix by language.
var rows = func() map[string]langsupport.Row {
	m := map[string]langsupport.Row{}
	for _, r := range langsupport.Matrix() {
		m[r.Language] = r
	}
	return m
}()

// has reports whether language has piece, from the support matrix, which
// reads the packages themselves.
func has(language, piece string) bool {
	r, ok := rows[language]
	if !ok {
		return false
	}
	for _, p := range langsupport.Pieces {
		if p.Name == piece {
			return p.Has(r)
		}
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
		_, err := coverage.AdapterFor(recipe.Recipe{}, l)
		if coverage.SupportedLanguage(l) != (err == nil) {
			t.Errorf("%s: coverage.SupportedLanguage is %v but AdapterFor says %v", l, coverage.SupportedLanguage(l), err)
		}
	}
}

// TestCheck shows that the check fails in each way it should.
func TestCheck(t *testing.T) {
	pieces := map[string][]string{
		"Full": Pieces,
		"Half": {Tests, Syntax, Results, Canary, Image, Sample},
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
			`Lacks["Half"] names "docs", not a piece (tests, syntax, results, coverage, mutation, canary, image, sample)`,
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
