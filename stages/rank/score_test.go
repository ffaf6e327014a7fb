package rank

import (
	"encoding/json"
	"math/big"
	"reflect"
	"testing"

	"github.com/lolbench/lolbench/prompts"
)

// dims builds Dimensions in the order coverage, precision, scope,
// granularity, specificity.
func dims(c, p, s, g, sp int) Dimensions { return Dimensions{c, p, s, g, sp} }

func TestSectionScore(t *testing.T) {
	for _, tc := range []struct {
		d     Dimensions
		exact string
		q     string
	}{
		{dims(10, 10, 10, 10, 10), "10.00", "10.0"},
		{dims(1, 1, 1, 1, 1), "1.00", "1.0"},
		{dims(8, 7, 8, 9, 9), "7.95", "8.0"}, // 3.20+1.75+1.20+0.90+0.90, half up
		{dims(8, 8, 8, 7, 8), "7.90", "7.9"}, // 3.20+2.00+1.20+0.70+0.80
		{dims(9, 9, 8, 8, 9), "8.75", "8.8"}, // 3.60+2.25+1.20+0.80+0.90
		{dims(10, 1, 1, 1, 1), "4.60", "4.6"},
		{dims(1, 10, 1, 1, 1), "3.25", "3.3"}, // 0.40+2.50+0.15+0.10+0.10
		{dims(1, 1, 10, 1, 1), "2.35", "2.4"},
		{dims(1, 1, 1, 10, 1), "1.90", "1.9"},
		{dims(1, 1, 1, 1, 10), "1.90", "1.9"},
		{dims(9, 7, 8, 7, 8), "8.05", "8.1"},
		{dims(7, 9, 8, 6, 9), "7.75", "7.8"}, // 2.80+2.25+1.20+0.60+0.90
		{dims(7, 8, 7, 9, 6), "7.35", "7.4"},
	} {
		q := SectionScore(tc.d)
		if q.String() != tc.exact || q.Round().String() != tc.q {
			t.Errorf("%+v: q %s rounded %s, want %s and %s", tc.d, q, q.Round(), tc.exact, tc.q)
		}
	}
}

// TestSectionScoreExhaustive checks all 10^5 score combinations against
// rational arithmetic on the paper's decimal weights, rounding included.
func TestSectionScoreExhaustive(t *testing.T) {
	w := []*big.Rat{rat("0.40"), rat("0.25"), rat("0.15"), rat("0.10"), rat("0.10")}
	n := 0
	for c := 1; c <= 10; c++ {
		for p := 1; p <= 10; p++ {
			for s := 1; s <= 10; s++ {
				for g := 1; g <= 10; g++ {
					for sp := 1; sp <= 10; sp++ {
						want := new(big.Rat)
						for i, v := range []int{c, p, s, g, sp} {
							want.Add(want, new(big.Rat).Mul(w[i], big.NewRat(int64(v), 1)))
						}
						q := SectionScore(dims(c, p, s, g, sp))
						if big.NewRat(int64(q), 100).Cmp(want) != 0 {
							t.Fatalf("%d %d %d %d %d: q %s, want %s", c, p, s, g, sp, q, want.FloatString(4))
						}
						if got, want := q.Round(), ratRound(want); got != want {
							t.Fatalf("%d %d %d %d %d: rounded %s, want %s", c, p, s, g, sp, got, want)
						}
						n++
					}
				}
			}
		}
	}
	if n != 100000 {
		t.Fatalf("%d combinations", n)
	}
}

func rat(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic(s)
	}
	return r
}

// ratRound rounds a non-negative rational half up to tenths.
func ratRound(r *big.Rat) Tenths {
	x := new(big.Rat).Mul(r, big.NewRat(10, 1))
	x.Add(x, big.NewRat(1, 2))
	return Tenths(new(big.Int).Quo(x.Num(), x.Denom()).Int64())
}

func TestWeight(t *testing.T) {
	for _, tc := range []struct {
		name          string
		implementable bool
		c             Category
		mods          []Modifier
		want          string
		err           string
	}{
		{"core", true, Core, nil, "1.0", ""},
		{"internal", true, Internal, nil, "0.8", ""},
		{"compatibility", true, Compatibility, nil, "0.6", ""},
		{"tests", true, Tests, nil, "0.4", ""},
		{"docs", true, Docs, nil, "0.2", ""},
		// The judge's label cannot zero a section the artifact marks
		// implementable: base 0, floored at 0.1 (issue 12 §5).
		{"non-implementable category floored", true, NonImplementable, nil, "0.1", ""},
		{"core clipped at 1.0", true, Core, []Modifier{Normative, Dependents}, "1.0", ""},
		{"internal plus both", true, Internal, []Modifier{Normative, Dependents}, "1.0", ""},
		{"internal plus normative", true, Internal, []Modifier{Normative}, "0.9", ""},
		{"tests plus normative", true, Tests, []Modifier{Normative}, "0.5", ""},
		{"compatibility, dependents, vague", true, Compatibility, []Modifier{Dependents, Vague}, "0.6", ""},
		{"compatibility, vague", true, Compatibility, []Modifier{Vague}, "0.5", ""},
		{"internal optional", true, Internal, []Modifier{Optional}, "0.6", ""},
		{"core, every minus", true, Core, []Modifier{Illustrative, Vague, Optional}, "0.6", ""},
		{"docs optional clipped at 0.1", true, Docs, []Modifier{Optional}, "0.1", ""},
		{"docs all minus clipped at 0.1", true, Docs, []Modifier{Illustrative, Vague, Optional}, "0.1", ""},
		{"tests all five", true, Tests, []Modifier{Normative, Dependents, Illustrative, Vague, Optional}, "0.2", ""},
		{"non-implementable plus modifiers", true, NonImplementable, []Modifier{Normative, Dependents}, "0.2", ""},
		{"non-implementable optional floored", true, NonImplementable, []Modifier{Optional}, "0.1", ""},
		{"non-implementable in both", false, NonImplementable, []Modifier{Normative}, "0.0", ""},
		{"not implementable in the artifact", false, Core, []Modifier{Normative}, "0.0", ""},
		{"unknown category", true, "api", nil, "", `unknown category "api"`},
		{"unknown modifier", true, Core, []Modifier{"urgent"}, "", `unknown modifier "urgent"`},
		{"modifier twice", true, Core, []Modifier{Vague, Vague}, "", `modifier "vague" is given twice; each applies once`},
	} {
		w, err := Weight(tc.implementable, tc.c, tc.mods)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s: err %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || w.String() != tc.want {
			t.Errorf("%s: %s %v, want %s", tc.name, w, err, tc.want)
		}
	}
}

// TestWeightExhaustive checks every category with every set of modifiers
// against the rule written out independently.
func TestWeightExhaustive(t *testing.T) {
	base := map[Category]int{Core: 10, Internal: 8, Compatibility: 6, Tests: 4, Docs: 2, NonImplementable: 0}
	delta := map[Modifier]int{Normative: 1, Dependents: 1, Illustrative: -1, Vague: -1, Optional: -2}
	all := []Modifier{Normative, Dependents, Illustrative, Vague, Optional}
	for c, b := range base {
		for set := 0; set < 1<<len(all); set++ {
			var mods []Modifier
			sum := b
			for i, m := range all {
				if set&(1<<i) != 0 {
					mods = append(mods, m)
					sum += delta[m]
				}
			}
			for _, impl := range []bool{true, false} {
				want := 0
				if impl {
					want = min(max(sum, 1), 10)
				}
				got, err := Weight(impl, c, mods)
				if err != nil || int(got) != want {
					t.Fatalf("%s %v implementable %v: %s %v, want %d tenths", c, mods, impl, got, err, want)
				}
			}
		}
	}
}

func TestScore(t *testing.T) {
	sec := func(id string, d Dimensions, c Category, mods ...Modifier) Section {
		return Section{Section: id, Implementable: true, Dimensions: d, Category: c, Modifiers: mods}
	}
	for _, tc := range []struct {
		name     string
		sections []Section
		hasQ     bool
		q        string
		retained bool
		comp     string
	}{
		{
			name:     "7.95 is published as 8.0 and retained",
			sections: []Section{sec("3.1", dims(8, 7, 8, 9, 9), Core)},
			hasQ:     true, q: "8.0", retained: true,
			comp: "Q = Σ w·q / Σ w = (1.0×7.95) / (1.0) = 7.950 / 1.0 = 7.9500 → 8.0",
		},
		{
			name:     "exactly 8.00 is retained",
			sections: []Section{sec("3.1", dims(8, 8, 8, 8, 8), Internal)},
			hasQ:     true, q: "8.0", retained: true,
			comp: "Q = Σ w·q / Σ w = (0.8×8.00) / (0.8) = 6.400 / 0.8 = 8.0000 → 8.0",
		},
		{
			// (1.0·7.95 + 0.1·7.90) / 1.1 = 8.74 / 1.1 = 7.94545...: just
			// under the rounding edge, published as 7.9.
			name: "7.9454 is published as 7.9 and not retained",
			sections: []Section{
				sec("3.1", dims(8, 7, 8, 9, 9), Core),
				sec("6.1", dims(8, 8, 8, 7, 8), Docs, Optional),
			},
			hasQ: true, q: "7.9", retained: false,
			comp: "Q = Σ w·q / Σ w = (1.0×7.95 + 0.1×7.90) / (1.0 + 0.1) = 8.740 / 1.1 = 7.9455 → 7.9",
		},
		{
			// (1.0·8.75 + 0.4·10.00 + 0.5·6.50) / 1.9 = 16.00 / 1.9 = 8.42105...
			name: "three sections with clipping and modifiers",
			sections: []Section{
				sec("3.1", dims(9, 9, 8, 8, 9), Core, Normative),
				sec("5", dims(10, 10, 10, 10, 10), Tests),
				sec("4", dims(6, 7, 7, 8, 5), Compatibility, Vague),
			},
			hasQ: true, q: "8.4", retained: true,
			comp: "Q = Σ w·q / Σ w = (1.0×8.75 + 0.4×10.00 + 0.5×6.50) / (1.0 + 0.4 + 0.5) = 16.000 / 1.9 = 8.4211 → 8.4",
		},
		{
			// 8.05 exactly: half up to 8.1.
			name:     "a half rounds up",
			sections: []Section{sec("2", dims(9, 7, 8, 7, 8), Core)},
			hasQ:     true, q: "8.1", retained: true,
			comp: "Q = Σ w·q / Σ w = (1.0×8.05) / (1.0) = 8.050 / 1.0 = 8.0500 → 8.1",
		},
		{
			// A section the artifact marks not implementable weighs 0,
			// however well it scores; one the judge alone calls
			// non-implementable keeps the floor: (1.0·5.00 + 0.1·10.00) / 1.1.
			name: "the artifact decides what leaves Q, not the judge",
			sections: []Section{
				sec("3", dims(5, 5, 5, 5, 5), Core),
				sec("1", dims(10, 10, 10, 10, 10), NonImplementable, Normative),
				{Section: "2", Implementable: false, Dimensions: dims(10, 10, 10, 10, 10), Category: Core},
			},
			hasQ: true, q: "5.5", retained: false,
			comp: "Q = Σ w·q / Σ w = (1.0×5.00 + 0.1×10.00) / (1.0 + 0.1) = 6.000 / 1.1 = 5.4545 → 5.5",
		},
		{
			// (1.0·9.00 + 0.1·1.00) / 1.1 = 8.2727...: a failing section the
			// judge calls non-implementable still pulls Q down; without the
			// floor Q would be 9.0.
			name: "a judge's label does not hide a failing section",
			sections: []Section{
				sec("3.1", dims(9, 9, 9, 9, 9), Core),
				sec("3.2", dims(1, 1, 1, 1, 1), NonImplementable),
			},
			hasQ: true, q: "8.3", retained: true,
			comp: "Q = Σ w·q / Σ w = (1.0×9.00 + 0.1×1.00) / (1.0 + 0.1) = 9.100 / 1.1 = 8.2727 → 8.3",
		},
		{
			// (0.1·1.00 + 0.1·10.00) / 0.2 = 5.5: clipped weights still count.
			name: "weights clipped to 0.1",
			sections: []Section{
				sec("a", dims(1, 1, 1, 1, 1), Docs, Optional, Vague),
				sec("b", dims(10, 10, 10, 10, 10), Tests, Illustrative, Vague, Optional),
			},
			hasQ: true, q: "5.5", retained: false,
			comp: "Q = Σ w·q / Σ w = (0.1×1.00 + 0.1×10.00) / (0.1 + 0.1) = 1.100 / 0.2 = 5.5000 → 5.5",
		},
		{
			name:     "no weight, no Q",
			sections: []Section{{Section: "1", Implementable: false, Dimensions: dims(10, 10, 10, 10, 10), Category: Core}},
			hasQ:     false, q: "0.0", retained: false,
			comp: "Q = Σ w·q / Σ w is undefined: Σ w = 0",
		},
		{
			name:     "the judge alone cannot leave Q undefined",
			sections: []Section{sec("1", dims(10, 10, 10, 10, 10), NonImplementable)},
			hasQ:     true, q: "10.0", retained: true,
			comp: "Q = Σ w·q / Σ w = (0.1×10.00) / (0.1) = 1.000 / 0.1 = 10.0000 → 10.0",
		},
		{name: "no sections", hasQ: false, q: "0.0", comp: "Q = Σ w·q / Σ w is undefined: Σ w = 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Score(tc.sections)
			if err != nil {
				t.Fatal(err)
			}
			if r.HasQ != tc.hasQ || r.Q.String() != tc.q || Retained(true, true, r) != tc.retained || r.Computation() != tc.comp {
				t.Fatalf("hasQ %v Q %s retained %v\n%s\nwant hasQ %v Q %s retained %v\n%s",
					r.HasQ, r.Q, Retained(true, true, r), r.Computation(), tc.hasQ, tc.q, tc.retained, tc.comp)
			}
			if tc.retained && (Retained(false, true, r) || Retained(true, false, r)) {
				t.Fatal("retained without both validation gates")
			}
		})
	}
}

func TestScoreRejectsBadInput(t *testing.T) {
	for _, tc := range []struct {
		s   Section
		err string
	}{
		{Section{Section: "2", Dimensions: dims(0, 5, 5, 5, 5), Category: Core}, "section 2: coverage is 0; scores are whole numbers from 1 to 10"},
		{Section{Section: "2", Dimensions: dims(5, 5, 5, 5, 11), Category: Core}, "section 2: specificity is 11; scores are whole numbers from 1 to 10"},
		{Section{Section: "2", Dimensions: dims(5, 5, 5, 5, 5), Category: "key"}, `section 2: unknown category "key"`},
	} {
		if _, err := Score([]Section{tc.s}); err == nil || err.Error() != tc.err {
			t.Errorf("%+v: %v, want %q", tc.s, err, tc.err)
		}
	}
}

func TestDecimalJSON(t *testing.T) {
	b, _ := json.Marshal(struct {
		A, B, C Tenths
		D       Hundredths
	}{80, 5, 100, 795})
	if string(b) != `{"A":8.0,"B":0.5,"C":10.0,"D":7.95}` {
		t.Fatalf("marshal %s", b)
	}
	for _, tc := range []struct {
		in   string
		want Tenths
		err  bool
	}{{"8", 80, false}, {"8.0", 80, false}, {"0.5", 5, false}, {"10.0", 100, false}, {"8.05", 0, true}, {"8e1", 0, true}, {`"8"`, 0, true}, {"", 0, true}} {
		var got Tenths
		err := got.UnmarshalJSON([]byte(tc.in))
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("%q: %v %v", tc.in, got, err)
		}
	}
	var h Hundredths
	if err := h.UnmarshalJSON([]byte("7.95")); err != nil || h != 795 {
		t.Errorf("hundredths: %v %v", h, err)
	}
}

func TestBuildReport(t *testing.T) {
	want := []prompts.Section{{ID: "3.1", Level: 2, Title: "Store API"}, {ID: "6.1", Level: 2, Title: "Eviction policies"}}
	j := &Judgement{
		Sections: []JudgedSection{
			// The judge's order does not matter; the artifact's does.
			{Section: "6.1", Claims: []string{"LRU eviction"}, Dimensions: dims(8, 8, 8, 7, 8), Category: Docs, Modifiers: []Modifier{Optional}, Reason: "rightly deferred"},
			{Section: "3.1", Claims: []string{"SetWithTTL", "TTL"}, Dimensions: dims(8, 7, 8, 9, 9), Category: Core, Reason: "complete but coarse"},
		},
		InstanceScore: 8, MainReason: " the store API mapping is complete ",
	}
	rep, err := BuildReport(j, want, Gates{Static: true, Semantic: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Q == nil || rep.Q.String() != "7.9" || rep.Retained || rep.Review != "" || string(rep.QExact) != "7.9455" || rep.Reason != "the store API mapping is complete" {
		t.Fatalf("report %+v", rep)
	}
	rows := []SectionRow{
		{Section: "3.1", Title: "Store API", Claims: []string{"SetWithTTL", "TTL"}, Dimensions: dims(8, 7, 8, 9, 9), Category: Core, Modifiers: []Modifier{}, W: 10, Q: 80, QExact: 795, Reason: "complete but coarse"},
		{Section: "6.1", Title: "Eviction policies", Claims: []string{"LRU eviction"}, Dimensions: dims(8, 8, 8, 7, 8), Category: Docs, Modifiers: []Modifier{Optional}, W: 1, Q: 79, QExact: 790, Reason: "rightly deferred"},
	}
	if !reflect.DeepEqual(rep.Sections, rows) {
		t.Fatalf("rows\n%+v\nwant\n%+v", rep.Sections, rows)
	}
	if got := rep.Summary(); got != "Q 7.9 < 8.0: the store API mapping is complete" {
		t.Fatalf("summary %q", got)
	}
	// The judge calling the deferred section non-implementable does not
	// take it out of Q: it keeps the floor weight 0.1 (docs 0.2 - 0.2 was
	// floored too), so Q stays 7.9 and the candidate is not retained, where
	// dropping the section would have given 8.0 from section 3.1 alone.
	j.Sections[0].Category = NonImplementable
	rep, _ = BuildReport(j, want, Gates{Static: true, Semantic: true})
	if rep.Retained || rep.Q.String() != "7.9" || string(rep.QExact) != "7.9455" || rep.Sections[1].W != 1 || rep.Sections[1].Category != NonImplementable ||
		rep.Summary() != "Q 7.9 < 8.0: the store API mapping is complete" {
		t.Fatalf("report %+v", rep)
	}
	b, _ := json.Marshal(rep.Sections[0])
	if string(b) != `{"section":"3.1","title":"Store API","claims":["SetWithTTL","TTL"],"coverage":8,"precision":7,"scope":8,"granularity":9,"specificity":9,"category":"core","modifiers":[],"w":1.0,"q":8.0,"q_exact":7.95,"reason":"complete but coarse"}` {
		t.Fatalf("row JSON %s", b)
	}
	b, _ = json.Marshal(rep.Sections[1])
	if string(b) != `{"section":"6.1","title":"Eviction policies","claims":["LRU eviction"],"coverage":8,"precision":8,"scope":8,"granularity":7,"specificity":8,"category":"non-implementable","modifiers":["optional"],"w":0.1,"q":7.9,"q_exact":7.90,"reason":"rightly deferred"}` {
		t.Fatalf("row JSON %s", b)
	}
	// Retained once 3.1 is graded higher: (1.0·8.35 + 0.1·7.90) / 1.1 = 8.3091.
	j.Sections[1].Dimensions = dims(9, 7, 8, 9, 9)
	rep, _ = BuildReport(j, want, Gates{Static: true, Semantic: true})
	if !rep.Retained || rep.Q.String() != "8.3" || string(rep.QExact) != "8.3091" || rep.Review != ReviewAwaiting || rep.Summary() != "Q 8.3 >= 8.0: retained, awaiting expert review" {
		t.Fatalf("report %+v", rep)
	}
	// Failing gates are never retained.
	rep, _ = BuildReport(j, want, Gates{Static: true, Semantic: false})
	if rep.Retained {
		t.Fatal("retained with a failed semantic gate")
	}
}
