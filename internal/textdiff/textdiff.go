// Package textdiff shows where two texts part, for test failure messages.
// It is a test helper; product code never imports it.
package textdiff

import "fmt"

// First is the first byte at which a and b differ, with up to 80 bytes of
// each around it.
func First(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(i-80, 0)
	return fmt.Sprintf("at byte %d: %q vs %q", i, a[from:min(i+80, len(a))], b[from:min(i+80, len(b))])
}
