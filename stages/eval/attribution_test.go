package eval

import (
	"math/big"
	"reflect"
	"testing"

	"github.com/lolbench/lolbench/data/taxonomy"
)

func rats(vals ...string) []*big.Rat {
	var out []*big.Rat
	for _, v := range vals {
		r, ok := new(big.Rat).SetString(v)
		if !ok {
			panic(v)
		}
		out = append(out, r)
	}
	return out
}

func TestLargestRemainder(t *testing.T) {
	for _, c := range []struct {
		name  string
		vals  []*big.Rat
		total int64
		want  []int64
	}{
		// Three thirds: naive rounding gives 33.3 three times (99.9); the
		// first keeps the missing tenth.
		{"thirds", rats("100/3", "100/3", "100/3"), 1000, []int64{334, 333, 333}},
		// The largest remainder wins, not the first.
		{"largest", rats("10.04", "20.07", "69.89"), 1000, []int64{100, 201, 699}},
		// 1/6 = 16.666..., 5/6 = 83.333...: naive rounds the same and
		// sums to 100.0; nothing to give.
		{"sixths", rats("50/3", "250/3"), 1000, []int64{167, 833}},
		{"exact", rats("25", "75", "0"), 1000, []int64{250, 750, 0}},
		{"empty total", rats("0", "0"), 0, []int64{0, 0}},
		// A phase's modes keep the phase's rounded total.
		{"phase total", rats("25/3", "25"), 334, []int64{84, 250}},
	} {
		if got := LargestRemainder(c.vals, c.total); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// Equation 1 with judged modes: high 1.0 and medium 0.6 split one unit as
// 5/8 and 3/8; equation 2 averages over the failed attempts.
func TestTallyWeightsAndTable(t *testing.T) {
	tx := taxonomy.Default()
	tl := NewTally(tx)
	a := []Detection{
		{Mode: "requirement_misread", Confidence: High},
		{Mode: "no_decomposition", Confidence: Medium},
	}
	tl.Add(a)
	if a[0].Weight != 1 || a[1].Weight != 0.6 || a[0].Share != 0.625 || a[1].Share != 0.375 {
		t.Fatalf("weights %v %v shares %v %v", a[0].Weight, a[1].Weight, a[0].Share, a[1].Share)
	}
	tl.Add([]Detection{{Mode: "no_test_run", Confidence: High}})
	tl.Add(nil) // unattributed
	tb := tl.Table()
	// requirement_understanding: 5/8 / 3 = 20.8333..%, planning 12.5%,
	// verification 33.333..%, unattributed 33.333..%. Naive: 20.8 + 12.5 +
	// 33.3 + 33.3 = 99.9; largest remainder gives requirement
	// understanding (remainder .333) ... all three remainders are 1/3:
	// 208.333, 333.333, 333.333 tenths: the first, requirement
	// understanding, gets the tenth.
	want := map[string][2]float64{
		"requirement_understanding": {20.9, 20.8}, "planning": {12.5, 12.5}, "localization": {0, 0}, "implementation": {0, 0},
		"verification": {33.3, 33.3}, "error_recovery": {0, 0}, "termination": {0, 0}, Unattributed: {33.3, 33.3},
	}
	if tb.Attempts != 3 || tb.Unattributed != 1 || len(tb.Phases) != 8 {
		t.Fatalf("table %+v", tb)
	}
	for _, s := range tb.Phases {
		if w := want[s.Name]; s.Percent != w[0] || s.Naive != w[1] {
			t.Errorf("%s: %v (naive %v), want %v (naive %v)", s.Name, s.Percent, s.Naive, w[0], w[1])
		}
	}
	if tb.Phases[0].Exact != "125/6" || tb.Phases[4].Exact != "100/3" {
		t.Errorf("exact %s %s", tb.Phases[0].Exact, tb.Phases[4].Exact)
	}
	ru := tb.Modes["requirement_understanding"]
	if ru[0].Name != "requirement_misread" || ru[0].Percent != 20.9 || ru[1].Percent != 0 {
		t.Errorf("requirement_understanding modes %+v", ru)
	}
}
