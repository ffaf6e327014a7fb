// Package ep parses enhancement-proposal documents (PEPs, KEPs, RFCs, design
// documents) into a tree of sections with exact byte ranges.
//
// The sections are the unit of the whole method: the mapping artifact cites
// them, the static rules measure them, the ranker scores them (LoLBench §3.2,
// EP–PR matching). Every section therefore carries a stable number path
// ("2.3"), its depth, a plain-text title, the 1-based line of its title and
// three half-open byte ranges into the source: the heading itself, the
// section's own text, and its whole subtree.
//
// Two formats are understood:
//
//   - Markdown (KEPs, design docs) is parsed with goldmark, CommonMark plus the
//     GFM extension. ATX and setext headings count. Only headings that are
//     direct children of the document count: a heading inside a block quote
//     or a list item is quoted or enumerated material, not a section of the
//     proposal. Code blocks, HTML
//     blocks and comments never hold headings, and raw <h2> HTML is not a
//     heading. YAML front matter is stripped before goldmark sees it, so its
//     last key line cannot turn into a setext heading; its top-level scalar
//     keys become Document.Metadata. A block counts as front matter when the
//     first line is "---", a closing "---" line follows, and the first line
//     inside looks like a YAML key ("key:"), so a leading thematic break is
//     still a thematic break.
//
//   - reStructuredText (PEPs) is read by a line-based parser that follows
//     docutils' body state machine (docutils/parsers/rst/states.py) closely
//     enough to find exactly the section titles docutils finds in
//     well-formed documents: underline-only and overline+underline titles,
//     levels in order of first appearance of each adornment style, the
//     short-underline leniency, and no titles inside indented text, literal
//     blocks, directives, comments, lists, option lists, doctest blocks,
//     tables or the PEP header block (checked against docutils 0.19 on
//     every PEP in python/peps: same titles and levels). The RFC-822 header block of
//     a PEP becomes Document.Metadata; since the format alone does not say
//     whether a file is a PEP, a header is taken only when every line up
//     to the first blank line is a field or a continuation, and not when
//     its first line is underlined (then it is a title, as for docutils'
//     standard reader). Where docutils reports an inconsistent title level
//     and drops the title, this parser keeps it and clamps its depth to one
//     below the current section, so that a malformed proposal still yields
//     a usable outline. Unlike docutils' doctitle transform, a lone
//     top-level section is not promoted to a document title: levels are
//     plain tree depths.
//
// Titles are plain text on one line: markup removed, white space runs
// collapsed to one space, footnote and citation references dropped.
//
// Lines end at "\n" (a preceding "\r" is ignored); a lone "\r" is not a line
// break in either format. Input that is not valid UTF-8 is rejected with an
// error naming the line, never a panic: every input is hostile.
package ep

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Format is the markup language of an EP document.
type Format string

// The supported formats. Their values are the flag values of
// "lolbench ep headings --format".
const (
	Markdown Format = "md"
	RST      Format = "rst"
)

// ParseFormat turns a --format flag value into a Format.
func ParseFormat(s string) (Format, error) {
	switch Format(s) {
	case Markdown, RST:
		return Format(s), nil
	}
	return "", fmt.Errorf("unknown EP format %q (want md or rst)", s)
}

// FormatFromPath picks the format from a file extension: .md and .markdown
// are Markdown; .rst and .txt are reStructuredText, because older PEPs are
// stored as pep-NNNN.txt.
func FormatFromPath(path string) (Format, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".md", ".markdown":
		return Markdown, nil
	case ".rst", ".txt":
		return RST, nil
	}
	return "", fmt.Errorf("%s: unsupported EP file extension %q (want .md, .markdown, .rst or .txt)", path, filepath.Ext(path))
}

// Range is a half-open span [Start, End) of byte offsets into
// Document.Source.
type Range struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Len is the number of bytes in the range.
func (r Range) Len() int { return r.End - r.Start }

// Contains reports whether o lies within r.
func (r Range) Contains(o Range) bool { return r.Start <= o.Start && o.End <= r.End }

// Section is one titled section of an EP.
type Section struct {
	// ID is the stable number path of the section, "2.3": 1-based positions
	// among siblings from the top of the tree down.
	ID string `json:"id"`
	// Level is the depth in the section tree; 1 is the document's top level,
	// whatever "#" count or adornment style the source uses.
	Level int `json:"level"`
	// Title is plain text: inline markup removed, inline code text kept.
	Title string `json:"title"`
	// Line is the 1-based line of the title text (for an overlined RST title,
	// the line between the adornments).
	Line int `json:"line"`
	// Heading spans all lines of the heading itself, including the newline
	// that ends its last line.
	Heading Range `json:"heading"`
	// Own is the section's own text: from the end of the heading to the next
	// heading of any level.
	Own Range `json:"own"`
	// Subtree is the section's text with all its subsections: from the end
	// of the heading to the next heading of the same or a higher level, or
	// the end of the document.
	Subtree Range `json:"subtree"`
	// Parent is the enclosing section, nil at level 1.
	Parent *Section `json:"-"`
	// Children are the direct subsections in document order.
	Children []*Section `json:"-"`
}

// Document is a parsed EP.
type Document struct {
	// Path is the file the document was loaded from; empty after Parse.
	Path   string `json:"path,omitempty"`
	Format Format `json:"format"`
	// Source is the raw input; all ranges index into it.
	Source []byte `json:"-"`
	// Metadata holds the RFC-822 header block of a PEP-style RST file
	// ("PEP: 8", "Status: Final") or the top-level scalar keys of a Markdown
	// file's YAML front matter. It is empty, never nil, when there is none.
	Metadata map[string]string `json:"metadata"`
	// Sections lists every section in document order.
	Sections []*Section `json:"sections"`

	lineStarts []int               // offsets where each line starts
	byID       map[string]*Section // Section lookups
}

// heading is what a format parser reports for one title before the tree is
// built: its depth, text, title line and byte span.
type heading struct {
	level int
	title string
	line  int
	span  Range
}

// Parse parses an EP document. It fails only for an unknown format or input
// that is not valid UTF-8; any other input yields a (possibly empty) outline.
func Parse(src []byte, format Format) (*Document, error) {
	if _, err := ParseFormat(string(format)); err != nil {
		return nil, err
	}
	d := &Document{Format: format, Source: src, Metadata: map[string]string{}}
	d.lineStarts = lineStarts(src)
	if !utf8.Valid(src) {
		bad := 0
		for bad < len(src) {
			r, size := utf8.DecodeRune(src[bad:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			bad += size
		}
		return nil, fmt.Errorf("line %d: invalid UTF-8 encoding (EP documents must be UTF-8)", d.LineAt(bad))
	}
	var hs []heading
	switch format {
	case Markdown:
		hs = parseMarkdown(d)
	case RST:
		hs = parseRST(d)
	}
	d.build(hs)
	return d, nil
}

// Load reads and parses the EP document at path. An empty format is taken
// from the file extension (FormatFromPath). Every error names the file.
func Load(path string, format Format) (*Document, error) {
	if format == "" {
		f, err := FormatFromPath(path)
		if err != nil {
			return nil, err
		}
		format = f
	} else if _, err := ParseFormat(string(format)); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			// The *PathError already names the file.
			return nil, fmt.Errorf("read EP document: %w", err)
		}
		return nil, fmt.Errorf("read EP document %s: %w", path, err)
	}
	d, err := Parse(src, format)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	d.Path = path
	return d, nil
}

// Text returns the source text of r, clamped to the document.
func (d *Document) Text(r Range) string {
	start := min(max(r.Start, 0), len(d.Source))
	end := min(max(r.End, start), len(d.Source))
	return string(d.Source[start:end])
}

// Section returns the section with the given number path, or nil.
func (d *Document) Section(id string) *Section {
	if d.byID != nil {
		return d.byID[id]
	}
	for _, s := range d.Sections {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// LineAt returns the 1-based line of a byte offset. Offsets outside the
// source are clamped to it.
func (d *Document) LineAt(offset int) int {
	offset = min(max(offset, 0), len(d.Source))
	if d.lineStarts == nil {
		return bytes.Count(d.Source[:offset], []byte{'\n'}) + 1
	}
	// The number of line starts at or before offset is the line number.
	return sort.SearchInts(d.lineStarts, offset+1)
}

// lineStarts returns the offset of the first byte of every line.
func lineStarts(src []byte) []int {
	starts := make([]int, 1, bytes.Count(src, []byte{'\n'})+1)
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// build turns the flat headings into the section tree: parents, children,
// number paths and the Own and Subtree ranges. Levels must not jump by more
// than one from one heading to the next; both parsers guarantee that.
func (d *Document) build(hs []heading) {
	d.Sections = make([]*Section, 0, len(hs))
	d.byID = make(map[string]*Section, len(hs))
	end := len(d.Source)
	var stack []*Section // stack[i] is the open section at level i+1
	var top int          // number of level-1 sections so far
	for i, h := range hs {
		level := min(max(h.level, 1), len(stack)+1)
		// Sections at this level or deeper end where this heading starts.
		for _, closed := range stack[level-1:] {
			closed.Subtree.End = h.span.Start
		}
		stack = stack[:level-1]
		s := &Section{Level: level, Title: h.title, Line: h.line, Heading: h.span}
		s.Own = Range{h.span.End, end}
		if i+1 < len(hs) {
			s.Own.End = hs[i+1].span.Start
		}
		s.Subtree = Range{h.span.End, end}
		if level == 1 {
			top++
			s.ID = strconv.Itoa(top)
		} else {
			p := stack[level-2]
			s.Parent = p
			p.Children = append(p.Children, s)
			s.ID = p.ID + "." + strconv.Itoa(len(p.Children))
		}
		stack = append(stack, s)
		d.Sections = append(d.Sections, s)
		d.byID[s.ID] = s
	}
}
