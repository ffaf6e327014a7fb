package rules

import (
	"fmt"
	"strings"

	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/mapping"
)

// R25 checks non overlapping quotations.
var R25 = &Rule{
	ID:    25,
	Name:  "non-overlapping-quotations",
	Doc:   `A block's quotation stays within its own section: it may reach into a subsection's text only when that subsection has no block of its own, and no two blocks quote overlapping text of the EP. Quote the part of the section that belongs to it alone. A quotation that is not in its section's text at all is rule 22's, and a second block of the same section rule 19's; quotes are located as rule 22 matches them.`,
	Check: checkR25,
}

// r25Quote is a block whose quotation rule 22 accepts, with where it sits.
type r25Quote struct {
	b       *mapping.Block
	sec     *ep.Section
	spans   []ep.Range // leftmost placement in the section's subtree
	allowed []ep.Range // placement within the block's own text, or nil
}

func checkR25(p *Pass) {
	if p.EP == nil {
		return
	}
	q := newEPQuotes(p.EP)
	var quotes []*r25Quote
	for i := range p.Mapping.Blocks {
		b := &p.Mapping.Blocks[i]
		s := p.SectionByID[strings.TrimSpace(b.Section)]
		if s == nil {
			continue // rules 19 and 23
		}
		passages := quotePassages(b.Quote.Text)
		spans, _ := q.find(passages, []ep.Range{s.Subtree})
		if len(passages) == 0 || spans == nil {
			continue // rule 22
		}
		own := subtractRanges(s.Subtree, r25Subtrees(r25Blocked(p, s)))
		allowed, _ := q.find(passages, own)
		quotes = append(quotes, &r25Quote{b: b, sec: s, spans: spans, allowed: allowed})
	}

	// The text a block may quote (its section's subtree less the subtrees
	// of subsections with blocks) is disjoint from what any block of
	// another section may quote, so a quotation that keeps to it overlaps
	// no other block's: the overlap is reported with the reach.
	for _, qt := range quotes {
		if qt.allowed != nil {
			continue
		}
		var into []string
		for _, t := range r25Blocked(p, qt.sec) {
			if !r25Overlap(qt.spans, []ep.Range{t.Subtree}) {
				continue
			}
			desc := fmt.Sprintf("%s, which has its own block %d", sectionLabel(t), p.Blocks[t.ID][0].Number)
			for _, o := range quotes {
				if o.sec == t && r25Overlap(qt.spans, r25Placed(o)) {
					desc += " and whose quotation it overlaps"
					break
				}
			}
			into = append(into, desc)
		}
		if len(into) == 0 {
			into = append(into, "the text of a subsection with a block of its own") // not reached: see above
		}
		p.Reportf(r25Line(qt.b), BlockWhere(qt.b), "the quotation of block %d (section %s) reaches into %s; quote only text of section %s itself or of subsections without a block",
			qt.b.Number, qt.sec.ID, strings.Join(into, ", and into "), qt.sec.ID)
	}
}

// r25Blocked returns the outermost subsections of s that have a block of
// their own: their subtrees are not s's to quote.
func r25Blocked(p *Pass, s *ep.Section) []*ep.Section {
	var out []*ep.Section
	var visit func(*ep.Section, int)
	visit = func(c *ep.Section, depth int) {
		if depth > len(p.EP.Sections) {
			return // a cycle cannot come from pipeline/ep; never loop on one
		}
		for _, ch := range c.Children {
			if len(p.Blocks[ch.ID]) > 0 {
				out = append(out, ch)
				continue
			}
			visit(ch, depth+1)
		}
	}
	visit(s, 0)
	return out
}

func r25Subtrees(secs []*ep.Section) []ep.Range {
	out := make([]ep.Range, len(secs))
	for i, s := range secs {
		out[i] = s.Subtree
	}
	return out
}

// r25Placed is where a quotation sits: within its own text when it can.
func r25Placed(q *r25Quote) []ep.Range {
	if q.allowed != nil {
		return q.allowed
	}
	return q.spans
}

func r25Overlap(a, b []ep.Range) bool {
	for _, x := range a {
		for _, y := range b {
			if overlaps(x, y) {
				return true
			}
		}
	}
	return false
}

func r25Line(b *mapping.Block) int {
	if b.Quote.Line != 0 {
		return b.Quote.Line
	}
	return b.Line
}
