package mapping

import (
	"bytes"
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Change is one edit of Fix.
type Change struct {
	// Line is the line in the fixed artifact: of the changed cell or
	// added row, or, for a removed row, the line that took its place.
	Line int `json:"line"`
	// Where names the cell or row: "section 3.1: Mapped",
	// "block 2 (section 3.2): Files", "Global Statistics: Direct files",
	// "Unmapped PR Files: file `README.md`".
	Where string `json:"where"`
	Old   string `json:"old"` // "(absent)" for an added row
	New   string `json:"new"` // "(removed)" for a removed row
}

// Format writes the change as "FILE:LINE: where: old -> new".
func (c Change) Format(file string) string {
	return fmt.Sprintf("%s:%d: %s: %s -> %s", file, c.Line, c.Where, c.Old, c.New)
}

// The Old and New of a change that adds or removes a row.
const (
	Absent  = "(absent)"
	Removed = "(removed)"
)

// Fix rewrites the computed cells of an artifact (Recompute) and returns
// the fixed artifact with the list of changes, in line order. Only the
// lines that change are touched: judgement cells, comments, column widths
// and every other line stay byte for byte. An artifact that cannot be
// parsed is returned unchanged with its *ErrorList.
func Fix(src []byte, t Totals) ([]byte, []Change, error) {
	old, err := Parse(src)
	if err != nil {
		return src, nil, err
	}
	want, _ := Parse(src)
	Recompute(want, t)

	e := newEditor(src)
	for i, r := range old.SCS.Rows {
		w := want.SCS.Rows[i]
		where := "section " + r.Section
		cellEdits(e, old.SCS.Columns, scsCols, &r, &w, r.Line, where, "#", "Mapped")
	}
	for i, r := range old.PFS.Rows {
		w := want.PFS.Rows[i]
		where := "file `" + r.Path + "`"
		cellEdits(e, old.PFS.Columns, pfsCols, &r, &w, r.Line, where, "#", "Role", "Direct sections", "Associated sections")
	}
	for i, b := range old.Blocks {
		w := want.Blocks[i]
		where := fmt.Sprintf("block %d (section %s)", w.Number, b.Section)
		if b.Number != w.Number {
			e.blockNumber(b.Line, w.Number)
			e.change(b.Line, where+": number", strconv.Itoa(b.Number), strconv.Itoa(w.Number))
		}
		oc, wc := b.Counts, w.Counts
		oc.Line, wc.Line = 0, 0
		if oc != wc {
			e.counts(b.Counts.Line, countsText(w.Counts))
			e.change(b.Counts.Line, where+": Files", countsText(b.Counts), countsText(w.Counts))
		}
	}
	syncTable(e, old.UnmappedSections, want.UnmappedSections, unmappedSectionCols, PartUnmappedSections,
		func(r *UnmappedSectionRow) string { return "section " + strings.TrimSpace(r.Section) }, nil, "Title")
	syncTable(e, old.UnmappedFiles, want.UnmappedFiles, unmappedFileCols, PartUnmappedFiles,
		func(r *UnmappedFileRow) string { return "file `" + strings.TrimSpace(r.Path) + "`" }, nil, "Category")
	// A statistic is named by its metric and shown by its value alone.
	syncTable(e, old.Stats, want.Stats, statCols, PartStats,
		func(r *StatRow) string { return strings.TrimSpace(r.Metric) }, func(r *StatRow) string { return r.Value }, "Value")
	out, changes := e.apply()
	return out, changes, nil
}

// countsText is a block's Files line after its label.
func countsText(c Counts) string {
	if c == (Counts{Line: c.Line}) {
		return Marker // a counts line left to be computed
	}
	return fmt.Sprintf("%d direct (%s), %d associated (%s), %d accounted (%s) of %d PR files",
		c.Direct, c.DirectPercent, c.Associated, c.AssociatedPercent, c.Accounted, c.AccountedPercent, c.PRFiles)
}

// editor collects line edits of one artifact and applies them at once, so
// that every change can be reported at its line in the fixed artifact.
type editor struct {
	lines   []string // without line ends
	blanked []string // the same as the parser sees them: comments and lone CRs blanked
	eols    []string
	repl    map[int][]string // old line -> its replacement (nil: deleted)
	ins     map[int][]string // old line -> lines inserted after it
	changes []pending
}

// pending is a change whose line is known in the old artifact: at old
// line, or the n-th line inserted after it (n >= 1).
type pending struct {
	Change
	old, n int
}

func newEditor(src []byte) *editor {
	p := &parser{starts: []int{0}}
	for i, c := range src {
		if c == '\n' && i+1 < len(src) {
			p.starts = append(p.starts, i+1)
		}
	}
	blanked := p.blankComments(src)
	loneCRs(blanked)
	e := &editor{repl: map[int][]string{}, ins: map[int][]string{}}
	for i, start := range p.starts {
		end := len(src)
		if i+1 < len(p.starts) {
			end = p.starts[i+1]
		}
		line, eol := string(src[start:end]), ""
		switch {
		case strings.HasSuffix(line, "\r\n"):
			line, eol = line[:len(line)-2], "\r\n"
		case strings.HasSuffix(line, "\n"):
			line, eol = line[:len(line)-1], "\n"
		}
		e.lines = append(e.lines, line)
		e.blanked = append(e.blanked, string(blanked[start:start+len(line)]))
		e.eols = append(e.eols, eol)
	}
	return e
}

// eol is the line end used for new lines: the artifact's own.
func (e *editor) eol() string {
	for _, s := range e.eols {
		if s != "" {
			return s
		}
	}
	return "\n"
}

func (e *editor) change(line int, where, old, new string) {
	e.changes = append(e.changes, pending{Change: Change{Where: where, Old: old, New: new}, old: line})
}

// cellEdits compares the named canonical columns of an old and a
// recomputed row and rewrites each that differs in place. A column the
// table does not have is left to rule 4.
func cellEdits[R any](e *editor, headers []string, cols []column[R], o, w *R, line int, where string, names ...string) {
	bound := bindColumns(headers, cols)
	for i, k := range bound {
		if k < 0 || !slices.Contains(names, cols[k].name) {
			continue
		}
		ov, wv := *cols[k].get(o), *cols[k].get(w)
		if ov == wv {
			continue
		}
		e.setCell(line, i, cellValue(wv, cols[k].code))
		e.change(line, where+": "+cols[k].name, shown(ov), wv)
	}
}

// shown writes an empty old value so that it can be seen.
func shown(s string) string {
	if s == "" {
		return `""`
	}
	return s
}

func cellValue(v string, code bool) string {
	v = oneLine(v)
	if code {
		v = codeSpan(v)
	}
	return cellText(v)
}

// cellSpans returns the byte range of each cell of a table line, split as
// the parser's splitRow splits it.
func cellSpans(line string) [][2]int {
	start := len(line) - len(strings.TrimLeft(line, " \t"))
	end := len(strings.TrimRight(line, " \t"))
	if start < end && line[start] == '|' {
		start++
	}
	if end > start && line[end-1] == '|' {
		end--
	}
	var spans [][2]int
	a := start
	for i := start; i < end; i++ {
		if line[i] == '|' && (i == 0 || line[i-1] != '\\') {
			spans = append(spans, [2]int{a, i})
			a = i + 1
		}
	}
	return append(spans, [2]int{a, end})
}

// setCell replaces the content of cell idx of old line l, keeping the
// blanks around it and any comment beside it.
func (e *editor) setCell(l, idx int, value string) {
	line, blank := e.lines[l-1], e.blanked[l-1]
	spans := cellSpans(blank)
	if idx >= len(spans) {
		return
	}
	a, b := spans[idx][0], spans[idx][1]
	ca, cb := a, b
	for ca < cb && (blank[ca] == ' ' || blank[ca] == '\t') {
		ca++
	}
	for cb > ca && (blank[cb-1] == ' ' || blank[cb-1] == '\t') {
		cb--
	}
	if ca == cb { // an empty cell
		ca, cb, value = a, b, " "+value+" "
	}
	e.lines[l-1] = line[:ca] + value + line[cb:]
	e.blanked[l-1] = blank[:ca] + value + blank[cb:]
	e.repl[l] = []string{e.lines[l-1]}
}

var headingNumberRE = regexp.MustCompile(`^(\s{0,3}#{3}\s+)([0-9]+)`)

// blockNumber rewrites the number of the block heading at old line l.
func (e *editor) blockNumber(l, n int) {
	line := e.lines[l-1]
	if m := headingNumberRE.FindStringSubmatchIndex(line); m != nil {
		e.lines[l-1] = line[:m[4]] + strconv.Itoa(n) + line[m[5]:]
		e.repl[l] = []string{e.lines[l-1]}
	}
}

// counts rewrites the Files line at old line l, with the lines that
// continue its paragraph, as one line; comments on them are kept.
func (e *editor) counts(l int, text string) {
	line := e.lines[l-1]
	indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
	comments := commentsOf(line)
	last := l
	for next := l + 1; next <= len(e.lines); next++ {
		t := strings.TrimSpace(e.blanked[next-1])
		if t == "" || labelOf(t) != "" || strings.HasPrefix(t, "#") {
			break
		}
		comments = append(comments, commentsOf(e.lines[next-1])...)
		last = next
	}
	out := indent + filesLabel + " " + text
	if len(comments) > 0 {
		out += " " + strings.Join(comments, " ")
	}
	e.lines[l-1] = out
	e.repl[l] = []string{out}
	for k := l + 1; k <= last; k++ {
		e.repl[k] = nil
	}
}

var commentRE = regexp.MustCompile(`<!--[\s\S]*?-->`)

func commentsOf(line string) []string { return commentRE.FindAllString(line, -1) }

// syncTable turns the old table into the recomputed one: removed rows are
// deleted, new rows inserted after the kept row before them, and the
// named cells of kept rows rewritten. A table left without rows becomes
// "None.", and rows added to "None." get the canonical header. Changes
// name a row by name and show it whole, or by value when value is set (a
// statistic), which then also names its only cell.
func syncTable[R any, P rowPtr[R]](e *editor, old, want Table[R], cols []column[R], part string, name, value func(*R) string, names ...string) {
	if old.Line == 0 {
		return // a missing part is rule 4's: the curator adds it in its place
	}
	kept := map[int]*R{}
	for i := range want.Rows {
		if l := P(&want.Rows[i]).base().Line; l > 0 {
			kept[l] = &want.Rows[i]
		}
	}
	headers := old.Columns
	if old.None || len(headers) == 0 {
		headers = columnNames(cols)
	}
	// A table without all its canonical columns is rule 4's: its rows
	// cannot be written, so it is left as it is.
	bound := 0
	for _, k := range bindColumns(headers, cols) {
		if k >= 0 {
			bound++
		}
	}
	if bound < len(cols) {
		return
	}
	rowLine := func(r *R) string { return tableRow[R, P](r, headers, cols) }
	rowShown := func(r *R) string {
		var cells []string
		for _, c := range cols {
			cells = append(cells, oneLine(*c.get(r)))
		}
		return strings.Join(cells, " | ")
	}
	cellName := func(c string) string { return ": " + c }
	if value != nil {
		rowShown = value
		cellName = func(string) string { return "" }
	}
	for i := range old.Rows {
		o := &old.Rows[i]
		l := P(o).base().Line
		w, ok := kept[l]
		if !ok {
			e.repl[l] = nil
			e.change(l, part+": "+name(o), rowShown(o), Removed)
			continue
		}
		bound := bindColumns(headers, cols)
		for j, k := range bound {
			if k < 0 || !slices.Contains(names, cols[k].name) {
				continue
			}
			ov, wv := *cols[k].get(o), *cols[k].get(w)
			if ov != wv {
				e.setCell(l, j, cellValue(wv, cols[k].code))
				e.change(l, part+": "+name(o)+cellName(cols[k].name), shown(ov), wv)
			}
		}
	}

	// Where new rows go: after the last kept row before them, else after
	// the delimiter row, else in place of "None.".
	after := 0
	switch {
	case old.None || len(old.Columns) == 0:
		after = old.Line
	default:
		after = old.Line + 1
	}
	anchor := after
	for i := range want.Rows {
		w := &want.Rows[i]
		if l := P(w).base().Line; l > 0 {
			anchor = l
			continue
		}
		e.ins[anchor] = append(e.ins[anchor], rowLine(w))
		e.changes = append(e.changes, pending{Change: Change{Where: part + ": " + name(w), Old: Absent, New: rowShown(w)}, old: anchor, n: len(e.ins[anchor])})
	}
	hasRows := len(want.Rows) > 0
	wasNone := old.None || len(old.Columns) == 0
	switch {
	case wasNone && hasRows:
		// The header goes where "None." was, the rows after it.
		e.repl[old.Line] = tableHeader(headers)
	case !wasNone && !hasRows && len(old.Rows) > 0:
		e.repl[old.Line] = []string{noneText}
		e.repl[old.Line+1] = nil
	}
}

// tableHeader is the header and delimiter rows, as Render writes them.
func tableHeader(headers []string) []string {
	cells := make([]string, len(headers))
	delim := make([]string, len(headers))
	for i, h := range headers {
		cells[i] = cellText(h)
		delim[i] = strings.Repeat("-", max(3, len([]rune(cells[i]))+2))
	}
	return []string{row(cells), "|" + strings.Join(delim, "|") + "|"}
}

// tableRow writes one row under headers, as Render writes it.
func tableRow[R any, P rowPtr[R]](r *R, headers []string, cols []column[R]) string {
	bound := bindColumns(headers, cols)
	cells := make([]string, len(headers))
	for i, h := range headers {
		if k := bound[i]; k >= 0 {
			cells[i] = cellValue(*cols[k].get(r), cols[k].code)
		} else {
			cells[i] = cellText(oneLine(P(r).base().Extra[h]))
		}
	}
	return row(cells)
}

// apply writes the fixed artifact and places each change at its line in
// it.
func (e *editor) apply() ([]byte, []Change) {
	var out bytes.Buffer
	eol := e.eol()
	newLine := make([]int, len(e.lines)+2) // old line -> first new line at or after it
	insLine := map[int]int{}               // old line -> new line of its first insertion
	n := 0
	write := func(s, end string) {
		n++
		out.WriteString(s)
		out.WriteString(end)
	}
	flushIns := func(l int) {
		if rows, ok := e.ins[l]; ok {
			insLine[l] = n + 1
			for _, r := range rows {
				write(r, eol)
			}
		}
	}
	flushIns(0)
	for l := 1; l <= len(e.lines); l++ {
		newLine[l] = n + 1
		lineEnd := e.eols[l-1]
		repl, replaced := e.repl[l]
		if !replaced {
			repl = []string{e.lines[l-1]}
		}
		for i, s := range repl {
			end := eol
			if i == len(repl)-1 {
				end = lineEnd
				if end == "" && len(e.ins[l]) > 0 {
					end = eol
				}
			}
			write(s, end)
		}
		flushIns(l)
	}
	newLine[len(e.lines)+1] = n + 1

	changes := make([]Change, len(e.changes))
	for i, p := range e.changes {
		c := p.Change
		if p.n > 0 {
			c.Line = insLine[p.old] + p.n - 1
		} else {
			c.Line = newLine[p.old]
			if _, ok := e.repl[p.old]; ok && e.repl[p.old] == nil {
				// a removed line: the line that took its place
				c.Line = min(newLine[p.old], n)
			}
		}
		changes[i] = c
	}
	slices.SortStableFunc(changes, func(a, b Change) int { return cmp.Compare(a.Line, b.Line) })
	return out.Bytes(), changes
}
