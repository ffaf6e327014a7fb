package syntax

import "testing"

// TestFenceTags: the grammars and the fence tags name the same languages
// (TSX included, which is a grammar but not a row of the language table).
func TestFenceTags(t *testing.T) {
	for n := range grammarNames {
		if FenceTag(n) == "" {
			t.Errorf("%s has a grammar and no fence tag in fenceTags (pipeline/syntax/fence.go)", n)
		}
	}
	for n := range fenceTags {
		if !Supported(n) {
			t.Errorf("%s has a fence tag and no grammar", n)
		}
	}
}
