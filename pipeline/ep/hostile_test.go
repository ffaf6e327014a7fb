package ep

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHostileRefused: input past a bound is refused with one line that
// says which bound and where; nothing is parsed half-way. The bounds here
// refuse the same input on every machine; the deadline, the backstop, is
// set far off so that a loaded machine cannot refuse first
// (TestParseDeadline tests it).
func TestHostileRefused(t *testing.T) {
	old := parseDeadline
	parseDeadline = time.Minute
	defer func() { parseDeadline = old }()
	deepIndent := fill(func(i int) string { return strings.Repeat(" ", 2*(i%200)) + "- x\n" })
	tests := []struct {
		name   string
		format Format
		src    string
		want   string
	}{
		{"over the size cap", Markdown, strings.Repeat("x", MaxSize+1), "1048577 bytes, more than the EP size cap of 1 MiB"},
		{"NUL byte", Markdown, "# A\n\nte\x00xt\n", "line 3: NUL byte (EP documents are text)"},
		{"NUL byte in RST", RST, "A\n=\n\x00\n", "line 3: NUL byte (EP documents are text)"},
		{"invalid UTF-8", RST, "A\n=\n\xff\n", "line 3: invalid UTF-8 encoding (EP documents must be UTF-8)"},
		{"nested quotes", Markdown, "# A\n\n" + strings.Repeat(">", 400000) + "\n", "line 3: 400000 nested block quotes or list items on one line, more than the 16 an EP may open"},
		{"nested lists", Markdown, "# A\n" + strings.Repeat("- ", 17) + "x\n", "line 2: 17 nested block quotes or list items on one line, more than the 16 an EP may open"},
		{"nested ordered lists", Markdown, strings.Repeat("1. ", 100) + "x\n", "line 1: 100 nested block quotes or list items on one line, more than the 16 an EP may open"},
		{"reference definitions", Markdown, "# A\n\n" + fill(func(i int) string { return fmt.Sprintf("[a%d]: /u\n", i) }), "line 3: too many link reference definitions at the head of a long paragraph; end them with a blank line"},
		{"lists nested by indentation", Markdown, deepIndent, "line 1694: the text from here on nests block quotes and lists too deeply to parse within bounds"},
		{"too many headings", Markdown, strings.Repeat("#\n", maxSections+1), "line 10001: more than 10000 headings; an EP has a few hundred at most"},
		{"too many RST titles", RST, strings.Repeat("T\n=\n\n", maxSections+1), "line 30001: more than 10000 headings; an EP has a few hundred at most"},
		{"front matter too deep", Markdown, "---\ntitle: x\n" + nestYAML(40) + "---\n# A\n", "line 35: front matter: YAML nested more than 32 levels deep"},
		{"front matter with too many keys", Markdown, "---\n" + manyKeys(129) + "---\n# A\n", "line 130: front matter: a YAML mapping with more than 128 keys"},
		{"HTML nested past the parser's bound", HTML, strings.Repeat("<div>", 600) + "x", "html: open stack of elements exceeds 512 nodes; a proposal page nests far less"},
		{"HTML rendering past the size cap", HTML, fillTo(MaxSize-64, rep("*")), "the Markdown rendering is larger than the EP size cap; a proposal page is far smaller"},
		{"DokuWiki rendering past the size cap", DokuWiki, fillTo(MaxSize-64, rep("[")), "the Markdown rendering is larger than the EP size cap; a proposal page is far smaller"},
		{"HTML with too many headings", HTML, strings.Repeat("<h2>a</h2>", maxSections+1), "the Markdown rendering: line 20001: more than 10000 headings; an EP has a few hundred at most"},
		{"front matter too large", Markdown, "---\ntitle: x\n" + strings.Repeat("# comment\n", 7000) + "---\n# A\n", "line 2: front matter of 70009 bytes, more than the 64 KiB allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse([]byte(tt.src), tt.format)
			if err == nil {
				t.Fatalf("accepted, %d sections", len(d.Sections))
			}
			if err.Error() != tt.want {
				t.Fatalf("error:\n%s\nwant:\n%s", err, tt.want)
			}
		})
	}
}

func nestYAML(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat(" ", i) + "k:\n")
	}
	return b.String()
}

func manyKeys(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "k%d: v\n", i)
	}
	return b.String()
}

// Within the bounds, nesting up to the limit and long headings parse.
func TestHostileWithinBounds(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		sections int
		title    string
	}{
		{"nesting at the limit", strings.Repeat("> ", maxNesting) + "x\n# T\n", 1, "T"},
		{"thematic break of many dashes", strings.Repeat("- ", 1000) + "\n# T\n", 1, "T"},
		{"link openers", strings.Repeat("[a](", 100000) + "\n# T [a](\n", 1, "T [a]("},
		{"long title keeps its raw text", "# *" + strings.Repeat("a", maxTitleSource) + "*\n", 1, "*" + strings.Repeat("a", maxTitleSource) + "*"},
		{"blank-separated definitions", strings.Repeat("[a]: /u\n\n", 20000) + "# [a]\n", 1, "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse([]byte(tt.src), Markdown)
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Sections) != tt.sections || d.Sections[0].Title != tt.title {
				t.Fatalf("%d sections, first %q", len(d.Sections), d.Sections[0].Title)
			}
		})
	}
}

// TestParseDeadline: past the deadline the parse stops at a fixed point
// (every 1,024 reads of the Markdown parser, every 256 RST blocks, before
// each title).
func TestParseDeadline(t *testing.T) {
	old := parseDeadline
	parseDeadline = time.Nanosecond
	defer func() { parseDeadline = old }()
	md := strings.Repeat("para\n\n", 2000)
	tests := []struct {
		format Format
		src    string
		want   string
	}{
		{Markdown, md, "line 171: the text from here on took longer than 1ns to parse (the EP parse deadline); it is not a proposal's prose"},
		{Markdown, "# A\n", "line 1: the text from here on took longer than 1ns to parse (the EP parse deadline); it is not a proposal's prose"},
		{RST, md, "line 256: the text from here on took longer than 1ns to parse (the EP parse deadline); it is not a proposal's prose"},
	}
	for _, tt := range tests {
		if _, err := Parse([]byte(tt.src), tt.format); err == nil || err.Error() != tt.want {
			t.Errorf("%s: error %v\nwant %s", tt.format, err, tt.want)
		}
	}
}

// TestLoadHostile: Load reads regular files only, within the size cap.
func TestLoadHostile(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.md")
	os.WriteFile(big, []byte(strings.Repeat("x", MaxSize+1)), 0o644)
	link := filepath.Join(dir, "link.md")
	os.Symlink("/etc/passwd", link)
	tests := []struct {
		path, want string
	}{
		{big, "read EP document: " + big + ": 1048577 bytes, more than the EP size cap of 1 MiB"},
		{link, "read EP document: " + link + ": a symbolic link; only regular files are read"},
		{"/dev/zero", "read EP document: /dev/zero: a device; only regular files are read"},
	}
	for _, tt := range tests {
		if _, err := Load(tt.path, Markdown); err == nil || err.Error() != tt.want {
			t.Errorf("Load(%s) = %v\nwant %s", tt.path, err, tt.want)
		}
	}
}
