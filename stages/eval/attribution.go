package eval

import (
	"math/big"

	"github.com/lolbench/lolbench/data/taxonomy"
)

// Confidence levels of a detection and their weights (paper, Appendix F):
// high 1.0, medium 0.6; a low-confidence judgment is dropped before it
// gets here. Weights are kept in fifths so that every sum is exact.
const (
	High   = "high"
	Medium = "medium"
	Low    = "low"
)

func weightFifths(confidence string) int64 {
	switch confidence {
	case High:
		return 5
	case Medium:
		return 3
	}
	return 0
}

// Detection is one mode found in one failed attempt: a candidate admitted
// to the attribution.
type Detection struct {
	Mode       string  `json:"mode"`
	Phase      string  `json:"phase"`
	Detection  string  `json:"detection"` // "rule" or "llm"
	Confidence string  `json:"confidence"`
	Weight     float64 `json:"weight"`
	// Share is the mode's part of the attempt's one unit (equation 1).
	Share float64 `json:"share"`
	Finding
	// Reason is the judge's, for a semantic mode.
	Reason string `json:"reason,omitempty"`
}

// Tally sums the attribution of one agent's failed attempts, in units
// (paper, Table 3 and Tables 11–17).
//
// Equation 1: an evaluable failed attempt t (one with at least one
// admitted candidate) carries one unit, split over its candidates M_t by
// weight: a_{t,m} = w_{t,m} / Σ_{m'∈M_t} w_{t,m'}. A mode's units are
// Σ_t a_{t,m}, a phase's the sum of its modes', so an agent's phases add
// up to its number of evaluable failed attempts N. An attempt with no
// candidate is unattributed: counted apart, outside the units.
type Tally struct {
	tx           *taxonomy.Taxonomy
	n            int64
	unattributed int64
	sums         []big.Rat // units by mode index
}

// NewTally starts an empty tally.
func NewTally(tx *taxonomy.Taxonomy) *Tally {
	return &Tally{tx: tx, sums: make([]big.Rat, len(tx.Modes))}
}

// Add counts one analyzed failed attempt and fills in each detection's
// weight and share. Detections must name modes of the taxonomy, each at
// most once.
func (t *Tally) Add(ds []Detection) {
	var total int64
	for i := range ds {
		w := weightFifths(ds[i].Confidence)
		ds[i].Weight = float64(w) / 5
		total += w
	}
	if total == 0 {
		t.unattributed++
		return
	}
	t.n++
	for i := range ds {
		a := big.NewRat(weightFifths(ds[i].Confidence), total)
		ds[i].Share, _ = a.Float64()
		k := t.tx.Index(ds[i].Mode)
		t.sums[k].Add(&t.sums[k], a)
	}
}

// Cell is one value of a table, in units.
type Cell struct {
	Name string `json:"name"`
	// Units are rounded to one decimal by largest remainder; Naive is the
	// same value rounded on its own, half up, shown for comparison; Exact
	// is the unrounded value as a fraction ("38/13").
	Units float64 `json:"units"`
	Naive float64 `json:"naive"`
	Exact string  `json:"exact"`
	// Percent is the exact units over the agent's evaluable failed
	// attempts, times 100: an extra beside the paper's units.
	Percent float64 `json:"percent"`
}

// Table is an agent's row of Table 3 and its rows of the per-phase
// tables (Tables 11–17).
type Table struct {
	// Units is N, the agent's evaluable failed attempts: its phases add
	// up to it.
	Units  int64  `json:"units"`
	Phases []Cell `json:"phases"`
	// Modes maps each phase to its modes' cells, which add up to the
	// phase's.
	Modes map[string][]Cell `json:"modes"`
}

// Table rounds the units by largest remainder to one decimal: first
// across the phases, keeping the agent's total N, then across each
// phase's modes, keeping the phase's rounded total.
func (t *Tally) Table() Table {
	tb := Table{Units: t.n, Modes: map[string][]Cell{}}
	byPhase := map[string][]int{}
	var phaseVals []*big.Rat
	for _, p := range t.tx.Phases {
		sum := new(big.Rat)
		for i, m := range t.tx.Modes {
			if m.Phase == p {
				sum.Add(sum, &t.sums[i])
				byPhase[p] = append(byPhase[p], i)
			}
		}
		phaseVals = append(phaseVals, sum)
	}
	tenths := LargestRemainder(phaseVals, 10*t.n)
	for i, p := range t.tx.Phases {
		tb.Phases = append(tb.Phases, t.cell(p, phaseVals[i], tenths[i]))
		var vals []*big.Rat
		for _, mi := range byPhase[p] {
			vals = append(vals, &t.sums[mi])
		}
		mt := LargestRemainder(vals, tenths[i])
		for k, mi := range byPhase[p] {
			tb.Modes[p] = append(tb.Modes[p], t.cell(t.tx.Modes[mi].Mode, vals[k], mt[k]))
		}
	}
	return tb
}

func (t *Tally) cell(name string, exact *big.Rat, tenths int64) Cell {
	c := Cell{Name: name, Units: float64(tenths) / 10, Naive: round1(exact), Exact: exact.RatString()}
	if t.n > 0 {
		c.Percent, _ = new(big.Rat).Quo(new(big.Rat).Mul(exact, big.NewRat(100, 1)), big.NewRat(t.n, 1)).Float64()
	}
	return c
}

// LargestRemainder rounds non-negative values to tenths so that they add
// up to total tenths: each gets the floor of its value in tenths, and the
// tenths still missing go one each to the largest remainders (ties to the
// earlier value, which is the taxonomy's order).
func LargestRemainder(vals []*big.Rat, total int64) []int64 {
	out := make([]int64, len(vals))
	rems := make([]*big.Rat, len(vals))
	var sum int64
	for i, v := range vals {
		x := new(big.Rat).Mul(v, big.NewRat(10, 1))
		fl := new(big.Int).Div(x.Num(), x.Denom())
		out[i] = fl.Int64()
		sum += out[i]
		rems[i] = new(big.Rat).Sub(x, new(big.Rat).SetInt(fl))
	}
	given := make([]bool, len(vals))
	for left := total - sum; left > 0 && len(vals) > 0; left-- {
		best := -1
		for i := range vals {
			if given[i] {
				continue
			}
			if best < 0 || rems[i].Cmp(rems[best]) > 0 {
				best = i
			}
		}
		if best < 0 {
			// More tenths missing than values: cannot happen when total
			// is the rounded sum; spread what is left in order.
			for i := range given {
				given[i] = false
			}
			left++
			continue
		}
		given[best] = true
		out[best]++
	}
	return out
}
