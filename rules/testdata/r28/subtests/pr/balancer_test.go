package wrr

import "testing"

// s is the suite: its Test* methods run as subtests of Test.
type s struct{}

func Test(t *testing.T) { runSubTests(t, s{}) }
