package ep

import (
	"fmt"
	"strings"
	"testing"
)

// fillTo repeats part(i) up to n bytes.
func fillTo(n int, part func(i int) string) string {
	var b strings.Builder
	for i := 0; ; i++ {
		p := part(i)
		if b.Len()+len(p) > n {
			return b.String()
		}
		b.WriteString(p)
	}
}

func fill(part func(i int) string) string { return fillTo(MaxSize-64, part) }

// pad fills the rest of the size cap with lines "x".
func pad(s string) string { return s + fillTo(MaxSize-64-len(s), rep("x\n")) }

func rep(s string) func(int) string { return func(int) string { return s } }

// hostileMarkdown are the worst shapes found for goldmark, each as large
// as MaxSize allows within the parser's bounds (those past the bounds are
// in TestHostileRefused).
var hostileMarkdown = map[string]func() string{
	"link openers":             func() string { return fill(rep("[a](")) },
	"brackets":                 func() string { return fill(rep("[")) },
	"emphasis":                 func() string { return fill(rep("*a _b ")) },
	"backticks":                func() string { return fill(rep("`a ``b ")) },
	"html":                     func() string { return fill(rep("<a ")) },
	"quotes at the limit":      func() string { return fill(rep(strings.Repeat(">", maxNesting) + " x\n")) },
	"lists at the limit":       func() string { return fill(rep(strings.Repeat("- ", maxNesting) + "x\n")) },
	"lazy lines in deep lists": func() string { return pad(strings.Repeat("- ", maxNesting) + "x\n") },
	"indented lists": func() string {
		return fill(func(i int) string { return strings.Repeat(" ", 2*(i%20)) + "- x\n" })
	},
	"reference definitions": func() string {
		return fill(func(i int) string { return fmt.Sprintf("[a%d]: /u\n%s", i, map[bool]string{true: "\n"}[i%64 == 63]) })
	},
	"headings": func() string { return pad(fillTo(maxSections*7, rep("# [a](\n"))) },
	"long headings": func() string {
		return fill(rep("# " + strings.Repeat("[a](", maxTitleSource/4-1) + "\n"))
	},
	"setext headings": func() string { return fill(rep(strings.Repeat("*a _b `c ", 400) + "\n===\n\n")) },
	"table":           func() string { return "a|b\n-|-\n" + fill(rep("|x")) },
	"lines":           func() string { return fill(rep("a\n")) },
	"front matter": func() string {
		return pad("---\nk:\n" + fillTo(maxFrontMatter-100, rep("  - "+strings.Repeat("[", 28)+strings.Repeat("]", 28)+"\n")) + "---\n")
	},
}

// hostileRST are the worst shapes found for the RST parser.
var hostileRST = map[string]func() string{
	"inline markup title": func() string { return fill(rep(strings.Repeat("*a `b :r:`c ", 300) + "\n=====\n\n")) },
	"adornments":          func() string { return fill(rep("====\n")) },
	"titles":              func() string { return pad(fillTo(maxSections*5, rep("T\n=\n\n"))) },
	"grid table":          func() string { return "+--+\n" + fill(rep("|a |\n")) },
	"simple table":        func() string { return "=== ===\n" + fill(rep("a   b\n")) },
	"options":             func() string { return fill(rep("-a  x\n")) },
	"enumerators":         func() string { return fill(func(i int) string { return fmt.Sprintf("%d. x\n", i) }) },
	"indentation":         func() string { return fill(func(i int) string { return strings.Repeat(" ", i%400) + "x\n" }) },
	"doctest":             func() string { return fill(rep(">>> x\n")) },
	"literal blocks":      func() string { return fill(rep("a::\n\n    b\n")) },
}

// hostileHTML are the worst shapes found for the HTML parser and the
// renderer. Shapes whose rendering grows (escapes, line prefixes) are
// sized so that the rendering stays within the size cap.
var hostileHTML = map[string]func() string{
	"nesting at the limit": func() string {
		return fill(rep(strings.Repeat("<div>", 500) + "x" + strings.Repeat("</div>", 500)))
	},
	"emphasis nested around the text": func() string {
		return strings.Repeat("<b>", 500) + fillTo(MaxSize-64-4500, rep("x\n")) + strings.Repeat("</b>", 500)
	},
	"misnested formatting": func() string { return fill(rep("<b>x<i>y</b>z</i> ")) },
	"unclosed anchors":     func() string { return fill(rep("<a href=x>y")) },
	"tables":               func() string { return fill(rep("<table><tr><th>a</th><td>b</td></tr></table>")) },
	"tables nested in cells": func() string {
		return fill(rep(strings.Repeat("<table><tr><th>a</th><td>", 120) + "x" + strings.Repeat("</td></tr></table>", 120)))
	},
	"lists at the render cap": func() string {
		return fill(rep(strings.Repeat("<ul><li>", 12) + "x" + strings.Repeat("</li></ul>", 12)))
	},
	"line breaks in deep lists": func() string {
		return strings.Repeat("<ul><li>", 8) + fillTo(MaxSize/4, rep("x<br>"))
	},
	"headings":      func() string { return pad(fillTo(maxSections*10, rep("<h2>a</h2>"))) },
	"long headings": func() string { return fill(rep("<h1>" + strings.Repeat("a*", 3000) + "</h1>")) },
	"escapes":       func() string { return fillTo(MaxSize/2-64, rep("*_`[")) },
	"code blocks":   func() string { return fill(rep("<pre>``` x\n# y\n</pre>")) },
	"code spans":    func() string { return fill(rep("<code>a</code>")) },
	"comments":      func() string { return fill(rep("<!-- # x -->")) },
	"attributes":    func() string { return fill(rep("<p class=a id=b title='c' data-x=y>z</p>")) },
	"confluence fields": func() string {
		return "<div id=main-content>" + fill(rep("<p><strong>Key</strong>: <a href='https://x'>v</a></p>"))
	},
	"text": func() string { return fill(rep("word ")) },
}

// hostileDokuWiki are the worst shapes found for the DokuWiki renderer.
var hostileDokuWiki = map[string]func() string{
	"unclosed deletions":   func() string { return fillTo(MaxSize*3/4, rep("<del>")) },
	"unclosed bold":        func() string { return fill(rep("**a ")) },
	"unclosed links":       func() string { return fillTo(MaxSize/2-64, rep("[[")) },
	"unclosed footnotes":   func() string { return fill(rep("((")) },
	"unclosed code tags":   func() string { return fillTo(MaxSize*3/4, rep("<code")) },
	"monospace pairs":      func() string { return fill(rep("''a'' ")) },
	"italic and urls":      func() string { return fill(rep("//a http://x// ")) },
	"nested footnotes":     func() string { return fill(rep("((a ((b ((c ((d ((e))))))))) ")) },
	"pairs":                func() string { return fill(rep("**a** //b// __c__ ")) },
	"deep lists":           func() string { return fill(func(i int) string { return strings.Repeat("  ", i%40+1) + "* x\n" }) },
	"tables":               func() string { return fill(rep("^ a | [[b|c]] ^\n")) },
	"headings":             func() string { return pad(fillTo(maxSections*9, rep("== a ==\n\n"))) },
	"literal blocks":       func() string { return fill(rep("<code>\nx\n</code>\n")) },
	"unclosed code block":  func() string { return "<code>\n" + fill(rep("== x ==\n")) },
	"quotes":               func() string { return fill(rep(">>>>>>>>>>>> x\n")) },
	"escapes":              func() string { return fillTo(MaxSize/2-64, rep("*[`|")) },
	"literals on one line": func() string { return fill(rep("%%a%% <nowiki>b</nowiki> ")) },
}

// BenchmarkParseHostile parses every hostile shape at the EP size cap:
// the slowest is the worst case the README quotes.
func BenchmarkParseHostile(b *testing.B) {
	run := func(format Format, shapes map[string]func() string) {
		for name, gen := range shapes {
			src := []byte(gen())
			b.Run(string(format)+"/"+strings.ReplaceAll(name, " ", "-"), func(b *testing.B) {
				if _, err := Parse(src, format); err != nil {
					b.Fatalf("%d bytes refused: %v", len(src), err)
				}
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for b.Loop() {
					Parse(src, format)
				}
			})
		}
	}
	run(Markdown, hostileMarkdown)
	run(RST, hostileRST)
	run(HTML, hostileHTML)
	run(DokuWiki, hostileDokuWiki)
}
