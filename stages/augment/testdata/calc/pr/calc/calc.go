// Package calc is a small arithmetic library.
package calc

import "errors"

// ErrRange reports bounds given in the wrong order.
var ErrRange = errors.New("calc: lo is greater than hi")

// Add returns a + b.
func Add(a, b int) int { return a + b }

// Clamp limits x to the closed range [lo, hi].
func Clamp(x, lo, hi int) (int, error) {
	if lo > hi {
		return 0, ErrRange
	}
	return clampHelper(x, lo, hi), nil
}

func clampHelper(x, lo, hi int) int {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

// ClampAll clamps every value of xs.
func ClampAll(xs []int, lo, hi int) ([]int, error) {
	out := make([]int, len(xs))
	for i, x := range xs {
		v, err := Clamp(x, lo, hi)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}
