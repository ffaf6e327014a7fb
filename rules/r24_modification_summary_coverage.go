package rules

import (
	"strings"

	"github.com/lolbench/lolbench/pipeline/mapping"
)

// R24 checks modification summary coverage.
var R24 = &Rule{
	ID:    24,
	Name:  "modification-summary-coverage",
	Doc:   `Each mapped block's Modification summary has exactly one bullet for each file of its Direct modifications; a file of its Associated changes may have one bullet; any other bullet, and a second bullet for the same file, is a violation. Add, merge or remove bullets. Paths that are not PR files are rule 2's and directory, glob and aggregate entries rule 20's: they are left out here, and the files an aggregate entry stands for are neither required nor refused a bullet until it is split. A block table without a File column is rule 4's and its block is not checked.`,
	Check: checkR24,
}

func checkR24(p *Pass) {
	for i := range p.Mapping.Blocks {
		b := &p.Mapping.Blocks[i]
		if !headerHas(b.Direct.Columns, "File") || !headerHas(b.Associated.Columns, "File") {
			continue // rule 4
		}
		r24Block(p, b)
	}
}

// r24Entry sorts a path entry: a file to check, an aggregate (rule 20)
// standing for some files, or a path rule 2 reports.
func r24Entry(p *Pass, path string) (file string, stands []string, skip bool) {
	path = strings.TrimSpace(path)
	switch {
	case path == "":
		return "", nil, true // rule 2 (or rule 4 for a missing column)
	case p.PRFile[path] != nil:
		return path, nil, false
	case p.AggregatePath(path) != "":
		return "", p.aggregateFiles(path), true
	case p.Change != nil:
		return "", nil, true // rule 2
	}
	return path, nil, false
}

func r24Block(p *Pass, b *mapping.Block) {
	var direct []string
	inTables := map[string]bool{}
	aggTables := map[string]bool{} // files that aggregate table rows stand for
	for _, t := range []struct {
		rows   []mapping.CodeRow
		direct bool
	}{{b.Direct.Rows, true}, {b.Associated.Rows, false}} {
		for _, r := range t.rows {
			file, stands, skip := r24Entry(p, r.Path)
			for _, f := range stands {
				aggTables[f] = true
			}
			if skip {
				continue
			}
			if t.direct && !inTables[file] {
				direct = append(direct, file)
			}
			inTables[file] = true
		}
	}

	bulleted := map[string]int{} // file -> line of its first bullet
	aggBullets := map[string]bool{}
	for _, it := range b.Summary.Items {
		file, stands, skip := r24Entry(p, it.Path)
		for _, f := range stands {
			aggBullets[f] = true
		}
		if skip {
			continue
		}
		if first, ok := bulleted[file]; ok {
			p.Reportf(it.Line, BlockWhere(b), "`%s` has a second bullet in the modification summary of block %d (first at line %d); merge the two bullets into one",
				file, b.Number, first)
			continue
		}
		bulleted[file] = it.Line
		if !inTables[file] && !aggTables[file] {
			p.Reportf(it.Line, BlockWhere(b), "the bullet for `%s` in block %d names a file that neither its Direct modifications nor its Associated changes list; remove the bullet, or add the file to the table it belongs in",
				file, b.Number)
		}
	}

	line := b.Summary.Line
	if line == 0 {
		line = b.Line
	}
	for _, file := range direct {
		if _, ok := bulleted[file]; ok || aggBullets[file] {
			continue
		}
		p.Reportf(line, BlockWhere(b), "the modification summary of block %d has no bullet for `%s`, a file of its Direct modifications; add \"- `%s`: <what changed there and why it serves the section>\"",
			b.Number, file, file)
	}
}
