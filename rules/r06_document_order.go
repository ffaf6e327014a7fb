package rules

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lolbench/lolbench/pipeline/mapping"
)

// R06 checks document order.
var R06 = &Rule{
	ID:    6,
	Name:  "document-order",
	Doc:   `The Section Classification Summary rows, the mapped blocks and the rows of Unmapped Implementable Sections follow the order of their sections in the EP. The fewest rows or blocks whose moving restores the order are reported (those outside a longest run already in EP order), each with the place it belongs. Move each reported row or block between the sections named in the message. Sections unknown to the EP are rule 23's and are ignored here; a repeated section is not out of order.`,
	Check: checkR06,
}

// r06Item is one ordered element: a row or block naming a known section.
type r06Item struct {
	pos  int
	id   string
	line int
	what string
}

func checkR06(p *Pass) {
	if p.EP == nil {
		return
	}
	m := p.Mapping
	var scs, blocks, unmapped []r06Item
	for i, r := range m.SCS.Rows {
		scs = p.r06Add(scs, strings.TrimSpace(r.Section), r.Line, fmt.Sprintf("row %d", i+1))
	}
	for i, b := range m.Blocks {
		blocks = p.r06Add(blocks, strings.TrimSpace(b.Section), b.Line, fmt.Sprintf("block %d", i+1))
	}
	for i, r := range m.UnmappedSections.Rows {
		unmapped = p.r06Add(unmapped, strings.TrimSpace(r.Section), r.Line, fmt.Sprintf("row %d", i+1))
	}
	p.r06Check(mapping.PartSCS, scs)
	p.r06Check(mapping.PartMappedSections, blocks)
	p.r06Check(mapping.PartUnmappedSections, unmapped)
}

func (p *Pass) r06Add(items []r06Item, id string, line int, what string) []r06Item {
	if p.SectionByID[id] == nil {
		return items // rule 23
	}
	return append(items, r06Item{pos: p.SectionPos[id], id: id, line: line, what: what})
}

// r06Check reports the items outside one longest non-decreasing run of EP
// positions (patience sorting, O(n log n), so hostile tables stay cheap).
func (p *Pass) r06Check(part string, items []r06Item) {
	if len(items) < 2 {
		return
	}
	tails := []int{}                // tails[k]: index of the smallest last item of a run of length k+1
	prev := make([]int, len(items)) // predecessor in the run
	for i, it := range items {
		k := sort.Search(len(tails), func(k int) bool { return items[tails[k]].pos > it.pos })
		prev[i] = -1
		if k > 0 {
			prev[i] = tails[k-1]
		}
		if k == len(tails) {
			tails = append(tails, i)
		} else {
			tails[k] = i
		}
	}
	kept := make([]bool, len(items))
	var run []int
	for i := tails[len(tails)-1]; i >= 0; i = prev[i] {
		kept[i] = true
		run = append(run, i)
	}
	for l, r := 0, len(run)-1; l < r; l, r = l+1, r-1 {
		run[l], run[r] = run[r], run[l]
	}
	for i, it := range items {
		if kept[i] {
			continue
		}
		var after, before *r06Item
		for _, j := range run {
			if items[j].pos <= it.pos {
				after = &items[j]
			} else if before == nil {
				before = &items[j]
			}
		}
		var place string
		switch {
		case after != nil && before != nil:
			place = fmt.Sprintf("after section %s (line %d) and before section %s (line %d)", after.id, after.line, before.id, before.line)
		case after != nil:
			place = fmt.Sprintf("after section %s (line %d)", after.id, after.line)
		case before != nil:
			place = fmt.Sprintf("before section %s (line %d)", before.id, before.line)
		}
		p.Reportf(it.line, "section "+it.id, "%s %s (section %s) is out of EP order; move it %s, where section %s comes in the EP",
			part, it.what, it.id, place, it.id)
	}
}
