package mapping

import "strings"

// column binds one canonical table column to a row field. code marks path
// and identifier columns, whose cells are usually one code span: the parser
// unquotes a cell that is exactly one code span and Render writes one.
type column[R any] struct {
	name string
	code bool
	get  func(*R) *string
}

// rowPtr lets the generic table code reach the embedded RowBase.
type rowPtr[R any] interface {
	*R
	base() *RowBase
}

var scsCols = []column[SCSRow]{
	{"#", false, func(r *SCSRow) *string { return &r.Index }},
	{"Section", false, func(r *SCSRow) *string { return &r.Section }},
	{"Title", false, func(r *SCSRow) *string { return &r.Title }},
	{"Implementable", false, func(r *SCSRow) *string { return &r.Implementable }},
	{"Category", false, func(r *SCSRow) *string { return &r.Category }},
	{"Mapped", false, func(r *SCSRow) *string { return &r.Mapped }},
}

var pfsCols = []column[PFSRow]{
	{"#", false, func(r *PFSRow) *string { return &r.Index }},
	{"File", true, func(r *PFSRow) *string { return &r.Path }},
	{"Category", false, func(r *PFSRow) *string { return &r.Category }},
	{"Role", false, func(r *PFSRow) *string { return &r.Role }},
	{"Direct sections", false, func(r *PFSRow) *string { return &r.DirectSections }},
	{"Associated sections", false, func(r *PFSRow) *string { return &r.AssociatedSections }},
}

var directCols = []column[CodeRow]{
	{"File", true, func(r *CodeRow) *string { return &r.Path }},
	{"Class", true, func(r *CodeRow) *string { return &r.Class }},
	{"Function", true, func(r *CodeRow) *string { return &r.Function }},
}

var associatedCols = append(directCols[:len(directCols):len(directCols)],
	column[CodeRow]{"Reason", false, func(r *CodeRow) *string { return &r.Reason }})

var unmappedSectionCols = []column[UnmappedSectionRow]{
	{"Section", false, func(r *UnmappedSectionRow) *string { return &r.Section }},
	{"Title", false, func(r *UnmappedSectionRow) *string { return &r.Title }},
	{"Reason", false, func(r *UnmappedSectionRow) *string { return &r.Reason }},
}

var unmappedFileCols = []column[UnmappedFileRow]{
	{"File", true, func(r *UnmappedFileRow) *string { return &r.Path }},
	{"Category", false, func(r *UnmappedFileRow) *string { return &r.Category }},
	{"Reason", false, func(r *UnmappedFileRow) *string { return &r.Reason }},
}

var statCols = []column[StatRow]{
	{"Metric", false, func(r *StatRow) *string { return &r.Metric }},
	{"Value", false, func(r *StatRow) *string { return &r.Value }},
}

// columnKey is how headers are compared: blanks collapsed, case folded.
// Binding is lenient so that a row keeps its values under a header written
// "direct Sections"; rule 4 still sees the header as written in Columns.
func columnKey(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// bindColumns maps each written header to the index of the canonical column
// it fills, or -1 when its cells go to RowBase.Extra. The first header
// matching a canonical column claims it.
func bindColumns[R any](headers []string, cols []column[R]) []int {
	bound := make([]int, len(headers))
	used := make([]bool, len(cols))
	for i, h := range headers {
		bound[i] = -1
		for k, c := range cols {
			if !used[k] && columnKey(h) == columnKey(c.name) {
				bound[i], used[k] = k, true
				break
			}
		}
	}
	return bound
}

func columnNames[R any](cols []column[R]) []string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	return names
}

// unquoteCode returns the content of s when s is exactly one code span
// ("`a.py`", "“ a`b “"), else s unchanged.
func unquoteCode(s string) string {
	n := backtickRun(s, 0)
	if n == 0 {
		return s
	}
	end := closingRun(s, n, n)
	if end < 0 || end+n != len(s) {
		return s
	}
	return strings.TrimSpace(s[n:end])
}

// codeSpan writes s as one code span, choosing a fence longer than any
// backtick run inside s. None values ("-", "") stay bare.
func codeSpan(s string) string {
	if IsNone(s) {
		return s
	}
	longest := 0
	for i := 0; i < len(s); {
		if n := backtickRun(s, i); n > 0 {
			longest = max(longest, n)
			i += n
		} else {
			i++
		}
	}
	fence := strings.Repeat("`", longest+1)
	if longest > 0 {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// backtickRun is the length of the run of backticks starting at s[i].
func backtickRun(s string, i int) int {
	n := 0
	for i+n < len(s) && s[i+n] == '`' {
		n++
	}
	return n
}

// closingRun finds, from s[from:], the start of the first backtick run of
// exactly n backticks (CommonMark code-span closing), or -1.
func closingRun(s string, from, n int) int {
	for i := from; i < len(s); {
		if r := backtickRun(s, i); r > 0 {
			if r == n {
				return i
			}
			i += r
		} else {
			i++
		}
	}
	return -1
}
