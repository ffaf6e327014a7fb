package mutation

import (
	"go/ast"
	"go/token"
	"strings"
)

// structure adjusts the lines a section's revert keeps and drops in its Go
// files so that what is left has a shape that parses: the package clause
// and the file's doc comment, a group's parentheses, a struct's or an
// interface's braces and a multi-line value's first and last lines stay
// while any line of code inside them does; and a declaration's doc
// comment, which rule 27 makes a file-level line, goes when all of the
// declaration goes. Lines whose hunk puts the base's lines back are left
// alone: the base's own structure returns with them. It adds to keep and
// returns the lines to drop, which depend on what is kept.
func (g *goReverter) structure(id string, keep, hold lineSet) (drop lineSet) {
	drop = lineSet{}
	for _, p := range sortedKeys(g.ref) {
		f, s := g.sol.File(p), g.ref[p]
		added := map[int]bool{}
		for _, l := range f.Added {
			added[l] = true
		}
		dropped := func(l int) bool {
			return (drop.has(p, l) || added[l] && g.o.Added(p, l) == id) && !keep.has(p, l)
		}
		text := splitLines(f.After)
		blank := func(l int) bool { return l >= 1 && l <= len(text) && strings.TrimSpace(string(text[l-1])) == "" }
		code := func(l int) bool {
			if l < 1 || l > len(text) {
				return false
			}
			t := strings.TrimSpace(string(text[l-1]))
			return t != "" && !strings.HasPrefix(t, "//")
		}
		// frame keeps the frame's dropped lines when a line of code
		// between first and last (not of the frame) stays.
		frame := func(first, last int, lines ...int) bool {
			in := map[int]bool{}
			for _, l := range lines {
				in[l] = true
			}
			stays := false
			for l := first; l <= last && !stays; l++ {
				stays = !in[l] && code(l) && !dropped(l)
			}
			changed := false
			for _, l := range lines {
				if stays && dropped(l) && !g.restores(f, id, l, hold) {
					changed = keep.add(p, l) || changed
				}
			}
			return changed
		}
		// fresh drops whole a declaration the base does not have whose
		// added lines all go: its lines git calls unchanged too (the last
		// "}" of a new function after a changed one is often the old
		// function's, for git).
		fresh := func(key string, doc *ast.CommentGroup, from, to token.Pos) bool {
			if g.baseKeys[p][key] {
				return false
			}
			n := 0
			for l := s.line(from); l <= s.line(to); l++ {
				if added[l] {
					if !dropped(l) {
						return false
					}
					n++
				}
			}
			changed := false
			for _, l := range s.span(doc, from, to) {
				if n > 0 && !keep.has(p, l) {
					changed = drop.add(p, l) || changed
				}
			}
			return changed
		}
		// gone drops a declaration's doc comment with it, and a
		// declaration that stays keeps its doc comment and the blank line
		// above.
		gone := func(doc *ast.CommentGroup, from, to token.Pos) bool {
			all := true
			for l := s.line(from); l <= s.line(to) && all; l++ {
				all = dropped(l)
			}
			changed := false
			if all {
				if doc != nil {
					for _, l := range s.span(nil, doc.Pos(), doc.End()) {
						if added[l] && !keep.has(p, l) {
							changed = drop.add(p, l) || changed
						}
					}
				}
				return changed
			}
			first := s.line(from)
			if doc != nil {
				first = s.line(doc.Pos())
			}
			var stay []int // the doc comment, and the blank line above
			for l := first; l < s.line(from); l++ {
				stay = append(stay, l)
			}
			if l := first - 1; blank(l) && dropped(l) {
				// Only when what stays above does not end with a blank
				// line already: gofmt would merge the two, and the line
				// counts as reverted.
				above := l - 1
				for above >= 1 && dropped(above) {
					above--
				}
				if above >= 1 && !blank(above) {
					stay = append(stay, l)
				}
			}
			for _, l := range stay {
				if dropped(l) && !g.restores(f, id, l, hold) {
					changed = keep.add(p, l) || changed
				}
			}
			return changed
		}
		for changed := true; changed; {
			changed = false
			pkg := s.span(nil, s.file.FileStart, s.file.Name.End())
			changed = frame(1, len(text), pkg...) || changed
			for _, d := range s.file.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					changed = fresh(funcKey(d), d.Doc, d.Pos(), d.End()) || changed
					changed = gone(d.Doc, d.Pos(), d.End()) || changed
				case *ast.GenDecl:
					if d.Lparen.IsValid() {
						open := s.span(nil, d.Pos(), d.Lparen)
						changed = frame(s.line(d.Pos()), s.line(d.Rparen), append(open, s.line(d.Rparen))...) || changed
					}
					changed = gone(d.Doc, d.Pos(), d.End()) || changed
					for _, sp := range d.Specs {
						switch sp := sp.(type) {
						case *ast.TypeSpec:
							if d.Lparen.IsValid() {
								changed = fresh("type "+sp.Name.Name, sp.Doc, sp.Pos(), sp.End()) || changed
								changed = gone(sp.Doc, sp.Pos(), sp.End()) || changed
							} else {
								changed = fresh("type "+sp.Name.Name, d.Doc, d.Pos(), d.End()) || changed
							}
							var lb, rb token.Pos
							switch t := sp.Type.(type) {
							case *ast.StructType:
								lb, rb = t.Fields.Opening, t.Fields.Closing
							case *ast.InterfaceType:
								lb, rb = t.Methods.Opening, t.Methods.Closing
							}
							if lb.IsValid() && rb.IsValid() {
								open := s.span(nil, sp.Pos(), lb)
								changed = frame(s.line(sp.Pos()), s.line(rb), append(open, s.line(rb))...) || changed
							}
						case *ast.ValueSpec:
							if d.Lparen.IsValid() {
								changed = fresh(d.Tok.String()+" "+sp.Names[0].Name, sp.Doc, sp.Pos(), sp.End()) || changed
								changed = gone(sp.Doc, sp.Pos(), sp.End()) || changed
							} else {
								changed = fresh(d.Tok.String()+" "+sp.Names[0].Name, d.Doc, d.Pos(), d.End()) || changed
							}
							if a, b := s.line(sp.Pos()), s.line(sp.End()); b > a {
								changed = frame(a, b, a, b) || changed
							}
						}
					}
				}
			}
		}
	}
	return drop
}

// restoresAny reports whether a hunk that added one of the lines puts back
// deleted lines section id owns.
func (g *goReverter) restoresAny(f *File, id string, lines []int, hold lineSet) bool {
	for _, l := range lines {
		if g.restores(f, id, l, hold) {
			return true
		}
	}
	return false
}

// restores reports whether the hunk that added line l of f puts back
// deleted lines section id owns (and hold does not hold).
func (g *goReverter) restores(f *File, id string, l int, hold lineSet) bool {
	for _, h := range f.Hunks {
		if h.NewLines > 0 && l >= h.NewStart && l < h.NewStart+h.NewLines {
			for d := h.OldStart; h.OldLines > 0 && d < h.OldStart+h.OldLines; d++ {
				if g.o.Deleted(f.Path, d) == id && !hold.has(f.Path, d) {
					return true
				}
			}
			return false
		}
	}
	return false
}
