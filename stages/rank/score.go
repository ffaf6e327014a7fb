package rank

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The arithmetic of the ranking is exact. Dimension scores are whole
// numbers, so a section score q is a whole number of hundredths and an
// importance weight w a whole number of tenths; Q is the ratio of two
// integers. Rounding happens once, at the end, half up, on exact values:
// floating point would turn 7.95 into 7.9499999... and flip the 8.0 gate.

// Tenths is a non-negative decimal with one digit after the point, held
// exactly (80 is 8.0). It marshals to JSON as a number such as 8.0.
type Tenths int

// String formats t as "8.0".
func (t Tenths) String() string {
	sign := ""
	if t < 0 {
		sign, t = "-", -t
	}
	return fmt.Sprintf("%s%d.%d", sign, t/10, t%10)
}

// MarshalJSON writes t as a JSON number with one decimal.
func (t Tenths) MarshalJSON() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalJSON reads a JSON number with at most one decimal.
func (t *Tenths) UnmarshalJSON(b []byte) error {
	v, err := parseFixed(string(b), 1)
	if err != nil {
		return err
	}
	*t = Tenths(v)
	return nil
}

// Hundredths is a decimal with two digits after the point, held exactly
// (795 is 7.95): the unrounded section score.
type Hundredths int

// String formats h as "7.95".
func (h Hundredths) String() string {
	sign := ""
	if h < 0 {
		sign, h = "-", -h
	}
	return fmt.Sprintf("%s%d.%02d", sign, h/100, h%100)
}

// MarshalJSON writes h as a JSON number with two decimals.
func (h Hundredths) MarshalJSON() ([]byte, error) { return []byte(h.String()), nil }

// UnmarshalJSON reads a JSON number with at most two decimals.
func (h *Hundredths) UnmarshalJSON(b []byte) error {
	v, err := parseFixed(string(b), 2)
	if err != nil {
		return err
	}
	*h = Hundredths(v)
	return nil
}

// parseFixed reads a decimal with at most digits fraction digits into an
// integer count of 10^-digits.
func parseFixed(s string, digits int) (int, error) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || len(frac) > digits || strings.ContainsAny(whole+frac, "+-eE") {
		return 0, fmt.Errorf("%q is not a decimal with at most %d digits after the point", s, digits)
	}
	frac += strings.Repeat("0", digits-len(frac))
	v, err := strconv.Atoi(whole + frac)
	if err != nil || len(whole) > 9 {
		return 0, fmt.Errorf("%q is not a decimal with at most %d digits after the point", s, digits)
	}
	if neg {
		v = -v
	}
	return v, nil
}

// roundHalfUp returns num/den to the nearest integer, halves up; num >= 0,
// den > 0.
func roundHalfUp(num, den int64) int64 { return (2*num + den) / (2 * den) }

// Dimensions are the judge's five scores of one section, each 1 to 10
// (paper, section 3.2, ranking).
type Dimensions struct {
	Coverage    int `json:"coverage"`
	Precision   int `json:"precision"`
	Scope       int `json:"scope"`
	Granularity int `json:"granularity"`
	Specificity int `json:"specificity"`
}

// Dimension weights of the section score, in hundredths:
// q = 0.40 coverage + 0.25 precision + 0.15 scope + 0.10 granularity + 0.10 specificity.
const (
	WeightCoverage    = 40
	WeightPrecision   = 25
	WeightScope       = 15
	WeightGranularity = 10
	WeightSpecificity = 10
)

// Check reports a score outside 1..10, naming the dimension.
func (d Dimensions) Check() error {
	for _, f := range []struct {
		name string
		v    int
	}{{"coverage", d.Coverage}, {"precision", d.Precision}, {"scope", d.Scope}, {"granularity", d.Granularity}, {"specificity", d.Specificity}} {
		if f.v < 1 || f.v > 10 {
			return fmt.Errorf("%s is %d; scores are whole numbers from 1 to 10", f.name, f.v)
		}
	}
	return nil
}

// SectionScore is q, exact: 0.40 coverage + 0.25 precision + 0.15 scope +
// 0.10 granularity + 0.10 specificity, in hundredths.
func SectionScore(d Dimensions) Hundredths {
	return Hundredths(WeightCoverage*d.Coverage + WeightPrecision*d.Precision + WeightScope*d.Scope +
		WeightGranularity*d.Granularity + WeightSpecificity*d.Specificity)
}

// Round returns h rounded half up to one decimal (7.95 gives 8.0, 7.94
// gives 7.9).
func (h Hundredths) Round() Tenths {
	if h < 0 {
		return -Tenths(roundHalfUp(int64(-h), 10))
	}
	return Tenths(roundHalfUp(int64(h), 10))
}

// Category is the judge's importance category of a section.
type Category string

// The importance categories, with their base weights in Weight.
const (
	Core             Category = "core"
	Internal         Category = "internal"
	Compatibility    Category = "compatibility"
	Tests            Category = "tests"
	Docs             Category = "docs"
	NonImplementable Category = "non-implementable"
)

// CategoryInfo describes a category for the judge prompt.
type CategoryInfo struct {
	Category Category
	Base     Tenths
	Meaning  string
}

// Categories are the importance categories and their base weights.
var Categories = []CategoryInfo{
	{Core, 10, "core API, syntax, protocol or runtime semantics: what users of the software see and rely on"},
	{Internal, 8, "an important internal mechanism the core behaviour depends on"},
	{Compatibility, 6, "compatibility, migration, configuration, rollout, error handling or deprecation"},
	{Tests, 4, "tests, validation, benchmarks or performance"},
	{Docs, 2, "documentation, build, generated files or fixtures"},
	{NonImplementable, 0, "the section asks for no code after all, whatever the artifact says; it still counts, at the lowest weight, and the disagreement goes to the expert"},
}

// Modifier adjusts a section's weight.
type Modifier string

// The weight modifiers, each applied at most once.
const (
	Normative    Modifier = "normative"
	Dependents   Modifier = "dependents"
	Illustrative Modifier = "illustrative"
	Vague        Modifier = "vague"
	Optional     Modifier = "optional"
)

// ModifierInfo describes a modifier for the judge prompt.
type ModifierInfo struct {
	Modifier Modifier
	Delta    Tenths
	Meaning  string
}

// Modifiers are the weight modifiers and their deltas.
var Modifiers = []ModifierInfo{
	{Normative, 1, "the section uses normative language (must, shall, required) or states a named goal of the proposal"},
	{Dependents, 1, "many other sections depend on this one"},
	{Illustrative, -1, "the section is illustrative: examples or sketches rather than requirements"},
	{Vague, -1, "the section is vague about what the code must do"},
	{Optional, -2, "the section is optional, deferred or exploratory"},
}

// Weight bounds of implementable sections: the floor keeps every
// implementable section in Q (paper, section 3.2).
const (
	MinWeight Tenths = 1
	MaxWeight Tenths = 10
)

// Weight is a section's importance w: the base weight of its category plus
// every modifier, each once, clipped to [0.1, 1.0] for a section the
// artifact marks implementable. The artifact, which passed the static rules
// and the semantic audit, decides what is implementable: a judge that
// labels such a section non-implementable gives it base 0, so it weighs
// the floor, 0.1, and stays in Q rather than silently leaving it. Only a
// section the artifact marks not implementable weighs 0.
func Weight(implementable bool, c Category, mods []Modifier) (Tenths, error) {
	i := slices.IndexFunc(Categories, func(ci CategoryInfo) bool { return ci.Category == c })
	if i < 0 {
		return 0, fmt.Errorf("unknown category %q", c)
	}
	w := Categories[i].Base
	seen := map[Modifier]bool{}
	for _, m := range mods {
		j := slices.IndexFunc(Modifiers, func(mi ModifierInfo) bool { return mi.Modifier == m })
		if j < 0 {
			return 0, fmt.Errorf("unknown modifier %q", m)
		}
		if seen[m] {
			return 0, fmt.Errorf("modifier %q is given twice; each applies once", m)
		}
		seen[m] = true
		w += Modifiers[j].Delta
	}
	if !implementable {
		return 0, nil
	}
	return min(max(w, MinWeight), MaxWeight), nil
}

// Threshold is the lowest candidate score that is retained (paper: Q >= 8.0).
// It applies to Q as published, rounded to one decimal: 7.95 is published
// as 8.0 and retained, 7.949... is published as 7.9 and is not.
const Threshold Tenths = 80

// Section is one section's judgement, the input of Score.
type Section struct {
	Section       string
	Title         string
	Implementable bool
	Dimensions    Dimensions
	Category      Category
	Modifiers     []Modifier
}

// Scored is one section with its computed weight and score.
type Scored struct {
	Section
	W      Tenths     // importance weight
	QExact Hundredths // q before rounding
	Q      Tenths     // q rounded to one decimal
}

// Result is the candidate score.
type Result struct {
	Sections []Scored
	// SumWQ is Σ w·q in thousandths (w in tenths times q in hundredths)
	// and SumW is Σ w in tenths, so Q = SumWQ / (100·SumW) exactly.
	SumWQ int64
	SumW  int64
	// HasQ is false when every weight is 0 (no implementable section):
	// Q is then undefined and the candidate cannot be retained.
	HasQ bool
	Q    Tenths
}

// ErrNoWeight is Score's verdict when no section weighs anything.
var ErrNoWeight = errors.New("no implementable section carries weight, so Q is undefined")

// Score computes w and q of every section and Q = Σ w·q / Σ w, rounded half
// up to one decimal from the exact ratio.
func Score(sections []Section) (*Result, error) {
	res := &Result{}
	for _, s := range sections {
		if err := s.Dimensions.Check(); err != nil {
			return nil, fmt.Errorf("section %s: %w", s.Section, err)
		}
		w, err := Weight(s.Implementable, s.Category, s.Modifiers)
		if err != nil {
			return nil, fmt.Errorf("section %s: %w", s.Section, err)
		}
		q := SectionScore(s.Dimensions)
		res.Sections = append(res.Sections, Scored{Section: s, W: w, QExact: q, Q: q.Round()})
		res.SumWQ += int64(w) * int64(q)
		res.SumW += int64(w)
	}
	if res.SumW == 0 {
		return res, nil
	}
	res.HasQ = true
	// Q = (SumWQ/1000) / (SumW/10) = SumWQ / (100·SumW); in tenths that
	// is SumWQ / (10·SumW).
	res.Q = Tenths(roundHalfUp(res.SumWQ, 10*res.SumW))
	return res, nil
}

// Exact is Q before rounding, as a float for display only.
func (r *Result) Exact() float64 {
	if r.SumW == 0 {
		return 0
	}
	return float64(r.SumWQ) / float64(100*r.SumW)
}

// Computation spells out Q for reports:
// "Q = Σ w·q / Σ w = (1.0×7.95 + 0.1×7.90) / (1.0 + 0.1) = 8.740 / 1.1 = 7.9455 → 7.9".
func (r *Result) Computation() string {
	var terms, ws []string
	for _, s := range r.Sections {
		if s.W == 0 {
			continue
		}
		terms = append(terms, fmt.Sprintf("%s×%s", s.W, s.QExact))
		ws = append(ws, s.W.String())
	}
	if !r.HasQ {
		return "Q = Σ w·q / Σ w is undefined: Σ w = 0"
	}
	return fmt.Sprintf("Q = Σ w·q / Σ w = (%s) / (%s) = %d.%03d / %s = %.4f → %s",
		strings.Join(terms, " + "), strings.Join(ws, " + "),
		r.SumWQ/1000, r.SumWQ%1000, Tenths(r.SumW), r.Exact(), r.Q)
}

// Retained is the paper's acceptance rule: both validation gates passed and
// Q, as published (rounded), is at least Threshold.
func Retained(staticPassed, semanticPassed bool, r *Result) bool {
	return staticPassed && semanticPassed && r != nil && r.HasQ && r.Q >= Threshold
}
