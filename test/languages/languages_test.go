// Package languages holds the tests that keep the language support matrix
// exact (issues 8, 22 and 34 §4, docs/maintainers.md, docs/languages.md):
// every language of the language table (pipeline/lang) has each piece of
// langsupport.Pieces or declares the gap, and why, in langsupport.Gaps;
// the pieces are read from the packages that do the work.
package languages

import (
	"testing"

	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/langsupport"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/results"
)

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

func tableNames() []string {
	var names []string
	for _, l := range lang.Table {
		names = append(names, l.Name)
	}
	return names
}

// TestEveryLanguageHasItsPieces is the completeness check (issues 8 and
// 34 §4):
// every language of the table has each piece or declares that it lacks it,
// and no declared gap is filled.
func TestEveryLanguageHasItsPieces(t *testing.T) {
	for _, p := range langsupport.Problems(tableNames(), has, langsupport.Gaps) {
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
