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
// Four formats are understood: Markdown and reStructuredText directly, and
// web pages (HTML) and DokuWiki text through their Markdown rendering,
// which becomes the Document's Source (render.go, html.go, dokuwiki.go):
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
//     a usable outline; its style keeps the clamped level, so the next
//     title of that style is its sibling. Unlike docutils' doctitle transform, a lone
//     top-level section is not promoted to a document title: levels are
//     plain tree depths.
//
//   - HTML (OpenJDK JEPs, Confluence KIPs and FLIPs) is parsed with
//     golang.org/x/net/html; a profile picks the content root and the
//     metadata, and the page's h1-h6 become the rendering's headings.
//
//   - DokuWiki (PHP RFCs) is read line by line as DokuWiki reads it, its
//     "====== Title ======" lines becoming the rendering's headings.
//
// Titles are plain text on one line: markup removed, white space runs
// collapsed to one space, footnote and citation references dropped.
//
// Lines end at "\n" (a preceding "\r" is ignored); a lone "\r" is not a line
// break in either format. Input that is not valid UTF-8, or that holds a
// NUL byte, is rejected with an error naming the line, never a panic: every
// input is hostile.
//
// # Bounds
//
// Any input parses within time and memory bounds, or is refused with a
// one-line error that names the bound and the line (BenchmarkParseHostile
// measures the worst shapes; TestHostileRefused lists the refusals):
//
//   - the size cap, MaxSize (1 MiB), applied by every reader of an EP;
//   - Markdown is read in two passes (markdown.go): the block structure
//     without inline parsing, then each title's inline markup, within a
//     budget; goldmark's inline parser is quadratic on some shapes;
//   - a line may open at most 16 block quotes and list items (checked by a
//     scan before goldmark sees the text), the block pass has a work budget
//     per byte (containers nested by indentation), and link reference
//     definitions at the head of long paragraphs have a budget;
//   - front matter is at most 64 KiB and passes safeyaml's pre-scan (depth,
//     keys, documents) before the YAML parser sees it;
//   - at most 10,000 headings;
//   - HTML nests at most 512 open elements (x/net/html's bound), and the
//     Markdown rendering of a page is within MaxSize too;
//   - a parse deadline of 2 s, the backstop for a shape none of the above
//     foresaw. The other bounds refuse the same input on every machine.
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
	"time"
	"unicode/utf8"

	"github.com/lolbench/lolbench/pipeline/workspace"
)

// Format is the markup language of an EP document.
type Format string

// The supported formats. Their values are the flag values of
// "lolbench ep headings --format".
const (
	Markdown Format = "md"
	RST      Format = "rst"
	// HTML is a proposal's web page (an OpenJDK JEP, a Confluence KIP or
	// FLIP); the Document's Source is its Markdown rendering.
	HTML Format = "html"
	// DokuWiki is a proposal's raw wiki text (a PHP RFC); the Document's
	// Source is its Markdown rendering.
	DokuWiki Format = "dokuwiki"
)

// formatNames lists the formats for messages.
const formatNames = "md, rst, html or dokuwiki"

// ParseFormat turns a --format flag value into a Format.
func ParseFormat(s string) (Format, error) {
	switch Format(s) {
	case Markdown, RST, HTML, DokuWiki:
		return Format(s), nil
	}
	return "", fmt.Errorf("unknown EP format %q (want %s)", s, formatNames)
}

// Rendered reports whether a format's Document is a Markdown rendering of
// the input rather than the input itself.
func (f Format) Rendered() bool { return f == HTML || f == DokuWiki }

// FormatFromPath picks the format from a file extension: .md and .markdown
// are Markdown; .rst and .txt are reStructuredText, because older PEPs are
// stored as pep-NNNN.txt; .html and .htm are HTML; .dokuwiki is DokuWiki
// (whose own pages are .txt: name the format).
func FormatFromPath(path string) (Format, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".md", ".markdown":
		return Markdown, nil
	case ".rst", ".txt":
		return RST, nil
	case ".html", ".htm":
		return HTML, nil
	case ".dokuwiki":
		return DokuWiki, nil
	}
	return "", fmt.Errorf("%s: unsupported EP file extension %q (want .md, .markdown, .rst, .txt, .html, .htm or .dokuwiki)", path, filepath.Ext(path))
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
	// Source is the text all ranges index into: the input, or for HTML
	// and DokuWiki its Markdown rendering (Format.Rendered), which is what
	// the rules read and what collection writes as the candidate's ep.md.
	Source []byte `json:"-"`
	// Metadata holds the RFC-822 header block of a PEP-style RST file
	// ("PEP: 8", "Status: Final"), the top-level scalar keys of a Markdown
	// file's YAML front matter, what an HTML profile reads from the page
	// (a JEP's header table; a Confluence page's metadata and opening
	// "Key: value" lines; Number and Title from a "JEP 444: ..." title), or
	// the bullets under a DokuWiki page's title. It is empty, never nil,
	// when there is none.
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

// MaxSize is the EP size cap, the one every reader of an EP document
// applies (collect, ep headings, validate, the stages). The longest PEPs
// and KEPs are a few hundred kilobytes; at 1 MiB the parse of any input
// stays within its bounds (BenchmarkParseHostile).
const MaxSize = 1 << 20

// sizeCap names MaxSize in errors.
const sizeCap = "the EP size cap"

// maxSections bounds the headings of one document; real EPs have a few
// hundred at most, and each costs memory.
const maxSections = 10_000

// parseDeadline bounds the time of one parse. The parsers are linear or
// bounded by construction (see the package comment); the deadline is the
// backstop for a shape no bound foresaw.
var parseDeadline = 2 * time.Second

// Parse parses an EP document. It fails for an unknown format, input over
// MaxSize, input that is not valid UTF-8 or holds a NUL byte, Markdown
// nested or front matter deeper than the bounds, more than 10,000
// headings, or a parse past the deadline; any other input yields a
// (possibly empty) outline. Every error is one line.
func Parse(src []byte, format Format) (*Document, error) {
	return parseWith(src, format, ProfileAuto)
}

// parseWith is Parse with an HTML profile.
func parseWith(src []byte, format Format, profile Profile) (*Document, error) {
	if _, err := ParseFormat(string(format)); err != nil {
		return nil, err
	}
	if len(src) > MaxSize {
		return nil, fmt.Errorf("%d bytes, more than %s of %s", len(src), sizeCap, workspace.Bytes(MaxSize))
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
	if i := bytes.IndexByte(src, 0); i >= 0 {
		return nil, fmt.Errorf("line %d: NUL byte (EP documents are text)", d.LineAt(i))
	}
	deadline := time.Now().Add(parseDeadline)
	var hs []heading
	var err error
	switch format {
	case Markdown:
		hs, err = parseMarkdown(d, deadline)
	case RST:
		hs, err = parseRST(d, deadline)
	case HTML, DokuWiki:
		hs, err = parseRendered(d, profile, deadline)
	}
	if err != nil {
		return nil, err
	}
	d.build(hs)
	return d, nil
}

// parseRendered renders an HTML or DokuWiki input to Markdown, makes the
// rendering the Document's Source and finds its headings as Markdown's.
func parseRendered(d *Document, profile Profile, deadline time.Time) ([]heading, error) {
	var w *mdWriter
	var meta map[string]string
	var err error
	if d.Format == HTML {
		w, meta, err = renderHTML(d.Source, profile)
	} else {
		w, meta, err = renderDokuWiki(d.Source)
	}
	if err != nil {
		return nil, err
	}
	if time.Now().After(deadline) {
		return nil, fmt.Errorf("line 1: %w", &lateError{})
	}
	d.Source = w.text()
	d.lineStarts = lineStarts(d.Source)
	hs, err := parseMarkdown(d, deadline)
	if err != nil {
		return nil, fmt.Errorf("the Markdown rendering: %w", err)
	}
	d.Metadata = meta
	return hs, nil
}

// tooManySections is the error for the heading past maxSections.
func tooManySections(line int) error {
	return fmt.Errorf("line %d: more than %d headings; an EP has a few hundred at most", line, maxSections)
}

// Load reads and parses the EP document at path. An empty format is taken
// from the file extension (FormatFromPath). The file must be a regular
// file (not a link, a device or a pipe) within MaxSize. Every error names
// the file.
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
	src, err := ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read EP document: %w", err)
	}
	d, err := Parse(src, format)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	d.Path = path
	return d, nil
}

// ReadFile reads an EP document with the checks of Load: a regular file
// within MaxSize. The error names the file.
func ReadFile(path string) ([]byte, error) {
	src, err := workspace.ReadFile(path, MaxSize, sizeCap)
	var pe *os.PathError
	if err != nil && !errors.As(err, &pe) && !strings.HasPrefix(err.Error(), path) {
		err = fmt.Errorf("%s: %w", path, err)
	}
	return src, err
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
