package wrr

import "testing"

func TestParseConfig(t *testing.T) {
	for _, c := range []struct {
		name string
		ok   bool
	}{{"zero weight", Weight(0, 1) == 0}, {"blackout period", Blackout(0, 1)}} {
		t.Run(c.name, func(t *testing.T) {
			if !c.ok {
				t.Fatal(c.name)
			}
		})
	}
}
