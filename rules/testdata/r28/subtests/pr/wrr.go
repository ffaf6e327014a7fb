// Package wrr picks backends in turn, by weight.
package wrr

// Pick returns the backend for turn n.
func Pick(backends []string, n int) string {
	return backends[n%len(backends)]
}

// Weight is a backend's weight from its reported load: at least 1.
func Weight(qps, util float64) float64 {
	if util <= 0 {
		return 1
	}
	return qps / util
}

// Blackout reports whether a backend's weight is still ignored, secs
// seconds after it first reported.
func Blackout(secs, period int) bool {
	return secs < period
}
