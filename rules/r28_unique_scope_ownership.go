package rules

import (
	"fmt"
	"strings"

	"github.com/lolbench/lolbench/pipeline/mapping"
)

// R28 checks unique scope ownership.
var R28 = &Rule{
	ID:    28,
	Name:  "unique-scope-ownership",
	Doc:   `Each changed (file, class, function) scope has one canonical owner, even when its file serves several sections: it appears in the Direct modifications of at most one block, at most once there, and not also in the same block's Associated changes. Other blocks may list it under Associated changes. File-level and class-body rows (no function) are exempt: their lines are file-level, and a file or a class body may serve several sections. Keep the scope in the Direct modifications of the block of the most specific section that implements it, and list it under Associated changes elsewhere. Paths that are not PR files are rule 2's, and directory, glob and aggregate entries rule 20's.`,
	Check: checkR28,
}

// r28Use is one Direct modifications row naming a scope.
type r28Use struct {
	b    *mapping.Block
	line int
}

func checkR28(p *Pass) {
	var order []fileScope
	direct := map[fileScope][]r28Use{}
	key := func(r *mapping.CodeRow) (fileScope, bool) {
		path := strings.TrimSpace(r.Path)
		k := RowScope(r)
		if path == "" || k.Function == "" {
			return fileScope{}, false
		}
		if p.PRFile[path] == nil && (p.Change != nil || p.AggregatePath(path) != "") {
			return fileScope{}, false // rules 2 and 20
		}
		return fileScope{path, k}, true
	}
	for i := range p.Mapping.Blocks {
		b := &p.Mapping.Blocks[i]
		for j := range b.Direct.Rows {
			r := &b.Direct.Rows[j]
			k, ok := key(r)
			if !ok {
				continue
			}
			if direct[k] == nil {
				order = append(order, k)
			}
			direct[k] = append(direct[k], r28Use{b, r.Line})
		}
	}

	for _, k := range order {
		uses := direct[k]
		owner := r28Owner(p, uses)
		for i, u := range uses {
			if i == 0 {
				continue
			}
			first := uses[0]
			switch {
			case u.b == first.b:
				p.Reportf(u.line, r28Where(k), "`%s` of `%s` is listed again in the Direct modifications of block %d (first at line %d); remove this row",
					k.scope, k.file, u.b.Number, first.line)
			default:
				if prev := r28Earlier(uses[:i], u.b); prev != nil {
					continue // already reported for this block
				}
				p.Reportf(u.line, r28Where(k), "`%s` of `%s` is also in the Direct modifications of block %d (section %s, line %d): a scope has one owner; keep it in the Direct modifications of %s and list it under Associated changes in the other blocks",
					k.scope, k.file, first.b.Number, first.b.Section, first.line, owner)
			}
		}
	}

	// The same scope in a block's Direct modifications and its Associated
	// changes.
	for i := range p.Mapping.Blocks {
		b := &p.Mapping.Blocks[i]
		for j := range b.Associated.Rows {
			r := &b.Associated.Rows[j]
			k, ok := key(r)
			if !ok {
				continue
			}
			for _, u := range direct[k] {
				if u.b == b {
					p.Reportf(r.Line, r28Where(k), "`%s` of `%s` is in both tables of block %d (Direct modifications at line %d); remove it from Associated changes",
						k.scope, k.file, b.Number, u.line)
					break
				}
			}
		}
	}
}

// r28Earlier returns an earlier use in block b other than the first use,
// so that a block repeating a scope owned elsewhere is reported once for
// owning it (its repeats are reported as repeats only in the first block).
func r28Earlier(uses []r28Use, b *mapping.Block) *r28Use {
	for i := 1; i < len(uses); i++ {
		if uses[i].b == b {
			return &uses[i]
		}
	}
	return nil
}

// r28Owner says which block should keep the scope: the one of the most
// specific (deepest) section, when exactly one block's section is deepest.
func r28Owner(p *Pass, uses []r28Use) string {
	var best *mapping.Block
	depth, ties := -1, 0
	for _, u := range uses {
		if u.b == best {
			continue
		}
		d := strings.Count(strings.TrimSpace(u.b.Section), ".") + 1
		if s := p.SectionByID[strings.TrimSpace(u.b.Section)]; s != nil {
			d = s.Level
		}
		switch {
		case d > depth:
			best, depth, ties = u.b, d, 0
		case d == depth:
			ties++
		}
	}
	if ties > 0 || best == nil {
		return "the block of the section that implements it most specifically"
	}
	return fmt.Sprintf("block %d (section %s, the most specific)", best.Number, best.Section)
}

func r28Where(k fileScope) string { return fmt.Sprintf("scope %s:%s", k.file, k.scope) }
