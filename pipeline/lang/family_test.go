package lang

import "testing"

func TestSameFamily(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"TypeScript", "JavaScript", true}, {"javascript", "TYPESCRIPT", true}, {"Go", "go", true},
		{"TypeScript", "Go", false}, {"Java", "JavaScript", false}, {"", "JavaScript", false},
	} {
		if got := SameFamily(tt.a, tt.b); got != tt.want {
			t.Errorf("SameFamily(%q, %q) = %v", tt.a, tt.b, got)
		}
	}
}
