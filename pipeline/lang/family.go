package lang

import "strings"

// families are languages whose tests one runner runs together, so that a
// candidate of one also runs the other's test files: lolbench-node-test
// runs JavaScript and TypeScript test files in one process (issue 23).
var families = [][]string{{"JavaScript", "TypeScript"}}

// SameFamily reports whether two language names (any case) are the same
// language or of one family.
func SameFamily(a, b string) bool {
	if strings.EqualFold(a, b) {
		return true
	}
	for _, f := range families {
		var ha, hb bool
		for _, l := range f {
			ha = ha || strings.EqualFold(l, a)
			hb = hb || strings.EqualFold(l, b)
		}
		if ha && hb {
			return true
		}
	}
	return false
}
