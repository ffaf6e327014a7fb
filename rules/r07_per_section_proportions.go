package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lolbench/lolbench/pipeline/mapping"
)

// R07 checks per section proportions.
var R07 = &Rule{
	ID:    7,
	Name:  "per-section-proportions",
	Doc:   `In each mapped block, the Files line agrees with the block's tables (docs/mapping-format.md): direct is the number of distinct files in Direct modifications, associated the number of distinct files in Associated changes that are not also direct, accounted their sum (the distinct files of the two tables together), the total is the PR's file count, and each percentage is its count over the PR's file count with one decimal, rounded half up (mapping.FormatPercent). Recount the files and rewrite the line as the message gives it. A block table without a File column is rule 4's and its block is not checked.`,
	Check: checkR07,
}

func checkR07(p *Pass) {
	n := p.prFileTotal()
	for i := range p.Mapping.Blocks {
		b := &p.Mapping.Blocks[i]
		if !headerHas(b.Direct.Columns, "File") || !headerHas(b.Associated.Columns, "File") {
			continue
		}
		direct := distinctRowPaths(b.Direct.Rows)
		// A file in both tables counts once, as direct, so that
		// direct + associated = accounted (docs/mapping-format.md).
		var assoc []string
		for _, a := range distinctRowPaths(b.Associated.Rows) {
			if !slices.Contains(direct, a) {
				assoc = append(assoc, a)
			}
		}
		union := append(slices.Clone(direct), assoc...)
		want := mapping.Counts{
			Line:              b.Counts.Line,
			Direct:            len(direct),
			DirectPercent:     mapping.FormatPercent(len(direct), n),
			Associated:        len(assoc),
			AssociatedPercent: mapping.FormatPercent(len(assoc), n),
			Accounted:         len(union),
			AccountedPercent:  mapping.FormatPercent(len(union), n),
			PRFiles:           n,
		}
		got := b.Counts
		var wrong []string
		count := func(what string, gotN, wantN int, gotP, wantP string, files []string, table string) {
			if gotN != wantN {
				wrong = append(wrong, fmt.Sprintf("it says %d %s but %s %s", gotN, what, table, r07Files(files)))
			} else if strings.TrimSpace(gotP) != wantP {
				wrong = append(wrong, fmt.Sprintf("%d %s of %d PR files is %s, not %s", wantN, what, n, wantP, gotP))
			}
		}
		count("direct", got.Direct, want.Direct, got.DirectPercent, want.DirectPercent, direct, "Direct modifications name")
		count("associated", got.Associated, want.Associated, got.AssociatedPercent, want.AssociatedPercent, assoc, "Associated changes name, besides the direct ones,")
		count("accounted", got.Accounted, want.Accounted, got.AccountedPercent, want.AccountedPercent, union, "the two tables together name")
		if got.PRFiles != n {
			wrong = append(wrong, fmt.Sprintf("it says %d PR files but the PR changes %d", got.PRFiles, n))
		}
		if len(wrong) == 0 {
			continue
		}
		p.Reportf(got.Line, BlockWhere(b), "the Files line of block %d disagrees with its tables: %s; write \"**Files:** %d direct (%s), %d associated (%s), %d accounted (%s) of %d PR %s\"",
			b.Number, strings.Join(wrong, "; "),
			want.Direct, want.DirectPercent, want.Associated, want.AssociatedPercent, want.Accounted, want.AccountedPercent, n, r07Plural(n))
	}
}

// r07Files writes "3 files (`a`, `b`, `c`)".
func r07Files(files []string) string {
	if len(files) == 0 {
		return "no file"
	}
	noun := "files"
	if len(files) == 1 {
		noun = "file"
	}
	return fmt.Sprintf("%d %s (%s)", len(files), noun, codeList(files))
}

func r07Plural(n int) string {
	if n == 1 {
		return "file"
	}
	return "files"
}
