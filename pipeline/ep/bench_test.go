package ep

import (
	"fmt"
	"strings"
	"testing"
)

// benchSections is the size of the generated documents: about what a long
// KEP or PEP has (KEP READMEs average ~50 headings, the longest ~200).
const benchSections = 200

// genMarkdown builds a KEP-like document: three heading levels, each
// section with prose, inline markup, a fenced block and a list.
func genMarkdown(n int) []byte {
	var b strings.Builder
	b.WriteString("---\ntitle: Generated KEP\nstatus: implementable\n---\n")
	for i := range n {
		level := i%3 + 1
		fmt.Fprintf(&b, "%s Section %d with `code` and *emphasis*\n\n", strings.Repeat("#", level), i)
		b.WriteString("Some prose that explains the proposal in a sentence or two, with a [link](https://example.com) and **bold** words.\n")
		b.WriteString("A second line of the same paragraph.\n\n")
		b.WriteString("```go\n# not a heading\nfunc f() {}\n```\n\n")
		b.WriteString("- item one\n- item two\n\n<!-- # a comment -->\n\n")
	}
	return []byte(b.String())
}

// genRST builds a PEP-like document: a header block, three adornment
// styles, literal blocks, directives and inline markup in titles.
func genRST(n int) []byte {
	var b strings.Builder
	b.WriteString("PEP: 9999\nTitle: Generated\nAuthor: A <a@example.org>,\n        B <b@example.org>\nStatus: Draft\n\n")
	adorn := []string{"=", "-", "~"}
	for i := range n {
		level := i % 3
		title := fmt.Sprintf("Section %d with ``code`` and *emphasis*", i)
		if level == 0 {
			fmt.Fprintf(&b, "%s\n%s\n%s\n\n", strings.Repeat("=", len(title)), title, strings.Repeat("=", len(title)))
		} else {
			fmt.Fprintf(&b, "%s\n%s\n\n", title, strings.Repeat(adorn[level], len(title)))
		}
		b.WriteString("Some prose that explains the proposal, with a `link <https://example.com>`_ and :pep:`8`.\n")
		b.WriteString("A second line of the same paragraph ends with a literal block::\n\n    Not a title\n    ===========\n\n")
		b.WriteString(".. code-block:: python\n\n    x = 1\n\n- item one\n- item two\n\n")
	}
	return []byte(b.String())
}

func benchParse(b *testing.B, src []byte, format Format) {
	d, err := Parse(src, format)
	if err != nil || len(d.Sections) != benchSections {
		b.Fatalf("generated document: %d sections, %v", len(d.Sections), err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(src, format); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseMarkdown(b *testing.B) { benchParse(b, genMarkdown(benchSections), Markdown) }

func BenchmarkParseRST(b *testing.B) { benchParse(b, genRST(benchSections), RST) }

// BenchmarkRSTHostileTitle is one 60 kB title line full of start-strings
// without end-strings, the worst case of the inline markup scan.
func BenchmarkRSTHostileTitle(b *testing.B) {
	src := []byte(strings.Repeat("*a `b :r:`c ", 5000) + "\n=====\n")
	d, err := Parse(src, RST)
	if err != nil || len(d.Sections) != 1 {
		b.Fatalf("hostile title: %d sections, %v", len(d.Sections), err)
	}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Parse(src, RST); err != nil {
			b.Fatal(err)
		}
	}
}
