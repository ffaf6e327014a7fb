// Package mapping reads, writes and exports the EP–PR mapping artifact
// (mapping.md), the Markdown document that aligns the sections of an
// enhancement proposal with the files, classes and functions its pull
// request changed (paper, section 3.2; spec in docs/mapping-format.md).
//
// The parser is strict about structure and lenient about content: it fails,
// naming every offending line, on anything it cannot read, but it keeps cell
// values and table headers exactly as written and never checks
// vocabularies, column schemas or arithmetic. Those are the business of the
// static rules (rules/, e.g. rule 4 for vocabularies and schemas, rule 7
// for block counts, rule 8 for coverage), which need a faithful model with a line for every
// element so that each violation can point at the artifact.
package mapping

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Mapping is one parsed mapping artifact. Every element carries the 1-based
// line of the artifact it came from; a Mapping built in code has zero lines.
type Mapping struct {
	// Title is the candidate id from the title "# Mapping: <id>".
	Title     string `json:"title"`
	TitleLine int    `json:"title_line"`
	// PartLines maps each top-level part heading (see Parts) to its line,
	// so a rule can point at a part even when it is empty.
	PartLines map[string]int `json:"part_lines,omitempty"`

	SCS              Table[SCSRow]             `json:"section_classification_summary"`
	PFS              Table[PFSRow]             `json:"pr_file_summary"`
	Blocks           []Block                   `json:"mapped_sections"`
	UnmappedSections Table[UnmappedSectionRow] `json:"unmapped_implementable_sections"`
	UnmappedFiles    Table[UnmappedFileRow]    `json:"unmapped_pr_files"`
	Stats            Table[StatRow]            `json:"global_statistics"`
}

// Table is one Markdown table of the artifact, or the paragraph "None."
// standing for an empty one.
type Table[R any] struct {
	// Line is the line of the header row, or of "None.".
	Line int `json:"line"`
	// None reports that the table was written as the paragraph "None.".
	None bool `json:"none,omitempty"`
	// Columns is the header as written, so that rule 4 can see a missing,
	// renamed or extra column. Empty for None and for tables built in code
	// (Render then writes the canonical columns).
	Columns []string `json:"columns,omitempty"`
	Rows    []R      `json:"rows"`
}

// RowBase is embedded in every row type.
type RowBase struct {
	Line int `json:"line"`
	// Extra holds the cells under columns that are not canonical for the
	// table, keyed by the header text as written.
	Extra map[string]string `json:"extra,omitempty"`
}

func (r *RowBase) base() *RowBase { return r }

// SCSRow is one row of the Section Classification Summary: one per EP
// heading, in document order.
type SCSRow struct {
	RowBase
	Index         string `json:"index"`         // "#"
	Section       string `json:"section"`       // EP number path, e.g. "2.1"
	Title         string `json:"title"`         // heading text
	Implementable string `json:"implementable"` // "yes" or "no"
	Category      string `json:"category"`      // SectionCategories
	Mapped        string `json:"mapped"`        // "yes" or "no"
}

// PFSRow is one row of the PR File Summary: one per changed file.
type PFSRow struct {
	RowBase
	Index              string `json:"index"`
	Path               string `json:"path"`
	Category           string `json:"category"` // lang.Categories
	Role               string `json:"role"`     // Roles
	DirectSections     string `json:"direct_sections"`
	AssociatedSections string `json:"associated_sections"`
}

// CodeRow is one row of a block's Direct modifications or Associated
// changes table. Class and Function are "-" or empty for none (a
// file-level change); nested names are dotted ("Outer.Inner",
// "outer.inner"); a method has its class in Class and its name in Function.
// Reason is only a column of Associated changes.
type CodeRow struct {
	RowBase
	Path     string `json:"path"`
	Class    string `json:"class"`
	Function string `json:"function"`
	Reason   string `json:"reason,omitempty"`
}

// UnmappedSectionRow is one row of Unmapped Implementable Sections.
type UnmappedSectionRow struct {
	RowBase
	Section string `json:"section"`
	Title   string `json:"title"`
	Reason  string `json:"reason"` // Reasons
}

// UnmappedFileRow is one row of Unmapped PR Files.
type UnmappedFileRow struct {
	RowBase
	Path     string `json:"path"`
	Category string `json:"category"`
	Reason   string `json:"reason"`
}

// StatRow is one row of Global Statistics.
type StatRow struct {
	RowBase
	Metric string `json:"metric"`
	Value  string `json:"value"`
}

// Block is one mapped-section block, "### <n>. Section <id>: <title>",
// with its four sub-parts.
type Block struct {
	Line        int            `json:"line"`
	Number      int            `json:"number"`
	Section     string         `json:"section"`
	Title       string         `json:"title"`
	Quote       Quote          `json:"quote"`
	Requirement Requirement    `json:"requirement"`
	Counts      Counts         `json:"counts"`
	Direct      Table[CodeRow] `json:"direct"`
	Associated  Table[CodeRow] `json:"associated"`
	Summary     Summary        `json:"summary"`
}

// Quote is the verbatim quotation of the EP section that opens a block.
type Quote struct {
	Line int `json:"line"`
	// Raw is the block quote as written, one source line per line, trailing
	// blanks removed.
	Raw string `json:"raw"`
	// Text is the quotation itself: Raw with one level of "> " markers
	// removed, lines joined with "\n". Rules compare it with the EP.
	Text string `json:"text"`
}

// Requirement is the "**Requirement:**" paragraph of a block.
type Requirement struct {
	Line int `json:"line"`
	// Text follows the label; the paragraph's lines are joined with spaces.
	Text string `json:"text"`
}

// Counts is the block's "**Files:**" line. Percentages are kept as written
// ("33.3%"); rule 7 checks them against FormatPercent.
type Counts struct {
	Line              int    `json:"line"`
	Direct            int    `json:"direct"`
	DirectPercent     string `json:"direct_percent"`
	Associated        int    `json:"associated"`
	AssociatedPercent string `json:"associated_percent"`
	Accounted         int    `json:"accounted"`
	AccountedPercent  string `json:"accounted_percent"`
	PRFiles           int    `json:"pr_files"`
}

// Summary is the Modification summary: one bullet per file.
type Summary struct {
	Line  int           `json:"line"` // first bullet, or "None."
	None  bool          `json:"none,omitempty"`
	Items []SummaryItem `json:"items"`
}

// SummaryItem is one bullet "`path`: text".
type SummaryItem struct {
	Line int    `json:"line"`
	Path string `json:"path"`
	Text string `json:"text"`
}

// FileRef is one mention of a file path anywhere in the artifact.
type FileRef struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	// Part names where the path appears: PartPFS, PartUnmappedFiles, or a
	// block sub-part (SubPartDirect, SubPartAssociated, SubPartSummary).
	Part string `json:"part"`
	// Block is the block's position (1-based) for block sub-parts, else 0.
	Block int `json:"block,omitempty"`
}

// Files returns every file path named in the artifact, in document order
// of the parts, with its line. Rules use it to check paths against the PR
// diff in one place.
func (m *Mapping) Files() []FileRef {
	var refs []FileRef
	for _, r := range m.PFS.Rows {
		refs = append(refs, FileRef{Path: r.Path, Line: r.Line, Part: PartPFS})
	}
	for i, b := range m.Blocks {
		for _, r := range b.Direct.Rows {
			refs = append(refs, FileRef{Path: r.Path, Line: r.Line, Part: SubPartDirect, Block: i + 1})
		}
		for _, r := range b.Associated.Rows {
			refs = append(refs, FileRef{Path: r.Path, Line: r.Line, Part: SubPartAssociated, Block: i + 1})
		}
		for _, it := range b.Summary.Items {
			refs = append(refs, FileRef{Path: it.Path, Line: it.Line, Part: SubPartSummary, Block: i + 1})
		}
	}
	for _, r := range m.UnmappedFiles.Rows {
		refs = append(refs, FileRef{Path: r.Path, Line: r.Line, Part: PartUnmappedFiles})
	}
	return refs
}

// Accounted returns the distinct paths of the block's Direct modifications
// and Associated changes tables, in first-seen order: the "accounted" count
// of the block's counts line is their number.
func (b *Block) Accounted() []string {
	seen := map[string]bool{}
	var paths []string
	for _, t := range []*Table[CodeRow]{&b.Direct, &b.Associated} {
		for _, r := range t.Rows {
			if !seen[r.Path] {
				seen[r.Path] = true
				paths = append(paths, r.Path)
			}
		}
	}
	return paths
}

// Stat returns the first Global Statistics row whose Metric is metric.
func (m *Mapping) Stat(metric string) (StatRow, bool) {
	for _, r := range m.Stats.Rows {
		if r.Metric == metric {
			return r, true
		}
	}
	return StatRow{}, false
}

// IsNone reports whether a Class, Function or section-list cell means
// "none": "-" or empty.
func IsNone(cell string) bool {
	s := strings.TrimSpace(cell)
	return s == "" || s == "-"
}

// SectionIDs splits a section-list cell ("2.1, 3" or "-") into its section
// ids. A none cell gives no ids. An empty element or one with inner blanks
// is an error, which a rule reports at the row's line.
func SectionIDs(cell string) ([]string, error) {
	if IsNone(cell) {
		return nil, nil
	}
	var ids []string
	for part := range strings.SplitSeq(cell, ",") {
		id := strings.TrimSpace(part)
		if id == "" {
			return nil, fmt.Errorf("section list %q has an empty element", cell)
		}
		if strings.ContainsAny(id, " \t") {
			return nil, fmt.Errorf("section list %q: %q is not one section id (separate ids with commas)", cell, id)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

var decimalRE = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)

// ParsePercent reads a percentage cell such as "66.7%" and returns 66.7.
func ParsePercent(s string) (float64, error) {
	num, ok := strings.CutSuffix(strings.TrimSpace(s), "%")
	if !ok {
		return 0, fmt.Errorf("percentage %q does not end with %%", s)
	}
	if !decimalRE.MatchString(num) {
		return 0, fmt.Errorf("percentage %q is not a decimal number", s)
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("percentage %q is not a decimal number", s)
	}
	return v, nil
}

// FormatPercent writes num/den as the artifact's canonical percentage: one
// decimal, rounded half up, with "%" ("1 of 3" is "33.3%"). A zero
// denominator gives "0.0%". Integer arithmetic keeps the rounding exact, so
// a rule comparing FormatPercent with a cell never disagrees by float noise.
func FormatPercent(num, den int) string {
	if den <= 0 || num < 0 {
		return "0.0%"
	}
	tenths := (int64(num)*1000 + int64(den)/2) / int64(den)
	return fmt.Sprintf("%d.%d%%", tenths/10, tenths%10)
}
