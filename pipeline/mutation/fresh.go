package mutation

import "bytes"

// freshLines are the post-change lines of file f that go with the
// function scopes section id owns and that exist only after the change
// (fresh): every line from the first to the last changed line of each,
// unchanged lines between them included, and for Python the indented lines
// after the last that still belong to its body. A revert drops them all.
//
// Git aligns a new function's text with whatever old text it resembles:
// on python/cpython #102953 the `else:` of the new
// TarFile._handle_fatal_error is an unchanged line of the diff (the old
// extract() had one there), so reverting only the function's added lines
// left that `else:` behind, and the revert did not parse. A fresh
// function is the section's whole, so its unchanged lines go with it.
func (o *Owners) freshLines(f *File, id string) map[int]bool {
	ranges := map[scopeKey][2]int{}
	for l, k := range o.post[f.Path] {
		if !o.fresh[k] || o.scope[k] != id {
			continue
		}
		r, ok := ranges[k]
		if !ok {
			r = [2]int{l, l}
		}
		r[0], r[1] = min(r[0], l), max(r[1], l)
		ranges[k] = r
	}
	if len(ranges) == 0 {
		return nil
	}
	after := splitLines(f.After)
	out := map[int]bool{}
	for _, r := range ranges {
		for l := r[0]; l <= r[1]; l++ {
			out[l] = true
		}
		if f.Language != "Python" || r[0] < 1 || r[0] > len(after) {
			continue
		}
		// The body goes on while lines are more indented than the first
		// (the def or its decorator); blank lines count only when such a
		// line follows them.
		head := indent(after[r[0]-1])
		for l := r[1] + 1; l <= len(after); l++ {
			line := after[l-1]
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			if indent(line) <= head {
				break
			}
			for m := r[1] + 1; m <= l; m++ {
				out[m] = true
			}
			r[1] = l
		}
	}
	return out
}

// indent is the width of a line's leading blanks, a tab counting 8.
func indent(line []byte) int {
	n := 0
	for _, c := range line {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 8 - n%8
		default:
			return n
		}
	}
	return n
}
