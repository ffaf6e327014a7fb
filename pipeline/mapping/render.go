package mapping

import (
	"bytes"
	"fmt"
	"strings"
)

// Render writes m as canonical Markdown: parts in canonical order, one
// blank line between blocks, paths and identifiers as code spans, empty
// tables as "None.". Parse(Render(m)) gives m back, line numbers aside, for
// any m that Parse produced; tables keep their columns as written, so a
// curator's renamed column survives a rewrite for rule 4 to report.
func Render(m *Mapping) []byte {
	var w bytes.Buffer
	para := func(lines ...string) {
		if w.Len() > 0 {
			w.WriteByte('\n')
		}
		for _, l := range lines {
			w.WriteString(l)
			w.WriteByte('\n')
		}
	}
	para("# Mapping: " + oneLine(m.Title))

	para("## " + PartSCS)
	para(renderTable(m.SCS, scsCols)...)
	para("## " + PartPFS)
	para(renderTable(m.PFS, pfsCols)...)

	para("## " + PartMappedSections)
	if len(m.Blocks) == 0 {
		para(noneText)
	}
	for _, b := range m.Blocks {
		para(fmt.Sprintf("### %d. Section %s: %s", b.Number, oneLine(b.Section), oneLine(b.Title)))
		para(renderQuote(b.Quote.Text)...)
		para(strings.TrimRight(requirementLabel+" "+oneLine(b.Requirement.Text), " "))
		c := b.Counts
		para(fmt.Sprintf("%s %d direct (%s), %d associated (%s), %d accounted (%s) of %d PR files",
			filesLabel, c.Direct, oneLine(c.DirectPercent), c.Associated, oneLine(c.AssociatedPercent),
			c.Accounted, oneLine(c.AccountedPercent), c.PRFiles))
		para("#### " + SubPartDirect)
		para(renderTable(b.Direct, directCols)...)
		para("#### " + SubPartAssociated)
		para(renderTable(b.Associated, associatedCols)...)
		para("#### " + SubPartSummary)
		if len(b.Summary.Items) == 0 {
			para(noneText)
		} else {
			var items []string
			for _, it := range b.Summary.Items {
				items = append(items, strings.TrimRight("- "+codeSpan(oneLine(it.Path))+": "+oneLine(it.Text), " "))
			}
			para(items...)
		}
	}

	para("## " + PartUnmappedSections)
	para(renderTable(m.UnmappedSections, unmappedSectionCols)...)
	para("## " + PartUnmappedFiles)
	para(renderTable(m.UnmappedFiles, unmappedFileCols)...)
	para("## " + PartStats)
	para(renderTable(m.Stats, statCols)...)
	return w.Bytes()
}

// renderTable writes t under its columns as written, or the canonical ones
// when it has none; a table without rows or columns is "None.".
func renderTable[R any, P rowPtr[R]](t Table[R], cols []column[R]) []string {
	if t.None || (len(t.Rows) == 0 && len(t.Columns) == 0) {
		return []string{noneText}
	}
	headers := t.Columns
	if len(headers) == 0 {
		headers = columnNames(cols)
	}
	bound := bindColumns(headers, cols)
	cells := make([]string, len(headers))
	delim := make([]string, len(headers))
	for i, h := range headers {
		cells[i] = cellText(h)
		delim[i] = strings.Repeat("-", max(3, len([]rune(cells[i]))+2))
	}
	lines := []string{row(cells), "|" + strings.Join(delim, "|") + "|"}
	for _, r := range t.Rows {
		b := P(&r).base()
		for i, h := range headers {
			if k := bound[i]; k >= 0 {
				v := oneLine(*cols[k].get(&r))
				if cols[k].code {
					v = codeSpan(v)
				}
				cells[i] = cellText(v)
			} else {
				cells[i] = cellText(oneLine(b.Extra[h]))
			}
		}
		lines = append(lines, row(cells))
	}
	return lines
}

func row(cells []string) string {
	return strings.TrimRight("| "+strings.Join(cells, " | ")+" |", " ")
}

// cellText escapes the pipes of a cell value, which splitRow unescapes.
func cellText(s string) string {
	return strings.ReplaceAll(s, "|", `\|`)
}

// oneLine folds line breaks: a cell, heading or bullet is one line.
func oneLine(s string) string {
	if strings.ContainsAny(s, "\r\n") {
		s = lineBreaks.Replace(s)
	}
	return strings.TrimSpace(s)
}

// renderQuote writes the plain quotation as a block quote, one "> " per
// line; blank lines become ">" so the quote stays one block.
func renderQuote(text string) []string {
	if text == "" {
		return []string{">"}
	}
	var lines []string
	for l := range strings.SplitSeq(text, "\n") {
		l = strings.TrimRight(l, " \t\r")
		if l == "" {
			lines = append(lines, ">")
		} else {
			lines = append(lines, "> "+l)
		}
	}
	return lines
}

var lineBreaks = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")
