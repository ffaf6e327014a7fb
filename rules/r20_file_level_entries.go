package rules

import (
	"fmt"
	"strings"

	"github.com/lolbench/lolbench/pipeline/mapping"
)

// R20 checks file level entries.
var R20 = &Rule{
	ID:    20,
	Name:  "file-level-entries",
	Doc:   `Every path entry names a single file: not a directory (a path ending in "/", or one that is a folder of PR files), not a glob ("*", "?", "[...]"), and not an aggregate ("...", "and 3 more", "etc.", "all files", several paths in one cell). List each file on its own row.`,
	Check: checkR20,
}

// checkR20 reads every path the artifact names (mapping.Files) and reports
// the entries Facts.AggregatePath flags, the classification rule 2 also
// uses to leave them alone. An exact PR path is a file whatever it looks
// like ("notes, draft.md" may be a real file name).
func checkR20(p *Pass) {
	for _, ref := range p.Mapping.Files() {
		got := strings.TrimSpace(ref.Path)
		if got == "" || p.PRFile[got] != nil {
			continue
		}
		why := p.AggregatePath(got)
		if why == "" {
			continue
		}
		unit := "row"
		if ref.Part == mapping.SubPartSummary {
			unit = "bullet"
		}
		fix := fmt.Sprintf("it stands for no file the PR changes; name each file on its own %s", unit)
		if files := p.aggregateFiles(got); len(files) > 0 {
			fix = fmt.Sprintf("write one %s per file it stands for: %s", unit, codeList(files))
		}
		p.Reportf(ref.Line, FileWhere(got), "`%s` in %s is %s, not a single file; %s", got, r20Where(p.Mapping, ref), why, fix)
	}
}

// r20Where names the part of the artifact a path entry sits in.
func r20Where(m *mapping.Mapping, ref mapping.FileRef) string {
	switch ref.Part {
	case mapping.PartPFS, mapping.PartUnmappedFiles:
		return "the " + ref.Part
	}
	where := "the " + ref.Part
	if ref.Part == mapping.SubPartSummary {
		where = "the modification summary"
	}
	if ref.Block >= 1 && ref.Block <= len(m.Blocks) {
		b := &m.Blocks[ref.Block-1]
		return fmt.Sprintf("%s of block %d (section %s)", where, b.Number, b.Section)
	}
	return where
}
