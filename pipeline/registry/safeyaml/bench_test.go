package safeyaml

import (
	"fmt"
	"strings"
	"testing"
)

// size is the largest YAML Parse accepts.
const size = MaxSize

// hostile are the shapes YAML up to MaxSize may take within the
// pre-scan's bounds; each is parsed in full by goccy/go-yaml.
var hostile = map[string]func() string{
	"keys": func() string {
		var m strings.Builder
		for k := range MaxKeys {
			fmt.Fprintf(&m, "    k%d: v\n", k)
		}
		return fill(func(i int) string { return "- m:\n" + m.String() })
	},
	"list":        func() string { return "a:\n" + fill(func(int) string { return "  - x\n" }) },
	"flow list":   func() string { return "a: [" + fill(func(int) string { return "x, " }) + "]" },
	"long scalar": func() string { return "a: " + strings.Repeat("x", size-10) + "\n" },
	"long quoted": func() string { return "a: \"" + strings.Repeat("x ", size/2-10) + "\"\n" },
	"at the limit": func() string {
		return fill(func(int) string { return "- " + strings.TrimPrefix(nestedMaps(31), "k") })
	},
	"flow at the limit": func() string {
		return fill(func(int) string { return "- " + strings.Repeat("[", 30) + strings.Repeat("]", 30) + "\n" })
	},
	"aliases": func() string { return "a: &a x\nb: [" + fill(func(int) string { return "*a, " }) + "]" },
	"anchors": func() string { return fill(func(i int) string { return fmt.Sprintf("- &a%d x\n", i) }) },
	"documents": func() string {
		return fill(func(int) string { return "---\n" + strings.Repeat("- x\n", size/MaxDocuments/4) })
	},
	"comments": func() string { return fill(func(int) string { return "# [[[[{{{{ \n" }) },
	"dashes":   func() string { return fill(func(int) string { return strings.Repeat("- ", 16) + "x\n" }) },
}

func fill(part func(i int) string) string {
	var b strings.Builder
	for i := 0; ; i++ {
		p := part(i)
		if b.Len()+len(p) > size-100 {
			return b.String()
		}
		b.WriteString(p)
	}
}

// BenchmarkParseHostile parses each hostile shape up to MaxSize: the time
// and memory of the worst one bound what a registry, a front matter or a
// kep.yaml costs.
func BenchmarkParseHostile(b *testing.B) {
	for name, gen := range hostile {
		src := []byte(gen())
		if err := Check(src); err != nil {
			b.Fatalf("%s: %v", name, err)
		}
		b.Run(strings.ReplaceAll(name, " ", "-"), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				Parse(src)
			}
		})
	}
}
