package report

import (
	"fmt"
	"math"
	"reflect"
	"testing"
)

func TestNum(t *testing.T) {
	for _, tc := range []struct {
		in   Num
		want string
	}{
		{0, "0"}, {12, "12"}, {12.5, "12.5"}, {12.04, "12"}, {12.06, "12.1"}, {-0.01, "0"}, {-3.25, "-3.3"}, {1e6, "1000000"},
	} {
		if got := tc.in.String(); got != tc.want {
			t.Errorf("Num(%g) = %q, want %q", float64(tc.in), got, tc.want)
		}
	}
}

func TestBins(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []float64
		want []Bin
	}{
		{"none", nil, nil},
		{"only NaN and Inf", []float64{math.NaN(), math.Inf(1)}, nil},
		// One value: the span is the value itself, one bin of width 50.
		{"one value", []float64{47}, []Bin{{0, 50, 1}}},
		{"one zero", []float64{0}, []Bin{{0, 1, 1}}},
		// Two equal values: 2 bins of span 1, width 0.5; one is enough.
		{"equal values", []float64{0.018, 0.018}, []Bin{{0, 0.5, 2}}},
		// 4 values: 2 bins of width niceStep(300/2) = 200 from 0; 400 is
		// in the closed last bin.
		{"spread", []float64{100, 150, 250, 400}, []Bin{{0, 200, 2}, {200, 400, 2}}},
		{"max on an edge", []float64{0, 10}, []Bin{{0, 5, 1}, {5, 10, 1}}},
		{"negative", []float64{-5, 5}, []Bin{{-5, 0, 1}, {0, 5, 1}}},
		{"float edges", []float64{0.1, 0.2, 0.3}, []Bin{{0.1, 0.2, 1}, {0.2, 0.3, 2}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Bins(tc.in)
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i := range got {
				if math.Abs(got[i].Lo-tc.want[i].Lo) > 1e-9 || math.Abs(got[i].Hi-tc.want[i].Hi) > 1e-9 || got[i].Count != tc.want[i].Count {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			}
		})
	}
}

func TestBinsBounded(t *testing.T) {
	// A huge outlier cannot make thousands of bins.
	vs := []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 1e12}
	if n := len(Bins(vs)); n > 50 {
		t.Fatalf("%d bins", n)
	}
	total := 0
	for _, b := range Bins(vs) {
		total += b.Count
	}
	if total != len(vs) {
		t.Fatalf("bins hold %d values, want %d", total, len(vs))
	}
}

func TestNiceStep(t *testing.T) {
	for _, tc := range []struct{ in, want float64 }{
		{0, 1}, {-1, 1}, {0.3, 0.5}, {1, 1}, {1.5, 2}, {3, 5}, {7, 10}, {150, 200}, {0.0001, 0.0001},
	} {
		if got := niceStep(tc.in); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("niceStep(%g) = %g, want %g", tc.in, got, tc.want)
		}
	}
}

func TestHBarChart(t *testing.T) {
	c := HBarChart("t", []BarRow{
		{Label: "a", Segments: []Segment{{Class: "passed", Name: "passed", Value: 3}, {Class: "rejected", Name: "rejected", Value: 1}}},
		{Label: "b", Segments: []Segment{{Class: "passed", Name: "passed", Value: 2}, {Class: "rejected", Name: "rejected", Value: 0}}},
	}, nil)
	want := []Rect{
		{X: 160, Y: 10, W: 315, H: 18, Class: "passed", Tip: "a: passed 3"},
		{X: 475, Y: 10, W: 105, H: 18, Class: "rejected", Tip: "a: rejected 1"},
		{X: 160, Y: 34, W: 210, H: 18, Class: "passed", Tip: "b: passed 2"},
	}
	if !reflect.DeepEqual(c.Rects, want) {
		t.Fatalf("rects\n got %+v\nwant %+v", c.Rects, want)
	}
	if c.Width != 650 || c.Height != 62 {
		t.Fatalf("size %dx%d", c.Width, c.Height)
	}
	texts := fmt.Sprint(c.Texts)
	if texts != "[{154 23 end label a} {584 23 start value 4} {154 47 end label b} {374 47 start value 2}]" {
		t.Fatalf("texts %s", texts)
	}
	if e := HBarChart("t", nil, nil); e.Empty != "no data" || len(e.Rects) != 0 {
		t.Fatalf("empty chart %+v", e)
	}
	// All zero: no bar, no division by zero.
	z := HBarChart("t", []BarRow{{Label: "a", Segments: []Segment{{Value: 0}}}}, nil)
	if len(z.Rects) != 0 || fmt.Sprint(z.Texts) != "[{154 23 end label a} {164 23 start value 0}]" {
		t.Fatalf("zero chart %+v", z)
	}
}

func TestHistogram(t *testing.T) {
	c := Histogram("Solution size", "LoC", []float64{100, 150, 250, 400, 420}, "bar-b")
	// 5 values: 3 bins of width niceStep(320/3) = 200 from 0, 100 units
	// wide; the tallest bar (2) is 106 high, down to the axis at y 130.
	want := []Rect{
		{X: 37, Y: 24, W: 98, H: 106, Class: "bar-b", Tip: "0–200 LoC: 2"},
		{X: 137, Y: 77, W: 98, H: 53, Class: "bar-b", Tip: "200–400 LoC: 1"},
		{X: 237, Y: 24, W: 98, H: 106, Class: "bar-b", Tip: "400–600 LoC: 2"},
	}
	if !reflect.DeepEqual(c.Rects, want) {
		t.Fatalf("rects\n got %+v\nwant %+v", c.Rects, want)
	}
	if e := Histogram("x", "LoC", nil, "bar-b"); e.Empty != "no data" {
		t.Fatalf("empty histogram %+v", e)
	}
}
