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
		// Three thirds of one unit: naive rounding gives 0.3 three times
		// (0.9); the first keeps the missing tenth.
		{"thirds", rats("1/3", "1/3", "1/3"), 10, []int64{4, 3, 3}},
		// The largest remainder wins, not the first.
		{"largest", rats("1.004", "2.007", "6.989"), 100, []int64{10, 20, 70}},
		{"exact", rats("2.5", "7.5", "0"), 100, []int64{25, 75, 0}},
		{"empty total", rats("0", "0"), 0, []int64{0, 0}},
		// A phase's modes keep the phase's rounded total.
		{"phase total", rats("5/8", "3/8"), 10, []int64{6, 4}},
	} {
		if got := LargestRemainder(c.vals, c.total); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// cells are a table's non-zero cells as (name, units, naive, exact).
type cellRow struct {
	name         string
	units, naive float64
	exact        string
}

func nonZero(cs []Cell) []cellRow {
	var out []cellRow
	for _, c := range cs {
		if c.Exact != "0" {
			out = append(out, cellRow{c.Name, c.Units, c.Naive, c.Exact})
		}
	}
	return out
}

// Table 3 and the per-phase tables in units, computed by hand for two
// agents.
func TestTallyUnits(t *testing.T) {
	tx := taxonomy.Default()
	rule := func(mode, conf string) Detection { return Detection{Mode: mode, Confidence: conf} }

	// Agent A, two evaluable failed attempts. The first has three
	// candidates, one of them medium: weights 1.0, 1.0 and 0.6 (fifths 5,
	// 5, 3) give shares 5/13, 5/13 and 3/13 (equation 1). The second has
	// three rule modes of weight 1: a third each.
	a := NewTally(tx)
	first := []Detection{rule("cross_module_context_missing", High), rule("relevant_change_omitted", High), {Mode: "misread_requirement", Confidence: Medium}}
	a.Add(first)
	a.Add([]Detection{rule("incorrect_patch", High), rule("no_test_after_final_edit", High), rule("retry_without_change", High)})
	if first[0].Weight != 1 || first[2].Weight != 0.6 || first[0].Share != 5.0/13 || first[2].Share != 3.0/13 {
		t.Fatalf("weights and shares %+v", first)
	}
	// Phases, in units (their sum is N = 2):
	//   requirement understanding 3/13            = 0.2308 (tenths 2.308)
	//   code localization         5/13            = 0.3846 (tenths 3.846)
	//   code editing              5/13 + 1/3 = 28/39 = 0.7179 (tenths 7.179)
	//   code verification         1/3             = 0.3333 (tenths 3.333)
	//   self-repair               1/3             = 0.3333 (tenths 3.333)
	// Floors 2 + 3 + 7 + 3 + 3 = 18 tenths of 20; the two missing go to
	// the largest remainders: localization (.846), then verification
	// (.333, tied with self-repair, earlier in the taxonomy). Naive rounding
	// gives 0.2 + 0.4 + 0.7 + 0.3 + 0.3 = 1.9: largest remainder changes
	// verification's digit from 0.3 to 0.4.
	ta := a.Table()
	if ta.Units != 2 {
		t.Fatalf("units %d", ta.Units)
	}
	wantA := []cellRow{
		{"requirement_understanding", 0.2, 0.2, "3/13"},
		{"code_localization", 0.4, 0.4, "5/13"},
		{"code_editing", 0.7, 0.7, "28/39"},
		{"code_verification", 0.4, 0.3, "1/3"},
		{"self_repair", 0.3, 0.3, "1/3"},
	}
	if got := nonZero(ta.Phases); !reflect.DeepEqual(got, wantA) {
		t.Errorf("A phases %v\nwant %v", got, wantA)
	}
	// Per phase, the modes keep the phase's rounded total: editing's 0.7
	// splits into relevant_change_omitted 5/13 (tenths 3.846) and
	// incorrect_patch 1/3 (3.333): floors 3 + 3, the missing tenth to .846.
	for phase, want := range map[string][]cellRow{
		"requirement_understanding": {{"misread_requirement", 0.2, 0.2, "3/13"}},
		"code_localization":         {{"cross_module_context_missing", 0.4, 0.4, "5/13"}},
		"code_editing":              {{"incorrect_patch", 0.3, 0.3, "1/3"}, {"relevant_change_omitted", 0.4, 0.4, "5/13"}},
		"code_verification":         {{"no_test_after_final_edit", 0.4, 0.3, "1/3"}},
		"self_repair":               {{"retry_without_change", 0.3, 0.3, "1/3"}},
	} {
		if got := nonZero(ta.Modes[phase]); !reflect.DeepEqual(got, want) {
			t.Errorf("A %s: %v, want %v", phase, got, want)
		}
	}
	var total float64
	for _, c := range ta.Phases {
		total += c.Units
	}
	if total < 1.9999 || total > 2.0001 || ta.Phases[4].Percent != 100.0/6 {
		t.Errorf("A total %v, verification percent %v", total, ta.Phases[3].Percent)
	}

	// Agent B: a rule at high and one at medium confidence (5/8 and 3/8),
	// a lone rule (1), and an attempt with no candidate, which carries no
	// unit. N = 2. Localization 1.0 splits into 0.625 (tenths 6.25) and
	// 0.375 (3.75): floors 6 + 3, the tenth to .75.
	b := NewTally(tx)
	b.Add([]Detection{rule("missed_relevant_file", High), rule("cross_module_context_missing", Medium)})
	b.Add([]Detection{rule("no_validation_attempted", High)})
	b.Add(nil)
	tb := b.Table()
	if tb.Units != 2 || b.unattributed != 1 {
		t.Fatalf("B units %d unattributed %d", tb.Units, b.unattributed)
	}
	if got := nonZero(tb.Phases); !reflect.DeepEqual(got, []cellRow{{"code_localization", 1, 1, "1"}, {"code_verification", 1, 1, "1"}}) {
		t.Errorf("B phases %v", got)
	}
	if got := nonZero(tb.Modes["code_localization"]); !reflect.DeepEqual(got, []cellRow{{"missed_relevant_file", 0.6, 0.6, "5/8"}, {"cross_module_context_missing", 0.4, 0.4, "3/8"}}) {
		t.Errorf("B localization %v", got)
	}
	// An agent without an evaluable attempt has an empty table.
	empty := NewTally(tx)
	empty.Add(nil)
	if te := empty.Table(); te.Units != 0 || len(nonZero(te.Phases)) != 0 || len(te.Phases) != 7 {
		t.Errorf("empty table %+v", te)
	}
}
