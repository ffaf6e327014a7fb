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
}
