package mapping

import (
	"slices"
	"strconv"
	"strings"

	"github.com/lolbench/lolbench/pipeline/lang"
)

// Totals are the two numbers a mapping cannot count from itself: the EP's
// heading count (Global Statistics "EP sections", rule 15) and the PR's
// file count (each block's "of N PR files" and "PR files", rules 7, 8, 15).
type Totals struct {
	EPSections int
	PRFiles    int
}

// Recompute rewrites, in place, every computed cell of m from its tables
// and t, and leaves every judgement cell as it is (docs/mapping-format.md,
// "Computed cells"):
//
//   - the # column of the Section Classification Summary and of the PR
//     File Summary, and the block numbers (rule 18);
//   - Mapped: yes when a block has the row's section (rules 5, 19);
//   - each PR file's Role, Direct sections and Associated sections, from
//     the blocks' tables (rules 11, 14); a section list is rewritten only
//     when it names other sections than the blocks do, so a curator's
//     order survives;
//   - each block's Files line (rule 7);
//   - which rows Unmapped Implementable Sections and Unmapped PR Files
//     hold, with the summaries' titles and categories (rules 11, 12): a
//     missing row is added with the Marker as its reason, and a row whose
//     section is mapped or not implementable, or whose file has a role,
//     is removed, as is a repeated row;
//   - Global Statistics, row by row, in canonical order (rules 8, 15, 21).
//
// Rows Recompute cannot place are left alone: a section row whose
// Implementable is unreadable, a file row that is not in the PR File
// Summary. New rows have line 0.
func Recompute(m *Mapping, t Totals) {
	t.EPSections, t.PRFiles = max(t.EPSections, 0), max(t.PRFiles, 0)
	blockSecs := map[string]bool{}
	for i := range m.Blocks {
		b := &m.Blocks[i]
		b.Number = i + 1
		blockSecs[strings.TrimSpace(b.Section)] = true
	}
	for i := range m.SCS.Rows {
		r := &m.SCS.Rows[i]
		r.Index = strconv.Itoa(i + 1)
		r.Mapped = yesNo(blockSecs[strings.TrimSpace(r.Section)])
	}

	direct, assoc := sectionsByFile(m.Blocks)
	for i := range m.PFS.Rows {
		r := &m.PFS.Rows[i]
		r.Index = strconv.Itoa(i + 1)
		p := strings.TrimSpace(r.Path)
		r.Role = string(fileRole(direct[p], assoc[p]))
		r.DirectSections = sectionList(r.DirectSections, direct[p])
		r.AssociatedSections = sectionList(r.AssociatedSections, assoc[p])
	}

	for i := range m.Blocks {
		b := &m.Blocks[i]
		d, a := b.fileCounts()
		b.Counts = Counts{
			Line:              b.Counts.Line,
			Direct:            d,
			DirectPercent:     FormatPercent(d, t.PRFiles),
			Associated:        a,
			AssociatedPercent: FormatPercent(a, t.PRFiles),
			Accounted:         d + a,
			AccountedPercent:  FormatPercent(d+a, t.PRFiles),
			PRFiles:           t.PRFiles,
		}
	}

	recomputeUnmappedSections(m)
	recomputeUnmappedFiles(m)
	recomputeStats(m, t)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// sectionsByFile lists, per path, the sections of the blocks whose Direct
// modifications (Associated changes) name it, each once, in block order.
func sectionsByFile(blocks []Block) (direct, assoc map[string][]string) {
	direct, assoc = map[string][]string{}, map[string][]string{}
	for _, b := range blocks {
		id := strings.TrimSpace(b.Section)
		for _, x := range []struct {
			rows []CodeRow
			into map[string][]string
		}{{b.Direct.Rows, direct}, {b.Associated.Rows, assoc}} {
			for _, r := range x.rows {
				p := strings.TrimSpace(r.Path)
				if !slices.Contains(x.into[p], id) {
					x.into[p] = append(x.into[p], id)
				}
			}
		}
	}
	return direct, assoc
}

func fileRole(direct, assoc []string) Role {
	switch {
	case len(direct) > 0:
		return RoleDirect
	case len(assoc) > 0:
		return RoleAssociated
	}
	return RoleUnmapped
}

// sectionList returns the written cell when it names exactly the sections
// ids, each once, in any order; else ids written canonically ("3.1, 4",
// "-" for none).
func sectionList(written string, ids []string) string {
	got, err := SectionIDs(written)
	if err == nil && strings.TrimSpace(written) != "" && len(got) == len(ids) {
		same := true
		for i, id := range got {
			if !slices.Contains(ids, id) || slices.Contains(got[:i], id) {
				same = false
			}
		}
		if same {
			return written
		}
	}
	if len(ids) == 0 {
		return "-"
	}
	return strings.Join(ids, ", ")
}

// fileCounts is rule 7's direct and associated: the distinct files of
// Direct modifications, and those of Associated changes not also direct.
func (b *Block) fileCounts() (direct, assoc int) {
	seen := map[string]bool{}
	for _, r := range b.Direct.Rows {
		if p := strings.TrimSpace(r.Path); !seen[p] {
			seen[p] = true
			direct++
		}
	}
	for _, r := range b.Associated.Rows {
		if p := strings.TrimSpace(r.Path); !seen[p] {
			seen[p] = true
			assoc++
		}
	}
	return direct, assoc
}

// sameTitle compares titles as rules 12 and 19 do: case and repeated
// blanks aside.
func sameTitle(a, b string) bool {
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
	return norm(a) == norm(b)
}

func recomputeUnmappedSections(m *Mapping) {
	pos := map[string]int{}
	scs := map[string]*SCSRow{}
	var want []string
	for i := range m.SCS.Rows {
		r := &m.SCS.Rows[i]
		id := strings.TrimSpace(r.Section)
		if _, dup := scs[id]; dup {
			continue
		}
		scs[id], pos[id] = r, i
		if r.Implementable == "yes" && r.Mapped == "no" {
			want = append(want, id)
		}
	}
	seen := map[string]bool{}
	var kept []UnmappedSectionRow
	for _, r := range m.UnmappedSections.Rows {
		id := strings.TrimSpace(r.Section)
		s := scs[id]
		switch {
		case seen[id]:
			continue // a repeated row
		case s != nil && (s.Implementable == "no" || s.Mapped == "yes"):
			continue // mapped or not implementable
		}
		seen[id] = true
		if s != nil && !sameTitle(r.Title, s.Title) {
			r.Title = s.Title
		}
		kept = append(kept, r)
	}
	for _, id := range want {
		if seen[id] {
			continue
		}
		row := UnmappedSectionRow{Section: id, Title: scs[id].Title, Reason: Marker}
		kept = insertAt(kept, row, pos[id], func(r UnmappedSectionRow) (int, bool) {
			p, ok := pos[strings.TrimSpace(r.Section)]
			return p, ok
		})
	}
	m.UnmappedSections.Rows = orEmpty(kept)
}

func recomputeUnmappedFiles(m *Mapping) {
	pos := map[string]int{}
	pfs := map[string]*PFSRow{}
	var want []string
	for i := range m.PFS.Rows {
		r := &m.PFS.Rows[i]
		p := strings.TrimSpace(r.Path)
		if _, dup := pfs[p]; dup {
			continue
		}
		pfs[p], pos[p] = r, i
		if r.Role == string(RoleUnmapped) {
			want = append(want, p)
		}
	}
	seen := map[string]bool{}
	var kept []UnmappedFileRow
	for _, r := range m.UnmappedFiles.Rows {
		p := strings.TrimSpace(r.Path)
		f := pfs[p]
		switch {
		case seen[p]:
			continue
		case f != nil && f.Role != string(RoleUnmapped):
			continue
		}
		seen[p] = true
		if f != nil && strings.TrimSpace(r.Category) != strings.TrimSpace(f.Category) {
			r.Category = f.Category
		}
		kept = append(kept, r)
	}
	for _, p := range want {
		if seen[p] {
			continue
		}
		row := UnmappedFileRow{Path: p, Category: pfs[p].Category, Reason: Marker}
		kept = insertAt(kept, row, pos[p], func(r UnmappedFileRow) (int, bool) {
			q, ok := pos[strings.TrimSpace(r.Path)]
			return q, ok
		})
	}
	m.UnmappedFiles.Rows = orEmpty(kept)
}

// insertAt inserts row after the last row of rows whose position (by key)
// comes before p, or first when there is none.
func insertAt[R any](rows []R, row R, p int, key func(R) (int, bool)) []R {
	at := 0
	for i, r := range rows {
		if q, ok := key(r); ok && q < p {
			at = i + 1
		}
	}
	return slices.Insert(rows, at, row)
}

func orEmpty[R any](rows []R) []R {
	if rows == nil {
		return []R{}
	}
	return rows
}

// wantStats is Global Statistics as rules 8, 15 and 21 regenerate it.
func wantStats(m *Mapping, t Totals) []StatRow {
	implementable, mapped := 0, 0
	for _, r := range m.SCS.Rows {
		if r.Implementable == "yes" {
			implementable++
			if r.Mapped == "yes" {
				mapped++
			}
		}
	}
	roles := map[string]map[string]bool{}
	cats := map[string]map[string]bool{}
	note := func(into map[string]map[string]bool, key, path string) {
		if into[key] == nil {
			into[key] = map[string]bool{}
		}
		into[key][path] = true
	}
	for _, r := range m.PFS.Rows {
		p := strings.TrimSpace(r.Path)
		note(roles, strings.TrimSpace(r.Role), p)
		note(cats, strings.TrimSpace(r.Category), p)
	}
	d, a, u := len(roles[string(RoleDirect)]), len(roles[string(RoleAssociated)]), len(roles[string(RoleUnmapped)])
	values := []string{
		strconv.Itoa(t.EPSections),
		strconv.Itoa(implementable),
		strconv.Itoa(mapped),
		strconv.Itoa(implementable - mapped),
		FormatPercent(mapped, implementable),
		strconv.Itoa(t.PRFiles),
		strconv.Itoa(d),
		strconv.Itoa(a),
		strconv.Itoa(u),
		FormatPercent(d+a, t.PRFiles),
	}
	var rows []StatRow
	for i, metric := range Metrics {
		rows = append(rows, StatRow{Metric: metric, Value: values[i]})
	}
	for _, c := range lang.Categories {
		if n := len(cats[string(c)]); n > 0 {
			rows = append(rows, StatRow{Metric: CategoryMetric(c), Value: strconv.Itoa(n)})
		}
	}
	return rows
}

func recomputeStats(m *Mapping, t Totals) {
	want := wantStats(m, t)
	pos := map[string]int{}
	for i, r := range want {
		pos[r.Metric] = i
	}
	seen := map[string]bool{}
	var kept []StatRow
	for _, r := range m.Stats.Rows {
		metric := strings.TrimSpace(r.Metric)
		p, ok := pos[metric]
		if !ok || seen[metric] {
			continue // unknown, misspelt, absent category or repeated
		}
		seen[metric] = true
		r.Value = want[p].Value
		kept = append(kept, r)
	}
	for i, w := range want {
		if !seen[w.Metric] {
			kept = insertAt(kept, w, i, func(r StatRow) (int, bool) {
				q, ok := pos[strings.TrimSpace(r.Metric)]
				return q, ok
			})
		}
	}
	m.Stats.Rows = orEmpty(kept)
}
