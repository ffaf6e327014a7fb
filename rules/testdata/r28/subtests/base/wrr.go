// Package wrr picks backends in turn.
package wrr

// Pick returns the backend for turn n.
func Pick(backends []string, n int) string {
	return backends[n%len(backends)]
}
