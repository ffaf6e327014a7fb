package rules

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/mapping"
)

// R22 checks verbatim evidence.
var R22 = &Rule{
	ID:    22,
	Name:  "verbatim-evidence",
	Doc:   `Each mapped block quotes its EP section verbatim: the quotation occurs in the text of the section or its subsections, compared as a reader sees the text: white space runs are one blank, and inline markup of Markdown and reStructuredText alike reads as the text it renders (code spans and interpreted text, emphasis, links, roles such as :term:` + "`Core Metadata`" + ` or :pep:` + "`639`" + ` read "PEP 639", references such as ` + "`text <target>`_" + `, ` + "`text`__" + ` or name_), so a quote copied from either source or from the rendered page matches. A "_" or "*" that is not emphasis is text: SET_EX is not SETEX and a * b keeps its star. An ellipsis ("..." or "…") may join passages that occur in order. The requirement summary is concise: one to three sentences and at most 80 words; "e.g.", "i.e.", "cf." and "vs." do not end a sentence. Copy the words from the EP, and shorten the summary. Blocks of sections the EP does not have are rule 19's and 23's; which part of the section a quote may use is rule 25's.`,
	Check: checkR22,
}

// Limits of the requirement summary (docs/mapping-format.md).
const (
	r22MaxSentences = 3
	r22MaxWords     = 80
)

func checkR22(p *Pass) {
	var q *epQuotes
	if p.EP != nil {
		q = newEPQuotes(p.EP)
	}
	for i := range p.Mapping.Blocks {
		b := &p.Mapping.Blocks[i]
		if q != nil {
			r22Quote(p, q, b)
		}
		r22Requirement(p, b)
	}
}

// r22Quote checks that the block's quotation occurs, passage by passage and
// in order, in its section's subtree, and otherwise says where it goes
// wrong.
func r22Quote(p *Pass, q *epQuotes, b *mapping.Block) {
	s := p.SectionByID[strings.TrimSpace(b.Section)]
	if s == nil {
		return // rules 19 and 23
	}
	line := b.Quote.Line
	if line == 0 {
		line = b.Line
	}
	passages := quotePassages(b.Quote.Text)
	if len(passages) == 0 {
		p.Reportf(line, BlockWhere(b), "block %d quotes nothing; quote the words of %s that it maps", b.Number, sectionLabel(s))
		return
	}
	subtree := []ep.Range{s.Subtree}
	if spans, _ := q.find(passages, subtree); spans != nil {
		return
	}
	head := fmt.Sprintf("the quotation of block %d is not in %s or its subsections", b.Number, sectionLabel(s))

	// Text found elsewhere in the EP: name the most specific section
	// holding it. One search of the whole document keeps this linear.
	if spans, _ := q.find(passages, []ep.Range{{Start: 0, End: len(p.EP.Source)}}); spans != nil {
		whole := ep.Range{Start: spans[0].Start, End: spans[len(spans)-1].End}
		var other *ep.Section
		for _, o := range p.EP.Sections {
			if o.Subtree.Contains(whole) && (other == nil || o.Level > other.Level) {
				other = o
			}
		}
		if other != nil {
			p.Reportf(line, BlockWhere(b), "%s: it is text of %s; quote %s's own words instead", head, sectionLabel(other), s.ID)
		} else {
			p.Reportf(line, BlockWhere(b), "%s: it is EP text outside that section; quote %s's own words instead", head, s.ID)
		}
		return
	}

	// Every passage is there, but not in this order.
	if len(passages) > 1 {
		all := true
		for _, ps := range passages {
			if spans, _ := q.find([]string{ps}, subtree); spans == nil {
				all = false
				break
			}
		}
		if all {
			_, k := q.find(passages, subtree)
			p.Reportf(line, BlockWhere(b), "%s in this order: the passage %q does not come after %q there; an ellipsis joins passages only in the EP's order, so reorder or split them",
				head, firstWords(passages[k], 8), lastWords(passages[k-1], 8))
			return
		}
	}

	// Find the passage that is not there and where it leaves the EP.
	k := 0
	for ; k < len(passages); k++ {
		if spans, _ := q.find([]string{passages[k]}, subtree); spans == nil {
			break
		}
	}
	if k == len(passages) {
		k = 0 // not reached: some passage is missing when the order is not at fault
	}
	ps := passages[k]
	n, end := q.longestPrefix(ps, s.Subtree)
	if n == 0 {
		p.Reportf(line, BlockWhere(b), "%s: the words %q do not occur there; copy the words from the EP", head, firstWords(ps, 8))
		return
	}
	words := strings.Split(ps, " ")
	quoted := lastWords(strings.Join(words[:n], " "), 6)
	rest := firstWords(strings.Join(words[n:], " "), 6)
	if hi := q.norm.index(s.Subtree.End); end >= hi || strings.TrimSpace(q.norm.s[end:hi]) == "" {
		p.Reportf(line, BlockWhere(b), "%s: it follows the EP up to %q, where the section ends, but goes on with %q; quote only the section's text",
			head, quoted, rest)
		return
	}
	p.Reportf(line, BlockWhere(b), "%s: it follows the EP up to %q and then reads %q where the EP has %q; copy the words from the EP",
		head, quoted, rest, q.wordsAt(end, 6))
}

// r22Requirement checks the length of the requirement summary.
func r22Requirement(p *Pass, b *mapping.Block) {
	line := b.Requirement.Line
	if line == 0 {
		line = b.Line
	}
	text := strings.TrimSpace(b.Requirement.Text)
	words := len(strings.Fields(text))
	sentences := r22Sentences(text)
	switch {
	case words == 0:
		p.Reportf(line, BlockWhere(b), "the requirement of block %d is empty; say in one to three sentences (at most %d words) what the section requires of the code", b.Number, r22MaxWords)
	case sentences > r22MaxSentences || words > r22MaxWords:
		p.Reportf(line, BlockWhere(b), "the requirement of block %d has %d %s and %d words; shorten it to one to three sentences and at most %d words",
			b.Number, sentences, r22Plural(sentences, "sentence"), words, r22MaxWords)
	}
}

// r22Abbreviations never end a sentence, whatever follows them.
var r22Abbreviations = []string{"e.g.", "i.e.", "cf.", "vs."}

// r22Sentences counts sentences: a run of ".", "!" or "?" (with closing
// quotes or brackets) ends one when blanks and then no lower-case letter
// follow, so "the table. then" and "v1.2" do not split, and neither does an
// abbreviation such as "e.g. English" or "i.e. GreetIn"; trailing words
// without a full stop make one more.
func r22Sentences(text string) int {
	n := 0
	pending := false // words since the last sentence end
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		if r != '.' && r != '!' && r != '?' {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				pending = true
			}
			continue
		}
		j := i
		for j < len(text) && strings.IndexByte(".!?\"')]", text[j]) >= 0 {
			j++
		}
		k := j
		for k < len(text) && (text[k] == ' ' || text[k] == '\t' || text[k] == '\n') {
			k++
		}
		if r22Abbreviation(text[:i]) {
			continue
		}
		if k == len(text) || (k > j && !r22Lower(text[k:])) {
			if pending {
				n++
			}
			pending = false
			i = k
		}
	}
	if pending {
		n++
	}
	return n
}

// r22Abbreviation reports whether text ends with one of r22Abbreviations
// as a word of its own (after a blank or an opening bracket or quote).
func r22Abbreviation(text string) bool {
	for _, a := range r22Abbreviations {
		if len(text) >= len(a) && strings.EqualFold(text[len(text)-len(a):], a) {
			before := text[:len(text)-len(a)]
			r, _ := utf8.DecodeLastRuneInString(before)
			if before == "" || unicode.IsSpace(r) || strings.ContainsRune("([{\"'“‘", r) {
				return true
			}
		}
	}
	return false
}

func r22Lower(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLower(r)
}

func r22Plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}
