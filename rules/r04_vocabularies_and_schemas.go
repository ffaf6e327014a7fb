package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/mapping"
)

// R04 checks vocabularies and schemas.
var R04 = &Rule{
	ID:    4,
	Name:  "vocabularies-and-schemas",
	Doc:   `All six parts of the artifact are present and every table has exactly its canonical columns, in order (docs/mapping-format.md; headers compare ignoring case and repeated blanks, as the parser binds them); Global Statistics uses only the known metric names, spelled exactly. Every controlled value is in its vocabulary: Implementable and Mapped are yes or no; a section category is knowledge, implementation, evaluation, contextual or process; a file category is source, test, test-data, data, build, documentation, generated or vendor; a role is direct, associated or unmapped; an unmapped reason is deferred, pre-existing, out-of-scope, documentation-only, runtime-behavior, external-dependency, test-only or insufficient-context; a section-list cell holds comma-separated section ids (number paths such as 2.1) or "-". Rename the column or replace the value with a word from the vocabulary. Empty Section Classification Summary cells are rule 5's, empty section reasons rule 12's, and Role cells naming several roles rule 1's; values under a missing column are not checked again.`,
	Check: checkR04,
}

func checkR04(p *Pass) {
	m := p.Mapping
	for _, part := range mapping.Parts {
		if m.PartLines[part] == 0 {
			p.Reportf(0, part, "the part %q is missing; add it in its place (docs/mapping-format.md), with %q when it has no rows", "## "+part, "None.")
		}
	}
	r04Columns(p, mapping.PartSCS, m.SCS.Line, m.SCS.Columns, mapping.SCSColumns)
	r04Columns(p, mapping.PartPFS, m.PFS.Line, m.PFS.Columns, mapping.PFSColumns)
	for _, b := range m.Blocks {
		r04Columns(p, BlockWhere(&b)+" "+mapping.SubPartDirect, b.Direct.Line, b.Direct.Columns, mapping.DirectColumns)
		r04Columns(p, BlockWhere(&b)+" "+mapping.SubPartAssociated, b.Associated.Line, b.Associated.Columns, mapping.AssociatedColumns)
	}
	r04Columns(p, mapping.PartUnmappedSections, m.UnmappedSections.Line, m.UnmappedSections.Columns, mapping.UnmappedSectionColumns)
	r04Columns(p, mapping.PartUnmappedFiles, m.UnmappedFiles.Line, m.UnmappedFiles.Columns, mapping.UnmappedFileColumns)
	r04Columns(p, mapping.PartStats, m.Stats.Line, m.Stats.Columns, mapping.StatColumns)

	sectionCats := r04Vocab(mapping.SectionCategories)
	fileCats := r04Vocab(lang.Categories)
	roles := r04Vocab(mapping.Roles)
	reasons := r04Vocab(mapping.Reasons)
	yesNo := []string{"yes", "no"}

	// Values under a missing column are not checked again: the column is
	// reported above.
	has := func(cols []string, names ...string) []bool {
		out := make([]bool, len(names))
		for i, n := range names {
			out[i] = headerHas(cols, n)
		}
		return out
	}
	scs := has(m.SCS.Columns, "Implementable", "Mapped", "Category")
	for i, r := range m.SCS.Rows {
		where := partRowWhere(mapping.PartSCS, i+1)
		for k, c := range []struct{ col, val string }{{"Implementable", r.Implementable}, {"Mapped", r.Mapped}} {
			if scs[k] && !mapping.IsNone(c.val) { // empty cells: rule 5
				r04Value(p, r.Line, where, c.col, c.val, yesNo)
			}
		}
		if scs[2] && !mapping.IsNone(r.Category) {
			r04Value(p, r.Line, where, "Category", r.Category, sectionCats)
		}
	}
	pfs := has(m.PFS.Columns, "Category", "Role", "Direct sections", "Associated sections")
	for i, r := range m.PFS.Rows {
		where := partRowWhere(mapping.PartPFS, i+1)
		if pfs[0] {
			r04Value(p, r.Line, where, "Category", r.Category, fileCats)
		}
		if pfs[1] && !namesSeveralRoles(r.Role) { // several roles: rule 1
			r04Value(p, r.Line, where, "Role", r.Role, roles)
		}
		for k, c := range []struct{ col, val string }{{"Direct sections", r.DirectSections}, {"Associated sections", r.AssociatedSections}} {
			if pfs[2+k] {
				r04SectionList(p, r.Line, where, c.col, c.val)
			}
		}
	}
	unmappedReason := headerHas(m.UnmappedSections.Columns, "Reason")
	for i, r := range m.UnmappedSections.Rows {
		if unmappedReason && strings.TrimSpace(r.Reason) != "" { // empty: rule 12
			r04Value(p, r.Line, partRowWhere(mapping.PartUnmappedSections, i+1), "Reason", r.Reason, reasons)
		}
	}
	uf := has(m.UnmappedFiles.Columns, "Category", "Reason")
	for i, r := range m.UnmappedFiles.Rows {
		where := partRowWhere(mapping.PartUnmappedFiles, i+1)
		if uf[0] {
			r04Value(p, r.Line, where, "Category", r.Category, fileCats)
		}
		if uf[1] {
			r04Value(p, r.Line, where, "Reason", r.Reason, reasons)
		}
	}
	known := slices.Clone(mapping.Metrics)
	for _, c := range lang.Categories {
		known = append(known, mapping.CategoryMetric(c))
	}
	if headerHas(m.Stats.Columns, "Metric") {
		for i, r := range m.Stats.Rows {
			metric := strings.TrimSpace(r.Metric)
			if slices.Contains(known, metric) {
				continue
			}
			where := partRowWhere(mapping.PartStats, i+1)
			if s := r04Suggest(metric, known); s != "" {
				p.Reportf(r.Line, where, "unknown metric %q; %s", r.Metric, s)
				continue
			}
			p.Reportf(r.Line, where, "unknown metric %q; use the metrics of docs/mapping-format.md (%s, and \"<category> files\" per file category) or remove the row",
				r.Metric, strings.Join(mapping.Metrics, ", "))
		}
	}
}

func r04Vocab[T ~string](v []T) []string {
	out := make([]string, len(v))
	for i, s := range v {
		out[i] = string(s)
	}
	return out
}

// r04Columns compares a table's header, as written, with its canonical
// columns. A table written "None." has no header and nothing to compare.
func r04Columns(p *Pass, where string, line int, written, want []string) {
	if len(written) == 0 {
		return
	}
	if len(written) == len(want) {
		same := true
		for i := range want {
			same = same && headerKey(written[i]) == headerKey(want[i])
		}
		if same {
			return
		}
	}
	var missing, extra []string
	for _, w := range want {
		if !headerHas(written, w) {
			missing = append(missing, w)
		}
	}
	for _, c := range written {
		if !headerHas(want, c) {
			extra = append(extra, c)
		}
	}
	got, exp := strings.Join(written, " | "), strings.Join(want, " | ")
	var fix string
	switch {
	case len(missing) == 1 && len(extra) == 1:
		fix = fmt.Sprintf("rename column %q to %q", extra[0], missing[0])
	case len(missing) == 0 && len(extra) == 0:
		fix = "put the columns in the canonical order"
	default:
		var parts []string
		if len(missing) > 0 {
			parts = append(parts, "add "+r04QuoteAll(missing))
		}
		if len(extra) > 0 {
			parts = append(parts, "remove or rename "+r04QuoteAll(extra))
		}
		fix = strings.Join(parts, "; ")
	}
	p.Reportf(line, where, "the columns are %q but must be %q; %s", got, exp, fix)
}

func r04QuoteAll(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}

// r04Value reports a cell outside its vocabulary.
func r04Value(p *Pass, line int, where, column, value string, vocab []string) {
	v := strings.TrimSpace(value)
	if slices.Contains(vocab, v) {
		return
	}
	if v == "" {
		p.Reportf(line, where, "the %s cell is empty; write one of %s", column, strings.Join(vocab, ", "))
		return
	}
	if s := r04Suggest(v, vocab); s != "" {
		p.Reportf(line, where, "%s %q is not in the vocabulary; %s", column, value, s)
		return
	}
	p.Reportf(line, where, "%s %q is not in the vocabulary; write one of %s", column, value, strings.Join(vocab, ", "))
}

// r04Suggest names the vocabulary word a value probably meant: the same
// word in another case, or one at most two edits away.
func r04Suggest(v string, vocab []string) string {
	for _, w := range vocab {
		if strings.EqualFold(v, w) {
			return fmt.Sprintf("write %q exactly", w)
		}
	}
	best, bestD := "", 3
	for _, w := range vocab {
		if d := r04EditDistance(strings.ToLower(v), w, bestD); d < bestD {
			best, bestD = w, d
		}
	}
	if best != "" && len(v) > bestD+1 {
		return fmt.Sprintf("did you mean %q?", best)
	}
	return ""
}

// r04EditDistance is the Levenshtein distance of a and b, or limit when it is
// limit or more; long values give up early, so hostile cells stay cheap.
func r04EditDistance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d >= limit || -d >= limit {
		return limit
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin >= limit {
			return limit
		}
		prev, cur = cur, prev
	}
	return min(prev[len(rb)], limit)
}

// r04SectionList reports a section-list cell that is not "-" or
// comma-separated section ids. Ids the EP lacks are rule 14's.
func r04SectionList(p *Pass, line int, where, column, value string) {
	ids, err := mapping.SectionIDs(value)
	if err != nil {
		p.Reportf(line, where, "%s: %v; write comma-separated section ids such as \"2, 2.1\", or \"-\" for none", column, err)
		return
	}
	for _, id := range ids {
		if !sectionIDRE.MatchString(id) {
			p.Reportf(line, where, "%s %q: %q is not a section id; write section number paths such as \"2.1\", comma-separated, or \"-\" for none", column, value, id)
			return
		}
	}
}
