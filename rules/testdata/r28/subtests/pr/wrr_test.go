package wrr

import "testing"

func (s) TestBalancer_OneAddress(t *testing.T) {
	if Weight(10, 0) != 1 {
		t.Fatal("a backend without load weighs 1")
	}
}

func (s) TestBalancer_Blackout(t *testing.T) {
	if !Blackout(1, 10) {
		t.Fatal("a new backend is in blackout")
	}
}
