package calc

import "fmt"

// Describe names the size and the sign of x.
func Describe(x int) string {
	sign := "positive"
	if x < 0 {
		sign = "negative"
		x = -x
	}
	if x == 0 {
		return "zero"
	}
	size := "small"
	if x >= 100 {
		size = "large"
	}
	if x >= 1000000 {
		size = "huge"
	}
	return fmt.Sprintf("%s %s", size, sign)
}
