package eval

import (
	"math/big"

	"github.com/lolbench/lolbench/data/taxonomy"
)

// Confidence levels of a detection and their weights (paper, Appendix F):
// high 1.0, medium 0.6; a rule-based mode is certain and weighs 1.0; a
// low-confidence judgment is dropped. Weights are kept in fifths so that
// every sum is exact.
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

// Unattributed is the bucket of a failed attempt in which no mode was
// found: it still carries its unit, so that an agent's phases and this
// bucket add up to 100%.
const Unattributed = "unattributed"

// Detection is one mode found in one failed attempt.
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

// Tally sums the attributions of one agent's failed attempts.
//
// Equation 1: a failed attempt t with detected modes M_t and weights
// w_{t,m} gives mode m the share a_{t,m} = w_{t,m} / Σ_{m'∈M_t} w_{t,m'},
// so its shares add up to one; an attempt with no mode gives its unit to
// Unattributed. Equation 2: over the N failed attempts analyzed, mode m
// gets 100 · Σ_t a_{t,m} / N percent, and a phase the sum of its modes.
type Tally struct {
	tx           *taxonomy.Taxonomy
	n            int64
	unattributed int64
	sums         []big.Rat // by mode index
}

// NewTally starts an empty tally.
func NewTally(tx *taxonomy.Taxonomy) *Tally {
	return &Tally{tx: tx, sums: make([]big.Rat, len(tx.Modes))}
}

// Add counts one failed attempt and fills in each detection's weight and
// share. Detections must name modes of the taxonomy, each at most once.
func (t *Tally) Add(ds []Detection) {
	t.n++
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
	for i := range ds {
		a := big.NewRat(weightFifths(ds[i].Confidence), total)
		ds[i].Share, _ = a.Float64()
		t.sums[t.tx.Index(ds[i].Mode)].Add(&t.sums[t.tx.Index(ds[i].Mode)], a)
	}
}

// Share is one cell of a table: the exact percentage and its rounding.
type Share struct {
	Name string `json:"name"`
	// Percent is rounded to one decimal by largest remainder; Naive is the
	// same value rounded on its own, half up, shown for comparison.
	Percent float64 `json:"percent"`
	Naive   float64 `json:"naive"`
	// Exact is the unrounded percentage as a fraction ("100/3").
	Exact string `json:"exact"`
}

// Table is an agent's Table 3 row and its per-phase tables.
type Table struct {
	Attempts     int64   `json:"attempts"`
	Unattributed int64   `json:"unattributed"`
	Phases       []Share `json:"phases"` // the taxonomy's phases, then Unattributed
	// Modes maps each phase to its modes' shares.
	Modes map[string][]Share `json:"modes"`
}

// Table computes the percentages (equation 2) and rounds them by largest
// remainder to one decimal: first the phases (with Unattributed), keeping
// the agent's total at exactly 100.0, then each phase's modes, keeping the
// phase's rounded total.
func (t *Tally) Table() Table {
	tb := Table{Attempts: t.n, Unattributed: t.unattributed, Modes: map[string][]Share{}}
	pct := func(r *big.Rat) *big.Rat {
		if t.n == 0 {
			return new(big.Rat)
		}
		return new(big.Rat).Quo(new(big.Rat).Mul(r, big.NewRat(100, 1)), big.NewRat(t.n, 1))
	}
	var phaseVals []*big.Rat
	byPhase := map[string][]int{}
	for _, p := range t.tx.Phases {
		sum := new(big.Rat)
		for i, m := range t.tx.Modes {
			if m.Phase == p {
				sum.Add(sum, &t.sums[i])
				byPhase[p] = append(byPhase[p], i)
			}
		}
		phaseVals = append(phaseVals, pct(sum))
	}
	phaseVals = append(phaseVals, pct(big.NewRat(t.unattributed, 1)))
	var total int64
	if t.n > 0 {
		total = 1000
	}
	units := LargestRemainder(phaseVals, total)
	names := append(append([]string{}, t.tx.Phases...), Unattributed)
	for i, name := range names {
		tb.Phases = append(tb.Phases, share(name, phaseVals[i], units[i]))
	}
	for pi, p := range t.tx.Phases {
		var vals []*big.Rat
		for _, mi := range byPhase[p] {
			vals = append(vals, pct(&t.sums[mi]))
		}
		mu := LargestRemainder(vals, units[pi])
		for k, mi := range byPhase[p] {
			tb.Modes[p] = append(tb.Modes[p], share(t.tx.Modes[mi].Mode, vals[k], mu[k]))
		}
	}
	return tb
}

func share(name string, exact *big.Rat, tenths int64) Share {
	return Share{Name: name, Percent: float64(tenths) / 10, Naive: *round1(exact), Exact: exact.RatString()}
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
			continue
		}
		given[best] = true
		out[best]++
	}
	return out
}
